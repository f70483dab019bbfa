#pragma once
// Private to backends/sonic/: one switch's config_db.json writer. Sonic.cpp writes the
// ports, QoS and metadata tables and drives the table order; Routing.cpp writes the
// BGP, interface, VLAN and routing-policy tables, Acl.cpp the control-plane ACLs.
#include "backends/Common.h"
#include "backends/ethernet/Ethernet.h"
#include "backends/sonic/Tables.h"
#include "passes/Roce.h"

#include <string>
#include <string_view>
#include <vector>

namespace fabc::sonicdb {

inline const char *const kGroup = "FABRIC"; // the BGP peer group of every fabric session

// One switch's config_db.json, streamed table by table. ConfigDB keys are sorted (as
// `config save` writes them), so every table below comes in alphabetical order, its
// keys in string order (ports through the layout's SonicPortOrder, other keys sorted
// here) and its fields in alphabetical order as written.
class SwitchDb {
public:
  SwitchDb(const ir::Fabric &F, const Analyses &an, eth::HostNames &hosts, std::vector<eth::SonicPortOrder> &orders)
      : F(F), an(an), hosts(hosts), orders(orders) {}

  // `index`: the switch's position in EthernetPlan::switches (its MAC and management address).
  void write(TextBuffer &out, uint32_t d, uint32_t index, bool unnumbered, uint32_t mtu, const passes::RoceSettings &roce);

private:
  // Per port of the switch: its naming and, when connected, its peer.
  struct PortRow {
    eth::PortInfo info;
    char name[24];
    uint32_t nameLen;
    uint32_t peer; // index into peers_, or ir::None
    std::string_view sv() const { return {name, nameLen}; }
  };
  void fillPorts(uint32_t d);
  template <typename Fn> void eachPeer(const std::vector<uint32_t> &order, Fn fn) {
    for (uint32_t i : order)
      if (rows_[i].peer != ir::None)
        fn(rows_[i], peers_[rows_[i].peer]);
  }
  template <typename Fn> void eachRouted(const std::vector<uint32_t> &order, Fn fn) {
    eachPeer(order, [&](const PortRow &r, const eth::Peer &p) {
      if (p.routed)
        fn(r, p);
    });
  }
  std::string_view key(TextBuffer &b) { return {b.data(), b.size()}; }
  // ACL_RULE, ACL_TABLE: policy management's mgmt_allow as control-plane ACLs (Acl.cpp).
  void aclTables(JsonWriter &j, const std::vector<uint32_t> &order, bool unnumbered);
  // BGP_GLOBALS ... BGP_PEER_GROUP_AF, in Routing.cpp with the other routing tables.
  void bgpTables(JsonWriter &j, uint32_t d, std::string_view loopback, bool unnumbered);
  void bgpNeighbors(JsonWriter &j, bool unnumbered, bool af);
  void interfaces(JsonWriter &j, bool unnumbered);
  void vlanTables(JsonWriter &j, uint32_t d);
  // Bonds.cpp: the switch's port channels (its GPUs' bonds and an MC-LAG peer link).
  struct Channel {
    uint32_t no = 0;            // PortChannel<no>
    uint32_t bond = ir::None;   // ir::Bond index, None for the peer link
    uint32_t link = ir::None;   // a member's link (the bond's address and subnet)
    std::vector<uint32_t> rows; // members, as indices into rows_
  };
  void fillChannels();
  static std::string channelName(uint32_t no) { return "PortChannel" + std::to_string(no); }
  // The port channel a row is a member of, or nullptr.
  const Channel *channelOf(uint32_t row) const;
  void evpnSegments(JsonWriter &j);         // EVPN_ETHERNET_SEGMENT
  // VXLAN_EVPN_NVO, VXLAN_TUNNEL, VXLAN_TUNNEL_MAP: a VTEP's overlay (decision 0511).
  void vxlanTables(JsonWriter &j, uint32_t d, std::string_view loopback);
  void mclagTables(JsonWriter &j);          // MCLAG_DOMAIN, MCLAG_INTERFACE
  void portChannelTables(JsonWriter &j, uint32_t mtu); // PORTCHANNEL, _INTERFACE, _MEMBER
  std::vector<Channel> channels_;           // sorted by name (as strings)
  std::vector<uint32_t> rowChannel_;        // per row: index into channels_, or None

  const ir::Fabric &F;
  const Analyses &an;
  eth::HostNames &hosts;
  std::vector<eth::SonicPortOrder> &orders;
  sonic::PortNames names_;
  uint32_t dev_ = 0;
  bool anyRouted_ = false;
  std::vector<PortRow> rows_;
  std::vector<eth::Peer> peers_;
  TextBuffer tmp_, tmp2_, keyb_;
  std::vector<std::pair<std::string, uint32_t>> sorted_; // numbered keys, sorted per switch
};

// A switch's routing policy (F.routePolicyOf: its addressing domain's, decision 0521):
// PREFIX_SET/PREFIX and ROUTE_MAP_SET/ROUTE_MAP.
void prefixTables(JsonWriter &j, const std::vector<ir::PrefixRule> &policy);
void routeMapTables(JsonWriter &j, const std::vector<ir::PrefixRule> &policy);

} // namespace fabc::sonicdb
