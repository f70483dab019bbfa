// The built-in functions' table, shared by the evaluator (Expr.cpp) and the compiled
// integer expressions of link nests (LinkNest.cpp), so both decode a call alike.
#pragma once

#include "ast/AST.h"

#include <cstdint>
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

} // namespace fabc::elab
