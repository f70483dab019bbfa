// Counts per group (analysis/Groups.h): each pod, plane, su and other named group's GPUs,
// switches and links, a plane's GPUs missing from it and its own bisection, and the
// racks' counts. Linear: one pass over devices and links per group kind.
#include "analysis/Groups.h"

#include <algorithm>
#include <array>

namespace fabc::analysis {
using ir::None;

namespace {
bool isComputeSystem(const ir::Fabric &F, uint32_t d) {
  const ir::Model &m = F.modelOf(d);
  return m.kind == ir::ModelKind::System && m.gpus && F.devRole[d] == ir::Role::Compute && !F.layoutOf(d).groups.empty();
}

// Every GPU endpoint of a compute system (analysis::measureReachability's): its ports
// of the first port group, ports_per_gpu at a time. fn(device, gpu, first port, end port).
template <class Fn> void forEachGpu(const ir::Fabric &F, Fn &&fn) {
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    if (!isComputeSystem(F, d))
      continue;
    const ir::GroupLayout &g = F.layoutOf(d).groups[0];
    uint32_t per = std::max<uint32_t>(1, F.modelOf(d).portsPerGpu), base = F.devPortBase[d] + g.offset;
    for (uint32_t e = 0; e * per < g.count; ++e)
      fn(d, e, base + e * per, base + std::min(g.count, (e + 1) * per));
  }
}

// The planes of one GPU's ports: a plane holding the switch a port is cabled to.
void planesOf(const ir::Fabric &F, const std::vector<uint32_t> &owner, uint32_t p0, uint32_t p1, std::vector<uint32_t> &out,
              bool &cabled) {
  out.clear();
  cabled = false;
  for (uint32_t port = p0; port < p1; ++port) {
    uint32_t l = F.portLink[port];
    if (l == None)
      continue;
    uint32_t sw = F.portDevice[F.otherEnd(l, port)];
    if (!isSwitch(F, sw))
      continue;
    cabled = true;
    if (owner[sw] != None)
      out.push_back(owner[sw]);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

void countKind(ir::Fabric &F, uint32_t kindName, std::vector<ir::GroupStats> &stats, std::vector<uint32_t> &statOf) {
  size_t nd = F.numDevices();
  std::vector<uint32_t> owner(nd, None); // device -> index into stats; the first group of the kind wins
  bool plane = false;
  for (uint32_t gi = 0; gi < F.groups.size(); ++gi) {
    const ir::Group &g = F.groups[gi];
    if (g.kindName != kindName)
      continue;
    plane = g.kind == ir::GroupKind::Plane;
    uint32_t s = uint32_t(stats.size());
    statOf[gi] = s;
    stats.push_back({});
    stats.back().group = gi;
    for (uint32_t d : g.devices())
      if (owner[d] == None)
        owner[d] = s;
  }
  for (uint32_t d = 0; d < nd; ++d) {
    if (owner[d] == None)
      continue;
    ir::GroupStats &st = stats[owner[d]];
    if (isSwitch(F, d))
      ++st.switches;
    else if (!plane && isComputeSystem(F, d))
      st.gpus += F.gpusOf(d);
  }
  // Links inside a group (both ends its devices) and across its edge (one end).
  // A plane's tier terms as measureTiers counts them (the leaves' downlinks, each
  // tier's uplinks), for its own bisection.
  std::vector<std::array<double, ir::NumTiers>> terms(plane ? stats.size() : 0);
  std::vector<unsigned> top(terms.size(), 0);
  for (size_t l = 0; l < F.numLinks(); ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    uint32_t oa = owner[a], ob = owner[b];
    if (oa != None && oa == ob)
      ++stats[oa].links;
    else {
      if (oa != None)
        ++stats[oa].boundaryLinks;
      if (ob != None)
        ++stats[ob].boundaryLinks;
    }
    if (!plane)
      continue;
    ir::Tier ta = F.devTier[a], tb = F.devTier[b];
    if (ta == ir::Tier::Unknown || tb == ir::Tier::Unknown || ta == tb)
      continue;
    uint32_t lo = ta < tb ? a : b, hi = ta < tb ? b : a;
    double bw = F.portSpeed(F.linkA[l]);
    if (F.devTier[hi] == ir::Tier::Leaf && owner[hi] != None)
      terms[owner[hi]][0] += bw;
    if (ir::isSwitchTier(F.devTier[lo]) && owner[lo] != None)
      terms[owner[lo]][ir::tierIndex(F.devTier[lo])] += bw;
  }
  if (!plane)
    return;
  for (uint32_t d = 0; d < nd; ++d)
    if (owner[d] != None && ir::isSwitchTier(F.devTier[d]))
      top[owner[d]] = std::max(top[owner[d]], ir::tierIndex(F.devTier[d]));
  for (size_t s = 0; s < stats.size(); ++s) {
    double b = top[s] >= 1 ? terms[s][0] : 0;
    for (unsigned t = 1; t < top[s]; ++t)
      b = std::min(b, terms[s][t]);
    stats[s].bisection = b / 2;
  }
  // A GPU with several ports has one in every plane (multi-plane, dual-ToR: the planes are
  // complete); a GPU with one port is in one plane, as in rail planes (a tray's port r in
  // plane r, the other rails reached over NVLink), and is never missing from the others.
  std::vector<uint32_t> mine;
  forEachGpu(F, [&](uint32_t d, uint32_t e, uint32_t p0, uint32_t p1) {
    bool cabled;
    planesOf(F, owner, p0, p1, mine, cabled);
    if (!cabled)
      return;
    size_t k = 0;
    for (uint32_t s = 0; s < stats.size(); ++s) {
      if (k < mine.size() && mine[k] == s) {
        ++stats[s].gpus;
        ++k;
        continue;
      }
      if (p1 - p0 < 2)
        continue;
      ir::GroupStats &st = stats[s];
      if (!st.missingGpus++) {
        st.missingDevice = d;
        st.missingGpu = e;
      }
    }
  });
}
} // namespace

void measureGroups(ir::Fabric &F) {
  ir::Metrics &M = F.metrics;
  M.groupStats.clear();
  M.racks = {};
  std::vector<uint32_t> statOf(F.groups.size(), None), kinds;
  for (const ir::Group &g : F.groups)
    if (g.kind != ir::GroupKind::NvLink && std::find(kinds.begin(), kinds.end(), g.kindName) == kinds.end())
      kinds.push_back(g.kindName);
  std::vector<ir::GroupStats> stats;
  for (uint32_t k : kinds)
    countKind(F, k, stats, statOf);
  // In declaration order.
  for (uint32_t gi = 0; gi < F.groups.size(); ++gi)
    if (statOf[gi] != None)
      M.groupStats.push_back(stats[statOf[gi]]);
  // Racks: how many, and the fullest's GPUs and switches.
  ir::RackCounts &R = M.racks;
  R.racks = uint32_t(F.racks.size());
  std::vector<uint64_t> gpus(F.racks.size(), 0);
  std::vector<uint32_t> switches(F.racks.size(), 0);
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    uint32_t r = F.devRack[d];
    if (r == None)
      continue;
    if (isSwitch(F, d))
      ++switches[r];
    else if (isComputeSystem(F, d))
      gpus[r] += F.gpusOf(d);
  }
  for (size_t r = 0; r < F.racks.size(); ++r) {
    R.maxGpus = std::max(R.maxGpus, gpus[r]);
    R.maxSwitches = std::max(R.maxSwitches, switches[r]);
    R.gpusPlaced += gpus[r];
    R.switchesPlaced += switches[r];
  }
  for (size_t l = 0; l < F.numLinks(); ++l) {
    uint32_t ra = F.devRack[F.portDevice[F.linkA[l]]], rb = F.devRack[F.portDevice[F.linkB[l]]];
    if (ra != None && ra == rb)
      ++R.linksInside;
  }
}

} // namespace fabc::analysis
