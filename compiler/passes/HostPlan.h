#pragma once
// The host addressing plan as policy addressing states it (host_pool, host_scheme,
// host_subnet_len, host_vlan), read and checked for HostAddressing.cpp: split from it to
// keep each file under 600 lines.
#include "ir/Fabric.h"
#include "passes/HostAddressing.h"

namespace fabc {
class DiagEngine;

namespace passes {

struct HostPlan {
  ir::HostScheme scheme = ir::HostScheme::None;
  uint32_t base = 0;
  unsigned len = 0;
  unsigned subnetLen = 0; // 0: the smallest that holds the largest leaf (or rail)
  uint32_t vlan = 100;
  SourceRange poolLoc, schemeLoc, lenLoc, vlanLoc;
};

// Reads the host keys of policy addressing; false after E0105 or E0144.
bool readHostPlan(const ir::Fabric &F, DiagEngine &diags, HostPlan &plan);
// Whether two prefixes share an address.
bool overlaps(uint64_t a, unsigned alen, uint64_t b, unsigned blen);
// FAB-E0142: the host pool shares addresses with a fabric pool or an explicit loopback.
bool checkHostOverlaps(const ir::Fabric &F, DiagEngine &diags, const HostPlan &plan, const FabricPools &pools,
                       const std::vector<uint8_t> &routed);

} // namespace passes
} // namespace fabc
