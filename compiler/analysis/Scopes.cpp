// Scopes of scoped policies (analysis/Scopes.h, decision 0321). A scope is a partition of
// the devices: the groups of one kind (the first declared wins, as in analysis::
// measureGroups), the elements of an instance array (everything created inside each), or
// the racks, halls or buildings. Each element is rated on its own boundary: down is the
// bandwidth entering its switches from below (their host links, and links from
// lower-tier switches outside it), up the bandwidth leaving its switches for higher-tier
// switches outside it. One pass over the devices and one over the links per scope.
#include "analysis/Scopes.h"

#include "analysis/Groups.h"
#include "analysis/Measure.h"

#include <algorithm>

namespace fabc::analysis {
using ir::None;

namespace {
bool isComputeSystem(const ir::Fabric &F, uint32_t d) {
  const ir::Model &m = F.modelOf(d);
  return m.kind == ir::ModelKind::System && m.gpus && F.devRole[d] == ir::Role::Compute;
}

void groupsOfKind(const ir::Fabric &F, std::string_view kind, ScopePartition &out) {
  out.owner.assign(F.numDevices(), None);
  for (const ir::Group &g : F.groups) {
    if (F.strings.str(g.kindName) != kind)
      continue;
    uint32_t e = uint32_t(out.names.size());
    out.names.push_back(F.nodeName(g.node));
    out.locs.push_back(g.loc);
    for (uint32_t d : g.devices())
      if (out.owner[d] == None)
        out.owner[d] = e;
  }
}

// The elements of every instance array named `name`: the nearest such element above a
// node owns it. Memoised walk up the instance tree: each node is settled once.
bool arrayElements(const ir::Fabric &F, std::string_view name, ScopePartition &out) {
  size_t nn = F.nodes.size();
  constexpr uint32_t Unknown = None - 1;
  std::vector<uint32_t> nodeOwner(nn, Unknown);
  for (uint32_t n = 0; n < nn; ++n) {
    const ir::NameNode &x = F.nodes[n];
    if (x.index >= 0 && F.strings.str(x.name) == name) {
      nodeOwner[n] = uint32_t(out.names.size());
      out.names.push_back(F.nodeName(n));
      out.locs.push_back({});
    }
  }
  if (out.names.empty())
    return false;
  std::vector<uint32_t> path;
  for (uint32_t n = 0; n < nn; ++n) {
    uint32_t m = n;
    path.clear();
    while (m != None && nodeOwner[m] == Unknown) {
      path.push_back(m);
      m = F.nodes[m].parent;
    }
    uint32_t v = m == None ? None : nodeOwner[m];
    for (uint32_t p : path)
      nodeOwner[p] = v;
  }
  out.owner.assign(F.numDevices(), None);
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    uint32_t e = nodeOwner[F.devNode[d]];
    out.owner[d] = e;
    if (e != None && !out.locs[e].begin.valid())
      out.locs[e] = {F.devLoc[d], 1}; // the element's first device: where it is instantiated
  }
  return true;
}
} // namespace

bool resolveScope(const ir::Fabric &F, std::string_view name, ScopePartition &out) {
  out = {};
  size_t nd = F.numDevices();
  if (name == "rack" || name == "hall" || name == "building") {
    out.kind = "placement";
    out.owner.assign(nd, None);
    size_t n = name == "rack" ? F.racks.size() : name == "hall" ? F.halls.size() : F.buildings.size();
    for (size_t k = 0; k < n; ++k) {
      if (name == "rack") {
        out.names.push_back(F.rackName(uint32_t(k)));
        out.locs.push_back(F.racks[k].loc);
      } else if (name == "hall") {
        out.names.push_back(std::string(F.strings.str(F.buildings[F.halls[k].building].name)) + "." +
                            std::string(F.strings.str(F.halls[k].name)));
        out.locs.push_back(F.halls[k].loc);
      } else {
        out.names.push_back(std::string(F.strings.str(F.buildings[k].name)));
        out.locs.push_back(F.buildings[k].loc);
      }
    }
    for (uint32_t d = 0; d < nd; ++d) {
      uint32_t r = F.devRack[d];
      if (r != None)
        out.owner[d] = name == "rack" ? r : name == "hall" ? F.racks[r].hall : F.halls[F.racks[r].hall].building;
    }
    return true;
  }
  if (name == "pod") {
    // What a pod is (docs/language.md, group): the pod groups, else the su groups, else
    // the whole fabric is one pod.
    out.kind = "pod";
    if (const ir::GroupKind k = podKindOf(F); k != ir::GroupKind::Other) {
      groupsOfKind(F, ir::groupKindName(k), out);
      return true;
    }
    out.owner.assign(nd, 0);
    out.names.push_back(F.name);
    out.locs.push_back(F.loc);
    return true;
  }
  for (const ir::Group &g : F.groups)
    if (F.strings.str(g.kindName) == name) {
      out.kind = "group";
      groupsOfKind(F, name, out);
      return true;
    }
  out.kind = "array";
  return arrayElements(F, name, out);
}

std::vector<std::string> scopeNames(const ir::Fabric &F) {
  std::vector<std::string> r = {"pod", "rack", "hall", "building"};
  for (const ir::Group &g : F.groups)
    r.emplace_back(F.strings.str(g.kindName));
  for (const ir::NameNode &x : F.nodes)
    if (x.index == 0)
      r.emplace_back(F.strings.str(x.name));
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

const ir::ScopeStats *scopeOf(const ir::Fabric &F, const ir::Policy &p) {
  if (p.per == None)
    return nullptr;
  ir::Tier t = p.kind == ir::PolicyKind::Oversubscription && p.tierGiven ? ir::tierFromName(F.strings.str(p.scope))
                                                                          : ir::Tier::Unknown;
  for (const ir::ScopeStats &s : F.metrics.scopes)
    if (s.name == p.per && s.tier == t)
      return &s;
  return nullptr;
}

namespace {
void measureScope(const ir::Fabric &F, ir::ScopeStats &S) {
  ScopePartition P;
  S.known = resolveScope(F, F.strings.str(S.name), P);
  S.kind = P.kind;
  if (!S.known)
    return;
  size_t ne = P.names.size(), nd = F.numDevices();
  S.elements.resize(ne);
  for (size_t e = 0; e < ne; ++e) {
    S.elements[e].name = std::move(P.names[e]);
    S.elements[e].loc = P.locs[e];
  }
  for (uint32_t d = 0; d < nd; ++d) {
    uint32_t e = P.owner[d];
    if (e == None)
      continue;
    ir::ScopeElement &el = S.elements[e];
    if (isSwitch(F, d))
      ++el.switches;
    else if (isComputeSystem(F, d))
      el.gpus += F.gpusOf(d);
    el.power += double(F.devPower[d]) + double(F.devOpticPower[d]);
  }
  bool perSwitch = S.tier != ir::Tier::Unknown;
  std::vector<double> down(perSwitch ? nd : 0, 0), up(perSwitch ? nd : 0, 0);
  for (size_t l = 0; l < F.numLinks(); ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    uint32_t oa = P.owner[a], ob = P.owner[b];
    if (oa != None && oa == ob)
      ++S.elements[oa].links;
    else {
      if (oa != None)
        ++S.elements[oa].boundaryLinks;
      if (ob != None)
        ++S.elements[ob].boundaryLinks;
    }
    double bw = F.portSpeed(F.linkA[l]);
    ir::Tier ta = F.devTier[a], tb = F.devTier[b];
    bool sa = isSwitch(F, a), sb = isSwitch(F, b);
    // The boundary: a switch's host link brings GPU bandwidth in from below wherever the
    // host is; a link between switches of two elements (or one outside) crosses it.
    auto side = [&](uint32_t x, uint32_t ox, bool sx, ir::Tier tx, uint32_t oy, bool sy, ir::Tier ty) {
      if (ox == None || !sx)
        return;
      if (!sy) {
        S.elements[ox].down += bw;
        return;
      }
      (void)x;
      if (ox == oy || tx == ir::Tier::Unknown || ty == ir::Tier::Unknown || tx == ty)
        return;
      (ty > tx ? S.elements[ox].up : S.elements[ox].down) += bw;
    };
    side(a, oa, sa, ta, ob, sb, tb);
    side(b, ob, sb, tb, oa, sa, ta);
    if (perSwitch && ta != ir::Tier::Unknown && tb != ir::Tier::Unknown && ta != tb) {
      // As analysis::measureTiers counts a switch's down and up.
      uint32_t lo = ta < tb ? a : b, hi = ta < tb ? b : a;
      up[lo] += bw;
      down[hi] += bw;
    }
  }
  if (!perSwitch)
    return;
  for (uint32_t d = 0; d < nd; ++d) {
    uint32_t e = P.owner[d];
    if (e == None || F.devTier[d] != S.tier || up[d] <= 0)
      continue;
    ir::ScopeElement &el = S.elements[e];
    if (el.worstSwitch == None || down[d] / up[d] > el.worstDown / el.worstUp) {
      el.worstSwitch = d;
      el.worstDown = down[d];
      el.worstUp = up[d];
    }
  }
}
} // namespace

void measureScopes(ir::Fabric &F) {
  ir::Metrics &M = F.metrics;
  M.scopes.clear();
  for (const ir::Policy &p : F.policies) {
    if (p.per == None || scopeOf(F, p))
      continue;
    ir::ScopeStats s;
    s.name = p.per;
    s.tier = p.kind == ir::PolicyKind::Oversubscription && p.tierGiven ? ir::tierFromName(F.strings.str(p.scope))
                                                                       : ir::Tier::Unknown;
    measureScope(F, s);
    M.scopes.push_back(std::move(s));
  }
}

} // namespace fabc::analysis
