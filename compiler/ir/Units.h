#pragma once
// Physical dimensions and units. A quantity is a double in SI base units (bit, m, s, W,
// USD) with a small exponent vector; arithmetic checks dimensions.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace fabc {

struct Dim {
  // exponents of: bit, metre, second, watt, USD
  std::array<int8_t, 5> e{};
  bool operator==(const Dim &o) const { return e == o.e; }
  bool operator!=(const Dim &o) const { return e != o.e; }
  bool none() const { return e == std::array<int8_t, 5>{}; }
  Dim operator*(const Dim &o) const {
    Dim r;
    for (int i = 0; i < 5; ++i)
      r.e[i] = int8_t(e[i] + o.e[i]);
    return r;
  }
  Dim operator/(const Dim &o) const {
    Dim r;
    for (int i = 0; i < 5; ++i)
      r.e[i] = int8_t(e[i] - o.e[i]);
    return r;
  }
  static Dim make(int bit, int m, int s, int w, int usd) {
    Dim d;
    d.e = {int8_t(bit), int8_t(m), int8_t(s), int8_t(w), int8_t(usd)};
    return d;
  }
};

namespace dims {
inline const Dim None{};
inline const Dim Power = Dim::make(0, 0, 0, 1, 0);
inline const Dim Length = Dim::make(0, 1, 0, 0, 0);
inline const Dim Time = Dim::make(0, 0, 1, 0, 0);
inline const Dim Bandwidth = Dim::make(1, 0, -1, 0, 0);
inline const Dim Data = Dim::make(1, 0, 0, 0, 0);
inline const Dim Energy = Dim::make(0, 0, 1, 1, 0);
inline const Dim Money = Dim::make(0, 0, 0, 0, 1);
} // namespace dims

// "power", "length", "bandwidth", ... or a formula such as "W/m" for other combinations.
std::string dimName(const Dim &d);

struct UnitInfo {
  const char *name;
  double scale; // to SI base
  Dim dim;
};
// nullptr if the unit is unknown.
const UnitInfo *findUnit(std::string_view name);
// The list of known units, for notes.
std::string unitList();

// Formats a quantity with a readable unit for its dimension (e.g. "1.2 MW", "400 Gb/s").
std::string formatQuantity(double si, const Dim &d);

} // namespace fabc
