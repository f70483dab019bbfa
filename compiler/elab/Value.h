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
  Dim dim;          // Qty only
  union {
    int64_t i;
    double d;
    uint32_t s; // Str: interned; ModelRef: model index
    bool b;
  };
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

  bool ok() const { return type != Void; }
  bool numeric() const { return type == Int || type == Real || type == Qty; }
  double asDouble() const { return type == Int ? double(i) : d; }
  Dim dimension() const { return type == Qty ? dim : Dim{}; }
};

const char *typeName(const Value &v);

} // namespace fabc::elab
