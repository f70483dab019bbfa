// Statements and the driver loop: top-level bindings, -D overrides, the fabric body,
// and the lints that need the whole run (unused parameters, unused -D).
#include "diag/DiagCodes.h"
#include "elab/ElabState.h"

#include <algorithm>

namespace fabc::elab {

void Elab::execBlock(const ast::Block &b) {
  size_t mark = env_.size();
  for (const ast::Stmt *s : b)
    exec(s);
  env_.resize(mark);
}

void Elab::exec(const ast::Stmt *s) {
  using K = ast::Stmt;
  step(s->range);
  switch (s->kind) {
  case K::Let: {
    Value v = eval(s->e1);
    record(s, v);
    bind(sym(s->name(), s->sym()), v);
    break;
  }
  case K::Param: ++impure_; execParam(s); break; // impure_: a template body that does this is not stamped
  case K::Option: ++impure_; execOption(s); break;
  case K::Inst: execInst(s); break;
  case K::For: execFor(s); break;
  case K::If: {
    bool c;
    if (!toBool(eval(s->e1), s->e1, c))
      return;
    execBlock(c ? s->body() : s->elseBody());
    break;
  }
  case K::Link: execLink(s); break;
  case K::Group: execGroup(s); break;
  case K::Place: ++impure_; execPlace(s); break;
  case K::Building: ++impure_; execBuilding(s); break;
  case K::Span: ++impure_; execSpan(s); break;
  case K::Policy: ++impure_; execPolicy(s); break;
  case K::Assert: {
    bool c;
    if (!toBool(eval(s->e1), s->e1, c))
      return;
    if (!c) {
      // What the assertion guards is not elaborated on values it rejected: elaboration
      // ends here, so no unrelated error follows (docs/decisions/0049-diagnostics-that-point-at-the-cause.md, "A failed
      // assert ends elaboration").
      Diagnostic *d = error(DiagCode::E0032, s->e1->range, "assertion failed{}",
                            s->message().empty() ? "" : ": " + std::string(s->message()));
      DiagEngine::note(d, {}, "elaboration stops at a failed assertion: the statements after it are not checked");
      throw Abort{};
    }
    break;
  }
  }
}

void Elab::execFor(const ast::Stmt *s) {
  int64_t from, to;
  if (!intValue(s->e1, from, "loop start") || !intValue(s->e2(), to, "loop end"))
    return;
  if (opts_.linkNests && runLinkNest(s, from, to))
    return;
  uint32_t var = sym(s->name(), s->sym());
  iterate(s, from, to, [&](int64_t i) { execIteration(s, var, i); });
}

void Elab::execIteration(const ast::Stmt *s, uint32_t var, int64_t i) {
  size_t mark = env_.size();
  bind(var, Value::integer(i));
  for (const ast::Stmt *b : s->body())
    exec(b);
  env_.resize(mark);
}

void Elab::reserveAhead(const Sizes &before, uint64_t more) {
  const Sizes now = sizes();
  const uint64_t nodes = now.nodes - before.nodes, devs = now.devs - before.devs, ports = now.ports - before.ports,
                 links = now.links - before.links, cursors = now.cursors - before.cursors;
  if (more == 0 || (nodes | devs | ports | links) == 0)
    return;
  // Only as many as the limits let through: past them elaboration stops anyway.
  const ElabLimits &lim = opts_.limits;
  if (devs)
    more = std::min(more, (lim.maxDevices - std::min<uint64_t>(now.devs, lim.maxDevices)) / devs);
  if (links)
    more = std::min(more, (lim.maxLinks - std::min<uint64_t>(now.links, lim.maxLinks)) / links);
  // A guess too high costs address space, which a ulimit counts: at most eight times
  // what an array holds, or a million items (a loop whose first iteration alone makes
  // anything then reserves ~150 MB it never touches, not gigabytes).
  for (auto [held, step] : {std::pair(now.nodes, nodes), {now.devs, devs}, {now.ports, ports}, {now.links, links}})
    if (step)
      more = std::min(more, std::max<uint64_t>(8 * held, uint64_t(1) << 20) / step);
  try {
    F.reserveElaborated(now.devs + devs * more, now.ports + ports * more, now.links + links * more);
    const size_t n = now.nodes + nodes * more;
    ir::reserveAtLeast(F.nodes, n);
    ir::reserveAtLeast(nodeDevice_, n);
    ir::reserveAtLeast(nodeDevBegin_, n);
    ir::reserveAtLeast(nodeDevEnd_, n);
    ir::reserveAtLeast(devCursorBase_, now.devs + devs * more);
    ir::reserveAtLeast(cursors_, now.cursors + cursors * more);
  } catch (const std::bad_alloc &) { // a hint: without the room the arrays still grow as they fill
  }
}

void Elab::execParam(const ast::Stmt *s) {
  uint32_t name = sym(s->name(), s->sym());
  auto d = defines_.find(name);
  Value v;
  if (d != defines_.end()) {
    v = d->second.first;
    definesUsed_[name] = true;
    Value deflt = eval(s->e1); // the default still has to be valid, and fixes the dimension
    if (deflt.ok() && v.ok() && (deflt.numeric() != v.numeric() || (!deflt.numeric() && deflt.type != v.type))) {
      Diagnostic *dg = error(DiagCode::E0026, d->second.second, "-D {} is {}, but the parameter is {}", s->name(),
                             elab::typeName(v), elab::typeName(deflt));
      DiagEngine::note(dg, s->nameRange(), "parameter declared here");
      v = {};
    } else if (deflt.ok() && v.ok() && deflt.numeric() && v.numeric() && deflt.dimension() != v.dimension()) {
      Diagnostic *dg = error(DiagCode::E0025, d->second.second, "-D {} is {}, but the parameter is {}", s->name(),
                             dimName(v.dimension()), dimName(deflt.dimension()));
      DiagEngine::note(dg, s->nameRange(), "parameter declared here");
      v = {};
    }
  } else {
    v = eval(s->e1);
  }
  record(s, v);
  if (env_.size() == barrier_ && !inFabric_)
    globals_[name] = v;
  else
    bind(name, v);
}

void Elab::duplicateStmtProps(const ast::Block &b) {
  using K = ast::Stmt;
  for (const ast::Stmt *s : b) {
    if (s->kind == K::For || s->kind == K::If) { // the kinds with bodies
      duplicateStmtProps(s->body());
      duplicateStmtProps(s->elseBody());
      continue;
    }
    if (s->props.empty() && s->kind != K::Building) // most of an explicit file's statements
      continue;
    switch (s->kind) {
    case K::Inst: duplicateProps(s->props, [&] { return "instance '" + std::string(s->name()) + "'"; }); break;
    case K::Link: duplicateProps(s->props, [] { return std::string("a link"); }); break;
    case K::Place: duplicateProps(s->props, [] { return std::string("a place"); }); break;
    case K::Span: duplicateProps(s->props, [] { return std::string("a span"); }); break;
    case K::Policy: duplicateProps(s->props, [&] { return "policy '" + std::string(s->name()) + "'"; }); break;
    case K::Building:
      duplicateProps(s->props, [&] { return "building '" + std::string(s->name()) + "'"; });
      for (const ast::Hall &h : s->halls())
        duplicateProps(h.props, [&] { return "hall '" + std::string(h.name) + "'"; });
      break;
    default: break;
    }
  }
}

void Elab::duplicateProps(const ast::List<ast::Prop> &props, llvm::function_ref<std::string()> block, bool figures) {
  // A block of a few properties is compared pair by pair (no allocation); a long one
  // through a map. Either way a duplicate's note points at the key's first setting.
  constexpr size_t kPairwise = 16;
  std::map<std::string_view, const ast::Prop *> first;
  for (size_t i = 0; i < props.size(); ++i) {
    const ast::Prop &p = props[i];
    if (p.low && !figures)
      boundsWithoutFigure(p, block().c_str());
    const ast::Prop *earlier = nullptr;
    if (props.size() <= kPairwise) {
      for (size_t j = 0; j < i && !earlier; ++j)
        if (props[j].key == p.key)
          earlier = &props[j];
    } else {
      auto ins = first.emplace(p.key, &p);
      if (!ins.second)
        earlier = ins.first->second;
    }
    if (!earlier)
      continue;
    Diagnostic *d = error(DiagCode::E0038, p.keyRange, "property '{}' is set twice in {}", p.key, block());
    DiagEngine::note(d, earlier->keyRange, "first set here");
  }
}

bool Elab::run() {
  stackBase_ = uintptr_t(__builtin_frame_address(0));
  try {
    declareModels();
    declareFunctions();
    for (const ast::File *f : prog_.files) {
      for (const ast::Template *t : f->templates)
        duplicateStmtProps(t->body);
      for (const ast::Fabric *x : f->fabrics)
        duplicateStmtProps(x->body);
    }
    // -D overrides, evaluated first: literals and catalog names only, no design bindings.
    if (prog_.defines)
      for (const ast::Stmt *s : prog_.defines->topLevel) {
        uint32_t n = sym(s->name(), s->sym());
        defines_[n] = {eval(s->e1), s->range};
      }
    for (const ast::File *f : prog_.files)
      for (const ast::Stmt *s : f->topLevel) {
        if (s->kind != ast::Stmt::Let && s->kind != ast::Stmt::Param && s->kind != ast::Stmt::Option) {
          error(DiagCode::E0002, s->range, "only let, param and option statements may stand outside a fabric");
          continue;
        }
        if (s->kind == ast::Stmt::Let) {
          Value v = eval(s->e1);
          record(s, v);
          globals_[sym(s->name(), s->sym())] = std::move(v);
        } else
          exec(s);
      }
    if (opts_.afterGlobals)
      opts_.afterGlobals();
    if (opts_.globalsOnly)
      return !diags_.hasErrors();
    // Models after the global bindings: their properties may use params, lets and functions.
    if (!opts_.settingsOnly)
      convertModels();
    const ast::Fabric *fab = nullptr;
    const ast::File *mainFile = prog_.main;
    std::vector<const ast::Fabric *> all;
    for (const ast::File *f : prog_.files)
      for (const ast::Fabric *x : f->fabrics)
        all.push_back(x);
    if (!opts_.top.empty()) {
      for (const ast::Fabric *x : all)
        if (x->name == opts_.top)
          fab = x;
      if (!fab) {
        diags_.report(DiagCode::E0013, {}, "no fabric named '{}'", opts_.top);
        return false;
      }
    } else if (mainFile && mainFile->fabrics.size() == 1) {
      fab = mainFile->fabrics[0];
    } else if (mainFile && mainFile->fabrics.size() > 1) {
      Diagnostic *d = diags_.report(DiagCode::E0013, mainFile->fabrics[1]->range, "more than one fabric in the file");
      DiagEngine::note(d, {}, "pick one with --top NAME");
      return false;
    } else if (opts_.allowLibrary) {
      return !diags_.hasErrors();
    } else {
      diags_.report(DiagCode::E0013, {{mainFile ? mainFile->fileId : 0, 0}, 1}, "no 'fabric NAME { ... }' block to build");
      return false;
    }
    F.name = fab->name;
    F.loc = fab->range;
    scope_ = newNode(None, 0, -1);
    inFabric_ = true;
    if (opts_.settingsOnly) {
      for (const ast::Stmt *s : fab->body)
        if (isSetting(*s))
          exec(s);
      return !diags_.hasErrors();
    }
    // An explicit fabric (what `fabc import` writes) is millions of link statements: the
    // link arrays are allocated once for them instead of grown by doubling, which left a
    // third of them unused and copied them at each growth. Links made in loops and
    // templates still grow them.
    size_t links = 0;
    for (const ast::Stmt *s : fab->body)
      links += s->kind == ast::Stmt::Link;
    F.reserveElaborated(F.numDevices(), F.numPorts(), F.numLinks() + links);
    for (const ast::Stmt *s : fab->body)
      exec(s);
    // A parameter that no instance of its template reads is a lint (W0104).
    std::vector<std::pair<const ast::Template *, size_t>> unused;
    for (auto &kv : paramUsed_)
      for (size_t i = 0; i < kv.second.size(); ++i)
        if (!kv.second[i])
          unused.push_back({kv.first, i});
    std::sort(unused.begin(), unused.end(), [](auto &a, auto &b) {
      return a.first->params[a.second].range.begin.offset < b.first->params[b.second].range.begin.offset ||
             (a.first->params[a.second].range.begin.offset == b.first->params[b.second].range.begin.offset &&
              a.first->params[a.second].range.begin.file < b.first->params[b.second].range.begin.file);
    });
    for (auto &u : unused) {
      const ast::Param &p = u.first->params[u.second];
      Diagnostic *d = diags_.report(DiagCode::W0104, p.range, "parameter '{}' of template '{}' is never used", p.name,
                                    u.first->name);
      DiagEngine::note(d, {}, "remove it, or use it in the template's body");
    }
    for (auto &kv : defines_)
      if (!definesUsed_.count(kv.first)) {
        Diagnostic *d = diags_.report(DiagCode::E0020, kv.second.second, "-D {}: no 'param' of that name",
                                      F.strings.str(kv.first));
        DiagEngine::note(d, {}, "-D overrides a 'param' statement of the design");
      }
  } catch (Abort &) {
    return false;
  }
  return !diags_.hasErrors();
}

} // namespace fabc::elab

namespace fabc {

bool isSetting(const ast::Stmt &s) {
  return s.kind == ast::Stmt::Option || (s.kind == ast::Stmt::Policy && s.name() != "parts");
}

SettingReader firstReader(const ast::Stmt &s) {
  const std::string_view k = s.name();
  if (s.kind == ast::Stmt::Policy) {
#define CORE_POLICY(K, READER, PROPS) if (k == #K) return SettingReader::READER;
#define POLICY(K, READER, PROPS, HELP) if (k == #K) return SettingReader::READER;
#include "ir/Settings.def"
  } else if (s.kind == ast::Stmt::Option) {
#define CORE_OPTION(N, READER) if (k == #N) return SettingReader::READER;
#define OPTION(N, READER, HELP) if (k == #N) return SettingReader::READER;
#include "ir/Settings.def"
  }
  return SettingReader::Passes;
}

std::vector<SettingRead> settingReaders() {
  std::vector<SettingRead> r;
#define CORE_OPTION(N, READER) r.push_back({false, #N, SettingReader::READER});
#define CORE_POLICY(K, READER, PROPS) r.push_back({true, #K, SettingReader::READER});
#define OPTION(N, READER, HELP) r.push_back({false, #N, SettingReader::READER});
#define POLICY(K, READER, PROPS, HELP) r.push_back({true, #K, SettingReader::READER});
#include "ir/Settings.def"
  return r;
}

bool elaborate(const LoadedProgram &prog, const ElabOptions &opts, DiagEngine &diags, ir::Fabric &out) {
  elab::Elab e(prog, opts, diags, out);
  return e.run();
}

} // namespace fabc
