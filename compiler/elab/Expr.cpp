// Expression evaluation: names, operators with physical dimensions, built-in functions.
#include "diag/DiagCodes.h"
#include "elab/Builtins.h"
#include "elab/ElabState.h"

#include <cstdlib>
#include <limits>

namespace fabc::elab {

const char *typeName(const Value &v) {
  switch (v.type) {
  case Value::Void: return "nothing";
  case Value::Int: return "an integer";
  case Value::Real: return "a number";
  case Value::Qty: return "a quantity";
  case Value::Str: return "a string";
  case Value::Bool: return "a boolean";
  case Value::List: return "a list";
  case Value::ModelRef: return "a model";
  }
  return "?";
}

bool Elab::toInt(const Value &v, const ast::Expr *e, int64_t &out, const char *what) {
  if (v.type == Value::Int) {
    out = v.i;
    return true;
  }
  if (v.type == Value::Real && std::floor(v.d) == v.d && std::fabs(v.d) < 9.2e18) {
    out = int64_t(v.d);
    return true;
  }
  if (v.ok())
    error(DiagCode::E0026, e->range, "{} must be an integer, not {}", what,
          v.type == Value::Real ? fmt::format("{:g}", v.d) : std::string(elab::typeName(v)));
  return false;
}

bool Elab::toBool(const Value &v, const ast::Expr *e, bool &out) {
  if (v.type == Value::Bool) {
    out = v.b;
    return true;
  }
  if (v.ok())
    error(DiagCode::E0026, e->range, "condition must be a boolean, not {}", elab::typeName(v));
  return false;
}

const Value *Elab::findValue(uint32_t s) {
  for (size_t i = env_.size(); i > barrier_; --i)
    if (env_[i - 1].sym == s) {
      env_[i - 1].used = true;
      return &env_[i - 1].value;
    }
  auto g = globals_.find(s);
  return g != globals_.end() ? &g->second : nullptr;
}

Value Elab::lookup(const ast::Expr *e) {
  uint32_t s = exprSym(e);
  if (const Value *v = findValue(s))
    return *v;
  auto m = modelIndex_.find(s);
  if (m != modelIndex_.end())
    return Value::model(m->second);
  if (e->text == "inf")
    return Value::real(std::numeric_limits<double>::infinity());
  Diagnostic *d = error(DiagCode::E0020, e->range, "unknown name '{}'", e->text);
  std::vector<std::string_view> names;
  for (size_t i = env_.size(); i > barrier_; --i)
    names.push_back(F.strings.str(env_[i - 1].sym));
  for (const auto &g : globals_)
    names.push_back(F.strings.str(g.first));
  for (const auto &m : modelIndex_)
    names.push_back(F.strings.str(m.first));
  diags_.suggest(d, {e->range.begin, uint32_t(e->text.size())}, e->text, names);
  return {};
}

Value Elab::eval(const ast::Expr *e) {
  using E = ast::Expr;
  switch (e->kind) {
  case E::Number:
    if (e->isInteger)
      return Value::integer(e->integer);
    if (!checkFinite(e->number, e))
      return {};
    return Value::real(e->number);
  case E::Quantity: {
    if (e->text == "%") { // a percent is a plain number: 90% is 0.9
      double v = e->number / 100;
      if (!checkFinite(v, e))
        return {};
      Value r = Value::real(v);
      r.percent = true;
      return r;
    }
    const UnitInfo *u = findUnit(e->text);
    if (!u) {
      Diagnostic *d = error(DiagCode::E0024, e->range, "unknown unit '{}'", e->text);
      // The unit is the end of the literal's text (400Gbs): the fix-it replaces it alone.
      if (e->range.length >= e->text.size()) {
        std::string all = unitList();
        diags_.suggest(d, {{e->range.begin.file, uint32_t(e->range.begin.offset + e->range.length - e->text.size())},
                           uint32_t(e->text.size())},
                       e->text, all);
      }
      DiagEngine::note(d, {}, "known units: " + unitList());
      return {};
    }
    double v = e->number * u->scale;
    if (!checkFinite(v, e))
      return {};
    return Value::qty(v, u->dim);
  }
  case E::String: return Value::str(sym(e->text, e->sym));
  case E::Bool: return Value::boolean(e->number != 0);
  case E::Name: {
    Value v = lookup(e);
    for (const ast::Expr *ix : e->kids) {
      if (!v.ok())
        return v;
      if (v.type != Value::List) {
        error(DiagCode::E0026, e->range, "'{}' is {}, not a list", e->text, elab::typeName(v));
        return {};
      }
      int64_t i;
      if (!intValue(ix, i, "list index"))
        return {};
      if (i < 0 || size_t(i) >= v.list->size()) {
        error(DiagCode::E0036, ix->range, "index {} is outside the list of {} items", i, v.list->size());
        return {};
      }
      Value item = (*v.list)[size_t(i)];
      v = item;
    }
    return v;
  }
  case E::Call: return evalCall(e);
  case E::List: {
    auto items = std::make_shared<std::vector<Value>>();
    for (const ast::Expr *k : e->kids) {
      Value v = eval(k);
      if (!v.ok())
        return {};
      items->push_back(std::move(v));
    }
    Value r = Value::makeList(std::move(items));
    if (!fitsValueSize(r.weight() - 1, "items", "a list", e->range))
      return {};
    return r;
  }
  case E::Unary: {
    Value v = eval(e->kids[0]);
    if (!v.ok())
      return v;
    if (e->op == E::Not) {
      bool b;
      return toBool(v, e->kids[0], b) ? Value::boolean(!b) : Value();
    }
    if (v.type == Value::Int) {
      if (v.i == std::numeric_limits<int64_t>::min()) {
        error(DiagCode::E0028, e->range, "integer overflow in negation");
        return {};
      }
      return Value::integer(-v.i);
    }
    if (v.numeric()) {
      v.d = -v.d;
      return v;
    }
    error(DiagCode::E0026, e->range, "cannot negate {}", elab::typeName(v));
    return {};
  }
  case E::Binary: return evalBinary(e);
  case E::Comp: return evalComp(e);
  case E::Cond: {
    bool c;
    if (!toBool(eval(e->kids[0]), e->kids[0], c))
      return {};
    return eval(e->kids[c ? 1 : 2]);
  }
  }
  return {};
}

Value Elab::evalBinary(const ast::Expr *e) {
  Value v = evalArith(e);
  if (v.type == Value::Real && (e->op == ast::Expr::Add || e->op == ast::Expr::Sub || e->op == ast::Expr::Mul ||
                                e->op == ast::Expr::Div))
    v.percent = percentResult_;
  return v;
}

Value Elab::evalArith(const ast::Expr *e) {
  using E = ast::Expr;
  percentResult_ = false;
  const std::string_view op = e->text; // for messages (a view: no copy per evaluation)
  if (e->op == E::And || e->op == E::Or) {
    bool a;
    if (!toBool(eval(e->kids[0]), e->kids[0], a))
      return {};
    if (e->op == E::And ? !a : a)
      return Value::boolean(a);
    bool b;
    if (!toBool(eval(e->kids[1]), e->kids[1], b))
      return {};
    return Value::boolean(b);
  }
  Value l = eval(e->kids[0]), r = eval(e->kids[1]);
  if (!l.ok() || !r.ok())
    return {};
  // A share stays a share: 2% + 1%, 2% * 3, 10% / 2 (never 2% * 2%, 2 / 1%).
  percentResult_ = (e->op == E::Add || e->op == E::Sub)   ? l.percent && r.percent
                   : e->op == E::Mul                      ? l.percent != r.percent
                   : e->op == E::Div                      ? l.percent && !r.percent
                                                          : false;
  if (e->op == E::Eq || e->op == E::Ne) {
    bool eq;
    if (l.numeric() && r.numeric()) {
      if (l.dimension() != r.dimension()) {
        error(DiagCode::E0025, e->range, "cannot compare {} with {}", dimName(l.dimension()), dimName(r.dimension()));
        return {};
      }
      eq = (l.type == Value::Int && r.type == Value::Int) ? l.i == r.i : l.asDouble() == r.asDouble();
    } else if (l.type == r.type && (l.type == Value::Str || l.type == Value::ModelRef)) {
      eq = l.s == r.s;
    } else if (l.type == Value::Bool && r.type == Value::Bool) {
      eq = l.b == r.b;
    } else {
      error(DiagCode::E0026, e->range, "cannot compare {} with {}", elab::typeName(l), elab::typeName(r));
      return {};
    }
    return Value::boolean(e->op == E::Eq ? eq : !eq);
  }
  if (e->op == E::Add && l.type == Value::Str && r.type == Value::Str) {
    std::string_view a = F.strings.str(l.s), b = F.strings.str(r.s);
    if (!fitsValueSize(uint64_t(a.size()) + b.size(), "bytes", "a string", e->range))
      return {};
    uint32_t id = builtString(std::string(a) + std::string(b), e);
    return id == None ? Value() : Value::str(id);
  }
  if (!l.numeric() || !r.numeric()) {
    error(DiagCode::E0026, e->range, "operator '{}' needs numbers, not {} and {}", op, elab::typeName(l),
          elab::typeName(r));
    return {};
  }
  Dim ld = l.dimension(), rd = r.dimension();
  if (e->op == E::Lt || e->op == E::Le || e->op == E::Gt || e->op == E::Ge) {
    if (ld != rd) {
      error(DiagCode::E0025, e->range, "cannot compare {} with {}", dimName(ld), dimName(rd));
      return {};
    }
    double a = l.asDouble(), b = r.asDouble();
    if (l.type == Value::Int && r.type == Value::Int) {
      int64_t x = l.i, y = r.i;
      return Value::boolean(e->op == E::Lt ? x < y : e->op == E::Le ? x <= y : e->op == E::Gt ? x > y : x >= y);
    }
    return Value::boolean(e->op == E::Lt ? a < b : e->op == E::Le ? a <= b : e->op == E::Gt ? a > b : a >= b);
  }
  bool ints = l.type == Value::Int && r.type == Value::Int;
  if (e->op == E::Add || e->op == E::Sub) {
    if (ld != rd) {
      Diagnostic *d = error(DiagCode::E0025, e->range, "cannot {} {} and {}", e->op == E::Add ? "add" : "subtract",
                            dimName(ld), dimName(rd));
      DiagEngine::note(d, {}, "both sides of '" + std::string(op) + "' need the same dimension");
      return {};
    }
    if (ints) {
      int64_t out;
      if (e->op == E::Add ? __builtin_add_overflow(l.i, r.i, &out) : __builtin_sub_overflow(l.i, r.i, &out)) {
        error(DiagCode::E0028, e->range, "integer overflow in '{}'", op);
        return {};
      }
      return Value::integer(out);
    }
    double v = e->op == E::Add ? l.asDouble() + r.asDouble() : l.asDouble() - r.asDouble();
    return checkFinite(v, e) ? Value::qty(v, ld) : Value();
  }
  if (e->op == E::Mul) {
    if (ints) {
      int64_t out;
      if (__builtin_mul_overflow(l.i, r.i, &out)) {
        error(DiagCode::E0028, e->range, "integer overflow in '*'");
        return {};
      }
      return Value::integer(out);
    }
    double v = l.asDouble() * r.asDouble();
    return checkFinite(v, e) ? Value::qty(v, ld * rd) : Value();
  }
  if (e->op == E::Div || e->op == E::Mod) {
    if (r.asDouble() == 0) {
      error(DiagCode::E0027, e->range, "{} by zero", e->op == E::Div ? "division" : "remainder");
      return {};
    }
    if (e->op == E::Mod) {
      if (!ints) {
        error(DiagCode::E0026, e->range, "'%' needs integers");
        return {};
      }
      if (r.i == -1)
        return Value::integer(0);
      return Value::integer(l.i % r.i);
    }
    if (ints && r.i != -1 && l.i % r.i == 0)
      return Value::integer(l.i / r.i);
    double v = l.asDouble() / r.asDouble();
    return checkFinite(v, e) ? Value::qty(v, ld / rd) : Value();
  }
  error(DiagCode::E0026, e->range, "unknown operator '{}'", op);
  return {};
}

std::string Elab::show(const Value &v) {
  std::string r;
  render(v, r, SIZE_MAX);
  return r;
}

bool Elab::render(const Value &v, std::string &out, size_t cap) {
  switch (v.type) {
  case Value::Int: out += std::to_string(v.i); break;
  case Value::Real: case Value::Qty: out += formatQuantity(v.d, v.dimension()); break;
  case Value::Str: {
    std::string_view t = F.strings.str(v.s);
    size_t room = cap - std::min(cap, out.size()); // one byte past cap says "too long"
    out.append(t.substr(0, room < t.size() ? room + 1 : t.size()));
    break;
  }
  case Value::Bool: out += v.b ? "true" : "false"; break;
  case Value::ModelRef: out += F.strings.str(F.models[v.s].name); break;
  case Value::List: {
    out += '[';
    for (size_t i = 0; i < v.list->size() && out.size() <= cap; ++i) {
      if (i)
        out += ", ";
      if (!render((*v.list)[i], out, cap))
        return false;
    }
    out += ']';
    break;
  }
  case Value::Void: break;
  }
  return out.size() <= cap;
}

bool Elab::fitsValueSize(uint64_t size, const char *unit, const char *what, SourceRange r) {
  if (size <= opts_.limits.maxValueSize)
    return true;
  Diagnostic *d = error(DiagCode::E0071, r, "{} of more than {} {}", what, opts_.limits.maxValueSize, unit);
  DiagEngine::note(d, {}, "a value holds at most --max-value-size items or bytes: lists and strings are for "
                          "design rules and names, not one value per device (a function that doubles a value "
                          "is the usual cause)");
  return false;
}

uint32_t Elab::builtString(std::string_view s, const ast::Expr *e) {
  step(e->range, 1 + s.size() / 64);
  size_t before = F.strings.size();
  uint32_t id = F.strings.intern(s);
  if (F.strings.size() == before)
    return id;
  builtStringBytes_ += s.size();
  uint64_t budget = opts_.limits.maxValueSize > UINT64_MAX / 256 ? UINT64_MAX : opts_.limits.maxValueSize * 256;
  if (builtStringBytes_ > budget) {
    Diagnostic *d = error(DiagCode::E0071, e->range, "expressions built more than {} bytes of strings in all", budget);
    DiagEngine::note(d, {}, "at most 256 x --max-value-size bytes of distinct strings are built by '+' and str()");
    return None;
  }
  return id;
}

bool Elab::evalIntNode(const ast::Expr *e, int64_t &out) {
  using E = ast::Expr;
  switch (e->kind) {
  case E::Unary: {
    int64_t v;
    return e->op != E::Not && evalInt(e->kids[0], v) && intNegate(v, out);
  }
  case E::Binary: {
    if (!isIntBinary(e->op))
      return false;
    int64_t l, r;
    return evalInt(e->kids[0], l) && evalInt(e->kids[1], r) && intBinary(e->op, l, r, out);
  }
  case E::Call: {
    const uint8_t fn = builtinOf(e);
    if ((fn != Floor && fn != Ceil && fn != Round) || e->kids.size() != 1)
      return false;
    // The same steps as eval: an inexact division is a double, then rounded.
    const ast::Expr *a = e->kids[0];
    int64_t l, r;
    if (a->kind == E::Binary && a->op == E::Div)
      return evalInt(a->kids[0], l) && evalInt(a->kids[1], r) && roundedQuotient(fn, l, r, out);
    return evalInt(a, l) && roundedInt(fn, l, out);
  }
  default: return false;
  }
}

bool Elab::intValue(const ast::Expr *e, int64_t &out, const char *what) {
  return evalInt(e, out) || toInt(eval(e), e, out, what);
}

Value Elab::evalCall(const ast::Expr *e) {
  std::string_view f = e->text; // for messages
  const uint8_t fn = builtinOf(e);
  llvm::SmallVector<Value, 4> a;
  for (const ast::Expr *k : e->kids) {
    a.push_back(eval(k));
    if (!a.back().ok())
      return {};
  }
  auto arity = [&](size_t lo, size_t hi) {
    if (a.size() >= lo && a.size() <= hi)
      return true;
    error(DiagCode::E0029, e->range, "'{}' takes {} argument{}, not {}", f, lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi),
          hi == 1 ? "" : "s", a.size());
    return false;
  };
  auto num = [&](size_t i) {
    if (a[i].numeric())
      return true;
    error(DiagCode::E0026, e->kids[i]->range, "'{}' needs a number, not {}", f, elab::typeName(a[i]));
    return false;
  };
  if (fn == Unknown) {
    auto u = functions_.find(exprSym(e));
    if (u != functions_.end())
      return callFunction(u->second, e, a);
  }
  if (fn == Sum) {
    if (a.size() == 1 && a[0].type == Value::List) {
      std::shared_ptr<std::vector<Value>> items = a[0].list;
      step(e->range, items->size()); // a step per item: a recursion over a long list ends at --max-steps
      a.assign(items->begin(), items->end());
    }
    if (a.empty())
      return Value::integer(0); // the sum of nothing
    Value total = a[0];
    bool percent = true; // a sum of shares is a share
    for (const Value &x : a)
      percent &= x.percent;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!a[i].numeric() || a[i].dimension() != total.dimension()) {
        Diagnostic *d = error(DiagCode::E0025, e->range, "'sum' needs numbers of one dimension, not {} and {}",
                              a[i].numeric() ? dimName(a[i].dimension()) : elab::typeName(a[i]),
                              dimName(total.dimension()));
        DiagEngine::note(d, {}, "every item of the sum needs the same unit dimension");
        return {};
      }
      if (i == 0)
        continue;
      if (total.type == Value::Int && a[i].type == Value::Int) {
        if (__builtin_add_overflow(total.i, a[i].i, &total.i)) {
          error(DiagCode::E0028, e->range, "integer overflow in 'sum'");
          return {};
        }
      } else {
        double v = total.asDouble() + a[i].asDouble();
        if (!checkFinite(v, e))
          return {};
        total = Value::qty(v, total.dimension());
      }
    }
    total.percent = percent && total.type == Value::Real;
    return total;
  }
  if (fn == Min || fn == Max) {
    if (a.empty()) {
      error(DiagCode::E0029, e->range, "'{}' needs at least one argument", f);
      return {};
    }
    if (a.size() == 1 && a[0].type == Value::List) {
      std::shared_ptr<std::vector<Value>> items = a[0].list;
      step(e->range, items->size());
      a.assign(items->begin(), items->end());
      if (a.empty()) {
        error(DiagCode::E0029, e->range, "'{}' of an empty list", f);
        return {};
      }
    }
    Value best = a[0];
    for (size_t i = 0; i < a.size(); ++i) {
      if (!a[i].numeric() || a[i].dimension() != best.dimension()) {
        error(DiagCode::E0025, e->range, "'{}' needs numbers of one dimension", f);
        return {};
      }
      if (fn == Min ? a[i].asDouble() < best.asDouble() : a[i].asDouble() > best.asDouble())
        best = a[i];
    }
    return best;
  }
  if (fn == Ceil || fn == Floor || fn == Round) {
    if (!arity(1, 1) || !num(0))
      return {};
    if (a[0].type == Value::Qty) {
      error(DiagCode::E0025, e->range, "'{}' of {}: divide by a unit first, for example {}(x / 1 m)", f,
            dimName(a[0].dim), f);
      return {};
    }
    double v = a[0].asDouble();
    v = fn == Ceil ? std::ceil(v) : fn == Floor ? std::floor(v) : std::round(v);
    if (std::fabs(v) > 9.2e18) {
      error(DiagCode::E0028, e->range, "'{}' result does not fit in an integer", f);
      return {};
    }
    return Value::integer(int64_t(v));
  }
  if (fn == Abs) {
    if (!arity(1, 1) || !num(0))
      return {};
    Value v = a[0];
    if (v.type == Value::Int && v.i == std::numeric_limits<int64_t>::min()) {
      error(DiagCode::E0028, e->range, "integer overflow in 'abs'");
      return {};
    }
    if (v.type == Value::Int)
      v.i = v.i < 0 ? -v.i : v.i;
    else
      v.d = std::fabs(v.d);
    return v;
  }
  if (fn == Log2 || fn == Sqrt) {
    if (!arity(1, 1) || !num(0))
      return {};
    if (a[0].type == Value::Qty) {
      error(DiagCode::E0025, e->range, "'{}' needs a plain number", f);
      return {};
    }
    double v = fn == Log2 ? std::log2(a[0].asDouble()) : std::sqrt(a[0].asDouble());
    return checkFinite(v, e) ? Value::real(v) : Value();
  }
  if (fn == Len) {
    if (!arity(1, 1))
      return {};
    if (a[0].type != Value::List) {
      error(DiagCode::E0026, e->range, "'len' needs a list");
      return {};
    }
    return Value::integer(int64_t(a[0].list->size()));
  }
  if (fn == Str) {
    if (!arity(1, 1))
      return {};
    std::string text;
    if (!render(a[0], text, opts_.limits.maxValueSize)) {
      fitsValueSize(opts_.limits.maxValueSize + 1, "bytes", "'str' renders a string", e->range);
      return {};
    }
    uint32_t id = builtString(text, e);
    return id == None ? Value() : Value::str(id);
  }
  Diagnostic *d = error(DiagCode::E0020, e->range, "unknown function '{}'", f);
  std::vector<std::string_view> fnNames;
  for (const auto &[name, id] : kBuiltins)
    fnNames.push_back(name);
  for (const auto &u : functions_)
    fnNames.push_back(F.strings.str(u.first));
  diags_.suggest(d, {e->range.begin, uint32_t(f.size())}, f, fnNames);
  DiagEngine::note(d, {}, "functions: min max sum ceil floor round abs log2 sqrt len str, and the 'fn' declarations "
                          "of the loaded files");
  return {};
}

} // namespace fabc::elab
