#include "support/Json.h"

namespace fabc {

void appendJsonEscaped(TextBuffer &b, std::string_view s) {
  // Almost every string needs no escape: check 8 bytes at a time, then copy it whole.
  const char *p = s.data(), *end = p + s.size();
  bool special = false;
  for (; end - p >= 8 && !special; p += 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    special = jsonSpecial8(w) != 0;
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
    default: {
      static const char hex[] = "0123456789abcdef";
      char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      append(b, std::string_view(u, 6));
    }
    }
    run = p + 1;
  }
  append(b, std::string_view(run, size_t(end - run)));
}

bool JsonWriter::isJsonNumber(std::string_view s) {
  // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  size_t i = 0, n = s.size();
  auto digits = [&] {
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      ++i;
    return i > start;
  };
  if (i < n && s[i] == '-')
    ++i;
  if (i < n && s[i] == '0')
    ++i;
  else if (!digits())
    return false;
  if (i < n && s[i] == '.') {
    ++i;
    if (!digits())
      return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-'))
      ++i;
    if (!digits())
      return false;
  }
  return i == n;
}

} // namespace fabc
