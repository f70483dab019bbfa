#include "ir/Address.h"

#include <fmt/format.h>

namespace fabc::ir {

static bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool parseIPv4(std::string_view s, uint32_t &out) {
  uint32_t addr = 0;
  size_t i = 0;
  for (int part = 0; part < 4; ++part) {
    if (part && (i >= s.size() || s[i++] != '.'))
      return false;
    size_t start = i;
    uint32_t v = 0;
    while (i < s.size() && isDigit(s[i]) && i - start < 3)
      v = v * 10 + uint32_t(s[i++] - '0');
    if (i == start || v > 255)
      return false;
    addr = addr << 8 | v;
  }
  if (i != s.size())
    return false;
  out = addr;
  return true;
}

bool parseCidr(std::string_view s, uint32_t &base, unsigned &len) {
  size_t slash = s.find('/');
  if (slash == std::string_view::npos || slash + 1 >= s.size() || s.size() - slash > 3)
    return false;
  unsigned l = 0;
  for (size_t i = slash + 1; i < s.size(); ++i) {
    if (!isDigit(s[i]))
      return false;
    l = l * 10 + unsigned(s[i] - '0');
  }
  uint32_t a;
  if (l > 32 || !parseIPv4(s.substr(0, slash), a))
    return false;
  uint32_t mask = l ? ~uint32_t(0) << (32 - l) : 0;
  if (a & ~mask)
    return false;
  base = a;
  len = l;
  return true;
}

std::string ipv4String(uint32_t a) {
  return fmt::format("{}.{}.{}.{}", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
}

bool parseGuid(std::string_view s, uint64_t &out, unsigned *digits) {
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
    return false;
  uint64_t v = 0;
  for (size_t i = 2; i < s.size(); ++i) {
    char c = s[i];
    unsigned d = isDigit(c) ? unsigned(c - '0') : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                                             : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10) : 16;
    if (d == 16)
      return false;
    v = v << 4 | d;
  }
  out = v;
  if (digits)
    *digits = unsigned(s.size() - 2);
  return true;
}

} // namespace fabc::ir
