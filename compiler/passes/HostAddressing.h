#pragma once
// Host-facing addressing (part of the addressing pass): the addresses of the GPU NICs on
// their leaves, from policy addressing's host_pool and host_scheme, and the routing
// policy every fabric BGP session applies (loopbacks and host subnets only, in and out).
// The backends read the results from the IR (linkHostAddr, linkHostNet, hostNets,
// routePolicies) through the helpers below and never recompute them.
#include "ir/Fabric.h"

#include <utility>
#include <vector>

namespace fabc {
class DiagEngine;

namespace passes {
struct AddressDomains;

// The fabric pools as the addressing plan read them, for the overlap checks and the
// loopback prefix-list.
struct FabricPools {
  uint32_t lbBase = 0, p2pBase = 0;
  unsigned lbLen = 32, p2pLen = 32;
  SourceRange lbLoc, p2pLoc, policyLoc;
  bool numbered = false;
};

// An end-system port of its device's first port group (the GPU NICs, by the convention
// of FAB-W0100) linked to a routed switch: a NIC the host scheme addresses.
bool isNicPort(const ir::Fabric &F, uint32_t port);
// The ports a NIC can be on: device d's first port group, [first, last) (empty without one).
std::pair<uint32_t, uint32_t> nicPortRange(const ir::Fabric &F, uint32_t d);
// The NIC's rail: the GPU it serves, its index in the port group over ports_per_gpu (cx[3]
// is rail 3 with one port per GPU, rail 1 with two: GPU 1's port in the second plane).
uint32_t nicRail(const ir::Fabric &F, uint32_t port);

// Reads host_pool, host_scheme, host_subnet_len and host_vlan, checks them (E0105,
// E0140..E0143) and fills F.hostScheme, F.linkHostAddr, F.linkHostNet and F.hostNets.
// With addressing domains (decision 0521) the host pool is cut as the loopback pool is,
// each domain's NICs numbered from its slice (E0435, E0436), recorded in
// F.addressDomains' host slices.
void assignHostAddresses(ir::Fabric &F, DiagEngine &diags, const FabricPools &pools, const AddressDomains &dom,
                         const std::vector<uint8_t> &routed);
// Fills F.routePolicies (RoutePolicy.cpp), one per domain: the domain's loopback slice
// (and its switches' explicit loopbacks outside it) as /32s, its host slice at the host
// subnets' length. The shared plan's one domain: the whole pools.
void buildRoutePolicy(ir::Fabric &F, const FabricPools &pools, const AddressDomains &dom,
                      const std::vector<uint8_t> &routed);
// The host pool a NIC link is numbered from: its leaf's domain's slice (the whole pool
// for the shared plan), as base and length.
std::pair<uint32_t, unsigned> hostPoolOf(const ir::Fabric &F, uint32_t link);

// For a link with a host address (F.linkHostAddr[link] != 0):
inline bool isHostLink(const ir::Fabric &F, uint32_t link) {
  return !F.linkHostAddr.empty() && F.linkHostAddr[link] != 0;
}
uint32_t hostPrefixLen(const ir::Fabric &F, uint32_t link);
uint32_t hostGateway(const ir::Fabric &F, uint32_t link); // the leaf's address: /31 peer or SVI
uint32_t hostSubnet(const ir::Fabric &F, uint32_t link);  // the network address
// The NIC end and the leaf end of a host link.
uint32_t nicPortOf(const ir::Fabric &F, uint32_t link);
// The subnets of a leaf in F.hostNets, [first, last) (Leaf and Rail schemes).
std::pair<uint32_t, uint32_t> hostNetsOf(const ir::Fabric &F, uint32_t leaf);

} // namespace passes
} // namespace fabc
