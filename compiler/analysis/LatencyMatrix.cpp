// The round-trip latency matrix between buildings and sites (analysis/Measure.h): the
// worst one-way GPU-to-GPU path between GPUs of every two places, on the latency model
// of measureLatency (decision 0011): the switches crossed at their port-to-port latency,
// 4.9 ns per metre of cable (the spans' fibre routes are in the link lengths), the NIC
// latency at both ends. Decision 0411.
#include "analysis/Measure.h"

#include <algorithm>

namespace fabc::analysis {
using ir::None;

namespace {
// The worst climb into a switch from the GPUs of one building.
struct Climb {
  double lat = -1; // s, -1: none
  double len = 0;  // m
  double nic = 0;  // s, the NIC at the GPU's end
  uint32_t hops = 0;
};
void keepWorst(Climb &into, const Climb &c) {
  if (c.lat > into.lat)
    into = c;
}
} // namespace

void measureLatencyMatrix(ir::Fabric &F, const Climbs &climbs) {
  ir::Metrics &M = F.metrics;
  M.buildingPaths.clear();
  M.sitePaths.clear();
  size_t nd = F.numDevices();
  // A column per building holding GPUs: the table is switches x those buildings (a
  // million-GPU design of 20 buildings: ~80k switches x 20 x 32 bytes).
  std::vector<uint32_t> column(F.buildings.size(), None), building;
  for (uint32_t d = 0; d < nd; ++d)
    if (F.devTier[d] == ir::Tier::EndSystem && F.modelOf(d).gpus) {
      uint32_t b = F.buildingOf(d);
      if (b != None && column[b] == None) {
        column[b] = uint32_t(building.size());
        building.push_back(b);
      }
    }
  size_t nb = building.size();
  if (!nb)
    return;
  std::vector<uint32_t> slot(nd, None);
  uint32_t switches = 0;
  for (uint32_t d = 0; d < nd; ++d)
    if (ir::isSwitchTier(F.devTier[d]))
      slot[d] = switches++;
  std::vector<Climb> up(size_t(switches) * nb);
  auto switchLatency = [&](uint32_t d) {
    const ir::Model &m = F.modelOf(d);
    return m.latency.known ? m.latency.value : 0.0;
  };
  // Tier by tier, as measureLatency climbs: a link from the tier below into this one.
  climbs.forEach(F, [&](uint32_t l, uint32_t lo, uint32_t hi) {
    double len = F.linkLength[l], step = len * ir::FibreDelayPerMetre + switchLatency(hi);
    Climb *into = &up[size_t(slot[hi]) * nb];
    if (F.devTier[lo] == ir::Tier::EndSystem) {
      const ir::Model &m = F.modelOf(lo);
      uint32_t bld = F.buildingOf(lo);
      if (!m.gpus || bld == None)
        return;
      double nic = m.latency.known ? m.latency.value : F.options.gpuNicLatency;
      keepWorst(into[column[bld]], {nic + step, len, nic, 1});
    } else {
      const Climb *from = &up[size_t(slot[lo]) * nb];
      for (size_t c = 0; c < nb; ++c)
        if (from[c].lat >= 0)
          keepWorst(into[c], {from[c].lat + step, from[c].len + len, from[c].nic, from[c].hops + 1});
    }
  });
  // The worst path between two buildings turns at a switch both climb into, crossed once.
  std::vector<ir::PathStats> pair(nb * nb);
  std::vector<uint32_t> seen;
  for (uint32_t d = 0; d < nd; ++d) {
    if (slot[d] == None)
      continue;
    const Climb *c = &up[size_t(slot[d]) * nb];
    seen.clear();
    for (uint32_t i = 0; i < nb; ++i)
      if (c[i].lat >= 0)
        seen.push_back(i);
    double sw = switchLatency(d);
    for (size_t x = 0; x < seen.size(); ++x)
      for (size_t y = x; y < seen.size(); ++y) {
        const Climb &p = c[seen[x]], &q = c[seen[y]];
        double lat = p.lat + q.lat - sw;
        size_t at = size_t(seen[x]) * nb + seen[y]; // columns, seen[x] <= seen[y]
        if (lat > pair[at].latency)
          pair[at] = {lat, p.hops + q.hops - 1, p.len + q.len, d, p.nic + q.nic};
      }
  }
  // Columns are in first-GPU order; the matrix is listed in building order.
  for (uint32_t i = 0; i < F.buildings.size(); ++i)
    for (uint32_t j = i; j < F.buildings.size(); ++j) {
      if (column[i] == None || column[j] == None)
        continue;
      const ir::PathStats &p = pair[size_t(std::min(column[i], column[j])) * nb + std::max(column[i], column[j])];
      if (p.latency > 0)
        M.buildingPaths.push_back({i, j, p});
    }
  // Sites: the worst path between any building of one and any building of the other.
  size_t ns = F.sites.size();
  if (!ns)
    return;
  std::vector<ir::PathStats> sites(ns * ns);
  for (const ir::PlacePath &bp : M.buildingPaths) {
    uint32_t sa = F.buildings[bp.a].site, sb = F.buildings[bp.b].site;
    if (sa == None || sb == None)
      continue;
    ir::PathStats &into = sites[size_t(std::min(sa, sb)) * ns + std::max(sa, sb)];
    if (bp.path.latency > into.latency)
      into = bp.path;
  }
  for (uint32_t i = 0; i < ns; ++i)
    for (uint32_t j = i; j < ns; ++j)
      if (sites[size_t(i) * ns + j].latency > 0)
        M.sitePaths.push_back({i, j, sites[size_t(i) * ns + j]});
}

} // namespace fabc::analysis
