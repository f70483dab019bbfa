// SONiC's control-plane ACL from policy management's mgmt_allow (decision 0461): tables of
// type CTRLPLANE, which caclmgrd (sonic-host-services, scripts/caclmgrd) turns into
// iptables INPUT rules. For each service a table lists, each rule becomes an ACCEPT of
// the service's protocols and port from SRC_IP (SSH: TCP 22; SNMP: TCP and UDP 161;
// NTP: UDP 123); once any such rule exists, caclmgrd ends INPUT with a DROP of everything
// it has not accepted, for IPv4 and IPv6 alike. Before its table rules it accepts, for
// everyone: loopback, established and related traffic, ICMP echo and errors, ICMPv6
// neighbour discovery, DHCP, and BGP (TCP 179) on every port but eth0; BFD only after a
// session appears in STATE_DB's BFD_SESSION_TABLE (hardware BFD). FRR's software BFD,
// which the fabric's sessions use (BGP_PEER_GROUP bfd), would then be dropped: with
// policy bfd the table FABRIC_LINKS accepts what each routed port's neighbour sends.
#include "backends/sonic/SwitchDb.h"
#include "ir/Address.h"

#include <algorithm>

namespace fabc::sonicdb {

namespace {

void table(JsonWriter &j, const char *name, const char *desc, std::initializer_list<const char *> services) {
  j.key(name).beginObject();
  j.key("policy_desc").string(desc);
  j.key("services").beginArray();
  for (const char *s : services)
    j.string(s);
  j.endArray();
  j.key("stage").string("ingress");
  j.key("type").string("CTRLPLANE");
  j.endObject();
}

} // namespace

void SwitchDb::aclTables(JsonWriter &j, const std::vector<uint32_t> &order, bool unnumbered) {
  const ManagementPlan &m = an.management;
  if (m.allow.empty())
    return;
  // FABRIC_LINKS: one rule per routed port, its neighbour's address on that port (the
  // IPv6 link-local of an unnumbered session, the /31 peer of a numbered one).
  struct Rule {
    std::string key, src;
    std::string_view port;
    uint32_t priority;
    bool v6;
  };
  std::vector<Rule> rules;
  if (an.bfd.enabled) {
    uint32_t n = 0;
    eachRouted(order, [&](const PortRow &, const eth::Peer &) { ++n; });
    uint32_t k = 0;
    eachRouted(order, [&](const PortRow &r, const eth::Peer &p) {
      Rule x;
      x.key = fmt::format("FABRIC_LINKS|{}", r.sv());
      x.port = r.sv();
      x.priority = n - k++;
      x.v6 = unnumbered;
      x.src = unnumbered ? "fe80::/10" : ir::ipv4String(eth::peerAddress(F, p)) + "/32";
      rules.push_back(std::move(x));
    });
  }
  for (size_t i = 0; i < m.allow.size(); ++i) {
    Rule x;
    x.key = fmt::format("FABRIC_MGMT|RULE_{}", i + 1);
    x.priority = uint32_t(m.allow.size() - i); // caclmgrd keys a table's rules by PRIORITY: each its own
    x.v6 = false;
    x.src = fmt::format("{}/{}", ir::ipv4String(m.allow[i].first), unsigned(m.allow[i].second));
    rules.push_back(std::move(x));
  }
  std::sort(rules.begin(), rules.end(), [](const Rule &a, const Rule &b) { return a.key < b.key; });
  j.key("ACL_RULE").beginObject();
  for (const Rule &x : rules) {
    j.key(x.key).beginObject();
    if (!x.port.empty())
      j.key("IN_PORTS").string(x.port);
    j.key("PACKET_ACTION").string("ACCEPT");
    j.key("PRIORITY").quotedInteger(x.priority);
    j.key(x.v6 ? "SRC_IPV6" : "SRC_IP").string(x.src);
    j.endObject();
  }
  j.endObject();
  j.key("ACL_TABLE").beginObject();
  if (an.bfd.enabled && anyRouted_)
    table(j, "FABRIC_LINKS", "fabric BGP neighbours on their ports: BFD, which caclmgrd's final drop would refuse", {"ANY"});
  table(j, "FABRIC_MGMT", "policy management mgmt_allow: the sources that may reach SSH, SNMP and NTP", {"NTP", "SNMP", "SSH"});
  j.endObject();
}

} // namespace fabc::sonicdb
