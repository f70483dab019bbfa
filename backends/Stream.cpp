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
  b.append(p, e);
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
  const char *p = s.data(), *end = p + s.size(), *run = p;
  while (end - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    if (special8(w))
      break;
    p += 8;
  }
  for (; p < end; ++p) {
    unsigned char c = (unsigned char)*p;
    if (c >= 0x20 && c != '"' && c != '\\')
      continue;
    b.append(run, p);
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
  b.append(run, end);
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
  b.append(buf, o);
}

bool YamlWriter::simplePlain(std::string_view s) {
  if (s.empty() || s == "null" || s == "Null" || s == "NULL")
    return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  if (!alnum(s[0]) && s[0] != '_')
    return false;
  if (s.back() == ' ')
    return false;
  for (char c : s) {
    if (alnum(c))
      continue;
    switch (c) {
    case '_': case '.': case '-': case '/': case '[': case ']': case '(': case ')': case '+': case '=': case ' ':
      continue;
    default:
      return false;
    }
  }
  return true;
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
