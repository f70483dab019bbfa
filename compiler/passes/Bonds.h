#pragma once
// Bonds (part of the addressing pass): a GPU of a system model with `bond` has one bond of
// its ports of the first port group that reach a routed switch. The pass groups the bonds
// by the switches they land on (ir::BondGroup), numbers them on each switch (the port
// channel / bond interface), marks the MC-LAG peer links, and joins the switches that
// share bonds into one L2 domain (bondDomain), the unit a host subnet spans.
// Diagnostics E0400..E0404 and W0401 (docs/diagnostics.md; W0400 in Overlay.h); the decision: docs/decisions/0441.
#include "ir/Fabric.h"

#include <vector>

namespace fabc {
class DiagEngine;

namespace passes {

// Fills F.bonds, F.bondGroups, F.bondGroupSwitches, F.portBond, F.linkBondNo and
// F.linkPeerLink (all left empty when no system model declares a bond).
void planBonds(ir::Fabric &F, DiagEngine &diags, const std::vector<uint8_t> &routed);

// Per device: the lowest switch of the switches joined to it by multi-chassis bonds (its
// own index when none): the switches whose host subnets are one, shared. Empty without bonds.
std::vector<uint32_t> bondDomains(const ir::Fabric &F);

// The switches of bond group g.
inline const uint32_t *groupSwitches(const ir::Fabric &F, uint32_t g) {
  return F.bondGroupSwitches.data() + F.bondGroups[g].first;
}

} // namespace passes
} // namespace fabc
