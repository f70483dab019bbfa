// Loop nests of links, run with compiled indices (decision 0641). The million-GPU bench
// design runs 1.57 million link statements inside `for` nests; as statements, their index
// expressions were evaluated as trees (a third of elaboration) and their paths resolved by
// the reporting resolver, through the statement dispatch, at about 1,870 instructions a
// link. A nest of `for`s whose innermost body is links (properties: literals, or names the
// loops do not bind) is run here: its index expressions and inner bounds are compiled once
// to postfix code over the loop variables, and each iteration resolves its paths without
// reporting. An iteration that would report anything (a name or an index that fails, a
// template instance for a device, a link to itself) runs as the statement it is, with its
// loop variables bound, so every diagnostic is the statement's own; so does each link's
// first iteration that resolves, which leaves the properties it read. What a statement
// does besides (steps, frames for the backtrace, room reserved ahead, names marked used,
// scopes noted for stamping) is done here in the same order, so the IR and the diagnostics
// are the same with ElabOptions::linkNests off (tests/unit/LinkNestTest.cpp compares the two).
#include "elab/Builtins.h"
#include "elab/ElabState.h"

#include <algorithm>

namespace fabc::elab {

namespace {
constexpr size_t kMaxLevels = 8, kStack = 8;
} // namespace

struct Elab::Nest {
  struct Op {
    enum Kind : uint8_t { Const, Var, Neg, Binary, RoundDiv, RoundInt } kind;
    uint8_t fn = 0; // Binary: the ast::Expr::Op; RoundDiv, RoundInt: Floor, Ceil or Round
    int64_t k = 0;  // Const: the value; Var: the loop's level
  };
  // An integer expression: evalInt's steps, with the same results and the same failures.
  struct Code {
    std::vector<Op> ops;
    llvm::SmallVector<uint32_t, 2> outer; // env_ bindings read: marked used on the first success, as findValue does
    bool marked = false;
    int32_t dep = -1; // the innermost loop level it reads; -1: none
  };
  struct Level {
    const ast::Stmt *stmt;
    uint32_t var = None;
    int32_t from = -1, to = -1; // the bounds' codes (levels below the first)
  };
  struct Seg {
    const ast::Segment *seg;
    uint32_t sym;
    int32_t code = -1; // the index's code; -1: no index, or an inline literal
  };
  struct PathPlan {
    const ast::Path *path = nullptr;
    llvm::SmallVector<Seg, 4> segs;
    const Entry *first = nullptr; // the first segment's entry, found from scope_
    uint32_t firstScope = None;
    uint32_t model = None;        // the device model last resolved, and its port group
    int32_t group = -1;
    // The last resolution's segments: their index and node. The first `cached` hold, so
    // a path whose outer indices repeat (rack[t / 18].tray[t % 18].cx[r]) starts past them.
    llvm::SmallVector<int64_t, 4> key;
    llvm::SmallVector<uint32_t, 4> node;
    size_t cached = 0;
  };
  // A link of the innermost body. Its first iteration whose ends resolve runs as the
  // statement and leaves the properties it read; they read no loop variable, so later
  // iterations take them as they are, unless reading them reported (then every
  // iteration runs as the statement, which reports again).
  struct LinkPlan {
    const ast::Stmt *stmt = nullptr;
    PathPlan paths[2];
    uint32_t codeBegin = 0, codeEnd = 0; // its indices' codes
    enum : uint8_t { NotYet, Ready, AsStatement } props = NotYet;
    LinkProps lp;
  };
  llvm::SmallVector<Level, 4> levels;
  std::vector<Code> codes;
  size_t linkCodes = 0; // codes from here on are the links' indices
  llvm::SmallVector<LinkPlan, 2> links;
  int64_t vars[kMaxLevels] = {};
  // The links' codes are evaluated at the level they read (once per rack, not per GPU of
  // it): per code, its value and whether it has one; per level, the codes it evaluates.
  std::vector<int64_t> vals;
  std::vector<uint8_t> ok;
  llvm::SmallVector<llvm::SmallVector<uint32_t, 4>, 4> levelCodes;

  void evalLevel(size_t level) {
    for (uint32_t c : levelCodes[level])
      ok[c] = run(codes[c], vars, vals[c]);
  }

  static bool run(const Code &c, const int64_t *vars, int64_t &out);
};

// evalIntNode's steps (Builtins.h's arithmetic) on a stack.
bool Elab::Nest::run(const Code &c, const int64_t *vars, int64_t &out) {
  int64_t st[kStack];
  size_t sp = 0;
  for (const Op &o : c.ops) {
    switch (o.kind) {
    case Op::Const: st[sp++] = o.k; continue;
    case Op::Var: st[sp++] = vars[o.k]; continue;
    case Op::Neg:
      if (!intNegate(st[sp - 1], st[sp - 1]))
        return false;
      continue;
    case Op::RoundInt:
      if (!roundedInt(o.fn, st[sp - 1], st[sp - 1]))
        return false;
      continue;
    case Op::Binary:
      --sp;
      if (!intBinary(ast::Expr::Op(o.fn), st[sp - 1], st[sp], st[sp - 1]))
        return false;
      continue;
    case Op::RoundDiv:
      --sp;
      if (!roundedQuotient(o.fn, st[sp - 1], st[sp], st[sp - 1]))
        return false;
      continue;
    }
  }
  out = st[0];
  return true;
}

// A name's interned id without interning it: a name the pool has never seen would take an
// id here that the statement would give it later, in another order.
uint32_t Elab::peekSym(std::string_view text, uint32_t &cache) {
  if (cache != UINT32_MAX)
    return cache;
  uint32_t id = F.strings.lookup(text);
  if (id != None && !opts_.globalsOnly && !opts_.settingsOnly)
    cache = id;
  return id;
}

// A nest: `for`s each with one `for` as its body, the innermost with links only (no
// [*]), whose properties are literals or names the loops do not bind: the same values
// in every iteration, read without a step.
bool Elab::linkNestShape(const ast::Stmt *s) {
  auto [it, fresh] = nestShape_.try_emplace(s, false);
  if (!fresh)
    return it->second;
  llvm::SmallVector<std::string_view, 4> vars;
  const ast::Stmt *t = s;
  for (; t->body().size() == 1 && t->body()[0]->kind == ast::Stmt::For; t = t->body()[0])
    if (vars.size() + 1 == kMaxLevels)
      return false;
    else
      vars.push_back(t->name());
  vars.push_back(t->name());
  if (t->body().empty())
    return false;
  for (const ast::Stmt *l : t->body()) {
    if (l->kind != ast::Stmt::Link || l->paths.size() != 2)
      return false;
    for (const ast::Path &p : l->paths)
      for (const ast::Segment &seg : p.segs)
        if (seg.star)
          return false;
    for (const ast::Prop &p : l->props) {
      const ast::Expr *v = p.value;
      using E = ast::Expr;
      const bool literal = v && (v->kind == E::Number || v->kind == E::Quantity || v->kind == E::String ||
                                 v->kind == E::Bool);
      const bool name = v && v->kind == E::Name && v->kids.empty() &&
                        std::find(vars.begin(), vars.end(), v->text) == vars.end();
      if (!literal && !name)
        return false;
    }
  }
  return it->second = true;
}

// Compiles e onto c; `visible` loop levels are bound where it stands (an inner loop's
// bounds see the levels outside it only). Retry when a name was never interned.
Elab::NestState Elab::nestOps(Nest &n, size_t code, const ast::Expr *e, size_t visible, size_t &sp) {
  using E = ast::Expr;
  using Op = Nest::Op;
  Nest::Code &c = n.codes[code];
  auto push = [&](Op o) {
    c.ops.push_back(o);
    return ++sp <= kStack ? NestState::Ready : NestState::Never;
  };
  switch (e->kind) {
  case E::Number: return e->isInteger ? push({Op::Const, 0, e->integer}) : NestState::Never;
  case E::Name: {
    if (!e->kids.empty())
      return NestState::Never;
    uint32_t s = peekSym(e->text, e->sym);
    if (s == None)
      return NestState::Retry;
    for (size_t l = visible; l-- > 0;)
      if (n.levels[l].var == s) {
        c.dep = std::max(c.dep, int32_t(l));
        return push({Op::Var, 0, int64_t(l)});
      }
    for (size_t i = env_.size(); i > barrier_; --i) // findValue's order, without marking
      if (env_[i - 1].sym == s) {
        if (env_[i - 1].value.type != Value::Int)
          return NestState::Never;
        c.outer.push_back(uint32_t(i - 1));
        return push({Op::Const, 0, env_[i - 1].value.i});
      }
    auto g = globals_.find(s);
    if (g == globals_.end() || g->second.type != Value::Int)
      return NestState::Never;
    return push({Op::Const, 0, g->second.i});
  }
  case E::Unary: {
    if (e->op == E::Not)
      return NestState::Never;
    NestState st = nestOps(n, code, e->kids[0], visible, sp);
    if (st == NestState::Ready)
      c.ops.push_back({Op::Neg});
    return st;
  }
  case E::Binary: {
    if (!isIntBinary(e->op))
      return NestState::Never;
    for (const ast::Expr *k : e->kids)
      if (NestState st = nestOps(n, code, k, visible, sp); st != NestState::Ready)
        return st;
    c.ops.push_back({Op::Binary, uint8_t(e->op)});
    --sp;
    return NestState::Ready;
  }
  case E::Call: {
    const uint8_t fn = builtinOf(e);
    if ((fn != Floor && fn != Ceil && fn != Round) || e->kids.size() != 1)
      return NestState::Never;
    const ast::Expr *a = e->kids[0];
    const bool div = a->kind == E::Binary && a->op == E::Div;
    const ast::Expr *args[2] = {div ? a->kids[0] : a, div ? a->kids[1] : nullptr};
    for (const ast::Expr *k : args)
      if (k)
        if (NestState st = nestOps(n, code, k, visible, sp); st != NestState::Ready)
          return st;
    c.ops.push_back({div ? Op::RoundDiv : Op::RoundInt, fn});
    if (div)
      --sp;
    return NestState::Ready;
  }
  default: return NestState::Never;
  }
}

Elab::NestState Elab::nestCode(Nest &n, const ast::Expr *e, size_t visible, int32_t &code) {
  n.codes.emplace_back();
  code = int32_t(n.codes.size() - 1);
  size_t sp = 0;
  return nestOps(n, n.codes.size() - 1, e, visible, sp);
}

// The nest's levels, codes and path plans; the first level's variable is set.
Elab::NestState Elab::compileNest(Nest &n) {
  n.levels.resize(1);
  n.codes.clear();
  for (const ast::Stmt *t = n.levels[0].stmt->body()[0]; t->kind == ast::Stmt::For; t = t->body()[0]) {
    Nest::Level l{t};
    size_t visible = n.levels.size();
    if ((l.var = peekSym(t->name(), t->sym())) == None)
      return NestState::Retry;
    if (NestState st = nestCode(n, t->e1, visible, l.from); st != NestState::Ready)
      return st;
    if (NestState st = nestCode(n, t->e2(), visible, l.to); st != NestState::Ready)
      return st;
    n.levels.push_back(l);
  }
  n.linkCodes = n.codes.size();
  n.links.clear();
  for (const ast::Stmt *t : n.levels.back().stmt->body()) {
    Nest::LinkPlan &lk = n.links.emplace_back();
    lk.stmt = t;
    lk.codeBegin = uint32_t(n.codes.size());
    for (size_t side = 0; side < 2; ++side) {
      Nest::PathPlan &pp = lk.paths[side];
      pp.path = &t->paths[side];
      for (const ast::Segment &seg : pp.path->segs) {
        Nest::Seg sg{&seg, peekSym(seg.name(), seg.sym)};
        if (sg.sym == None)
          return NestState::Retry;
        if (seg.index())
          if (NestState st = nestCode(n, seg.index(), n.levels.size(), sg.code); st != NestState::Ready)
            return st;
        pp.segs.push_back(sg);
      }
      // entries_ does not change while the nest runs: its body declares nothing.
      pp.first = findEntry(scope_, pp.segs[0].sym, pp.firstScope);
      if (!pp.first)
        return NestState::Never; // every iteration reports it, as a statement
    }
    lk.codeEnd = uint32_t(n.codes.size());
  }
  n.vals.assign(n.codes.size(), 0);
  n.ok.assign(n.codes.size(), 0);
  n.levelCodes.assign(n.levels.size(), {});
  for (size_t c = n.linkCodes; c < n.codes.size(); ++c)
    if (n.codes[c].dep < 0)
      n.ok[c] = Nest::run(n.codes[c], n.vars, n.vals[c]);
    else
      n.levelCodes[size_t(n.codes[c].dep)].push_back(uint32_t(c));
  for (Nest::LinkPlan &lk : n.links)
    for (Nest::PathPlan &pp : lk.paths) {
      pp.key.assign(pp.segs.size(), 0);
      pp.node.assign(pp.segs.size(), None);
    }
  return NestState::Ready;
}

bool Elab::runLinkNest(const ast::Stmt *s, int64_t from, int64_t to) {
  if (from >= to || !linkNestShape(s))
    return false;
  Nest n;
  n.levels.push_back({s, sym(s->name(), s->sym())}); // interned where the statement interns it
  NestState state = NestState::Retry;
  iterate(s, from, to, [&](int64_t i) {
    if (state == NestState::Retry)
      state = compileNest(n);
    if (state != NestState::Ready) { // as execFor: the names it interns let a later compile succeed
      execIteration(s, n.levels[0].var, i);
      return;
    }
    n.vars[0] = i;
    n.evalLevel(0);
    if (n.levels.size() == 1)
      nestLink(n);
    else
      nestInner(n, 1);
  });
  return true;
}

// The `for` at `level`, as exec runs it: its step, then its bounds, then execFor's loop.
void Elab::nestInner(Nest &n, size_t level) {
  const Nest::Level &l = n.levels[level];
  step(l.stmt->range);
  int64_t from, to;
  if (!Nest::run(n.codes[size_t(l.from)], n.vars, from) || !Nest::run(n.codes[size_t(l.to)], n.vars, to)) {
    size_t mark = bindLevels(n, level); // a bound that fails: the statement reports it
    execFor(l.stmt);
    env_.resize(mark);
    return;
  }
  markUsed(n, size_t(l.from));
  markUsed(n, size_t(l.to));
  iterate(l.stmt, from, to, [&](int64_t i) {
    n.vars[level] = i;
    n.evalLevel(level);
    if (level + 1 == n.levels.size())
      nestLink(n);
    else
      nestInner(n, level + 1);
  });
}

size_t Elab::bindLevels(const Nest &n, size_t levels) {
  size_t mark = env_.size();
  for (size_t l = 0; l < levels; ++l)
    bind(n.levels[l].var, Value::integer(n.vars[l]));
  return mark;
}

void Elab::markUsed(Nest &n, size_t code) {
  Nest::Code &c = n.codes[code];
  if (c.marked)
    return;
  for (uint32_t i : c.outer)
    env_[i].used = true;
  c.marked = true;
}

// resolvePath's steps for a path that resolves: false where it would report. Nothing is
// declared while the nest runs, so a segment with its parent and index of the last time
// is the node it was then.
bool Elab::nestPath(Nest &n, size_t link, size_t side, Endpoint &ep) {
  Nest::PathPlan &pp = n.links[link].paths[side];
  auto index = [&](const Nest::Seg &s) { return s.code >= 0 ? n.vals[size_t(s.code)] : int64_t(s.seg->literal()); };
  const size_t last = pp.segs.size() - 1;
  for (size_t i = 0;; ++i) {
    const Nest::Seg &sg = pp.segs[i];
    const int64_t k = sg.seg->hasIndex() ? index(sg) : 0;
    uint32_t node;
    if (i < pp.cached && pp.key[i] == k) {
      node = pp.node[i];
    } else {
      pp.cached = i;
      const Entry *e = pp.first;
      uint32_t scope = pp.firstScope;
      if (i > 0) {
        scope = pp.node[i - 1];
        auto it = entries_.find(EntryKey{scope, sg.sym});
        if (it == entries_.end())
          return false;
        e = &it->second;
      }
      if (e->array != sg.seg->hasIndex())
        return false;
      node = e->array ? findElem(*e, scope, sg.sym, k) : e->node;
      if (node == None)
        return false;
      pp.key[i] = k;
      pp.node[i] = node;
      pp.cached = i + 1;
    }
    const uint32_t dev = nodeDevice_[node];
    if (i == last) {
      ep = {};
      ep.node = node;
      ep.device = dev;
      return true;
    }
    if (dev == None)
      continue;
    // Past a device, the last segment is a port group (the last group of the name).
    if (i + 1 != last)
      return false;
    const Nest::Seg &ps = pp.segs[last];
    if (F.devModel[dev] != pp.model) {
      pp.model = F.devModel[dev];
      pp.group = -1;
      const ir::Model &m = F.models[pp.model];
      for (size_t g = 0; g < m.ports.size(); ++g)
        if (m.ports[g].name == ps.sym)
          pp.group = int32_t(g);
    }
    if (pp.group < 0)
      return false;
    ep = {};
    ep.node = node;
    ep.device = dev;
    ep.group = pp.group;
    ep.groupRange = ps.seg->range;
    if (ps.seg->hasIndex()) {
      const int64_t idx = index(ps);
      if (idx < 0 || idx >= int64_t(F.layoutOf(dev).groups[size_t(pp.group)].count))
        return false;
      ep.port = idx;
      ep.portRange = ps.seg->indexRange();
    }
    return true;
  }
}

// One iteration's links: for each, exec's step, then execLink's work for a link whose
// ends resolve; anything else runs as execLink, with the loop variables bound.
void Elab::nestLink(Nest &n) {
  for (size_t k = 0; k < n.links.size(); ++k) {
    Nest::LinkPlan &lk = n.links[k];
    step(lk.stmt->range);
    Endpoint a, b;
    bool fast = lk.props != Nest::LinkPlan::AsStatement;
    for (uint32_t c = lk.codeBegin; fast && c < lk.codeEnd; ++c)
      fast = n.ok[c];
    fast = fast && nestPath(n, k, 0, a) && nestPath(n, k, 1, b) && a.device != None &&
           b.device != None && a.device != b.device;
    if (!fast || lk.props == Nest::LinkPlan::NotYet) {
      size_t mark = bindLevels(n, n.levels.size());
      if (fast) { // the first that resolves: it marks the names it reads used and notes its scopes
        lk.lp.clean = false;
        execLink(lk.stmt, &lk.lp);
        lk.props = lk.lp.clean ? Nest::LinkPlan::Ready : Nest::LinkPlan::AsStatement;
      } else {
        execLink(lk.stmt);
      }
      env_.resize(mark);
      continue;
    }
    const uint32_t choice = internChoice(lk.lp.parts);
    for (int64_t i = 0; i < lk.lp.count; ++i)
      if (!addLink(a, b, lk.stmt, lk.lp.length, lk.lp.flags, lk.lp.media))
        break; // the rest of the count would fail the same way
      else
        setLinkChoice(choice);
  }
}

} // namespace fabc::elab
