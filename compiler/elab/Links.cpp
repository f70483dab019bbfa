// Paths to instances and ports, and the statements that use them to join devices:
// links (with the next-free-port cursors) and explicit groups.
#include "diag/DiagCodes.h"
#include "elab/ElabState.h"
#include "elab/PropertyKeys.h"

#include <algorithm>

namespace fabc::elab {

const Entry *Elab::findEntry(uint32_t scope, uint32_t name, uint32_t &found) {
  for (uint32_t sc = scope;; sc = F.nodes[sc].parent) {
    auto it = entries_.find(EntryKey{sc, name});
    if (it != entries_.end()) {
      found = sc;
      return &it->second;
    }
    if (F.nodes[sc].parent == None)
      return nullptr;
  }
}

void Elab::resolvePath(const ast::Path &p, bool allowPort, bool allowStar, llvm::SmallVectorImpl<Endpoint> &out) {
  if (const SegMemo *m = memoHit(p.segs[0], scope_)) {
    noteScope(m->found);
    resolveAt(m->node, p, 0, allowPort, allowStar, out);
    return;
  }
  uint32_t first = sym(p.segs[0].name(), p.segs[0].sym);
  uint32_t sc = None;
  const Entry *e = findEntry(scope_, first, sc);
  if (!e) {
    error(DiagCode::E0035, p.segs[0].range, "no instance named '{}' in scope", p.segs[0].name());
    return;
  }
  noteScope(sc); // a recorded template body that reaches outside its instance is not stamped
  resolveFrom(sc, p, 0, allowPort, allowStar, out, e);
}

void Elab::resolveFrom(uint32_t scope, const ast::Path &p, size_t i, bool allowPort, bool allowStar,
                       llvm::SmallVectorImpl<Endpoint> &out, const Entry *found) {
  const ast::Segment &seg = p.segs[i];
  if (i > 0)
    if (const SegMemo *m = memoHit(seg, scope)) {
      resolveAt(m->node, p, i, allowPort, allowStar, out);
      return;
    }
  uint32_t name = sym(seg.name(), seg.sym);
  if (!found) {
    auto it = entries_.find(EntryKey{scope, name});
    if (it == entries_.end()) {
      error(DiagCode::E0035, seg.range, "'{}' has no instance named '{}'", F.nodeName(scope), seg.name());
      return;
    }
    found = &it->second;
  }
  const Entry &e = *found;
  if (!e.array) {
    if (seg.hasIndex() || seg.star) {
      error(DiagCode::E0036, seg.range, "'{}' is not an array", seg.name());
      return;
    }
    resolveAt(e.node, p, i, allowPort, allowStar, out);
    return;
  }
  if (seg.star) {
    if (!allowStar) {
      error(DiagCode::E0035, seg.range, "'[*]' is not allowed here; a link joins two single ports");
      return;
    }
    for (int64_t k = e.lo; k < e.hi; ++k) {
      uint32_t el = findElem(e, scope, name, k);
      if (el != None)
        resolveAt(el, p, i, allowPort, allowStar, out);
    }
    return;
  }
  if (!seg.hasIndex()) {
    error(DiagCode::E0036, seg.range, "'{}' is an array: give an index, or [*] for all", seg.name());
    return;
  }
  int64_t k = seg.literal(); // an inline literal (`x[3]`), else the expression's value
  if (seg.index() && !intValue(seg.index(), k, "index"))
    return;
  uint32_t el = findElem(e, scope, name, k);
  if (el == None) {
    error(DiagCode::E0036, seg.indexRange(), "'{}[{}]' does not exist (indices {}..{})", seg.name(), k, e.lo, e.hi - 1);
    return;
  }
  const uint32_t from = i == 0 ? scope_ : scope; // the first segment was looked up from scope_
  segMemo(&seg, from, k) = {&seg, from, el, scope, k, entries_.size()};
  resolveAt(el, p, i, allowPort, allowStar, out);
}

void Elab::resolveAt(uint32_t node, const ast::Path &p, size_t i, bool allowPort, bool allowStar,
                     llvm::SmallVectorImpl<Endpoint> &out) {
  if (i + 1 == p.segs.size()) {
    Endpoint ep;
    ep.node = node;
    ep.device = nodeDevice_[node];
    out.push_back(ep);
    return;
  }
  uint32_t dev = nodeDevice_[node];
  if (dev == None) {
    resolveFrom(node, p, i + 1, allowPort, allowStar, out, nullptr);
    return;
  }
  // Past a device, the next segment is a port group, and it must be the last.
  const ast::Segment &ps = p.segs[i + 1];
  if (!allowPort) {
    error(DiagCode::E0035, ps.range, "a port is not allowed here; name a device or an instance");
    return;
  }
  if (i + 2 != p.segs.size()) {
    error(DiagCode::E0035, p.segs[i + 2].range, "nothing can follow a port");
    return;
  }
  const ir::Model &m = F.modelOf(dev);
  int32_t g = -1;
  uint32_t psym = sym(ps.name(), ps.sym);
  for (size_t k = 0; k < m.ports.size(); ++k)
    if (m.ports[k].name == psym)
      g = int32_t(k);
  if (g < 0) {
    Diagnostic *d = error(DiagCode::E0035, ps.range, "'{}' ({}) has no port group '{}'", F.nodeName(node),
                          F.strings.str(m.name), ps.name());
    std::string list;
    for (const ir::PortGroup &pg : m.ports)
      list += (list.empty() ? "" : ", ") + std::string(F.strings.str(pg.name));
    DiagEngine::note(d, m.loc, "port groups: " + (list.empty() ? std::string("none") : list));
    return;
  }
  Endpoint ep;
  ep.node = node;
  ep.device = dev;
  ep.group = g;
  ep.groupRange = ps.range;
  if (ps.star) {
    error(DiagCode::E0035, ps.range, "a link names one port; use a for loop for many");
    return;
  }
  if (ps.hasIndex()) {
    int64_t idx = ps.literal(); // an inline literal (`p[12]`), else the expression's value
    if (ps.index() && !intValue(ps.index(), idx, "port index"))
      return;
    const ir::GroupLayout &gl = F.layoutOf(dev).groups[size_t(g)];
    if (idx < 0 || idx >= int64_t(gl.count)) {
      Diagnostic *d = error(DiagCode::E0036, ps.indexRange(), "port {}[{}] does not exist: '{}' has {} ports in '{}'",
                            ps.name(), idx, F.nodeName(node), gl.count, ps.name());
      if (gl.breakout > 1)
        DiagEngine::note(d, {}, fmt::format("after its 1:{} breakout", gl.breakout));
      return;
    }
    ep.port = idx;
    ep.portRange = ps.indexRange();
  }
  out.push_back(ep);
}

uint32_t Elab::takePort(const Endpoint &e, const ast::Path &p, double &speed) {
  const ir::Layout &l = F.layoutOf(e.device);
  uint32_t g = e.group < 0 ? 0 : uint32_t(e.group);
  if (l.groups.empty()) {
    error(DiagCode::E0035, p.range(), "'{}' has no ports", F.nodeName(e.node));
    return None;
  }
  const ir::GroupLayout &gl = l.groups[g];
  speed = gl.speed; // F.portSpeed of the port taken, without its loads
  uint32_t base = F.devPortBase[e.device];
  if (e.port >= 0) {
    uint32_t port = base + gl.offset + uint32_t(e.port);
    if (F.portLink[port] != None) {
      Diagnostic *d = error(DiagCode::E0040, e.portRange.begin.valid() ? e.portRange : p.range(),
                            "port '{}' is already in use", F.portName(port));
      if (F.portLink[port] == kFailedLink)
        DiagEngine::note(d, {failedPortLoc_.lookup(port), 4},
                         "taken by this link, which failed: a failed link keeps the ports it took");
      else
        DiagEngine::note(d, {F.linkLoc(F.portLink[port]), 4}, "first used by this link");
      return None;
    }
    return port;
  }
  uint32_t &cur = cursors_[devCursorBase_[e.device] + g];
  while (cur < gl.offset + gl.count && F.portLink[base + cur] != None)
    ++cur;
  if (cur >= gl.offset + gl.count) {
    Diagnostic *d = error(DiagCode::E0041, p.range(), "'{}' has no free port in '{}' (all {} used)", F.nodeName(e.node),
                          F.strings.str(F.modelOf(e.device).ports[g].name), gl.count);
    DiagEngine::note(d, {}, "add ports with a breakout, or use a device with more ports");
    return None;
  }
  return base + cur;
}

bool Elab::addLink(const Endpoint &a, const Endpoint &b, const ast::Stmt *s, float length, uint8_t flags,
                   ir::Media media) {
  if (F.numLinks() >= opts_.limits.maxLinks) {
    Diagnostic *d = error(DiagCode::E0030, s->range, "more than {} links", opts_.limits.maxLinks);
    DiagEngine::note(d, {}, "raise the limit with --max-links if the design is really this large");
    throw Abort{};
  }
  // A link that fails keeps the ports it took, as if it had been made: later links then
  // get the ports they will have once it is fixed, and their diagnostics name those
  // (docs/decisions/0049-diagnostics-that-point-at-the-cause.md, "A failed link keeps its ports").
  auto keep = [&](uint32_t port) {
    F.portLink[port] = kFailedLink;
    failedPortLoc_[port] = s->range.begin;
  };
  double sa, sb;
  uint32_t pa = takePort(a, s->paths[0], sa);
  if (pa == None)
    return false;
  F.portLink[pa] = uint32_t(F.numLinks()); // reserve before the other end (same device, same group)
  uint32_t pb = takePort(b, s->paths[1], sb);
  F.portLink[pa] = None;
  if (pb == None) {
    keep(pa);
    return false;
  }
  if (sa != sb) {
    keep(pa);
    keep(pb);
    Diagnostic *d = error(DiagCode::E0042, s->range, "speed mismatch: '{}' runs at {} but '{}' at {}", F.portName(pa),
                          formatQuantity(sa, dims::Bandwidth), F.portName(pb), formatQuantity(sb, dims::Bandwidth));
    double hi = std::max(sa, sb), lo = std::min(sa, sb);
    if (std::fmod(hi, lo) == 0)
      breakoutFix(d, sa > sb ? pa : pb, hi / lo, lo);
    return false;
  }
  uint32_t id = uint32_t(F.numLinks());
  F.portLink[pa] = id;
  F.portLink[pb] = id;
  F.linkA.push_back(pa);
  F.linkB.push_back(pb);
  F.linkLength.push_back(length);
  F.linkFlags.push_back(flags);
  F.linkMediaReq.push_back(media);
  F.appendLinkLoc(id, s->range.begin);
  return true;
}

// The fix for a port faster than its far end: a breakout, suggested only where the user
// can write it. An instance the user's file declares takes `breakout_GROUP = N`; one a
// template of another file (the stdlib's) declares cannot be given properties from the
// design, so the note says what can be done from there instead.
void Elab::breakoutFix(Diagnostic *d, uint32_t port, double factor, double speed) {
  uint32_t dev = F.portDevice[port];
  const ir::Model &m = F.modelOf(dev);
  const ir::Layout &l = F.layoutOf(dev);
  uint32_t rel = port - F.devPortBase[dev];
  size_t g = 0;
  while (g + 1 < l.groups.size() && rel >= l.groups[g + 1].offset)
    ++g;
  std::string group(F.strings.str(m.ports[g].name));
  std::string fast = formatQuantity(speed * factor, dims::Bandwidth);
  SourceLoc at = F.devLoc[dev];
  if (prog_.main && at.file == prog_.main->fileId) {
    DiagEngine::note(d, {}, fmt::format("break the {} port out 1:{} with breakout_{} = {} on the instance of '{}'",
                                        fast, factor, group, factor, F.deviceName(dev)));
    return;
  }
  DiagEngine::note(d, {at, 1},
                   fmt::format("'{}' is declared here, in another file: breakout_{} = {} cannot be given to it "
                               "from your design; give the template a model with {} ports for this end (if a "
                               "parameter chooses it), or copy the template into your file and add breakout_{} = {} "
                               "to this instance",
                               F.deviceName(dev), group, factor, formatQuantity(speed, dims::Bandwidth), group,
                               factor));
}

// A link's properties, evaluated as execLink reads them: false after an error that ends
// the statement (an unknown key is reported and the link still made).
bool Elab::linkProps(const ast::Stmt *s, LinkProps &lp) {
  for (const ast::Prop &p : s->props) {
    if (p.key == "count") {
      if (!propInt(p, 1, 1 << 16, lp.count))
        return false;
    } else if (p.key == "length") {
      double v;
      if (!propQty(p, dims::Length, v))
        return false;
      if (v <= 0 || v > 2e7) {
        error(DiagCode::E0034, p.value->range, "link length {} is not a real cable", formatQuantity(v, dims::Length));
        return false;
      }
      lp.length = float(v);
      lp.flags |= ir::LinkLengthExplicit;
    } else if (p.key == "media") {
      uint32_t m;
      if (!propStr(p, m))
        return false;
      lp.media = ir::mediaFromName(F.strings.str(m));
      if (lp.media == ir::Media::None) {
        Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown media '{}'", F.strings.str(m));
        diags_.suggest(d, p.value->range, F.strings.str(m), "DAC ACC AOC MMF SMF DCI");
        DiagEngine::note(d, {}, "media: DAC, ACC, AOC, MMF, SMF, DCI");
        return false;
      }
    } else if (p.key == "pattern") {
      uint32_t v;
      if (!propStr(p, v))
        return false;
      std::string_view t = F.strings.str(v);
      if (t != "mesh" && t != "pairwise") {
        Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown wiring pattern '{}'", t);
        diags_.suggest(d, p.value->range, t, "mesh pairwise");
        DiagEngine::note(d, {}, "patterns: \"mesh\" (every A to every B), \"pairwise\" (A[i] to B[i])");
        return false;
      }
      lp.pairwise = t == "pairwise";
    } else if (p.key == "optic" || p.key == "cable") {
      if (!partProp(p, p.key == "optic", lp.parts))
        return false;
    } else {
      unknownProp(p, "a link", keys::kLink);
    }
  }
  return true;
}

// One link, or a wiring pattern when a path has [*]: "mesh" (the default) joins every
// matched A to every matched B; "pairwise" joins the i-th A to the i-th B.
void Elab::execLink(const ast::Stmt *s, LinkProps *read) {
  llvm::SmallVector<Endpoint, 1> a, b; // one endpoint each, without a heap allocation
  resolvePath(s->paths[0], true, true, a);
  resolvePath(s->paths[1], true, true, b);
  if (a.empty() || b.empty())
    return;
  for (size_t side = 0; side < 2; ++side)
    for (const Endpoint &e : side ? b : a)
      if (e.device == None) {
        error(DiagCode::E0035, s->paths[side].range(), "'{}' is a template instance, not a device", F.nodeName(e.node));
        return;
      }
  LinkProps lp;
  const uint64_t before = reported_;
  if (!linkProps(s, lp))
    return;
  lp.clean = reported_ == before;
  // A named port can carry one link: an end used by several (count, or a mesh to many
  // far ends) must take the next free ports instead.
  bool reuseA = lp.count > 1 || (!lp.pairwise && b.size() > 1), reuseB = lp.count > 1 || (!lp.pairwise && a.size() > 1);
  if ((reuseA && a[0].port >= 0) || (reuseB && b[0].port >= 0)) {
    error(DiagCode::E0034, s->range, "a link with count > 1 or [*] takes the next free ports: omit the port indices");
    return;
  }
  if (lp.pairwise && a.size() != b.size()) {
    error(DiagCode::E0034, s->range, "a pairwise pattern needs as many ends on each side, not {} and {}", a.size(),
          b.size());
    return;
  }
  if (read)
    *read = lp;
  uint32_t choice = internChoice(lp.parts);
  auto join = [&](const Endpoint &x, const Endpoint &y) {
    if (x.device == y.device) {
      error(DiagCode::E0045, s->range, "link connects '{}' to itself", F.deviceName(x.device));
      return false;
    }
    for (int64_t i = 0; i < lp.count; ++i)
      if (!addLink(x, y, s, lp.length, lp.flags, lp.media))
        return false; // the rest of the count would fail the same way
      else
        setLinkChoice(choice);
    return true;
  };
  if (lp.pairwise) {
    for (size_t i = 0; i < a.size(); ++i)
      if (!join(a[i], b[i]))
        return;
    return;
  }
  for (const Endpoint &x : a)
    for (const Endpoint &y : b)
      if (!join(x, y))
        return;
}

void Elab::execGroup(const ast::Stmt *s) {
  ir::Group g;
  g.kind = ir::groupKindFromName(s->name2());
  g.kindName = sym(s->name2(), s->sym2());
  int64_t index = -1;
  if (s->e1 && !intValue(s->e1, index, "group index"))
    return;
  g.node = newNode(scope_, sym(s->name(), s->sym()), index);
  g.contiguous = false;
  g.loc = s->nameRange();
  for (const ast::Path &p : s->paths) {
    llvm::SmallVector<Endpoint, 4> eps;
    resolvePath(p, false, true, eps);
    for (const Endpoint &e : eps) {
      if (e.device != None)
        g.members.push_back(e.device);
      else
        for (uint32_t d = nodeDevBegin_[e.node]; d < nodeDevEnd_[e.node]; ++d)
          g.members.push_back(d);
    }
  }
  // A device named twice (n[*] and n[3]) is one member: its GPUs count once.
  std::sort(g.members.begin(), g.members.end());
  g.members.erase(std::unique(g.members.begin(), g.members.end()), g.members.end());
  F.groups.push_back(std::move(g));
}

} // namespace fabc::elab
