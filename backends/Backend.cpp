#include "backends/Backend.h"
#include "diag/Diag.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace fabc {

// A number as a spreadsheet reads it ("-3", "+1.5e3"): such a cell stays a number.
static bool looksNumeric(std::string_view s) {
  size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0, digits = 0;
  bool dot = false, exp = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9')
      ++digits;
    else if (c == '.' && !dot && !exp)
      dot = true;
    else if ((c == 'e' || c == 'E') && digits && !exp) {
      exp = true;
      if (i + 1 < s.size() && (s[i + 1] == '-' || s[i + 1] == '+'))
        ++i;
      if (i + 1 == s.size())
        return false;
    } else
      return false;
  }
  return digits > 0;
}

std::string csvField(std::string_view s) {
  // A text cell that a spreadsheet would run as a formula (=HYPERLINK(..), @SUM(..),
  // +.., -.., or after a tab or CR) starts with a quote instead, as OWASP recommends.
  std::string text;
  if (!s.empty() && s[0] && std::strchr("=+-@\t\r", s[0]) && !looksNumeric(s)) {
    text = "'" + std::string(s);
    s = text;
  }
  if (s.find_first_of(",\"\n\r") == std::string_view::npos)
    return std::string(s);
  std::string r = "\"";
  for (char c : s)
    r += c == '"' ? std::string("\"\"") : std::string(1, c);
  return r + "\"";
}

} // namespace fabc
