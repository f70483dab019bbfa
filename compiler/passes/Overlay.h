#pragma once
// The EVPN-VXLAN overlay EVPN multihoming runs on (part of the addressing pass, after the
// host addressing; docs/decisions/0511). Every switch of an EVPN-MH bond group is a VTEP
// whose source address is its loopback; its host VLANs map to VNIs; it and its routed
// neighbours (the spines that carry its BGP sessions) run BGP's l2vpn-evpn address family.
// Diagnostics W0400 (the overlay cannot be written) and E0405 (too many VNIs).
#include "ir/Fabric.h"

#include <vector>

namespace fabc {
class DiagEngine;

namespace passes {

// The VNI of VLAN `vlan` in the d-th EVPN domain (the switches joined by EVPN-MH bonds,
// numbered in the order of their lowest switch): 4096 * d + vlan, so that a VLAN of one
// ToR group is a broadcast domain of its own, and the VLAN reads off the VNI.
constexpr uint32_t kVniPerDomain = 4096;
constexpr uint32_t kMaxEvpnDomains = 4095; // 4094 * 4096 + 4094 < 2^24, VXLAN's 24-bit VNI
inline uint32_t overlayVni(uint32_t domain, uint32_t vlan) { return kVniPerDomain * domain + vlan; }

// Fills F.devEvpn and F.hostNetVni (left empty without an EVPN-MH bond group, or when the
// design gives the overlay nothing to carry: no host VLANs, W0400).
void planOverlay(ir::Fabric &F, DiagEngine &diags, const std::vector<uint8_t> &routed);

// The designated-forwarder preference of switch d on the Ethernet segment of bond b: the
// group's first switch 50000, the others FRR's and NVUE's default 32767.
inline uint32_t esDfPreference(const ir::Fabric &F, uint32_t bond, uint32_t d) {
  const ir::BondGroup &g = F.bondGroups[F.bonds[bond].group];
  return F.bondGroupSwitches[g.first] == d ? 50000 : 32767;
}

// A multi-chassis group's system MAC (the MLAG pair's, or the Ethernet segments' of an
// EVPN-MH group): 44:38:39:ff:00:00 + index + 1, NVIDIA's reserved range (decision 0441).
inline uint64_t groupSystemMac(uint32_t index) { return 0x443839ff0000ull + index + 1; }

} // namespace passes
} // namespace fabc
