// SONiC's routing tables of one switch (the SwitchDb of SwitchDb.h): BGP through frrcfgd
// (sonic-bgp-*), INTERFACE, VLAN*, and the routing policy (sonic-routing-policy-sets,
// sonic-route-map). Keys sorted as `config save` writes them.
#include "backends/sonic/SwitchDb.h"
#include "ir/Address.h"
#include "passes/Addressing.h"
#include "passes/HostAddressing.h"

#include <algorithm>
#include <string>

namespace fabc::sonicdb {

// BGP_GLOBALS, BGP_GLOBALS_AF, BGP_GLOBALS_AF_NETWORK, BGP_NEIGHBOR(_AF) and
// BGP_PEER_GROUP(_AF): eBGP in one peer group, frrcfgd's tables.
void SwitchDb::bgpTables(JsonWriter &j, uint32_t d, std::string_view los, bool unnumbered) {
  j.key("BGP_GLOBALS").beginObject();
  j.key("default").beginObject();
  j.key("load_balance_mp_relax").string("true");
  j.key("local_asn").quotedInteger(F.devAsn[d]);
  j.key("log_nbr_state_changes").string("true");
  j.key("router_id").string(los);
  j.endObject();
  j.endObject();

  j.key("BGP_GLOBALS_AF").beginObject();
  j.key("default|ipv4_unicast").beginObject();
  j.key("max_ebgp_paths").string("64");
  j.endObject();
  if (F.isVtep(d)) { // the EVPN-VXLAN overlay's VTEP advertises its VNIs (decision 0511)
    j.key("default|l2vpn_evpn").beginObject();
    j.key("advertise-all-vni").string("true");
    j.endObject();
  }
  j.endObject();

  j.key("BGP_GLOBALS_AF_NETWORK").beginObject();
  {
    // The loopback and this leaf's host subnets, sorted as strings.
    std::vector<std::string> nets{fmt::format("default|ipv4_unicast|{}/32", los)};
    for (const eth::Peer &p : peers_)
      if (!p.routed && F.hostScheme == ir::HostScheme::P2p && passes::isHostLink(F, p.link))
        nets.push_back(fmt::format("default|ipv4_unicast|{}/31", ir::ipv4String(passes::hostSubnet(F, p.link))));
    auto [fn, ln] = passes::hostNetsOf(F, d);
    for (uint32_t n = fn; n < ln; ++n)
      nets.push_back(fmt::format("default|ipv4_unicast|{}/{}", ir::ipv4String(F.hostNets[n].base),
                                 unsigned(F.hostNets[n].len)));
    std::sort(nets.begin(), nets.end());
    nets.erase(std::unique(nets.begin(), nets.end()), nets.end()); // a bond's members share its /31
    for (const std::string &k : nets)
      j.key(k).emptyObject();
  }
  j.endObject();

  if (anyRouted_) {
    j.key("BGP_NEIGHBOR").beginObject();
    bgpNeighbors(j, unnumbered, false);
    j.endObject();
    j.key("BGP_NEIGHBOR_AF").beginObject();
    bgpNeighbors(j, unnumbered, true);
    j.endObject();
  }

  j.key("BGP_PEER_GROUP").beginObject();
  j.keyf("default|{}", kGroup).beginObject();
  j.key("admin_status").string("up");
  if (!an.bgp.password.empty()) // policy bgp password: sonic-bgp-common.yang's auth_password (TCP-MD5)
    j.key("auth_password").string(an.bgp.password);
  if (an.bfd.enabled)
    j.key("bfd").string("true"); // FRR's BFD timers (the sonic check allows no others)
  if (unnumbered)
    j.key("capability_ext_nexthop").string("true"); // IPv4 routes over IPv6 next hops
  j.key("peer_type").string("external");
  j.endObject();
  j.endObject();

  j.key("BGP_PEER_GROUP_AF").beginObject();
  j.keyf("default|{}|ipv4_unicast", kGroup).beginObject();
  j.key("admin_status").string("up");
  if (an.bgp.enabled && an.bgp.maxPrefix) { // sonic-bgp-common.yang: max_prefix_limit (uint32)
    j.key("max_prefix_limit").quotedInteger(an.bgp.maxPrefix);
    if (an.bgp.warningOnly)
      j.key("max_prefix_warning_only").string("true");
  }
  j.key("route_map_in").beginArray(JsonLayout::Inline);
  j.string("FABRIC_IN");
  j.endArray();
  j.key("route_map_out").beginArray(JsonLayout::Inline);
  j.string("FABRIC_OUT");
  j.endArray();
  j.endObject();
  if (F.runsEvpn(d)) { // BGP's l2vpn-evpn address family on every session (decision 0511)
    j.keyf("default|{}|l2vpn_evpn", kGroup).beginObject();
    j.key("admin_status").string("up");
    j.endObject();
  }
  j.endObject();
}

// BGP_NEIGHBOR / BGP_NEIGHBOR_AF: "default|<port>" (unnumbered) or "default|<peer /31
// address>" (numbered), the latter sorted as strings.
void SwitchDb::bgpNeighbors(JsonWriter &j, bool unnumbered, bool af) {
  auto entry = [&](std::string_view k, const PortRow &r, const eth::Peer &p) {
    keyb_.clear();
    append(keyb_, "default|");
    append(keyb_, k);
    if (af) {
      append(keyb_, "|ipv4_unicast");
      j.key(key(keyb_)).beginObject();
      j.key("admin_status").string("up");
      j.endObject();
      return;
    }
    j.key(key(keyb_)).beginObject();
    j.key("admin_status").string("up");
    if (!unnumbered) {
      j.key("asn").quotedInteger(F.devAsn[p.peerDev]);
      tmp2_.clear();
      appendIpv4(tmp2_, eth::localAddress(F, p));
      j.key("local_addr").string(key(tmp2_));
    }
    j.key("name").string(hosts(p.peerDev));
    j.key("peer_group_name").string(kGroup);
    j.endObject();
    (void)r;
  };
  const eth::SonicPortOrder &o = eth::sonicPortOrder(F, dev_, orders);
  if (unnumbered) {
    eachRouted(af ? o.piped : o.plain, [&](const PortRow &r, const eth::Peer &p) { entry(r.sv(), r, p); });
    return;
  }
  sorted_.clear();
  eachRouted(o.plain, [&](const PortRow &r, const eth::Peer &p) {
    tmp_.clear();
    appendIpv4(tmp_, eth::peerAddress(F, p));
    if (af)
      tmp_.push_back('|');
    sorted_.emplace_back(std::string(tmp_.data(), tmp_.size()), uint32_t(&r - rows_.data()));
  });
  std::sort(sorted_.begin(), sorted_.end());
  for (auto &[k, i] : sorted_) {
    std::string_view ks = k;
    if (af)
      ks.remove_suffix(1);
    entry(ks, rows_[i], peers_[rows_[i].peer]);
  }
}

// INTERFACE: unnumbered, "<port>": {ipv6_use_link_local_only}; numbered, "<port>" and
// "<port>|<address>/31"; host ports of the /31 scheme, "<port>" and "<port>|<gateway>/31";
// all sorted together as strings.
void SwitchDb::interfaces(JsonWriter &j, bool unnumbered) {
  const eth::SonicPortOrder &o = eth::sonicPortOrder(F, dev_, orders);
  sorted_.clear();
  eachPeer(o.plain, [&](const PortRow &r, const eth::Peer &p) {
    bool host = !p.routed && F.hostScheme == ir::HostScheme::P2p && passes::isHostLink(F, p.link);
    if ((!p.routed && !host) || (host && channelOf(uint32_t(&r - rows_.data()))))
      return; // a bonded NIC's /31 is on its port channel (PORTCHANNEL_INTERFACE)
    sorted_.emplace_back(std::string(r.sv()), p.routed && unnumbered ? 1 : 0);
    if (p.routed && unnumbered)
      return;
    tmp_.clear();
    append(tmp_, r.sv());
    tmp_.push_back('|');
    appendIpv4(tmp_, host ? passes::hostGateway(F, p.link) : eth::localAddress(F, p));
    append(tmp_, "/31");
    sorted_.emplace_back(std::string(tmp_.data(), tmp_.size()), 0);
  });
  std::sort(sorted_.begin(), sorted_.end());
  for (auto &e : sorted_) {
    if (!e.second) {
      j.key(e.first).emptyObject();
      continue;
    }
    j.key(e.first).beginObject();
    j.key("ipv6_use_link_local_only").string("enable");
    j.endObject();
  }
}

// VLAN, VLAN_INTERFACE, VLAN_MEMBER: the host subnets of the leaf and rail schemes, one
// VLAN with its SVI ("VlanN|gateway/len") each, the NICs' ports untagged members.
void SwitchDb::vlanTables(JsonWriter &j, uint32_t d) {
  auto [first, last] = passes::hostNetsOf(F, d);
  if (first == last)
    return;
  std::vector<std::string> keys;
  for (uint32_t n = first; n < last; ++n)
    keys.push_back(fmt::format("Vlan{}", F.hostNets[n].vlan));
  std::vector<uint32_t> order(keys.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  j.key("VLAN").beginObject();
  for (uint32_t i : order) {
    j.key(keys[i]).beginObject();
    j.key("vlanid").quotedInteger(F.hostNets[first + i].vlan);
    j.endObject();
  }
  j.endObject();
  std::vector<std::string> svis;
  for (uint32_t i = 0; i < keys.size(); ++i) {
    const ir::HostNet &net = F.hostNets[first + i];
    svis.push_back(keys[i]);
    svis.push_back(fmt::format("{}|{}/{}", keys[i], ir::ipv4String(net.base + 1), unsigned(net.len)));
  }
  std::sort(svis.begin(), svis.end());
  j.key("VLAN_INTERFACE").beginObject();
  for (const std::string &k : svis)
    j.key(k).emptyObject();
  j.endObject();
  // A bonded NIC's VLAN member is its port channel; an MC-LAG peer link carries every
  // host VLAN of the switch, tagged (the second field: 1).
  std::vector<std::pair<std::string, bool>> members;
  for (const eth::Peer &p : peers_) {
    if (p.routed || !passes::isHostLink(F, p.link))
      continue;
    const Channel *c = channelOf(p.port - F.devPortBase[d]);
    members.emplace_back(fmt::format("Vlan{}|{}", F.hostNets[F.linkHostNet[p.link]].vlan,
                                     c ? channelName(c->no) : eth::sonicPortName(eth::portInfo(F, p.port))),
                         false);
  }
  for (const Channel &c : channels_)
    if (c.bond == ir::None)
      for (uint32_t n = first; n < last; ++n)
        members.emplace_back(fmt::format("Vlan{}|{}", F.hostNets[n].vlan, channelName(c.no)), true);
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  j.key("VLAN_MEMBER").beginObject();
  for (const auto &[k, tagged] : members) {
    j.key(k).beginObject();
    j.key("tagging_mode").string(tagged ? "tagged" : "untagged");
    j.endObject();
  }
  j.endObject();
}

// A switch's routing policy (its domain's, F.routePolicyOf): PREFIX_SET/PREFIX and
// ROUTE_MAP_SET/ROUTE_MAP, the tables frrcfgd renders as ip prefix-list and route-map
// (sonic-routing-policy-sets, sonic-route-map).
const char *const kLists[2] = {"FABRIC_LOOPBACKS", "FABRIC_HOSTS"};

void prefixTables(JsonWriter &j, const std::vector<ir::PrefixRule> &policy) {
  std::vector<std::string> keys;
  unsigned seq[2] = {0, 0};
  for (const ir::PrefixRule &r : policy) {
    std::string range = r.ge > r.len ? fmt::format("{}..{}", unsigned(r.ge), unsigned(r.le)) : "exact";
    keys.push_back(fmt::format("{}|{}|{}/{}|{}", kLists[r.list], seq[r.list] += 10, ir::ipv4String(r.base),
                               unsigned(r.len), range));
  }
  std::sort(keys.begin(), keys.end());
  j.key("PREFIX").beginObject();
  for (const std::string &k : keys) {
    j.key(k).beginObject();
    j.key("action").string("permit");
    j.endObject();
  }
  j.endObject();
  j.key("PREFIX_SET").beginObject();
  for (unsigned l : {1u, 0u}) // sorted: FABRIC_HOSTS, FABRIC_LOOPBACKS
    if (seq[l]) {
      j.key(kLists[l]).beginObject();
      j.key("mode").string("IPv4");
      j.endObject();
    }
  j.endObject();
}

void routeMapTables(JsonWriter &j, const std::vector<ir::PrefixRule> &policy) {
  bool used[2] = {false, false};
  for (const ir::PrefixRule &r : policy)
    used[r.list] = true;
  j.key("ROUTE_MAP").beginObject();
  for (const char *map : {"FABRIC_IN", "FABRIC_OUT"}) {
    unsigned n = 0;
    for (unsigned l = 0; l < 2; ++l) {
      if (!used[l])
        continue;
      j.keyf("{}|{}", map, n += 10).beginObject();
      j.key("match_prefix_set").string(kLists[l]);
      j.key("route_operation").string("permit");
      j.endObject();
    }
  }
  j.endObject();
  j.key("ROUTE_MAP_SET").beginObject();
  j.key("FABRIC_IN").emptyObject();
  j.key("FABRIC_OUT").emptyObject();
  j.endObject();
}

} // namespace fabc::sonicdb
