// The built-in functions' table and evalInt's integer arithmetic, shared by the evaluator
// (Expr.cpp) and the compiled integer expressions of link nests (LinkNest.cpp), so both
// decode a call alike and give the same values and the same failures.
#pragma once

#include "ast/AST.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace fabc::elab {

enum Builtin : uint8_t { Unresolved, Unknown, Min, Max, Ceil, Floor, Round, Abs, Log2, Sqrt, Len, Str, Sum };
inline constexpr std::pair<const char *, uint8_t> kBuiltins[] = {
    {"min", Min},   {"max", Max},   {"sum", Sum}, {"ceil", Ceil}, {"floor", Floor}, {"round", Round},
    {"abs", Abs},   {"log2", Log2}, {"sqrt", Sqrt}, {"len", Len},   {"str", Str}};

// A call's builtin (a builtin's name is never a user function's), decoded on first call.
inline uint8_t builtinOf(const ast::Expr *e) {
  if (e->builtin == Unresolved) {
    e->builtin = Unknown;
    for (const auto &[name, id] : kBuiltins)
      if (e->text == name)
        e->builtin = id;
  }
  return e->builtin;
}

// The binary operators evalInt computes (the others are left to eval).
inline bool isIntBinary(ast::Expr::Op op) {
  using E = ast::Expr;
  return op == E::Add || op == E::Sub || op == E::Mul || op == E::Div || op == E::Mod;
}

// An integer operation as evalInt computes it: false where the result is no integer
// (overflow, a zero or an inexact division: evalArith makes that a number).
inline bool intBinary(ast::Expr::Op op, int64_t l, int64_t r, int64_t &out) {
  using E = ast::Expr;
  switch (op) {
  case E::Add: return !__builtin_add_overflow(l, r, &out);
  case E::Sub: return !__builtin_sub_overflow(l, r, &out);
  case E::Mul: return !__builtin_mul_overflow(l, r, &out);
  case E::Mod:
    if (r == 0)
      return false;
    out = r == -1 ? 0 : l % r;
    return true;
  case E::Div:
    if (r == 0 || r == -1 || l % r != 0)
      return false;
    out = l / r;
    return true;
  default: return false;
  }
}

inline bool intNegate(int64_t v, int64_t &out) {
  if (v == std::numeric_limits<int64_t>::min())
    return false;
  out = -v;
  return true;
}

// floor, ceil or round (fn) of a double, as an integer: false past int64's range.
inline bool roundedDouble(uint8_t fn, double v, int64_t &out) {
  v = fn == Ceil ? std::ceil(v) : fn == Floor ? std::floor(v) : std::round(v);
  if (std::fabs(v) > 9.2e18)
    return false;
  out = int64_t(v);
  return true;
}

constexpr int64_t kExactInDouble = int64_t(1) << 53; // integers a double holds exactly below this

// floor, ceil or round of an integer: eval's steps (the integer made a double, rounded).
// Below 2^53 the double is the integer, which rounds to itself.
inline bool roundedInt(uint8_t fn, int64_t x, int64_t &out) {
  if (x > -kExactInDouble && x < kExactInDouble) {
    out = x;
    return true;
  }
  return roundedDouble(fn, double(x), out);
}

// floor, ceil or round of l / r: eval's steps (an inexact division is a double, then
// rounded); false for r = 0. Below 2^53 floor and ceil are integer arithmetic with the
// same result: the double quotient is within |l / r| / 2^53 < 1 / |r| of the true one,
// which is at least 1 / |r| from any integer it is not.
inline bool roundedQuotient(uint8_t fn, int64_t l, int64_t r, int64_t &out) {
  if (r == 0)
    return false;
  if (fn != Round && l > -kExactInDouble && l < kExactInDouble && r > -kExactInDouble && r < kExactInDouble) {
    const int64_t q = l / r;
    const bool inexact = l % r != 0, negative = (l < 0) != (r < 0);
    out = q - (inexact && negative && fn == Floor) + (inexact && !negative && fn == Ceil);
    return true;
  }
  return roundedDouble(fn, r != -1 && l % r == 0 ? double(l / r) : double(l) / double(r), out);
}

} // namespace fabc::elab
