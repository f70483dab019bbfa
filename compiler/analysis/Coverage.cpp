// Coverage of a figure summed over parts (analysis/Coverage.h).
#include "analysis/Coverage.h"

#include <fmt/format.h>

namespace fabc {

std::string formatCount(uint64_t n) { // 1671 -> "1,671"
  std::string d = std::to_string(n), r;
  for (size_t i = 0; i < d.size(); ++i)
    r += (i && (d.size() - i) % 3 == 0 ? "," : "") + std::string(1, d[i]);
  return r;
}

std::string Coverage::headline(const char *why) const {
  std::string s = "covers: ";
  if (covers.empty())
    s += "no part";
  for (size_t i = 0; i < covers.size(); ++i)
    s += (i ? ", " : "") + covers[i].first;
  if (!notCounted.empty()) {
    s += "; not counted: ";
    for (size_t i = 0; i < notCounted.size(); ++i)
      s += fmt::format("{}{} {} ({})", i ? ", " : "", formatCount(notCounted[i].parts), notCounted[i].category, why);
  }
  return s;
}

} // namespace fabc
