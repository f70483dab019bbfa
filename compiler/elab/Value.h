#pragma once
// Values of the Fabric language during elaboration.
#include "ir/Units.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace fabc::elab {

struct Value {
  enum Type : uint8_t { Void, Int, Real, Qty, Str, Bool, List, ModelRef };
  Type type = Void; // Void: the result of an error, already reported
  // Real: written as a percent (`2%` is 0.02), kept through names and the arithmetic that
  // keeps a share a share (2% + 1%, 2% * 3, -2%). A property counted in percent units
  // (`*_percent`, ecn_probability) reads it as 2, a plain number as written.
  bool percent = false;
  Dim dim;          // Qty only
  union {
    int64_t i;
    double d;
    uint32_t s; // Str: interned; ModelRef: model index
    bool b;
  };
  // List: the items; the list's weight (itself and every value in it, nested lists
  // counted item by item) is kept in `i`, so a size budget is checked in O(items) where a
  // list is built, however deeply lists share structure ([l, l] doubles the weight).
  std::shared_ptr<std::vector<Value>> list;

  Value() : i(0) {}
  static Value integer(int64_t v) { Value r; r.type = Int; r.i = v; return r; }
  static Value real(double v) { Value r; r.type = Real; r.d = v; return r; }
  static Value qty(double v, Dim d) {
    if (d.none())
      return real(v);
    Value r; r.type = Qty; r.d = v; r.dim = d; return r;
  }
  static Value str(uint32_t id) { Value r; r.type = Str; r.s = id; return r; }
  static Value boolean(bool v) { Value r; r.type = Bool; r.b = v; return r; }
  static Value model(uint32_t m) { Value r; r.type = ModelRef; r.s = m; return r; }
  // A list of `items`; its weight saturates at INT64_MAX.
  static Value makeList(std::shared_ptr<std::vector<Value>> items) {
    Value r;
    r.type = List;
    r.i = 1;
    for (const Value &x : *items)
      r.i = int64_t(addWeight(uint64_t(r.i), x.weight()));
    r.list = std::move(items);
    return r;
  }
  uint64_t weight() const { return type == List ? uint64_t(i) : 1; }
  static uint64_t addWeight(uint64_t a, uint64_t b) {
    return a > uint64_t(INT64_MAX) - b ? uint64_t(INT64_MAX) : a + b;
  }

  bool ok() const { return type != Void; }
  bool numeric() const { return type == Int || type == Real || type == Qty; }
  double asDouble() const { return type == Int ? double(i) : d; }
  Dim dimension() const { return type == Qty ? dim : Dim{}; }
};

const char *typeName(const Value &v);

} // namespace fabc::elab
