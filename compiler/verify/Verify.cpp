// fabc verify's comparison (Verify.h): match, classify, pair the wrong cables into
// actions, report.
#include "diag/DiagCodes.h"
#include "verify/Verify.h"

#include "verify/DesignNames.h"

#include "checks/HostNames.h"
#include "discovery/LineReader.h"
#include "ir/InfiniBand.h"
#include "passes/Addressing.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringMap.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>

namespace fabc::verify {
namespace {
using discovery::Observed;
using ir::None;
namespace ib = ir::ib;

// A discovered end, resolved to the design.
struct Resolved {
  uint32_t dev = None, port = None;
};

class Matcher {
public:
  explicit Matcher(const ir::Fabric &F) : F(F), names_(F) {
    for (uint32_t d = 0; d < F.numDevices(); ++d) {
      if (!F.devGuid.empty() && F.devGuid[d]) {
        if (ib::isSwitch(F, d)) {
          if (F.devGuid[d] < discovery::FirstReservedKey)
            switchGuid_[F.devGuid[d]] = d;
        } else if (ib::isEndSystem(F, d)) {
          uint32_t base = F.devPortBase[d];
          for (uint32_t p = base; p < base + F.layoutOf(d).ports; ++p)
            if (ib::hcaGuid(F, p) < discovery::FirstReservedKey)
              hcaGuid_[ib::hcaGuid(F, p)] = p;
        }
      }
    }
  }

  uint32_t host(std::string_view name) const { return names_.host(name); }
  uint32_t port(uint32_t dev, std::string_view name) { return names_.port(dev, name); }

  // An observed node: a switch or LLDP host by name (else GUID); an HCA by its
  // "host port" description (else its GUID).
  Resolved node(const Observed &obs, uint32_t n) {
    const discovery::Node &N = obs.nodes[n];
    std::string_view name = obs.strings.str(N.name);
    Resolved r;
    if (N.guid && !N.isSwitch) {
      size_t sp = name.rfind(' ');
      if (sp != std::string_view::npos) {
        r.dev = host(name.substr(0, sp));
        if (r.dev != None)
          r.port = port(r.dev, name.substr(sp + 1));
      }
      if (r.dev == None)
        r.dev = host(name);
      if (r.dev == None) { // by GUID only when the name says nothing (names win)
        auto it = hcaGuid_.find(N.guid);
        if (it != hcaGuid_.end()) {
          r.port = it->second;
          r.dev = F.portDevice[it->second];
        }
      }
      return r;
    }
    r.dev = host(name);
    if (r.dev == None && N.guid && N.isSwitch) { // a switch GUID names a switch only
      auto it = switchGuid_.find(N.guid);
      if (it != switchGuid_.end())
        r.dev = it->second;
    }
    return r;
  }

private:
  const ir::Fabric &F;
  DesignNames names_;
  discovery::KeyMap<uint32_t> switchGuid_, hcaGuid_; // GUIDs past FirstReservedKey are never discovered
};

struct Wrong {
  uint32_t a, b;   // design ports (b None: the far end is not of the design)
  uint32_t link;   // observed link
  bool resolved = false;
};

class Verifier {
public:
  Verifier(const ir::Fabric &F, const Observed &obs, SourceManager &sm, DiagEngine &diags, Result &out)
      : F(F), obs(obs), sm(sm), diags(diags), out(out), match(F) {}

  bool scope(const std::string &name, std::string &error);
  void run();

private:
  uint32_t planned(uint32_t port) const {
    uint32_t l = port == None ? None : F.portLink[port];
    return l == None ? None : F.otherEnd(l, port);
  }
  bool inScope(uint32_t dev) const { return dev != None && (scope_.empty() || scope_[dev]); }
  bool linkInScope(uint32_t l) const {
    return inScope(F.portDevice[F.linkA[l]]) && inScope(F.portDevice[F.linkB[l]]);
  }
  EndInfo end(uint32_t port) const;
  EndInfo foreignEnd(const discovery::End &e) const;
  std::string text(const EndInfo &e) const { return e.device + " " + e.port_; }
  std::string where(discovery::Where w) const { return fmt::format("{}:{}", obs.files[w.file], w.line); }
  void add(Fault f, SourceRange at, discovery::Where w) {
    if (w.file != UINT32_MAX)
      f.where = where(w);
    pending_.push_back({std::move(f), at, w});
  }
  void pairWrongCables();
  void report();

  const ir::Fabric &F;
  const Observed &obs;
  SourceManager &sm;
  DiagEngine &diags;
  Result &out;
  Matcher match;
  std::vector<uint8_t> scope_;
  llvm::DenseSet<uint32_t> sonic_; // switches whose discovery names ports EthernetN
  std::vector<Resolved> nodes_;
  std::vector<uint32_t> seen_; // design link -> observed link, None
  std::vector<Wrong> wrong_;
  llvm::DenseMap<uint32_t, uint32_t> occupant_; // design port -> wrong cable
  std::vector<uint8_t> explained_;              // design link fixed by an action
  struct Pending {
    Fault f;
    SourceRange at;
    discovery::Where w;
  };
  std::vector<Pending> pending_;
};

bool Verifier::scope(const std::string &name, std::string &error) {
  if (name.empty())
    return true;
  scope_.assign(F.numDevices(), 0);
  bool found = false;
  for (const ir::Group &g : F.groups) {
    std::string path = F.nodeName(g.node);
    if (path != name && names::label(path) != name)
      continue;
    found = true;
    if (g.contiguous)
      for (uint32_t d = g.begin; d < g.end; ++d)
        scope_[d] = 1;
    for (uint32_t d : g.members)
      scope_[d] = 1;
  }
  for (uint32_t b = 0; b < F.buildings.size(); ++b) {
    if (F.strings.str(F.buildings[b].name) != name)
      continue;
    found = true;
    for (uint32_t d = 0; d < F.numDevices(); ++d)
      if (F.buildingOf(d) == b)
        scope_[d] = 1;
  }
  if (!found)
    error = fmt::format("--scope '{}' is neither a group nor a building of fabric '{}'", name, F.name);
  return found;
}

EndInfo Verifier::end(uint32_t port) const {
  EndInfo e;
  e.port = port;
  e.dev = F.portDevice[port];
  e.device = passes::hostName(F, e.dev);
  const ir::Model &m = F.modelOf(e.dev);
  if (ib::isSwitch(F, e.dev))
    e.port_ = fmt::format("port {}", ib::portNumber(F, port));
  else if (m.kind == ir::ModelKind::Switch)
    e.port_ = sonic_.count(e.dev) ? names::sonicPortName(names::portInfo(F, port))
                                  : names::swpName(names::portInfo(F, port));
  else
    e.port_ = names::portLabel(F, port);
  std::string full = F.portName(port);
  e.designPort = full.substr(full.rfind('/') + 1);
  if (F.devRack[e.dev] != None) {
    e.rack = F.rackName(F.devRack[e.dev]);
    e.u = F.devU[e.dev];
  }
  return e;
}

EndInfo Verifier::foreignEnd(const discovery::End &x) const {
  EndInfo e;
  e.device = std::string(obs.strings.str(obs.nodes[x.node].name));
  e.port_ = x.number ? fmt::format("port {}", x.number) : std::string(obs.strings.str(x.name));
  return e;
}

void Verifier::run() {
  nodes_.resize(obs.nodes.size());
  bool any = false;
  llvm::DenseMap<uint32_t, uint32_t> claimed; // design device (or HCA port) -> first node
  for (uint32_t n = 0; n < obs.nodes.size(); ++n) {
    Resolved r = match.node(obs, n);
    any |= r.dev != None;
    if (r.dev != None) {
      uint32_t key = r.port != None ? 0x80000000u | r.port : r.dev;
      auto ins = claimed.try_emplace(key, n);
      if (!ins.second && obs.nodes[n].guid) {
        const discovery::Node &N = obs.nodes[n], &first = obs.nodes[ins.first->second];
        Fault f{FaultKind::UnknownDevice, DiagCode::W0184,
                fmt::format("'{}' (GUID 0x{:016x}) has the name of '{}' (GUID 0x{:016x}, {})",
                            obs.strings.str(N.name), N.guid, obs.strings.str(first.name), first.guid, where(first.at)),
                "rename the device", {}, {}};
        add(std::move(f), {}, N.at);
        r = {};
      }
    }
    nodes_[n] = r;
  }
  for (uint32_t l = 0; l < F.numLinks(); ++l)
    out.planned += linkInScope(l);
  // Another fabric: no node of the design, or (past a handful) most nodes not of it, as
  // when two designs share names like "spine0". Comparing would bury the cause.
  uint64_t matched = 0;
  for (const Resolved &r : nodes_)
    matched += r.dev != None;
  (void)any;
  if (!obs.nodes.empty() && (matched == 0 || (obs.nodes.size() >= 8 && matched * 2 < obs.nodes.size()))) {
    out.foreign = true;
    Diagnostic *d = diags.report(DiagCode::E0185, {},
                                 "the discovery is not of fabric '{}': {} of its {} nodes are devices of the design ({})",
                                 F.name, matched, obs.nodes.size(),
                                 obs.files.size() == 1 ? obs.files[0] : fmt::format("{} files", obs.files.size()));
    DiagEngine::note(d, {}, fmt::format("the first is '{}' ({})", obs.strings.str(obs.nodes[0].name),
                                        where(obs.nodes[0].at)));
    DiagEngine::note(d, {}, "check that the discovery was taken on this fabric, and the design's parameters (-D)");
    return;
  }
  seen_.assign(F.numLinks(), None);
  explained_.assign(F.numLinks(), 0);
  std::vector<uint32_t> unknownCables(obs.nodes.size(), 0);
  for (uint32_t k = 0; k < obs.links.size(); ++k) {
    const discovery::Link &L = obs.links[k];
    Resolved a = nodes_[L.a.node], b = nodes_[L.b.node];
    if (!inScope(a.dev) && !inScope(b.dev))
      continue;
    auto portOf = [&](const discovery::End &e, Resolved r) {
      if (r.dev == None)
        return None;
      if (r.port != None)
        return r.port;
      if (e.number && !obs.nodes[e.node].guid)
        return None;
      if (e.number) // an InfiniBand switch: port N is the device's port N - 1
        return e.number <= F.layoutOf(r.dev).ports && obs.nodes[e.node].isSwitch ? F.devPortBase[r.dev] + e.number - 1
                                                                                 : None;
      if (!e.name)
        return None;
      std::string_view name = obs.strings.str(e.name);
      // The ports of a switch are named back the way its operating system named them.
      if (name.rfind("Ethernet", 0) == 0)
        sonic_.insert(r.dev);
      return match.port(r.dev, name);
    };
    uint32_t pa = portOf(L.a, a), pb = portOf(L.b, b);
    // An end named by its host only (an HCA described "host mlx5_0", a server's own
    // interface name): the port the far end's planned cable goes to on that host.
    if (pa == None && a.dev != None && pb != None && planned(pb) != None && F.portDevice[planned(pb)] == a.dev)
      pa = planned(pb);
    if (pb == None && b.dev != None && pa != None && planned(pa) != None && F.portDevice[planned(pa)] == b.dev)
      pb = planned(pa);
    ++out.discovered;
    if (a.dev == None || b.dev == None) {
      uint32_t known = a.dev == None ? pb : pa;
      unknownCables[a.dev == None ? L.a.node : L.b.node]++;
      if (known != None && planned(known) != None) {
        wrong_.push_back({known, None, k});
        occupant_[known] = uint32_t(wrong_.size() - 1);
      }
      continue;
    }
    uint32_t l = pa == None ? None : F.portLink[pa];
    if (pa != None && pb != None && l != None && F.portLink[pb] == l && pa != pb) {
      seen_[l] = k;
      out.matched += linkInScope(l);
      // Degraded: only what the discovery states (ibsim says 4xSDR for every link).
      uint32_t lanes = F.layoutOf(F.portDevice[pa]).groups[F.portGroup(pa)].lanes;
      double speed = F.portSpeed(pa);
      std::string cable = text(end(pa)) + " and " + text(end(pb));
      if (L.width && lanes && L.width < lanes) {
        add({FaultKind::Degraded, DiagCode::W0181,
             fmt::format("{} -- {} trained at {}x, its ports have {} lanes", text(end(pa)), text(end(pb)), L.width,
                         lanes),
             "reseat or replace the cable between " + cable, {end(pa), end(pb)}, {}},
            {}, L.at);
      } else if (L.laneRate && !L.sdr && L.width && L.width * L.laneRate < 0.9 * speed) {
        add({FaultKind::Degraded, DiagCode::W0182,
             fmt::format("{} -- {} runs at {:g} Gb/s ({}x {:g} Gb/s), planned {:g} Gb/s", text(end(pa)), text(end(pb)),
                         L.width * L.laneRate / 1e9, L.width, L.laneRate / 1e9, speed / 1e9),
             "replace the cable or transceivers between " + cable, {end(pa), end(pb)}, {}},
            {}, L.at);
      }
      continue;
    }
    if (pa == None || pb == None) {
      EndInfo ea = pa == None ? foreignEnd(L.a) : end(pa), eb = pb == None ? foreignEnd(L.b) : end(pb);
      add({FaultKind::Unexpected, DiagCode::E0187,
           fmt::format("unexpected cable: {} -- {} (no such port in the design)", text(ea), text(eb)),
           fmt::format("remove the cable between {} and {}", text(ea), text(eb)), {ea, eb}, {}},
          {}, L.at);
      continue;
    }
    wrong_.push_back({pa, pb, k});
    occupant_[pa] = uint32_t(wrong_.size() - 1);
    occupant_[pb] = uint32_t(wrong_.size() - 1);
  }
  pairWrongCables();
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    if (!linkInScope(l) || seen_[l] != None || explained_[l])
      continue;
    EndInfo a = end(F.linkA[l]), b = end(F.linkB[l]);
    add({FaultKind::Missing, DiagCode::E0186, fmt::format("cable missing: {} -- {}", text(a), text(b)),
         fmt::format("install a cable from {} to {}", text(a), text(b)), {a, b}, {}},
        {F.linkLoc(l), 4}, {});
    SourceRange r{F.linkLoc(l), 4};
    if (r.begin.valid()) {
      LineCol lc = sm.lineCol(r.begin);
      pending_.back().f.where = fmt::format("{}:{}", sm.path(r.begin.file), lc.line);
    }
  }
  // Unknown devices: those that are not of the design, in the order they were found
  // (the first 20; the JSON and the count have them all).
  for (uint32_t n = 0; n < obs.nodes.size(); ++n) {
    if (nodes_[n].dev != None || !unknownCables[n])
      continue;
    if (++out.unknownNodes > 20)
      continue;
    const discovery::Node &N = obs.nodes[n];
    add({FaultKind::UnknownDevice, DiagCode::W0180,
         fmt::format("'{}'{} is not a device of the design; its {} cable{} not checked", obs.strings.str(N.name),
                     N.guid ? fmt::format(" (GUID 0x{:016x})", N.guid) : "", unknownCables[n],
                     unknownCables[n] == 1 ? " is" : "s are"),
         "", {}, {}},
        {}, N.at);
  }
  report();
}

// Pairs the cables plugged wrong into actions: a swap of two ends fixes two cables (on
// one device if it can: "swap the cables in leaf3 port 7 and port 8"), a move of one end
// to the free port it belongs in fixes one; what is left is unexpected.
void Verifier::pairWrongCables() {
  auto otherEnd = [](const Wrong &w, uint32_t p) { return w.a == p ? w.b : w.a; };
  auto occupied = [&](uint32_t p) {
    return occupant_.count(p) || (F.portLink[p] != None && seen_[F.portLink[p]] != None);
  };
  std::vector<Pending> faults;
  for (uint32_t i = 0; i < wrong_.size(); ++i) {
    if (wrong_[i].resolved || wrong_[i].b == None)
      continue;
    // Swap candidates: move end u of this cable to s, and the end at s to u.
    struct Cand {
      uint32_t u, s, j;
      int score;
    } best{None, None, None, 9};
    for (int o = 0; o < 2; ++o) {
      uint32_t u = o ? wrong_[i].b : wrong_[i].a, v = o ? wrong_[i].a : wrong_[i].b;
      uint32_t s = planned(v);
      if (s == None || s == u)
        continue;
      auto it = occupant_.find(s);
      if (it == occupant_.end() || it->second == i || wrong_[it->second].resolved)
        continue;
      uint32_t t = otherEnd(wrong_[it->second], s);
      if (t == None || planned(u) != t)
        continue;
      int score = F.portDevice[u] == F.portDevice[s] ? 0 : 1;
      if (score < best.score)
        best = {u, s, it->second, score};
    }
    if (best.u == None)
      continue;
    const Wrong &w1 = wrong_[i], &w2 = wrong_[best.j];
    wrong_[i].resolved = wrong_[best.j].resolved = true;
    explained_[F.portLink[best.s]] = 1;
    explained_[F.portLink[best.u]] = 1;
    if (best.s < best.u && F.portDevice[best.s] == F.portDevice[best.u])
      std::swap(best.s, best.u); // in panel order
    EndInfo eu = end(best.u), es = end(best.s);
    std::string action = eu.dev == es.dev ? fmt::format("swap the cables in {} {} and {}", eu.device, eu.port_, es.port_)
                                          : fmt::format("swap the cable ends in {} and {}", text(eu), text(es));
    std::string msg = fmt::format(
        "miswired: {} -- {} and {} -- {} (planned: {} -- {}, {} -- {})", text(end(w1.a)), text(end(w1.b)),
        text(end(w2.a)), text(end(w2.b)), text(eu), text(end(planned(best.u))), text(es), text(end(planned(best.s))));
    add({FaultKind::Miswired, DiagCode::E0188, msg, action, {eu, es}, {}}, {}, obs.links[w1.link].at);
  }
  for (uint32_t i = 0; i < wrong_.size(); ++i) {
    Wrong &w = wrong_[i];
    if (w.resolved || w.b == None)
      continue;
    // A move: the end at u goes to the free port s, where the far end v's cable belongs.
    uint32_t bu = None, bs = None;
    int bestScore = 9;
    for (int o = 0; o < 2; ++o) {
      uint32_t u = o ? w.b : w.a, v = o ? w.a : w.b;
      uint32_t s = planned(v);
      if (s == None || s == u || occupied(s))
        continue;
      int score = F.portDevice[u] == F.portDevice[s] ? 0 : 1;
      if (score < bestScore)
        bu = u, bs = s, bestScore = score;
    }
    if (bu == None)
      continue;
    w.resolved = true;
    occupant_[bs] = i;
    explained_[F.portLink[bs]] = 1;
    EndInfo eu = end(bu), es = end(bs);
    uint32_t v = otherEnd(w, bu);
    std::string action = eu.dev == es.dev ? fmt::format("move the cable in {} {} to {}", eu.device, eu.port_, es.port_)
                                          : fmt::format("move the cable end in {} to {}", text(eu), text(es));
    add({FaultKind::Miswired, DiagCode::E0188,
         fmt::format("miswired: {} -- {} (planned: {} -- {})", text(eu), text(end(v)), text(es), text(end(v))),
         action, {eu, es}, {}},
        {}, obs.links[w.link].at);
  }
  for (const Wrong &w : wrong_) {
    if (w.resolved)
      continue;
    const discovery::Link &L = obs.links[w.link];
    EndInfo a = end(w.a);
    EndInfo b = w.b != None ? end(w.b) : foreignEnd(nodes_[L.a.node].dev == None ? L.a : L.b);
    add({FaultKind::Unexpected, DiagCode::E0187, fmt::format("unexpected cable: {} -- {}", text(a), text(b)),
         fmt::format("remove the cable between {} and {}", text(a), text(b)), {a, b}, {}},
        {}, L.at);
  }
}

// The faults in working order (fixes first, then what to add, then warnings), each a
// diagnostic at the discovery line that shows it (read back from the file: the
// discovery is streamed, not kept) or at the design's link.
void Verifier::report() {
  auto rank = [](FaultKind k) { return k == FaultKind::Miswired ? 0 : k == FaultKind::Missing ? 2 : k == FaultKind::Unexpected ? 1 : 3; };
  std::stable_sort(pending_.begin(), pending_.end(),
                   [&](const Pending &x, const Pending &y) { return rank(x.f.kind) < rank(y.f.kind); });
  // The lines to show: the first ones of each file, as far as the engine will print.
  constexpr size_t Shown = 256;
  std::map<std::pair<uint32_t, uint32_t>, std::string> lines;
  for (size_t i = 0; i < pending_.size() && i < Shown; ++i)
    if (pending_[i].w.file != UINT32_MAX)
      lines[{pending_[i].w.file, pending_[i].w.line}];
  for (uint32_t f = 0; f < obs.files.size(); ++f) {
    auto it = lines.lower_bound({f, 0});
    if (it == lines.end() || it->first.first != f)
      continue;
    std::FILE *in = std::fopen(obs.files[f].c_str(), "rb");
    if (!in)
      continue;
    discovery::LineReader r(in, 400);
    std::string line;
    while (it != lines.end() && it->first.first == f && r.next(line))
      if (r.lineNo() == it->first.second)
        (it++)->second = line;
    std::fclose(in);
  }
  for (size_t i = 0; i < pending_.size(); ++i) {
    Pending &p = pending_[i];
    SourceRange at = p.at;
    if (p.w.file != UINT32_MAX && i < Shown)
      at = obs.at(sm, diags, p.w, lines[{p.w.file, p.w.line}]);
    Diagnostic *d = diags.report(p.f.code, at, "{}", p.f.message);
    if (!p.f.action.empty())
      DiagEngine::note(d, {}, "fix: " + p.f.action);
    out.faults.push_back(std::move(p.f));
  }
}

} // namespace

const char *faultKindName(FaultKind k) {
  switch (k) {
  case FaultKind::Missing: return "missing";
  case FaultKind::Unexpected: return "unexpected";
  case FaultKind::Miswired: return "miswired";
  case FaultKind::Degraded: return "degraded";
  case FaultKind::UnknownDevice: return "unknown-device";
  }
  return "?";
}

uint64_t Result::errors() const {
  uint64_t n = foreign;
  for (const Fault &f : faults)
    n += diagInfo(f.code).severity == Severity::Error;
  return n;
}

bool verifyFabric(const ir::Fabric &F, const discovery::Observed &obs, const Options &opts, SourceManager &sm,
                  DiagEngine &diags, Result &out, std::string &error) {
  Verifier v(F, obs, sm, diags, out);
  if (!v.scope(opts.scope, error))
    return false;
  v.run();
  return true;
}

} // namespace fabc::verify
