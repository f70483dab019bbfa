#include "backends/Stream.h"

#include <yaml-cpp/yaml.h>

namespace fabc {

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
