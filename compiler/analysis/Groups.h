#pragma once
// Counts per group: every non-NVLink group's GPUs, switches and links (a plane's GPUs
// are the GPU endpoints with a port in it), a plane's bisection and the GPUs missing
// from it, and the racks' counts. docs/language.md (group) defines what each counts.
#include "ir/Fabric.h"

namespace fabc::analysis {

void measureGroups(ir::Fabric &F);

} // namespace fabc::analysis
