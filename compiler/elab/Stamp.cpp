// Stamped template instances: a template body is elaborated once per distinct
// (template, arguments, depth), and every later instance with the same arguments copies
// the recorded result into the IR with its ids offset. The rules that keep the copy
// exact are in ElabState.h ("stamped template instances") and
// docs/decisions/0341-stamped-template-instances.md.
#include "elab/ElabState.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace fabc::elab {

// Appends v's exact bits to key; false when v cannot be a key (a long list), so the
// instance is evaluated, never confused with another.
bool Elab::encodeValue(const Value &v, std::vector<uint64_t> &key, unsigned &budget) {
  if (budget == 0)
    return false;
  --budget;
  uint64_t dim = 0;
  std::memcpy(&dim, v.dim.e.data(), v.dim.e.size());
  key.push_back(uint64_t(v.type) | uint64_t(v.percent) << 8 | dim << 16);
  switch (v.type) {
  case Value::Void: key.push_back(0); return true;
  case Value::Int: key.push_back(uint64_t(v.i)); return true;
  case Value::Real:
  case Value::Qty: {
    uint64_t bits;
    std::memcpy(&bits, &v.d, sizeof bits);
    key.push_back(bits);
    return true;
  }
  case Value::Str:
  case Value::ModelRef: key.push_back(v.s); return true;
  case Value::Bool: key.push_back(v.b); return true;
  case Value::List:
    key.push_back(v.list->size());
    for (const Value &x : *v.list)
      if (!encodeValue(x, key, budget))
        return false;
    return true;
  }
  return false;
}

// Adds the instance to the IR's instance tree, its arguments (the bound parameters
// env_[mark...]) to the distinct argument sets. Returns the instance's index.
uint32_t Elab::beginInstance(const ast::Template *t, const ast::Stmt *s, uint32_t node, size_t mark) {
  std::vector<uint64_t> key{uint64_t(uintptr_t(t)), depth_};
  unsigned budget = 64; // values in a key; a larger argument list is not stamped
  bool keyed = true;
  for (size_t i = 0; i < t->params.size() && keyed; ++i)
    keyed = encodeValue(env_[mark + i].value, key, budget);
  uint32_t set = uint32_t(F.instances.argSets.size());
  bool fresh = true;
  if (keyed) {
    auto ins = argSetIndex_.emplace(std::move(key), set);
    fresh = ins.second;
    set = ins.first->second;
  }
  if (fresh) {
    ir::ArgSet a;
    a.tmpl = F.strings.intern(t->name);
    for (size_t i = 0; i < t->params.size(); ++i) {
      a.text += (i ? ", " : "") + std::string(t->params[i].name) + " = ";
      if (!render(env_[mark + i].value, a.text, a.text.size() + BindingValues::kMaxHoverText))
        a.text += "…";
    }
    F.instances.argSets.push_back(std::move(a));
    stamps_.emplace_back(); // keyless sets get one too: the index is the set's
  }
  ir::TemplateInstance ti;
  ti.node = node;
  ti.parent = instStack_.empty() ? None : instStack_.back();
  ti.tmpl = F.instances.argSets[set].tmpl;
  ti.argSet = keyed ? set : None;
  ti.devBegin = ti.devEnd = uint32_t(F.numDevices());
  ti.linkBegin = ti.linkEnd = uint32_t(F.numLinks());
  ti.at = s->name2Range();
  F.instances.instances.push_back(ti);
  return uint32_t(F.instances.instances.size() - 1);
}

// Evaluates the body of template t for the instance node (index inst in the instance
// tree), or copies it from the recorded instance with the same arguments.
void Elab::elaborateBody(const ast::Template *t, uint32_t node, uint32_t inst) {
  uint32_t set = F.instances.instances[inst].argSet;
  bool canStamp = opts_.stamp && set != None;
  if (canStamp && stamps_[set] && stamp(*stamps_[set], node, inst, F.instances.instances[inst].at))
    return;
  bool record = canStamp && !stamps_[set];
  if (record) {
    Recording r;
    r.node = node;
    r.inst = inst;
    r.steps = steps_;
    r.reported = reported_;
    r.impure = impure_;
    r.nodeBegin = uint32_t(F.nodes.size());
    r.devBegin = uint32_t(F.numDevices());
    r.portBegin = uint32_t(F.numPorts());
    r.linkBegin = uint32_t(F.numLinks());
    r.groupBegin = uint32_t(F.groups.size());
    r.cursorBegin = uint32_t(cursors_.size());
    r.instBegin = inst + 1;
    r.logBegin = declLog_.size();
    r.valueLogBegin = valueLog_.size();
    recordings_.push_back(r);
  }
  instStack_.push_back(inst);
  for (const ast::Stmt *b : t->body)
    exec(b); // an Abort unwinds past this: elaboration has failed, nothing reads the recordings
  instStack_.pop_back();
  if (!record)
    return;
  Recording r = recordings_.back();
  recordings_.pop_back();
  // Part choices are per-device and per-link arrays that start empty; a body that fills
  // them is evaluated every time rather than copied.
  bool pure = r.pure && reported_ == r.reported && impure_ == r.impure && F.devChoice.empty() &&
              F.linkChoice.empty();
  if (pure) {
    auto st = std::make_unique<Stamp>();
    st->node = node;
    st->inst = inst;
    st->nodeBegin = r.nodeBegin;
    st->nodeEnd = uint32_t(F.nodes.size());
    st->devBegin = r.devBegin;
    st->devEnd = uint32_t(F.numDevices());
    st->portBegin = r.portBegin;
    st->portEnd = uint32_t(F.numPorts());
    st->linkBegin = r.linkBegin;
    st->linkEnd = uint32_t(F.numLinks());
    st->groupBegin = r.groupBegin;
    st->groupEnd = uint32_t(F.groups.size());
    st->cursorBegin = r.cursorBegin;
    st->instBegin = r.instBegin;
    st->instEnd = uint32_t(F.instances.instances.size());
    st->steps = steps_ - r.steps;
    st->decls.assign(declLog_.begin() + ptrdiff_t(r.logBegin), declLog_.end());
    recordArrays(*st);
    st->portLink.assign(F.portLink.begin() + st->portBegin, F.portLink.end());
    st->cursors.assign(cursors_.begin() + r.cursorBegin, cursors_.end());
    if (opts_.values) {
      std::unordered_map<const ast::Stmt *, uint64_t> times;
      for (size_t i = r.valueLogBegin; i < valueLog_.size(); ++i)
        times[valueLog_[i].first] += valueLog_[i].second;
      st->valueTimes.assign(times.begin(), times.end());
    }
    stamps_[set] = std::move(st);
  }
  if (recordings_.empty()) {
    declLog_.clear();
    valueLog_.clear();
  }
}

// The body's arrays whose elements a copy takes whole: every dense one. The body declared
// all of their elements (a declaration names the current scope only), so they are final.
void Elab::recordArrays(Stamp &st) {
  st.declArray.assign(st.decls.size(), Stamp::kReplay);
  llvm::DenseMap<EntryKey, uint32_t> whole;
  for (size_t i = 0; i < st.decls.size(); ++i) {
    const DeclLog &d = st.decls[i];
    const EntryKey key{d.parent, d.sym};
    if (d.elem) {
      if (whole.count(key))
        st.declArray[i] = Stamp::kCopied;
      continue;
    }
    const Entry &e = entries_.find(key)->second;
    if (!e.array || e.dense == Entry::kDenseNone || e.dense == Entry::kSparse)
      continue;
    st.declArray[i] = uint32_t(st.arrays.size());
    whole[key] = st.declArray[i];
    st.arrays.push_back(dense_[e.dense]);
  }
}

// Copies the recorded body st as the body of instance `node`; false (nothing done) when a
// copy would pass a limit, so that evaluating the body reports it where it happens.
bool Elab::stamp(const Stamp &st, uint32_t node, uint32_t inst, SourceRange r) {
  uint64_t devs = st.devEnd - st.devBegin, links = st.linkEnd - st.linkBegin;
  if (F.numDevices() + devs > opts_.limits.maxDevices || F.numLinks() + links > opts_.limits.maxLinks ||
      steps_ + st.steps > opts_.limits.maxSteps)
    return false;
  step(r, st.steps); // the same steps the body takes, and the cancel check
  const uint32_t nodeOff = uint32_t(F.nodes.size()) - st.nodeBegin;
  const uint32_t devOff = uint32_t(F.numDevices()) - st.devBegin;
  const uint32_t portOff = uint32_t(F.numPorts()) - st.portBegin;
  const uint32_t linkOff = uint32_t(F.numLinks()) - st.linkBegin;
  const uint32_t cursorOff = uint32_t(cursors_.size()) - st.cursorBegin;
  const uint32_t instOff = uint32_t(F.instances.instances.size()) - st.instBegin;
  auto mapNode = [&](uint32_t n) { return n == st.node ? node : n + nodeOff; };
  auto mapDev = [&](uint32_t d) { return d == None ? None : d + devOff; };

  // A range of v appended to v, each item through f: sized once, then written (a copy
  // has millions of ports and links, and push_back per item was 3% of a million GPUs).
  auto copyMapped = [](auto &v, uint32_t begin, uint32_t end, auto f) {
    size_t n = v.size();
    v.resize(n + (end - begin));
    for (uint32_t i = begin; i < end; ++i)
      v[n + (i - begin)] = f(v[i]);
  };
  auto plus = [](uint32_t off) { return [off](uint32_t x) { return x + off; }; };
  copyMapped(F.nodes, st.nodeBegin, st.nodeEnd, [&](ir::NameNode nn) {
    nn.parent = mapNode(nn.parent);
    return nn;
  });
  copyMapped(nodeDevice_, st.nodeBegin, st.nodeEnd, mapDev);
  copyMapped(nodeDevBegin_, st.nodeBegin, st.nodeEnd, plus(devOff));
  copyMapped(nodeDevEnd_, st.nodeBegin, st.nodeEnd, plus(devOff));
  for (size_t i = 0; i < st.decls.size(); ++i) {
    const DeclLog &d = st.decls[i];
    const uint32_t parent = mapNode(d.parent), how = st.declArray[i];
    if (how == Stamp::kCopied) {
      // in the copy of its array, made with the entry
    } else if (d.elem) { // after its entry's declaration (the log is in order)
      uint32_t el = mapNode(findElem(entries_.find(EntryKey{d.parent, d.sym})->second, d.parent, d.sym, d.index));
      setElem(entries_.find(EntryKey{parent, d.sym})->second, parent, d.sym, d.index, el);
    } else {
      Entry e = entries_.lookup(EntryKey{d.parent, d.sym});
      if (e.node != None)
        e.node = mapNode(e.node);
      if (how == Stamp::kReplay) {
        e.dense = Entry::kDenseNone; // the copy's elements follow in the log, each set anew
      } else { // all at once
        e.dense = uint32_t(dense_.size());
        DenseElems &c = dense_.emplace_back(st.arrays[how]);
        for (uint32_t &n : c.nodes)
          if (n != None)
            n = mapNode(n);
      }
      entries_[EntryKey{parent, d.sym}] = e;
    }
    logDecl(parent, d.sym, d.index, d.elem);
  }
  auto copy = [](auto &v, uint32_t begin, uint32_t end) { // a range of v appended to v
    size_t n = v.size();
    v.resize(n + (end - begin));
    std::copy(v.begin() + begin, v.begin() + end, v.begin() + ptrdiff_t(n));
  };
  uint32_t d0 = st.devBegin, d1 = st.devEnd;
  copyMapped(F.devNode, d0, d1, mapNode);
  copyMapped(F.devPortBase, d0, d1, plus(portOff));
  copyMapped(devCursorBase_, d0, d1, plus(cursorOff));
  copy(F.devModel, d0, d1);
  copy(F.devLayout, d0, d1);
  copy(F.devTier, d0, d1);
  copy(F.devRole, d0, d1);
  copy(F.devLoc, d0, d1);
  copy(F.devAsn, d0, d1);
  copy(F.devLoopback, d0, d1);
  copy(F.devGuid, d0, d1);
  F.devRack.insert(F.devRack.end(), devs, None); // the body places nothing (placing is impure)
  F.devU.insert(F.devU.end(), devs, 0);
  cursors_.insert(cursors_.end(), st.cursors.begin(), st.cursors.end());
  copyMapped(F.portDevice, st.portBegin, st.portEnd, plus(devOff));
  {
    size_t n = F.portLink.size();
    F.portLink.resize(n + st.portLink.size());
    for (size_t k = 0; k < st.portLink.size(); ++k)
      F.portLink[n + k] = st.portLink[k] == None ? None : st.portLink[k] + linkOff;
  }
  uint32_t l0 = st.linkBegin, l1 = st.linkEnd;
  copyMapped(F.linkA, l0, l1, plus(portOff));
  copyMapped(F.linkB, l0, l1, plus(portOff));
  copy(F.linkLength, l0, l1);
  copy(F.linkFlags, l0, l1);
  copy(F.linkMediaReq, l0, l1);
  F.copyLinkLocs(l0, l1, uint32_t(F.numLinks()) - (l1 - l0));
  for (uint32_t g = st.groupBegin; g < st.groupEnd; ++g) {
    ir::Group c = F.groups[g];
    c.node = mapNode(c.node);
    if (c.contiguous) { // a group statement's begin/end stay 0: it lists members
      c.begin += devOff;
      c.end += devOff;
    }
    for (uint32_t &m : c.members)
      m += devOff;
    F.groups.push_back(std::move(c));
  }
  for (uint32_t i = st.instBegin; i < st.instEnd; ++i) {
    ir::TemplateInstance c = F.instances.instances[i];
    c.node = mapNode(c.node);
    c.parent = c.parent == st.inst ? inst : c.parent + instOff;
    c.stampOf = i;
    c.devBegin += devOff;
    c.devEnd += devOff;
    c.linkBegin += linkOff;
    c.linkEnd += linkOff;
    F.instances.instances.push_back(c);
  }
  F.instances.instances[inst].stampOf = st.inst;
  if (opts_.values)
    for (const auto &[s, n] : st.valueTimes) {
      opts_.values->values[s].times += n;
      if (!recordings_.empty()) // inside an enclosing recording: its copies count these too
        valueLog_.push_back({s, n});
    }
  // Part choices: the body chose none (it would not be recorded), but once some device or
  // link elsewhere has, every new one gets its 0 entry, as setDeviceChoice/setLinkChoice do.
  if (!F.devChoice.empty())
    F.devChoice.resize(F.numDevices(), 0);
  if (!F.linkChoice.empty())
    F.linkChoice.resize(F.numLinks(), 0);
  // As createDevice does for each device: the instance and its ancestors end past them.
  if (devs)
    for (uint32_t n = node; n != None; n = F.nodes[n].parent)
      nodeDevEnd_[n] = uint32_t(F.numDevices());
  return true;
}

} // namespace fabc::elab
