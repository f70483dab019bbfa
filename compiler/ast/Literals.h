#pragma once
// The values of literal tokens, shared by both parsers (the hand-written one and the
// ANTLR tree's builder) so that they cannot decode a literal differently. compiler/ast/ only.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace fabc::lit {

// The text between a STRING token's quotes, escapes decoded (\n, \t, \x is x).
inline std::string unquote(std::string_view s) {
  std::string r;
  r.reserve(s.size());
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == '\\' && i + 2 < s.size()) {
      char c = s[++i];
      r += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      r += s[i];
    }
  }
  return r;
}

// A NUMBER's value; *isInt: written without '.' or exponent.
inline double number(std::string_view text, bool *isInt) {
  std::string s(text);
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  *isInt = s.find_first_of(".eE") == std::string::npos;
  return std::strtod(s.c_str(), nullptr);
}

// An integer NUMBER's exact value; false if it does not fit in 63 bits.
inline bool integer(std::string_view text, int64_t *out) {
  std::string digits(text);
  digits.erase(std::remove(digits.begin(), digits.end(), '_'), digits.end());
  errno = 0;
  unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
  *out = int64_t(v);
  return errno == 0 && v <= uint64_t(INT64_MAX);
}

} // namespace fabc::lit
