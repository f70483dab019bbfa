// The instance tree: declaring names, creating devices (with their instance
// properties and port layout), instance statements and template instantiation.
#include <limits>
#include "diag/DiagCodes.h"
#include "elab/ElabState.h"
#include "elab/PropertyKeys.h"
#include "ir/Address.h"

namespace fabc::elab {

uint32_t Elab::declare(uint32_t parent, uint32_t name, int64_t index, bool isArray, bool device, SourceRange r) {
  auto ins = entries_.try_emplace(EntryKey{parent, name});
  Entry &e = ins.first->second;
  if (!ins.second) {
    bool clash = !isArray || !e.array || e.device != device || findElem(e, parent, name, index) != None;
    if (clash) {
      Diagnostic *d = error(DiagCode::E0021, r, "redefinition of '{}{}'", F.strings.str(name),
                            isArray ? fmt::format("[{}]", index) : std::string());
      DiagEngine::note(d, e.loc, "previous definition is here");
      return None;
    }
  } else {
    e.array = isArray;
    e.device = device;
    e.loc = r;
    e.lo = index;
    e.hi = index + 1;
    logDecl(parent, name, 0, false);
  }
  uint32_t node = newNode(parent, name, isArray ? index : -1);
  if (isArray) {
    logDecl(parent, name, index, true);
    setElem(e, parent, name, index, node);
    e.lo = std::min(e.lo, index);
    e.hi = std::max(e.hi, index + 1);
  } else {
    e.node = node;
  }
  return node;
}

void Elab::setElem(Entry &e, uint32_t parent, uint32_t name, int64_t index, uint32_t node) {
  if (e.dense == Entry::kSparse) {
    elems_[ElemKey{parent, name, index}] = node;
    return;
  }
  if (e.dense == Entry::kDenseNone) {
    e.dense = uint32_t(dense_.size());
    dense_.push_back({index, index, index + 1, 0, {}});
  }
  DenseElems &d = dense_[e.dense];
  int64_t lo = d.count == 0 ? index : std::min(d.lo, index);
  int64_t hi = d.count == 0 ? index + 1 : std::max(d.hi, index + 1);
  // Dense while at least about half the span is declared (a loop's array is all of it).
  // The span is unsigned: x[INT64_MIN] and x[INT64_MAX] must not wrap into "dense".
  if (uint64_t(hi) - uint64_t(lo) > 2 * uint64_t(d.count + 1) + 64) {
    for (size_t k = 0; k < d.nodes.size(); ++k)
      if (d.nodes[k] != None)
        elems_[ElemKey{parent, name, d.base + int64_t(k)}] = d.nodes[k];
    elems_[ElemKey{parent, name, index}] = node;
    d = DenseElems(); // frees the vector; the slot stays unused
    e.dense = Entry::kSparse;
    return;
  }
  if (d.nodes.empty()) {
    d.base = index;
  } else if (index < d.base) {
    // At least double the room in front, but never reach below INT64_MIN.
    uint64_t need = uint64_t(d.base) - uint64_t(index);
    uint64_t room = uint64_t(index) - uint64_t(std::numeric_limits<int64_t>::min());
    uint64_t grow = std::min(std::max(need, uint64_t(d.nodes.size())), std::max(need, room));
    d.nodes.insert(d.nodes.begin(), size_t(grow), None);
    d.base = int64_t(uint64_t(d.base) - grow);
  }
  uint64_t k = uint64_t(index) - uint64_t(d.base);
  if (k >= d.nodes.size())
    d.nodes.resize(size_t(k + 1), None);
  d.nodes[size_t(k)] = node;
  d.lo = lo;
  d.hi = hi;
  ++d.count;
}

uint32_t Elab::layoutFor(uint32_t model, const std::vector<uint32_t> &breakouts) {
  bool plain = true;
  for (uint32_t b : breakouts)
    plain &= b == 1;
  if (plain) {
    auto it = defaultLayout_.find(model);
    if (it != defaultLayout_.end())
      return it->second;
  }
  std::vector<uint32_t> key{model};
  key.insert(key.end(), breakouts.begin(), breakouts.end());
  if (!plain) {
    auto it = layoutCache_.find(key);
    if (it != layoutCache_.end())
      return it->second;
  }
  const ir::Model &m = F.models[model];
  ir::Layout l;
  l.model = model;
  for (size_t g = 0; g < m.ports.size(); ++g) {
    const ir::PortGroup &pg = m.ports[g];
    uint32_t b = breakouts.empty() ? 1 : breakouts[g];
    ir::GroupLayout gl;
    gl.offset = l.ports;
    gl.breakout = b;
    gl.count = pg.count * b;
    gl.speed = pg.speed / b;
    gl.lanes = pg.lanes ? std::max(1u, pg.lanes / b) : 0;
    gl.portsPerCage = pg.portsPerCage * b;
    l.ports += gl.count;
    l.groups.push_back(gl);
  }
  F.layouts.push_back(std::move(l));
  uint32_t id = uint32_t(F.layouts.size() - 1);
  if (plain)
    defaultLayout_[model] = id;
  else
    layoutCache_[key] = id;
  return id;
}

uint32_t Elab::createDevice(uint32_t node, uint32_t model, const ast::Stmt *s) {
  if (F.numDevices() >= opts_.limits.maxDevices) {
    Diagnostic *d = error(DiagCode::E0030, s->range, "more than {} devices", opts_.limits.maxDevices);
    DiagEngine::note(d, {}, "raise the limit with --max-devices if the design is really this large");
    throw Abort{};
  }
  const ir::Model &m = F.models[model];
  ir::Tier tier = m.kind == ir::ModelKind::Switch ? ir::Tier::Unknown : ir::Tier::EndSystem;
  ir::Role role = m.kind == ir::ModelKind::Switch ? ir::Role::Switch : ir::Role::Compute;
  std::vector<uint32_t> breakouts;
  std::vector<const ast::Prop *> parts;
  uint32_t asn = 0, loopback = 0;
  uint64_t guid = 0;
  for (const ast::Prop &p : s->props) {
    if (p.key == "tier" && m.kind == ir::ModelKind::Switch) {
      Value v = eval(p.value);
      if (v.type == Value::Str) {
        std::string_view t = F.strings.str(v.s);
        tier = ir::tierFromName(t);
        if (!ir::isSwitchTier(tier)) {
          Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown tier '{}'", t);
          diags_.suggest(d, p.value->range, t, "leaf spine core super");
          DiagEngine::note(d, {}, "tiers: \"leaf\", \"spine\", \"core\", \"super\" (or 1 to 4)");
          tier = ir::Tier::Unknown;
        }
      } else {
        int64_t t;
        if (toInt(v, p.value, t, "tier")) {
          if (t < ir::tierIndex(ir::Tier::Leaf) || t > ir::tierIndex(ir::Tier::Super))
            error(DiagCode::E0034, p.value->range, "tier is 1 to 4, not {}", t);
          else
            tier = ir::Tier(t);
        }
      }
    } else if (p.key == "role" && m.kind != ir::ModelKind::Switch) {
      uint32_t r;
      if (propStr(p, r)) {
        std::string_view t = F.strings.str(r);
        if (t == "compute") role = ir::Role::Compute;
        else if (t == "storage") role = ir::Role::Storage;
        else if (t == "management") role = ir::Role::Management;
        else {
          Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown role '{}'", t);
          diags_.suggest(d, p.value->range, t, "compute storage management");
          DiagEngine::note(d, {}, "roles: \"compute\", \"storage\", \"management\"");
        }
      }
    } else if (p.key.rfind("breakout_", 0) == 0) {
      std::string gname(p.key.substr(9));
      size_t g = 0;
      while (g < m.ports.size() && F.strings.str(m.ports[g].name) != gname)
        ++g;
      if (g == m.ports.size()) {
        error(DiagCode::E0033, p.keyRange, "model '{}' has no port group '{}'", F.strings.str(m.name), gname);
        continue;
      }
      int64_t f;
      if (!propInt(p, 1, 8, f))
        continue;
      const ir::PortGroup &pg = m.ports[g];
      bool pow2 = (f & (f - 1)) == 0;
      if (!pow2 || !(pg.breakoutMask & (1u << __builtin_ctzll(uint64_t(f)))) || (pg.lanes && pg.lanes % f)) {
        Diagnostic *d = error(DiagCode::E0043, p.value->range, "port group '{}' of '{}' cannot break out 1:{}", gname,
                              F.strings.str(m.name), f);
        std::string allowed;
        for (int k = 1; k < 4; ++k)
          if (pg.breakoutMask & (1u << k))
            allowed += (allowed.empty() ? "" : ", ") + std::to_string(1 << k);
        DiagEngine::note(d, pg.loc, allowed.empty() ? "the port group allows no breakout"
                                                    : "the port group allows breakouts of " + allowed);
        continue;
      }
      if (breakouts.empty())
        breakouts.assign(m.ports.size(), 1);
      breakouts[g] = uint32_t(f);
    } else if (isPartKey(p.key)) {
      parts.push_back(&p);
    } else if (p.key == "asn") {
      int64_t v;
      if (propInt(p, 1, 4294967295LL, v))
        asn = uint32_t(v);
    } else if (p.key == "loopback") {
      uint32_t v;
      if (propStr(p, v)) {
        std::string_view t = F.strings.str(v);
        if (!ir::parseIPv4(t, loopback))
          error(DiagCode::E0034, p.value->range, "loopback '{}' is not an IPv4 address", t);
      }
    } else if (p.key == "guid") {
      // InfiniBand node GUID, as printed on the device: "0x" and 1 to 16 hex digits.
      uint32_t v;
      if (propStr(p, v)) {
        std::string_view t = F.strings.str(v);
        if (!ir::parseGuid(t, guid) || !guid)
          error(DiagCode::E0034, p.value->range, "guid '{}' is not a non-zero 64-bit hex number such as \"0x0002c90300a1b2c3\"", t);
      }
    } else {
      unknownProp(p, "an instance", m.kind == ir::ModelKind::Switch ? keys::kSwitchInstance : keys::kInstance);
    }
  }
  uint32_t choices = deviceChoices(m, parts);
  uint32_t layout = layoutFor(model, breakouts);
  const ir::Layout &l = F.layouts[layout];
  uint32_t dev = uint32_t(F.numDevices());
  F.devModel.push_back(model);
  F.devLayout.push_back(layout);
  F.devNode.push_back(node);
  F.devPortBase.push_back(uint32_t(F.numPorts()));
  F.devRack.push_back(None);
  F.devTier.push_back(tier);
  F.devRole.push_back(role);
  F.devU.push_back(0);
  F.devLoc.push_back(s->nameRange().begin);
  devCursorBase_.push_back(uint32_t(cursors_.size()));
  F.devAsn.push_back(asn);
  F.devLoopback.push_back(loopback);
  F.devGuid.push_back(guid);
  for (const ir::GroupLayout &g : l.groups)
    cursors_.push_back(g.offset);
  F.portDevice.insert(F.portDevice.end(), l.ports, dev);
  F.portLink.insert(F.portLink.end(), l.ports, None);
  nodeDevice_[node] = dev;
  setDeviceChoice(dev, choices);
  return dev;
}

void Elab::execInst(const ast::Stmt *s) {
  int64_t lo = 0, hi = 0;
  bool isArray = s->e1 != nullptr;
  if (isArray) {
    if (s->e2()) {
      if (!intValue(s->e2(), lo, "array start") || !intValue(s->e1, hi, "array end"))
        return;
    } else if (!intValue(s->e1, hi, "array size")) {
      return;
    }
    if (hi < lo || lo < 0) {
      error(DiagCode::E0034, s->e1->range, "array range {}..{} is empty or negative", lo, hi);
      return;
    }
  }
  if (!checkTarget(s))
    return;
  if (!isArray) {
    instantiate(s, -1, false);
    return;
  }
  // An array of devices that alone passes the device limit fails now, not after
  // creating millions of them (minutes and gigabytes).
  if (modelIndex_.count(sym(s->name2(), s->sym2())) &&
      uint64_t(hi - lo) > opts_.limits.maxDevices - std::min<uint64_t>(F.numDevices(), opts_.limits.maxDevices)) {
    Diagnostic *d = error(DiagCode::E0030, s->range, "more than {} devices", opts_.limits.maxDevices);
    DiagEngine::note(d, {}, fmt::format("this array alone adds {}; raise the limit with --max-devices if the design "
                                        "is really this large", hi - lo));
    throw Abort{};
  }
  uint32_t var = s->name3().empty() ? UINT32_MAX : sym(s->name3(), s->sym3());
  const Sizes before = sizes();
  for (int64_t i = lo; i < hi; ++i) {
    step(s->range);
    size_t mark = env_.size();
    if (var != UINT32_MAX)
      bind(var, Value::integer(i));
    instantiate(s, i, true);
    env_.resize(mark);
    if (i == lo)
      reserveAhead(before, uint64_t(hi - lo - 1));
  }
}

// What an instance statement names must exist and fit, checked once per statement
// (not once per array element).
// The model an instance names: a model, or a binding holding one (a template parameter
// `leaf_model = QM9700`); None if it names a template or nothing.
uint32_t Elab::targetModel(const ast::Stmt *s) {
  uint32_t target = sym(s->name2(), s->sym2());
  auto mi = modelIndex_.find(target);
  if (mi != modelIndex_.end())
    return mi->second;
  if (templates_.count(target))
    return None;
  for (size_t i = env_.size(); i > barrier_; --i)
    if (env_[i - 1].sym == target) {
      env_[i - 1].used = true;
      return env_[i - 1].value.type == Value::ModelRef ? env_[i - 1].value.s : None;
    }
  auto g = globals_.find(target);
  return g != globals_.end() && g->second.type == Value::ModelRef ? g->second.s : None;
}

bool Elab::checkTarget(const ast::Stmt *s) {
  uint32_t target = sym(s->name2(), s->sym2());
  uint32_t model = targetModel(s);
  if (model != None) {
    const ir::Model &m = F.models[model];
    if (m.kind == ir::ModelKind::Optic || m.kind == ir::ModelKind::Cable || m.kind == ir::ModelKind::Gpu) {
      Diagnostic *d = error(DiagCode::E0023, s->name2Range(), "'{}' is a model of kind {} and cannot be a device",
                            s->name2(), ir::modelKindName(m.kind));
      DiagEngine::note(d, m.loc, "declared here");
      return false;
    }
    if (s->hasArgs) {
      error(DiagCode::E0029, s->name2Range(), "'{}' is a model and takes no arguments", s->name2());
      return false;
    }
    return true;
  }
  if (!templates_.count(target)) {
    Diagnostic *d = error(DiagCode::E0022, s->name2Range(), "unknown model or template '{}'", s->name2());
    std::vector<std::string_view> names;
    for (const auto &m : modelIndex_)
      names.push_back(F.strings.str(m.first));
    for (const auto &t : templates_)
      names.push_back(F.strings.str(t.first));
    diags_.suggest(d, s->name2Range(), s->name2(), names);
    DiagEngine::note(d, {}, "import the catalog that declares it, for example import \"nvidia/switches.fab\";");
    return false;
  }
  if (!s->props.empty()) {
    error(DiagCode::E0033, s->props[0].keyRange, "a template instance takes arguments in (...), not properties");
    return false;
  }
  return true;
}

void Elab::instantiate(const ast::Stmt *s, int64_t index, bool isArray) {
  uint32_t name = sym(s->name(), s->sym());
  uint32_t target = sym(s->name2(), s->sym2());
  uint32_t model = targetModel(s);
  if (model != None) {
    uint32_t node = declare(scope_, name, index, isArray, true, s->nameRange());
    if (node == None)
      return;
    createDevice(node, model, s);
    for (uint32_t n = scope_; n != None; n = F.nodes[n].parent)
      nodeDevEnd_[n] = uint32_t(F.numDevices());
    return;
  }
  const ast::Template *t = templates_.find(target)->second;
  if (depth_ >= opts_.limits.maxDepth) {
    Diagnostic *d = error(DiagCode::E0031, s->name2Range(), "templates nest deeper than {} levels", opts_.limits.maxDepth);
    DiagEngine::note(d, t->range, "in template '" + std::string(t->name) + "'");
    throw Abort{};
  }
  // Arguments are evaluated in the caller's scope.
  std::vector<Value> args(t->params.size());
  std::vector<bool> given(t->params.size());
  size_t positional = 0;
  for (const ast::Arg &a : s->args()) {
    size_t idx;
    if (a.name.empty()) {
      idx = positional++;
      if (idx >= t->params.size()) {
        error(DiagCode::E0029, a.range, "'{}' takes {} arguments", t->name, t->params.size());
        return;
      }
    } else {
      idx = 0;
      while (idx < t->params.size() && t->params[idx].name != a.name)
        ++idx;
      if (idx == t->params.size()) {
        Diagnostic *d = error(DiagCode::E0029, a.range, "'{}' has no parameter '{}'", t->name, a.name);
        std::string list;
        for (const ast::Param &p : t->params)
          list += (list.empty() ? "" : ", ") + std::string(p.name);
        DiagEngine::note(d, t->range, "parameters: " + (list.empty() ? std::string("none") : list));
        return;
      }
    }
    if (given[idx]) {
      error(DiagCode::E0029, a.range, "parameter '{}' given twice", t->params[idx].name);
      return;
    }
    args[idx] = eval(a.value);
    given[idx] = true;
  }
  uint32_t node = declare(scope_, name, index, isArray, false, s->nameRange());
  if (node == None)
    return;
  uint32_t devBegin = uint32_t(F.numDevices());
  size_t savedBarrier = barrier_;
  uint32_t savedScope = scope_;
  size_t mark = env_.size();
  barrier_ = env_.size(); // a template sees globals and its parameters only
  scope_ = node;
  ++depth_;
  for (size_t i = 0; i < t->params.size(); ++i) {
    const ast::Param &p = t->params[i];
    uint32_t ps = F.strings.intern(p.name);
    if (given[i]) {
      bind(ps, args[i]);
    } else if (p.deflt) {
      bind(ps, eval(p.deflt));
    } else {
      Diagnostic *d = error(DiagCode::E0029, s->name2Range(), "missing argument '{}' for template '{}'", p.name, t->name);
      DiagEngine::note(d, p.range, "parameter declared here");
      bind(ps, Value());
    }
  }
  frames_.push_back({s, t, node, index});
  uint32_t inst = beginInstance(t, s, node, mark);
  elaborateBody(t, node, inst); // evaluated, or stamped from an earlier instance (Stamp.cpp)
  F.instances.instances[inst].devEnd = uint32_t(F.numDevices());
  F.instances.instances[inst].linkEnd = uint32_t(F.numLinks());
  frames_.pop_back();
  --depth_;
  std::vector<bool> &used = paramUsed_[t];
  used.resize(t->params.size());
  for (size_t i = 0; i < t->params.size(); ++i)
    used[i] = used[i] || env_[mark + i].used;
  env_.resize(mark);
  barrier_ = savedBarrier;
  scope_ = savedScope;
  if (!t->kind.empty()) {
    ir::Group g;
    g.kind = ir::groupKindFromName(t->kind);
    g.kindName = F.strings.intern(t->kind);
    g.node = node;
    g.begin = devBegin;
    g.end = uint32_t(F.numDevices());
    g.loc = s->nameRange();
    F.groups.push_back(std::move(g));
  }
}

} // namespace fabc::elab
