// NVUE bonds (Bonds.h). Key spellings: the Cumulus Linux 5.15 user guide's Bonding - Link
// Aggregation, Multi-Chassis Link Aggregation - MLAG, Virtual Router Redundancy - VRR and
// EVPN Multihoming pages and their startup.yaml examples; on/off switches in the target
// release's dialect (Dialect.h). docs/decisions/0441.
#include "backends/nvue/Bonds.h"
#include "backends/nvue/Address.h"
#include "ir/Address.h"
#include "passes/Bonds.h"
#include "passes/HostAddressing.h"

#include <algorithm>

namespace fabc::nvue {
namespace {

using Kind = ir::Model::Bond;

const ir::BondGroup &groupOf(const ir::Fabric &F, uint32_t bond) { return F.bondGroups[F.bonds[bond].group]; }

// NVIDIA's range for MLAG system MACs and Ethernet segment MACs: 44:38:39:ff:00:00 onwards
// ("Use a MAC address from this range", MLAG; "the reserved MAC address range", EVPN-MH).
std::string groupMac(uint32_t index) { return ir::macString(0x443839ff0000ull + index + 1); }

std::string bondName(uint32_t no) { return "bond" + std::to_string(no); }

} // namespace

void SwitchBonds::fill(const ir::Fabric &F, const std::vector<eth::Peer> &peers) {
  bonds.clear();
  peerPorts.clear();
  peerDev = ir::None;
  mlagGroup = ir::None;
  evpnGroups = 0;
  if (F.bonds.empty())
    return;
  std::vector<uint32_t> byNo;
  for (const eth::Peer &p : peers) {
    if (F.isPeerLink(p.link)) {
      peerPorts.push_back(p.port);
      peerDev = p.peerDev;
      continue;
    }
    uint32_t no = F.linkBondNo[p.link];
    if (!no)
      continue;
    if (byNo.size() <= no)
      byNo.resize(no + 1, ir::None);
    if (byNo[no] == ir::None) {
      byNo[no] = uint32_t(bonds.size());
      bonds.push_back({no, F.bondOf(p.peerPort), p.link, {}});
    }
    bonds[byNo[no]].ports.push_back(p.port);
  }
  std::sort(bonds.begin(), bonds.end(), [](const Bond &a, const Bond &b) { return bondName(a.no) < bondName(b.no); });
  std::vector<uint8_t> seen(F.bondGroups.size(), 0);
  for (const Bond &b : bonds) {
    uint32_t g = F.bonds[b.bond].group;
    if (F.bondGroups[g].kind == uint8_t(Kind::McLag))
      mlagGroup = g;
    if (F.bondGroups[g].kind == uint8_t(Kind::EvpnMh) && !seen[g]++)
      ++evpnGroups;
  }
}

void writeBonds(YamlWriter &y, const ir::Fabric &F, uint32_t d, const SwitchBonds &sb, const Dialect &nv,
                uint32_t mtu, eth::HostNames &hosts) {
  TextBuffer t;
  for (const SwitchBonds::Bond &b : sb.bonds) {
    const ir::BondGroup &g = groupOf(F, b.bond);
    const ir::Bond &bond = F.bonds[b.bond];
    y.beginMap(bondName(b.no));
    y.beginMap("bond");
    y.scalar("lacp-rate", "fast"); // the hosts' bonds run lacp-rate fast too
    y.beginMap("member");
    for (uint32_t p : b.ports) {
      t.clear();
      eth::appendSwpName(t, eth::portInfo(F, p));
      y.emptyMap(view(t));
    }
    y.endMap();
    if (g.kind == uint8_t(Kind::McLag)) {
      y.beginMap("mlag");
      y.scalar(nv.state, nv.on);
      y.scalar("id", bond.local); // the same on both peers (passes/Bonds.h)
      y.endMap();
    }
    y.scalar("mode", "lacp");
    y.endMap();
    bool host = passes::isHostLink(F, b.link);
    if (host && F.hostScheme != ir::HostScheme::P2p) {
      y.beginMap("bridge");
      y.beginMap("domain");
      y.beginMap("br_default");
      y.scalar("access", F.hostNets[F.linkHostNet[b.link]].vlan);
      y.endMap();
      y.endMap();
      y.endMap();
    }
    t.clear();
    fmt::format_to(fmt::appender(t), "{} GPU {}", hosts(bond.device), bond.gpu);
    y.scalar("description", view(t));
    if (g.kind == uint8_t(Kind::EvpnMh)) {
      // The segment's ESI is type 3: the group's MAC and the bond's local id, the same on
      // every switch of the segment; the group's first switch is the designated forwarder.
      y.beginMap("evpn");
      y.beginMap("multihoming");
      y.beginMap("segment");
      y.scalar("df-preference", passes::groupSwitches(F, bond.group)[0] == d ? 50000 : 32767);
      y.scalar("local-id", bond.local);
      y.scalar("mac-address", groupMac(g.index));
      y.endMap();
      y.endMap();
      y.endMap();
    }
    if (host && F.hostScheme == ir::HostScheme::P2p) {
      nvue::writeIpv4(y, nv, t, passes::hostGateway(F, b.link), 31); // the bond's gateway: the /31's even address (LACP on one switch)
    }
    y.beginMap("link");
    y.scalar("mtu", mtu);
    y.endMap();
    y.scalar("type", "bond");
    y.endMap();
  }
}

void writePeerlink(YamlWriter &y, const ir::Fabric &F, const SwitchBonds &sb, uint32_t mtu, eth::HostNames &hosts) {
  if (sb.peerPorts.empty())
    return;
  TextBuffer t;
  y.beginMap("peerlink");
  y.beginMap("bond");
  y.beginMap("member");
  for (uint32_t p : sb.peerPorts) {
    t.clear();
    eth::appendSwpName(t, eth::portInfo(F, p));
    y.emptyMap(view(t));
  }
  y.endMap();
  y.endMap();
  y.beginMap("bridge"); // carries every VLAN of the bridge to the peer
  y.beginMap("domain");
  y.emptyMap("br_default");
  y.endMap();
  y.endMap();
  t.clear();
  fmt::format_to(fmt::appender(t), "MLAG peer link to {}", hosts(sb.peerDev));
  y.scalar("description", view(t));
  y.beginMap("link");
  y.scalar("mtu", mtu);
  y.endMap();
  y.scalar("type", "peerlink");
  y.endMap();
  // The peer link's VLAN 4094 subinterface, which clagd talks over (link-local).
  y.beginMap("peerlink.4094");
  y.scalar("base-interface", "peerlink");
  y.scalar("type", "sub");
  y.scalar("vlan", 4094);
  y.endMap();
}

void writeVrr(YamlWriter &y, const ir::HostNet &net, const Dialect &nv) {
  // "The VLAN interface must have a unique IP address for both the physical and virtual
  // interface" (VRR): the switch's own, and the gateway as the VRR address.
  TextBuffer t;
  writeAddress(y, t, net.base + 2 + net.member, net.len);
  y.beginMap("vrr");
  writeAddress(y, t, net.base + 1, net.len);
  y.scalar(nv.state, nv.on);
  y.endMap();
}

void writeVlanVni(YamlWriter &y, uint32_t vlan, uint32_t vni) {
  TextBuffer t;
  fmt::format_to(fmt::appender(t), "'{}'", vlan);
  y.beginMapRawKey(view(t));
  y.beginMap("vni");
  t.clear();
  fmt::format_to(fmt::appender(t), "'{}'", vni);
  y.emptyMapRawKey(view(t));
  y.endMap();
  y.endMap();
}

void writeEvpnMlag(YamlWriter &y, const ir::Fabric &F, uint32_t d, const SwitchBonds &sb, const Dialect &nv) {
  if (sb.evpnGroups || F.runsEvpn(d)) {
    y.beginMap("evpn");
    if (sb.evpnGroups) {
      y.beginMap("multihoming");
      y.scalar(nv.state, nv.on);
      y.endMap();
    }
    y.scalar(nv.state, nv.on);
    y.endMap();
  }
  if (F.isVtep(d)) {
    // The VTEP (Cumulus Linux 5.15, EVPN Basic Configuration / VXLAN Devices: `nv set nve
    // vxlan source address`, `nv set nve vxlan enable on`), its source the loopback.
    TextBuffer t;
    y.beginMap("nve");
    y.beginMap("vxlan");
    y.beginMap("source");
    appendIpv4(t, F.devLoopback[d]);
    y.scalar("address", view(t));
    y.endMap();
    y.scalar(nv.state, nv.on);
    y.endMap();
    y.endMap();
  }
  if (sb.mlagGroup == ir::None || sb.peerDev == ir::None)
    return;
  // The pair's session over peerlink.4094 (link-local), the peer's loopback as backup
  // (routed uplinks: "use the peer switch loopback address"), the pair's system MAC.
  y.beginMap("mlag");
  TextBuffer t;
  appendIpv4(t, F.devLoopback[sb.peerDev]);
  y.member("backup", view(t));
  y.scalar(nv.state, nv.on);
  y.scalar("mac-address", groupMac(F.bondGroups[sb.mlagGroup].index));
  y.scalar("peer-ip", "linklocal");
  y.endMap();
}

} // namespace fabc::nvue
