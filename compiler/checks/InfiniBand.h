#pragma once
// The InfiniBand output's checks, shared by the whole fabric's (checks/InfiniBand.cpp)
// and its planes' (checks/InfiniBandPlanes.cpp).
#include "analysis/OutputPlans.h"
#include "ir/Fabric.h"

#include <string>

namespace fabc {
class DiagEngine;

namespace checks {
// OpenSM's routing_engine for subnet `s` (its switches and topTier set): policy
// infiniband's, checked (FAB-E0350, E0351), else the default. `where` names the subnet
// in E0351's message ("this InfiniBand fabric").
bool ibRoutingEngine(const ir::Fabric &F, InfinibandSubnet &s, DiagEngine &diags, const std::string &where);

// With planes of InfiniBand switches, one subnet per plane (FAB-E0410..E0414, W0410):
// fills v.planes from the whole fabric's lists, which checkInfiniband drew. Leaves
// v.planes empty when no plane holds an InfiniBand switch.
bool splitInfinibandPlanes(const ir::Fabric &F, InfinibandPlan &v, DiagEngine &diags);
} // namespace checks
} // namespace fabc
