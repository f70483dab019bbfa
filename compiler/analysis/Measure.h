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
// Worst GPU-to-GPU latency paths: overall, within a pod, across buildings (needs the
// top tier from measureTiers).
void measureLatency(ir::Fabric &F);
// The round-trip latency matrix: the worst one-way GPU-to-GPU path between every two
// buildings holding GPUs (and every two sites), Metrics::buildingPaths and sitePaths.
void measureLatencyMatrix(ir::Fabric &F);
// What a figure of the latency matrix covers, as summary.json and the report say it.
inline constexpr const char *kLatencyMatrixCovers =
    "round trip between GPUs placed in the two places: twice the worst one-way GPU-to-GPU path between them over the "
    "switches (where it turns, the path climbs the worst way from each side); fibre at 4.9 us/km over the cable routes "
    "(spans included), each switch at its port-to-port latency, the NIC latency at both ends; not counted: queueing, "
    "serialization, retransmission, DCI amplifiers or transponders";
// The tiers the devices have, a bit per tierIndex (Unknown has none): the climbs of
// measureLatency and measureLatencyMatrix skip a step whose two tiers are not both there.
uint32_t tiersPresent(const ir::Fabric &F);
// All of them, in order.
void measure(ir::Fabric &F);
} // namespace fabc::analysis
