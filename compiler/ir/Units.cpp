#include "ir/Units.h"

#include <fmt/format.h>

#include <cmath>

namespace fabc {

static const UnitInfo kUnits[] = {
    {"mW", 1e-3, dims::Power}, {"W", 1, dims::Power}, {"kW", 1e3, dims::Power},
    {"MW", 1e6, dims::Power}, {"GW", 1e9, dims::Power},
    {"mm", 1e-3, dims::Length}, {"cm", 1e-2, dims::Length}, {"m", 1, dims::Length},
    {"km", 1e3, dims::Length},
    {"ps", 1e-12, dims::Time}, {"ns", 1e-9, dims::Time}, {"us", 1e-6, dims::Time},
    {"ms", 1e-3, dims::Time}, {"s", 1, dims::Time}, {"min", 60, dims::Time},
    {"h", 3600, dims::Time},
    {"b/s", 1, dims::Bandwidth}, {"kb/s", 1e3, dims::Bandwidth}, {"Mb/s", 1e6, dims::Bandwidth},
    {"Gb/s", 1e9, dims::Bandwidth}, {"Tb/s", 1e12, dims::Bandwidth}, {"Pb/s", 1e15, dims::Bandwidth},
    {"Gbps", 1e9, dims::Bandwidth}, {"Tbps", 1e12, dims::Bandwidth},
    {"GB/s", 8e9, dims::Bandwidth}, {"TB/s", 8e12, dims::Bandwidth},
    {"b", 1, dims::Data}, {"kb", 1e3, dims::Data}, {"Mb", 1e6, dims::Data}, {"Gb", 1e9, dims::Data},
    {"Tb", 1e12, dims::Data}, {"B", 8, dims::Data}, {"kB", 8e3, dims::Data}, {"MB", 8e6, dims::Data},
    {"GB", 8e9, dims::Data}, {"TB", 8e12, dims::Data},
    {"Wh", 3600, dims::Energy}, {"kWh", 3.6e6, dims::Energy}, {"MWh", 3.6e9, dims::Energy},
    {"GWh", 3.6e12, dims::Energy},
    {"USD", 1, dims::Money}, {"kUSD", 1e3, dims::Money}, {"MUSD", 1e6, dims::Money},
};

const UnitInfo *findUnit(std::string_view name) {
  for (const UnitInfo &u : kUnits)
    if (name == u.name)
      return &u;
  return nullptr;
}

std::string unitList() {
  std::string r;
  for (const UnitInfo &u : kUnits) {
    if (!r.empty())
      r += ' ';
    r += u.name;
  }
  return r;
}

std::string dimName(const Dim &d) {
  if (d.none())
    return "a plain number";
  if (d == dims::Power) return "power";
  if (d == dims::Length) return "length";
  if (d == dims::Time) return "time";
  if (d == dims::Bandwidth) return "bandwidth";
  if (d == dims::Data) return "data size";
  if (d == dims::Energy) return "energy";
  if (d == dims::Money) return "money";
  static const char *base[] = {"b", "m", "s", "W", "USD"};
  std::string num, den;
  for (int i = 0; i < 5; ++i) {
    int x = d.e[i];
    if (!x)
      continue;
    std::string &t = x > 0 ? num : den;
    if (!t.empty())
      t += "*";
    t += base[i];
    if (std::abs(x) > 1)
      t += "^" + std::to_string(std::abs(x));
  }
  return (num.empty() ? "1" : num) + (den.empty() ? "" : "/" + den);
}

std::string formatQuantity(double v, const Dim &d) {
  struct Step {
    double scale;
    const char *unit;
  };
  auto pick = [&](std::initializer_list<Step> steps) {
    const Step *best = steps.begin();
    for (const Step &s : steps)
      if (std::fabs(v) >= s.scale)
        best = &s;
    return fmt::format("{:g} {}", v / best->scale, best->unit);
  };
  if (d == dims::Power) return pick({{1, "W"}, {1e3, "kW"}, {1e6, "MW"}, {1e9, "GW"}});
  if (d == dims::Length) return pick({{1e-3, "mm"}, {1, "m"}, {1e3, "km"}});
  if (d == dims::Time) return pick({{1e-12, "ps"}, {1e-9, "ns"}, {1e-6, "us"}, {1e-3, "ms"}, {1, "s"}});
  if (d == dims::Bandwidth) return pick({{1, "b/s"}, {1e9, "Gb/s"}, {1e12, "Tb/s"}, {1e15, "Pb/s"}});
  if (d == dims::Energy) return pick({{3600, "Wh"}, {3.6e6, "kWh"}, {3.6e9, "MWh"}, {3.6e12, "GWh"}});
  if (d == dims::Money) return fmt::format("{:.2f} USD", v);
  if (d == dims::Data) return pick({{1, "b"}, {8e9, "GB"}, {8e12, "TB"}});
  if (d.none()) return fmt::format("{:g}", v);
  return fmt::format("{:g} {}", v, dimName(d));
}

} // namespace fabc
