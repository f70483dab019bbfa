#pragma once
// The measuring steps: what the design measures, computed once from the IR into
// ir::Fabric::metrics, before the validation checks that compare it with the policies
// (passes/Validate.cpp) and for every output that prints it. They report nothing: a
// check never fills a figure, a measurement never reports
// (docs/decisions/0011-analyses-are-computed-once-in-the-compiler.md).
#include "ir/Fabric.h"

namespace fabc::analysis {
// GPUs and systems.
void countSystems(ir::Fabric &F);
// NVLink domains: the nvlink groups, and the domains inside systems outside any group.
void measureNvLink(ir::Fabric &F);
// The tier summary: switches, bandwidth up and down, the worst oversubscription per
// tier, the top tier, and the bisection estimate.
void measureTiers(ir::Fabric &F);
// The bandwidth up and down of every device (b/s), as measureTiers sums them.
struct TierLoads {
  std::vector<double> down, up;
};
// measureTiers, keeping its per-device sums for measureResilience (decision 0541).
void measureTiers(ir::Fabric &F, TierLoads &keep);
// The links that climb from a tier into the next one up, which the latency measures
// relax tier by tier from the GPUs (decision 0011): per link, the tier index it climbs
// into, 0 if it joins no two adjacent tiers. Found once for both measures, in one pass
// over the links (each measure made one pass per tier: six at a million GPUs).
struct Climbs {
  std::vector<uint8_t> into;
  // fn(link, lower end, upper end) for every climbing link: the tiers from the bottom,
  // each tier's links in link order.
  template <typename Fn> void forEach(const ir::Fabric &F, Fn &&fn) const {
    for (unsigned k = 1; k < ir::NumTiers; ++k) {
      if (!(present >> k & 1))
        continue;
      for (uint32_t l = 0; l < uint32_t(into.size()); ++l) {
        if (into[l] != k)
          continue;
        uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
        bool aBelow = ir::tierIndex(F.devTier[a]) == k - 1;
        fn(l, aBelow ? a : b, aBelow ? b : a);
      }
    }
  }
  uint32_t present = 0; // a bit per tier index some link climbs into
};
Climbs findClimbs(const ir::Fabric &F);
// Worst GPU-to-GPU latency paths: overall, within a pod, across buildings (needs the
// top tier from measureTiers).
void measureLatency(ir::Fabric &F, const Climbs &climbs);
// The round-trip latency matrix: the worst one-way GPU-to-GPU path between every two
// buildings holding GPUs (and every two sites), Metrics::buildingPaths and sitePaths.
void measureLatencyMatrix(ir::Fabric &F, const Climbs &climbs);
// What a figure of the latency matrix covers, as summary.json and the report say it.
inline constexpr const char *kLatencyMatrixCovers =
    "round trip between GPUs placed in the two places: twice the worst one-way GPU-to-GPU path between them over the "
    "switches (where it turns, the path climbs the worst way from each side); fibre at 4.9 us/km over the cable routes "
    "(spans included), each switch at its port-to-port latency, the NIC latency at both ends; not counted: queueing, "
    "serialization, retransmission, DCI amplifiers or transponders";
// All of them: measureBeside beside measureRest.
void measure(ir::Fabric &F);
// The reachability and the single points (walks over the whole device graph, the two
// longest measures at a million GPUs), then the groups' and the racks' counts. They read
// only the devices, ports, links, groups, racks and tiers, which nothing after the tiers
// pass writes, and write only their own metrics (their parts of metrics.resilience, the
// group stats, the rack counts), which no other measure reads. So they may run from the
// tiers pass on, beside the other passes (runPasses) and the other measures.
void measureBeside(ir::Fabric &F);
// The other measures, in order.
void measureRest(ir::Fabric &F);
// The measures that read what the physical passes compute (lengths, media, transceivers,
// power): the latency paths and matrix (the lengths) and the policies' scopes (the
// power). The others read the devices, links, groups, tiers and speeds only. On an IR
// that measure() has measured, after the physical passes ran again with new lengths,
// this leaves the metrics measure() would (decision 0651;
// tests/unit/RerunPassesTest.cpp checks it): measureLatencies, then measureScopes
// (analysis/Scopes.h), which reads the power.
void measurePhysical(ir::Fabric &F);
// The latency paths and matrix: of the physical facts they read the lengths only, and
// they write only their own metrics (the pods, the paths), so they may run while the
// media, transceivers and power passes run (rerunPasses).
void measureLatencies(ir::Fabric &F);
// What a pod is (docs/language.md, group): the pod groups, else the su groups, else
// Other (the whole fabric is one pod). Read from the groups, so that a pass before the
// measures (addressing's domains) and the measures agree.
ir::GroupKind podKindOf(const ir::Fabric &F);
} // namespace fabc::analysis
