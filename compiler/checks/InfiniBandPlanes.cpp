// On InfiniBand each plane is a subnet (decision 0451): planes share no switch, so each
// needs its own subnet manager, bound to a port of that plane, and its own files. This
// draws the subnets from the design's `group plane` statements: a plane whose switches
// are InfiniBand is one subnet, a plane of Ethernet switches is not the InfiniBand
// output's, and a plane of both is FAB-E0410.
#include "diag/DiagCodes.h"
#include "checks/InfiniBand.h"

#include "checks/HostNames.h"
#include "diag/Diag.h"
#include "ir/InfiniBand.h"
#include "passes/Passes.h"

#include <llvm/ADT/StringMap.h>

#include <numeric>

namespace fabc::checks {
namespace {
using ir::None;
namespace ib = ir::ib;

uint32_t find(std::vector<uint32_t> &p, uint32_t x) {
  while (p[x] != x)
    x = p[x] = p[p[x]];
  return x;
}

// The plane's switches of other protocols than InfiniBand, and its first InfiniBand one.
struct Members {
  uint32_t firstIb = None, firstOther = None;
};
Members members(const ir::Fabric &F, const ir::Group &G) {
  Members m;
  for (uint32_t d : G.devices()) {
    if (F.modelOf(d).kind != ir::ModelKind::Switch)
      continue;
    uint32_t &first = ib::isSwitch(F, d) ? m.firstIb : m.firstOther;
    if (first == None)
      first = d;
  }
  return m;
}

// Where the plane's subnet manager runs: on a management system's HCA port in the plane
// (the design says so with role = "management", as a UFM appliance is), else on the
// first compute HCA port, else on any HCA port, else on the first switch (a managed
// switch runs its own SM on port 0, whose GUID is the switch's).
// After --guids-from only a port with a discovered GUID qualifies: OpenSM binds to a real
// port GUID (cnPorts holds such ports only).
void placeSm(const ir::Fabric &F, InfinibandPlane &p) {
  using From = InfinibandPlane::SmFrom;
  auto real = [&](uint32_t q) { return !F.guidsFromDiscovery || ib::hcaPin(F, q); };
  for (uint32_t q : p.hcaPorts)
    if (F.devRole[F.portDevice[q]] == ir::Role::Management && real(q)) {
      p.smFrom = From::Management, p.smPort = q;
      break;
    }
  if (p.smPort == None && !p.cnPorts.empty())
    p.smFrom = From::Compute, p.smPort = p.cnPorts[0];
  for (uint32_t q : p.hcaPorts)
    if (p.smPort == None && real(q))
      p.smFrom = From::Hca, p.smPort = q;
  if (p.smPort != None) {
    p.smGuid = ib::hcaPortGuid(F, p.smPort);
    return;
  }
  p.smFrom = From::Switch;
  p.smSwitch = p.switches[0];
  p.smGuid = F.devGuid[p.smSwitch];
}
} // namespace

bool splitInfinibandPlanes(const ir::Fabric &F, InfinibandPlan &v, DiagEngine &diags) {
  const size_t n = F.numDevices();
  std::vector<uint32_t> planeOf(n, None); // InfiniBand switch -> index into v.planes
  bool ok = true;
  for (uint32_t g = 0; g < F.groups.size(); ++g) {
    const ir::Group &G = F.groups[g];
    if (G.kind != ir::GroupKind::Plane)
      continue;
    Members m = members(F, G);
    if (m.firstIb == None) // an Ethernet plane, or one of no switch: not a subnet
      continue;
    if (m.firstOther != None) {
      Diagnostic *d = diags.report(DiagCode::E0410, G.loc,
                                   "plane '{}' holds InfiniBand switch '{}' and '{}', a switch of another protocol",
                                   F.nodeName(G.node), F.deviceName(m.firstIb), F.deviceName(m.firstOther));
      DiagEngine::note(d, F.modelOf(m.firstOther).loc,
                       "on InfiniBand a plane is a subnet of its own: move the other switches to a plane of their "
                       "own, or fix the protocol of their model");
      ok = false;
      continue;
    }
    uint32_t index = uint32_t(v.planes.size());
    InfinibandPlane &P = v.planes.emplace_back();
    P.group = g;
    P.dir = names::label(F.nodeName(G.node));
    for (uint32_t d : G.devices()) {
      if (!ib::isSwitch(F, d))
        continue;
      if (planeOf[d] != None && planeOf[d] != index) {
        const ir::Group &O = F.groups[v.planes[planeOf[d]].group];
        Diagnostic *dg = diags.report(DiagCode::E0411, G.loc, "InfiniBand switch '{}' is in plane '{}' and in plane '{}'",
                                      F.deviceName(d), F.nodeName(O.node), F.nodeName(G.node));
        DiagEngine::note(dg, O.loc, "planes share no switch: on InfiniBand each is a subnet of its own");
        ok = false;
        continue;
      }
      planeOf[d] = index;
    }
  }
  if (v.planes.empty() || !ok)
    return ok;

  // Every InfiniBand switch in a plane.
  unsigned outside = 0;
  for (uint32_t s : v.switches) {
    if (planeOf[s] != None)
      continue;
    if (outside++ >= 20) {
      diags.tally(DiagCode::E0412, {F.devLoc[s], 1});
      continue;
    }
    Diagnostic *d = diags.report(DiagCode::E0412, {F.devLoc[s], 1},
                                 "InfiniBand switch '{}' is in no plane; on InfiniBand each plane is a subnet, and "
                                 "every InfiniBand switch is in one",
                                 F.deviceName(s));
    passes::noteInstances(d, F, s);
    DiagEngine::note(d, F.groups[v.planes[0].group].loc,
                     "add it to the plane whose switches it is cabled to (each plane is written to "
                     "infiniband/<plane>/ with its own subnet manager)");
  }
  // One directory per plane.
  llvm::StringMap<uint32_t> dirs;
  for (uint32_t i = 0; i < v.planes.size(); ++i) {
    auto [it, fresh] = dirs.try_emplace(v.planes[i].dir, i);
    if (fresh)
      continue;
    const ir::Group &G = F.groups[v.planes[i].group], &O = F.groups[v.planes[it->second].group];
    Diagnostic *d = diags.report(DiagCode::E0414, G.loc, "InfiniBand planes '{}' and '{}' both write infiniband/{}/",
                                 F.nodeName(O.node), F.nodeName(G.node), v.planes[i].dir);
    DiagEngine::note(d, O.loc, "rename one of the planes");
    ok = false;
  }
  // Links stay within a plane; a plane's switches are one piece.
  std::vector<uint32_t> piece(n);
  std::iota(piece.begin(), piece.end(), 0);
  unsigned across = 0;
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    if (!ib::isLink(F, l))
      continue;
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    if (!ib::isSwitch(F, a) || !ib::isSwitch(F, b) || planeOf[a] == None || planeOf[b] == None)
      continue;
    if (planeOf[a] == planeOf[b]) {
      piece[find(piece, a)] = find(piece, b);
      continue;
    }
    if (across++ >= 20) {
      diags.tally(DiagCode::E0413, passes::linkRange(F, l));
      continue;
    }
    Diagnostic *d = diags.report(DiagCode::E0413, passes::linkRange(F, l),
                                 "link '{}' -- '{}' joins InfiniBand plane '{}' to plane '{}'", F.portName(F.linkA[l]),
                                 F.portName(F.linkB[l]), F.nodeName(F.groups[v.planes[planeOf[a]].group].node),
                                 F.nodeName(F.groups[v.planes[planeOf[b]].group].node));
    passes::noteLinkInstances(d, F, l);
    DiagEngine::note(d, {}, "planes share no link: a cable between them makes one subnet of the two");
  }
  if (outside || across || !ok)
    return false;

  // The subnets' lists, in the whole fabric's order.
  for (uint32_t s : v.switches) {
    InfinibandPlane &P = v.planes[planeOf[s]];
    P.switches.push_back(s);
    if (F.devTier[s] != ir::Tier::Unknown)
      P.topTier = std::max<uint32_t>(P.topTier, ir::tierIndex(F.devTier[s]));
  }
  for (uint32_t l = 0; l < F.numLinks(); ++l)
    if (ib::isLink(F, l)) {
      uint32_t a = F.portDevice[F.linkA[l]];
      ++v.planes[planeOf[ib::isSwitch(F, a) ? a : F.portDevice[F.linkB[l]]]].links;
    }
  auto planeOfPort = [&](uint32_t q) { return planeOf[F.portDevice[F.otherEnd(F.portLink[q], q)]]; };
  for (uint32_t q : v.hcaPorts) {
    InfinibandPlane &P = v.planes[planeOfPort(q)];
    P.hcaPorts.push_back(q);
    // A compute HCA port cn_guids.txt leaves out (W0350, reported for the whole fabric).
    if (F.guidsFromDiscovery && F.modelOf(F.portDevice[q]).kind == ir::ModelKind::System &&
        F.devRole[F.portDevice[q]] == ir::Role::Compute && !ib::hcaPin(F, q))
      ++P.cnUnpinned;
  }
  for (uint32_t q : v.cnPorts)
    v.planes[planeOfPort(q)].cnPorts.push_back(q);
  // Devices: an end system is in every plane it has an HCA port in.
  std::vector<uint32_t> last(n, None);
  for (uint32_t i = 0; i < v.planes.size(); ++i) {
    InfinibandPlane &P = v.planes[i];
    std::vector<uint32_t> devs = P.switches;
    for (uint32_t q : P.hcaPorts)
      if (last[F.portDevice[q]] != i) {
        last[F.portDevice[q]] = i;
        devs.push_back(F.portDevice[q]);
      }
    std::sort(devs.begin(), devs.end());
    P.devs = std::move(devs);
  }

  for (InfinibandPlane &P : v.planes) {
    const ir::Group &G = F.groups[P.group];
    std::vector<uint32_t> roots;
    for (uint32_t s : P.switches)
      if (find(piece, s) == s)
        roots.push_back(s);
    if (roots.size() > 1) {
      Diagnostic *d = diags.report(DiagCode::W0410, G.loc,
                                   "InfiniBand plane '{}' is {} pieces with no link between them (one holds '{}', "
                                   "another '{}'): its subnet manager reaches one",
                                   F.nodeName(G.node), roots.size(), F.deviceName(P.switches[0]),
                                   F.deviceName(find(piece, P.switches[0]) == roots[0] ? roots[1] : roots[0]));
      DiagEngine::note(d, {}, "cable the pieces together, or declare each piece a plane of its own");
    }
    if (!ibRoutingEngine(F, P, diags, "InfiniBand plane '" + F.nodeName(G.node) + "'"))
      return false;
    placeSm(F, P);
  }
  return true;
}

} // namespace fabc::checks
