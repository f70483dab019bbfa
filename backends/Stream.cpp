#include "backends/Stream.h"

#include <yaml-cpp/yaml.h>

namespace fabc {

namespace {
// Non-zero when one of the 8 bytes is a control character, '"' or '\\' (SWAR).
inline uint64_t special8(uint64_t w) {
  constexpr uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
  auto zeroByte = [&](uint64_t x) { return (x - ones) & ~x & high; };
  uint64_t ctl = (w - 0x2020202020202020ULL) & ~w & high; // bytes < 0x20 (bytes >= 0x80 excluded by ~w)
  return ctl | zeroByte(w ^ (0x22 * ones)) | zeroByte(w ^ (0x5C * ones));
}
} // namespace

void appendUint(TextBuffer &b, uint64_t v) {
  char buf[20];
  char *e = buf + sizeof buf, *p = e;
  do {
    *--p = char('0' + v % 10);
    v /= 10;
  } while (v);
  append(b, std::string_view(p, size_t(e - p)));
}

void appendFixed0(TextBuffer &b, double v) {
  if (v >= 0 && v < 1e15 && v == double(uint64_t(v)))
    appendUint(b, uint64_t(v));
  else
    fmt::format_to(fmt::appender(b), "{:.0f}", v);
}

void appendShortest(TextBuffer &b, double v) {
  // {:g} keeps 6 significant digits: whole numbers below 1e6 print as integers.
  if (v >= 0 && v < 1e6 && v == double(uint64_t(v)))
    appendUint(b, uint64_t(v));
  else
    fmt::format_to(fmt::appender(b), "{:g}", v);
}

void appendJsonEscaped(TextBuffer &b, std::string_view s) {
  // Almost every string needs no escape: check 8 bytes at a time, then copy it whole.
  const char *p = s.data(), *end = p + s.size();
  bool special = false;
  for (; end - p >= 8 && !special; p += 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    special = special8(w) != 0;
  }
  for (; p < end && !special; ++p) {
    unsigned char c = (unsigned char)*p;
    special = c < 0x20 || c == '"' || c == '\\';
  }
  if (!special) {
    append(b, s);
    return;
  }
  const char *run = s.data();
  for (p = s.data(); p < end; ++p) {
    unsigned char c = (unsigned char)*p;
    if (c >= 0x20 && c != '"' && c != '\\')
      continue;
    append(b, std::string_view(run, size_t(p - run)));
    switch (c) {
    case '"': append(b, "\\\""); break;
    case '\\': append(b, "\\\\"); break;
    case '\n': append(b, "\\n"); break;
    case '\r': append(b, "\\r"); break;
    case '\t': append(b, "\\t"); break;
    default: fmt::format_to(fmt::appender(b), "\\u{:04x}", c);
    }
    run = p + 1;
  }
  append(b, std::string_view(run, size_t(end - run)));
}

void appendIpv4(TextBuffer &b, uint32_t a) {
  char buf[16];
  char *o = buf;
  for (int i = 3; i >= 0; --i) {
    unsigned v = (a >> (8 * i)) & 255;
    if (v >= 100)
      *o++ = char('0' + v / 100);
    if (v >= 10)
      *o++ = char('0' + v / 10 % 10);
    *o++ = char('0' + v % 10);
    if (i)
      *o++ = '.';
  }
  append(b, std::string_view(buf, size_t(o - buf)));
}

namespace {
// 1: may start a simple plain scalar (letters, digits, '_'); 2: may follow.
struct PlainTable {
  unsigned char t[256] = {};
  PlainTable() {
    for (int c = 0; c < 256; ++c) {
      bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (alnum || c == '_')
        t[c] = 3;
      else if (std::string_view("._-/[]()+= ").find(char(c)) != std::string_view::npos && c != 0)
        t[c] = 2;
    }
  }
};
const PlainTable kPlain;
} // namespace

bool YamlWriter::simplePlain(std::string_view s) {
  if (s.empty() || !(kPlain.t[(unsigned char)s[0]] & 1) || s.back() == ' ')
    return false;
  for (char c : s)
    if (!kPlain.t[(unsigned char)c])
      return false;
  return !(s.size() == 4 && (s == "null" || s == "Null" || s == "NULL"));
}

void YamlWriter::appendScalar(std::string_view s) {
  if (simplePlain(s)) {
    append(b_, s);
    return;
  }
  // Anything else (quotes, ':', '#', control characters, non-ASCII, null-like words):
  // yaml-cpp decides and escapes, so the file stays what its emitter writes.
  YAML::Emitter e;
  e << std::string(s);
  b_.append(e.c_str(), e.c_str() + e.size());
}

} // namespace fabc
