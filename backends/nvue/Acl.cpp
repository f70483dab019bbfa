// NVUE's control-plane ACL (backends/nvue/Acl.h). The keys are the NVUE commands of the
// Cumulus Linux 5.15 user guide, Access Control List Configuration ("Control Who Can SSH
// into the Switch": permits by source-ip, then a deny, bound with `nv set system
// control-plane acl <name> inbound`): `nv set acl <name> type ipv4`, `rule <id> match ip
// protocol tcp|udp`, `match ip source-ip`, `match ip tcp|udp dest-port <port>` (a set:
// `nv show` lists it as [dest-port]), `action permit|deny`.
#include "backends/nvue/Acl.h"

#include <fmt/format.h>

namespace fabc::nvue {

const char *const kControlPlaneAcl = "FABRIC_MGMT";

namespace {

// The services mgmt_allow opens, as SONiC's caclmgrd names and serves them (SSH on TCP 22,
// SNMP on 161, NTP on UDP 123); snmpd on Cumulus Linux listens on UDP 161 (the default
// firewall's whitelist opens UDP 161 only).
struct Service {
  const char *protocol, *port;
};
constexpr Service kServices[] = {{"tcp", "22"}, {"udp", "161"}, {"udp", "123"}};

struct RuleWriter {
  explicit RuleWriter(YamlWriter &out) : y(out) {}
  YamlWriter &y;
  TextBuffer buf;
  unsigned id = 0;

  // base null: any source.
  void rule(const char *action, const Service &s, const uint32_t *base, unsigned len) {
    buf.clear();
    fmt::format_to(fmt::appender(buf), "'{}'", id += 10);
    y.beginMapRawKey({buf.data(), buf.size()});
    y.beginMap("action");
    y.emptyMap(action);
    y.endMap();
    y.beginMap("match");
    y.beginMap("ip");
    y.scalar("protocol", s.protocol);
    if (base) {
      buf.clear();
      appendIpv4(buf, *base);
      fmt::format_to(fmt::appender(buf), "/{}", len);
      y.scalar("source-ip", {buf.data(), buf.size()});
    }
    y.beginMap(s.protocol);
    y.beginMap("dest-port");
    buf.clear();
    fmt::format_to(fmt::appender(buf), "'{}'", s.port);
    y.emptyMapRawKey({buf.data(), buf.size()});
    y.endMap();
    y.endMap();
    y.endMap();
    y.endMap();
    y.endMap();
  }
};

} // namespace

void writeControlPlaneAcl(YamlWriter &y, const ManagementPlan &m, const NvuePlan &plan) {
  y.beginMap("acl");
  y.beginMap(kControlPlaneAcl);
  y.beginMap("rule");
  RuleWriter w{y};
  for (const auto &[base, len] : m.allow)
    for (const Service &s : kServices)
      w.rule("permit", s, &base, len);
  // The NTP servers' replies to the switch's own client (UDP 123 both ways); the rules
  // before 50_nvue.rules accept established traffic only while acl-default-dos is bound.
  for (uint32_t server : plan.aclNtp)
    w.rule("permit", kServices[2], &server, 32);
  // The rest is refused per service, never as a whole: Cumulus Linux supports no deny-all
  // control-plane rule, and BGP, BFD and LLDP must keep reaching the CPU.
  for (const Service &s : kServices)
    w.rule("deny", s, nullptr, 0);
  y.endMap();
  y.scalar("type", "ipv4");
  y.endMap();
  y.endMap();
}

void bindControlPlaneAcl(YamlWriter &y) {
  y.beginMap("control-plane");
  y.beginMap("acl");
  y.beginMap(kControlPlaneAcl);
  y.emptyMap("inbound");
  y.endMap();
  y.endMap();
  y.endMap();
}

} // namespace fabc::nvue
