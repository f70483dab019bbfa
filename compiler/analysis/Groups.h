#pragma once
// Counts per group: every non-NVLink group's GPUs, switches and links (a plane's GPUs
// are the GPU endpoints with a port in it), a plane's bisection and the GPUs missing
// from it, and the racks' counts. docs/language.md (group) defines what each counts.
#include "ir/Fabric.h"

namespace fabc::analysis {

void measureGroups(ir::Fabric &F);

// A switch of the network: one the tier pass placed in a switch tier, or of a switch model
// (an untiered one counts: groups, scopes and failure analyses rate every switch).
inline bool isSwitch(const ir::Fabric &F, uint32_t d) {
  return ir::isSwitchTier(F.devTier[d]) || F.modelOf(d).kind == ir::ModelKind::Switch;
}

} // namespace fabc::analysis
