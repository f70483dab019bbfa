// User functions (`fn f(x) = EXPR;`) and list comprehensions (`[e for x in a..b if c]`).
// Both are pure: a function's body sees its parameters, the global bindings, the models
// and the other functions, never the caller's bindings, and no expression can declare,
// link or place anything. Calls nest up to --max-depth (FAB-E0070); every call and every
// comprehension iteration is a step (--max-steps, FAB-E0030); a list a comprehension
// builds holds at most --max-value-size values, nested lists counted (FAB-E0071).
#include "diag/DiagCodes.h"
#include "elab/ElabState.h"

namespace fabc::elab {
namespace {
// Native stack that nested calls may take, whatever --max-depth says: fabc elaborates on a
// 256 MiB thread (tools/fabc/main.cpp), and one call level takes a few hundred bytes per
// operator of the body on that stack.
constexpr uintptr_t kMaxCallStack = uintptr_t(64) << 20;
} // namespace

bool Elab::isBuiltin(std::string_view name) {
  static const char *const names[] = {"min", "max", "sum", "ceil", "floor", "round",
                                      "abs", "log2", "sqrt", "len", "str"};
  for (const char *n : names)
    if (name == n)
      return true;
  return false;
}

void Elab::declareFunctions() {
  for (const ast::File *f : prog_.files)
    for (const ast::Function *fn : f->functions) {
      if (isBuiltin(fn->name)) {
        Diagnostic *d = error(DiagCode::E0021, fn->range, "'{}' is a built-in function", fn->name);
        DiagEngine::note(d, {}, "give the function another name");
        continue;
      }
      uint32_t name = F.strings.intern(fn->name);
      auto ins = functions_.try_emplace(name, fn);
      if (!ins.second) {
        Diagnostic *d = error(DiagCode::E0021, fn->range, "redefinition of function '{}'", fn->name);
        DiagEngine::note(d, ins.first->second->range, "previous definition is here");
        continue;
      }
      for (size_t i = 0; i < fn->params.size(); ++i)
        for (size_t j = 0; j < i; ++j)
          if (fn->params[i].name == fn->params[j].name) {
            Diagnostic *d = error(DiagCode::E0021, fn->params[i].range, "parameter '{}' is declared twice",
                                  fn->params[i].name);
            DiagEngine::note(d, fn->params[j].range, "first declared here");
          }
    }
}

Value Elab::callFunction(const ast::Function *fn, const ast::Expr *call, llvm::SmallVectorImpl<Value> &args) {
  if (args.size() != fn->params.size()) {
    Diagnostic *d = error(DiagCode::E0029, call->range, "'{}' takes {} argument{}, not {}", fn->name,
                          fn->params.size(), fn->params.size() == 1 ? "" : "s", args.size());
    DiagEngine::note(d, fn->range, "'" + std::string(fn->name) + "' is declared here");
    return {};
  }
  uintptr_t here = uintptr_t(__builtin_frame_address(0));
  bool stackFull = stackBase_ > here && stackBase_ - here > kMaxCallStack;
  if (calls_.size() >= opts_.limits.maxDepth || stackFull) {
    Diagnostic *d = stackFull ? error(DiagCode::E0070, call->range,
                                      "function calls nest {} levels deep, past the 64 MiB of stack they may use",
                                      calls_.size())
                              : error(DiagCode::E0070, call->range, "function calls nest deeper than {} levels",
                                      opts_.limits.maxDepth);
    DiagEngine::note(d, fn->range, "a recursive function needs a condition that stops it (n <= 1 ? 1 : n * f(n - 1)); "
                                   "--max-depth raises the limit");
    return {};
  }
  step(call->range);
  size_t mark = env_.size(), savedBarrier = barrier_;
  barrier_ = mark; // the caller's bindings are not visible in the body
  for (size_t i = 0; i < args.size(); ++i)
    bind(sym(fn->params[i].name, fn->params[i].sym), std::move(args[i]));
  calls_.push_back({fn, call->range});
  Value v = eval(fn->body);
  calls_.pop_back();
  env_.resize(mark);
  barrier_ = savedBarrier;
  return v;
}

Value Elab::evalComp(const ast::Expr *e) {
  const ast::Expr *elem = e->kids[0], *src = e->kids[1], *end = e->kids[2], *cond = e->kids[3];
  int64_t from = 0, to = 0;
  std::shared_ptr<std::vector<Value>> items; // `in LIST`: kept alive while iterating
  if (end) {
    if (!intValue(src, from, "range start") || !intValue(end, to, "range end"))
      return {};
  } else {
    Value v = eval(src);
    if (!v.ok())
      return {};
    if (v.type != Value::List) {
      Diagnostic *d = error(DiagCode::E0026, src->range, "a comprehension runs over a list or a range, not {}",
                            elab::typeName(v));
      DiagEngine::note(d, {}, "a range is written 'a..b', the integers from a up to b - 1");
      return {};
    }
    items = v.list;
    to = int64_t(items->size());
  }
  auto built = std::make_shared<std::vector<Value>>();
  uint64_t weight = 0; // the items so far, nested counted
  uint32_t var = exprSym(e);
  for (int64_t i = from; i < to; ++i) {
    step(e->range);
    size_t mark = env_.size();
    bind(var, items ? (*items)[size_t(i)] : Value::integer(i));
    bool keep = true;
    if (cond && !toBool(eval(cond), cond, keep)) {
      env_.resize(mark);
      return {};
    }
    if (keep) {
      Value v = eval(elem);
      if (!v.ok()) {
        env_.resize(mark);
        return {};
      }
      weight = Value::addWeight(weight, v.weight());
      if (weight > opts_.limits.maxValueSize) {
        Diagnostic *d = error(DiagCode::E0071, e->range, "a list comprehension builds more than {} items",
                              opts_.limits.maxValueSize);
        DiagEngine::note(d, {}, "filter with 'if', or reduce the range: lists are for design rules, not for "
                                "one value per device (--max-value-size raises the limit)");
        env_.resize(mark);
        return {};
      }
      built->push_back(std::move(v));
    }
    env_.resize(mark);
  }
  return Value::makeList(std::move(built));
}

} // namespace fabc::elab
