#pragma once
// NVUE (Cumulus Linux 5.x): a switch's bonds (docs/decisions/0441), as the Cumulus Linux
// 5.15 user guide writes them (Bonding, MLAG, VRR, EVPN Multihoming): `interface bondN`
// with `bond: member`, for MC-LAG `bond: mlag: id` and the `peerlink` bond with the
// top-level `mlag` settings, for EVPN-MH the bond's `evpn: multihoming: segment` and the
// top-level `evpn: multihoming`.
#include "backends/Stream.h"
#include "backends/ethernet/Ethernet.h"
#include "backends/nvue/Dialect.h"

#include <vector>

namespace fabc::nvue {

struct SwitchBonds {
  struct Bond {
    uint32_t no = 0;             // bond<no>
    uint32_t bond = ir::None;    // ir::Bond index
    uint32_t link = ir::None;    // a member's link (the bond's address and subnet)
    std::vector<uint32_t> ports; // member ports on this switch
  };
  std::vector<Bond> bonds;       // by name as a string
  std::vector<uint32_t> peerPorts; // MC-LAG peer link's ports on this switch
  uint32_t peerDev = ir::None;     // the MC-LAG peer
  uint32_t mlagGroup = ir::None, evpnGroups = 0;

  void fill(const ir::Fabric &F, const std::vector<eth::Peer> &peers);
  // A port that is a bond member (of a GPU's bond or of the peer link).
  bool member(const ir::Fabric &F, uint32_t link) const {
    return !F.linkBondNo.empty() && (F.linkBondNo[link] || F.isPeerLink(link));
  }
};

// `bondN:` and `peerlink:` (with peerlink.4094) entries of `interface`, in name order:
// writeBonds before eth0, writePeerlink after lo.
void writeBonds(YamlWriter &y, const ir::Fabric &F, uint32_t d, const SwitchBonds &b, const Dialect &nv,
                uint32_t mtu, eth::HostNames &hosts);
void writePeerlink(YamlWriter &y, const ir::Fabric &F, const SwitchBonds &b, uint32_t mtu, eth::HostNames &hosts);
// A shared subnet's SVI (HostNet::shared): the switch's own address and the gateway as VRR.
void writeVrr(YamlWriter &y, const ir::HostNet &net, const Dialect &nv);
// The top-level `evpn` and `mlag` trees, when the switch has such bonds.
// The top-level `evpn` (also on a spine carrying the overlay's address family), a VTEP's
// `nve: vxlan` from its loopback, and `mlag`.
void writeEvpnMlag(YamlWriter &y, const ir::Fabric &F, uint32_t d, const SwitchBonds &b, const Dialect &nv);
// A host VLAN of br_default mapped to its VNI: `'VLAN': vni: 'VNI': {}`.
void writeVlanVni(YamlWriter &y, uint32_t vlan, uint32_t vni);

} // namespace fabc::nvue
