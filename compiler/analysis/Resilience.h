#pragma once
// Failure what-if and reachability on the topology (issue 18), measuring steps like those
// of analysis/Measure.h: they fill ir::Fabric::metrics.resilience before the validation
// checks that compare it with `policy resilience` and `policy rail_optimized`, and every
// output reads it. Closed-form or linear in links (docs/decisions/0055-failure-what-if-in-closed-form.md, "Failure
// what-if in closed form").
#include "analysis/Measure.h"
#include "ir/Fabric.h"

namespace fabc::analysis {
// The bisection and pod uplinks left after losing the worst switches of each tier (one,
// and as many as each `policy resilience` asks), the switch whose loss costs most, and
// every building-to-building span cut (needs measureTiers and the pods of
// measureLatency). `loads`: measureTiers' per-device sums (taken over).
void measureResilience(ir::Fabric &F, TierLoads &&loads);
// The switches whose loss cuts GPUs off (metrics.resilience.singlePoints and its counts).
// Reads only the IR's devices, ports, links and groups, none of the metrics.
void measureSinglePoints(ir::Fabric &F);
// Which GPU endpoints reach each other over the switches, only through NVLink, or not at
// all (metrics.resilience.reach). Reads none of the metrics either.
void measureReachability(ir::Fabric &F);
// The tier a `policy resilience` names (its `tier`, else the top tier); Tier::Unknown
// when it names no switch tier.
ir::Tier resilienceTier(const ir::Fabric &F, const ir::PolicyBlock &p);
} // namespace fabc::analysis
