// SONiC: a switch's port channels (docs/decisions/0441). Each bond of its GPUs is one
// PortChannel of the member ports on this switch (sonic-portchannel.yang), numbered as
// the bonds pass numbers them (passes/Bonds.h), the same on both MC-LAG peers; an MC-LAG
// pair's peer link is one more PortChannel, tagged in the host VLANs, and the pair one
// MCLAG_DOMAIN (sonic-mclag.yang); an EVPN multihoming bond is an Ethernet segment
// (sonic-evpn.yang, EVPN_ETHERNET_SEGMENT).
#include "backends/sonic/SwitchDb.h"
#include "ir/Address.h"
#include "passes/Bonds.h"
#include "passes/HostAddressing.h"

#include <algorithm>

namespace fabc::sonicdb {

void SwitchDb::fillChannels() {
  channels_.clear();
  rowChannel_.assign(rows_.size(), ir::None);
  if (F.bonds.empty())
    return;
  uint32_t base = F.devPortBase[dev_], top = 0;
  std::vector<uint32_t> byNo; // bond number -> channel index
  auto add = [&](uint32_t no, uint32_t bond, const eth::Peer &p) {
    if (byNo.size() <= no)
      byNo.resize(no + 1, ir::None);
    if (byNo[no] == ir::None) {
      byNo[no] = uint32_t(channels_.size());
      channels_.push_back({no, bond, p.link, {}});
    }
    channels_[byNo[no]].rows.push_back(p.port - base);
  };
  for (const eth::Peer &p : peers_)
    if (uint32_t no = F.linkBondNo[p.link])
      top = std::max(top, no);
  for (const eth::Peer &p : peers_) {
    if (uint32_t no = F.linkBondNo[p.link])
      add(no, F.bondOf(p.peerPort), p);
    else if (F.isPeerLink(p.link))
      add(top + 1, ir::None, p); // the peer link: the number after the last bond
  }
  std::sort(channels_.begin(), channels_.end(),
            [](const Channel &a, const Channel &b) { return channelName(a.no) < channelName(b.no); });
  for (uint32_t c = 0; c < channels_.size(); ++c)
    for (uint32_t r : channels_[c].rows)
      rowChannel_[r] = c;
}

const SwitchDb::Channel *SwitchDb::channelOf(uint32_t row) const {
  return rowChannel_.empty() || rowChannel_[row] == ir::None ? nullptr : &channels_[rowChannel_[row]];
}

namespace {

const ir::BondGroup &groupOf(const ir::Fabric &F, uint32_t bond) { return F.bondGroups[F.bonds[bond].group]; }
bool is(const ir::BondGroup &g, ir::Model::Bond k) { return g.kind == uint8_t(k); }

// The group's system MAC: NVIDIA's range for MLAG and Ethernet segments, 44:38:39:ff:00:00
// onwards (Cumulus Linux user guide, MLAG and EVPN Multihoming), one per group.
std::string groupMac(uint32_t index) { return ir::macString(0x443839ff0000ull + index + 1); }

} // namespace

void SwitchDb::evpnSegments(JsonWriter &j) {
  bool any = false;
  for (const Channel &c : channels_)
    any |= c.bond != ir::None && is(groupOf(F, c.bond), ir::Model::Bond::EvpnMh);
  if (!any)
    return;
  // A type-3 (MAC-based) ESI, derived from the port channel's LACP system MAC and key
  // (PORTCHANNEL system_mac, lacp_key); the group's first switch is the designated forwarder.
  j.key("EVPN_ETHERNET_SEGMENT").beginObject();
  for (const Channel &c : channels_) {
    if (c.bond == ir::None || !is(groupOf(F, c.bond), ir::Model::Bond::EvpnMh))
      continue;
    j.key(channelName(c.no)).beginObject();
    j.key("df_pref").quotedInteger(passes::groupSwitches(F, F.bonds[c.bond].group)[0] == dev_ ? 50000 : 32767);
    j.key("esi").string("AUTO");
    j.key("type").string("TYPE_3_MAC_BASED");
    j.endObject();
  }
  j.endObject();
}

void SwitchDb::mclagTables(JsonWriter &j) {
  const Channel *peer = nullptr;
  for (const Channel &c : channels_)
    if (c.bond == ir::None)
      peer = &c;
  if (!peer)
    return;
  uint32_t other = peers_[rows_[peer->rows[0]].peer].peerDev;
  // One domain per switch (max-elements 1): the pair's session runs between the loopbacks,
  // which BGP reaches over the spines when the peer link is down.
  j.key("MCLAG_DOMAIN").beginObject();
  j.key("1").beginObject();
  j.key("peer_ip").string(ir::ipv4String(F.devLoopback[other]));
  j.key("peer_link").string(channelName(peer->no));
  j.key("source_ip").string(ir::ipv4String(F.devLoopback[dev_]));
  j.endObject();
  j.endObject();
  j.key("MCLAG_INTERFACE").beginObject();
  for (const Channel &c : channels_) {
    if (c.bond == ir::None || !is(groupOf(F, c.bond), ir::Model::Bond::McLag))
      continue;
    j.keyf("1|{}", channelName(c.no)).beginObject();
    j.key("if_type").string("PortChannel");
    j.endObject();
  }
  j.endObject();
}

void SwitchDb::portChannelTables(JsonWriter &j, uint32_t mtu) {
  if (channels_.empty())
    return;
  j.key("PORTCHANNEL").beginObject();
  for (const Channel &c : channels_) {
    j.key(channelName(c.no)).beginObject();
    j.key("admin_status").string("up");
    j.key("fast_rate").string("true"); // the hosts' bonds ask for lacp-rate fast
    bool es = c.bond != ir::None && is(groupOf(F, c.bond), ir::Model::Bond::EvpnMh);
    if (es) // the ESI's local part: the same key on every switch of the segment
      j.key("lacp_key").quotedInteger(F.bonds[c.bond].local);
    j.key("min_links").string("1");
    j.key("mtu").quotedInteger(mtu);
    if (es)
      j.key("system_mac").string(groupMac(groupOf(F, c.bond).index));
    j.endObject();
  }
  j.endObject();
  // A bond under host_scheme "p2p" (LACP on one switch): the /31 on its port channel.
  std::vector<std::string> keys;
  for (const Channel &c : channels_) {
    if (c.bond == ir::None || F.hostScheme != ir::HostScheme::P2p || !passes::isHostLink(F, c.link))
      continue;
    keys.push_back(channelName(c.no));
    keys.push_back(fmt::format("{}|{}/31", channelName(c.no), ir::ipv4String(passes::hostGateway(F, c.link))));
  }
  if (!keys.empty()) {
    std::sort(keys.begin(), keys.end());
    j.key("PORTCHANNEL_INTERFACE").beginObject();
    for (const std::string &k : keys)
      j.key(k).emptyObject();
    j.endObject();
  }
  keys.clear();
  for (const Channel &c : channels_)
    for (uint32_t r : c.rows)
      keys.push_back(fmt::format("{}|{}", channelName(c.no), rows_[r].sv()));
  std::sort(keys.begin(), keys.end());
  j.key("PORTCHANNEL_MEMBER").beginObject();
  for (const std::string &k : keys)
    j.key(k).emptyObject();
  j.endObject();
}

// The EVPN-VXLAN overlay of a VTEP (sonic-vxlan.yang): the tunnel "vtep" from the
// loopback, the EVPN NVO "nvo" on it, and each host VLAN mapped to its VNI
// ("vtep|map_<vni>_Vlan<id>", SONiC's naming), sorted as strings.
void SwitchDb::vxlanTables(JsonWriter &j, uint32_t d, std::string_view los) {
  if (!F.isVtep(d))
    return;
  j.key("VXLAN_EVPN_NVO").beginObject();
  j.key("nvo").beginObject();
  j.key("source_vtep").string("vtep");
  j.endObject();
  j.endObject();
  j.key("VXLAN_TUNNEL").beginObject();
  j.key("vtep").beginObject();
  j.key("src_ip").string(los);
  j.endObject();
  j.endObject();
  std::vector<std::pair<std::string, uint32_t>> maps;
  auto [first, last] = passes::hostNetsOf(F, d);
  for (uint32_t n = first; n < last; ++n)
    if (F.hostNetVni[n])
      maps.emplace_back(fmt::format("vtep|map_{}_Vlan{}", F.hostNetVni[n], F.hostNets[n].vlan), n);
  std::sort(maps.begin(), maps.end());
  maps.erase(std::unique(maps.begin(), maps.end(),
                         [](const auto &a, const auto &b) { return a.first == b.first; }),
             maps.end());
  j.key("VXLAN_TUNNEL_MAP").beginObject();
  for (const auto &[k, n] : maps) {
    j.key(k).beginObject();
    j.key("vlan").string(fmt::format("Vlan{}", F.hostNets[n].vlan));
    j.key("vni").quotedInteger(F.hostNetVni[n]);
    j.endObject();
  }
  j.endObject();
}

} // namespace fabc::sonicdb
