#include "ir/Address.h"

#include <algorithm>

#include <cctype>

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

const char *specialUseBlock(uint32_t base, unsigned len) {
  static const struct {
    uint32_t base;
    unsigned len;
    const char *name;
  } blocks[] = {
      {0x00000000, 8, "0.0.0.0/8 (\"this network\", RFC 791)"},
      {0x7F000000, 8, "127.0.0.0/8 (loopback, RFC 1122)"},
      {0xA9FE0000, 16, "169.254.0.0/16 (link-local, RFC 3927)"},
      {0xE0000000, 4, "224.0.0.0/4 (multicast, RFC 5771)"},
      {0xF0000000, 4, "240.0.0.0/4 (reserved, RFC 1112, and the broadcast address)"},
  };
  uint64_t end = uint64_t(base) + (uint64_t(1) << (32 - std::min(len, 32u)));
  for (const auto &b : blocks) {
    uint64_t bend = uint64_t(b.base) + (uint64_t(1) << (32 - b.len));
    if (base < bend && b.base < end)
      return b.name;
  }
  return nullptr;
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

bool parseMac(std::string_view s, uint64_t &out) {
  if (s.size() != 17)
    return false;
  uint64_t v = 0;
  for (size_t i = 0; i < 17; ++i) {
    char c = s[i];
    if (i % 3 == 2) {
      if (c != ':')
        return false;
      continue;
    }
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0)
      return false;
    v = v << 4 | uint64_t(d);
  }
  out = v;
  return true;
}

bool parseMacPrefix(std::string_view s, uint64_t &base, unsigned &len) {
  size_t slash = s.find('/');
  if (slash == std::string_view::npos || !parseMac(s.substr(0, slash), base))
    return false;
  std::string_view l = s.substr(slash + 1);
  if (l.empty() || l.size() > 2 || !std::isdigit(static_cast<unsigned char>(l[0])) ||
      (l.size() == 2 && !std::isdigit(static_cast<unsigned char>(l[1]))))
    return false;
  len = unsigned(l[0] - '0');
  if (l.size() == 2)
    len = len * 10 + unsigned(l[1] - '0');
  if (len > 48)
    return false;
  uint64_t host = len == 48 ? 0 : (uint64_t(1) << (48 - len)) - 1;
  return (base & host) == 0;
}

std::string macString(uint64_t mac) {
  static const char hex[] = "0123456789abcdef";
  std::string s(17, ':');
  for (int i = 0; i < 6; ++i) {
    unsigned b = unsigned(mac >> (40 - 8 * i)) & 0xff;
    s[size_t(i * 3)] = hex[b >> 4];
    s[size_t(i * 3 + 1)] = hex[b & 15];
  }
  return s;
}

} // namespace fabc::ir
