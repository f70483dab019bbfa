// NVUE (Cumulus Linux 5.x): one /etc/nvue.d/startup.yaml per Ethernet switch, the
// document `nv config save` writes: a list with one `set` tree (system, interface,
// router, vrf, qos). Written with yaml-cpp; one switch's document at a time.
#include "backends/Common.h"
#include "backends/ethernet/Ethernet.h"
#include "diag/Diag.h"
#include "passes/Addressing.h"
#include "passes/Roce.h"

#include <yaml-cpp/yaml.h>

namespace fabc {
namespace {
using passes::ipv4String;

void emptyMap(YAML::Emitter &y) { y << YAML::Flow << YAML::BeginMap << YAML::EndMap; }

// key: { NAME: {} }, the NVUE form of a set member (addresses, networks, breakouts).
void member(YAML::Emitter &y, const char *key, const std::string &name) {
  y << YAML::Key << key << YAML::Value << YAML::BeginMap << YAML::Key << name << YAML::Value;
  emptyMap(y);
  y << YAML::EndMap;
}

std::string speedName(double bps) { return fmt::format("{:g}G", bps / 1e9); }

void emitSwitch(const ir::Fabric &F, uint32_t d, bool unnumbered, const passes::RoceSettings &roce, uint32_t mtu,
                YAML::Emitter &y) {
  std::vector<eth::Peer> peers = eth::peersOf(F, d);
  std::string lo = ipv4String(F.devLoopback[d]);
  y << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "set" << YAML::Value << YAML::BeginMap;

  y << YAML::Key << "system" << YAML::Value << YAML::BeginMap << YAML::Key << "hostname" << YAML::Value
    << passes::hostName(F, d) << YAML::EndMap;

  y << YAML::Key << "interface" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "lo" << YAML::Value << YAML::BeginMap << YAML::Key << "type" << YAML::Value << "loopback";
  y << YAML::Key << "ip" << YAML::Value << YAML::BeginMap;
  member(y, "address", lo + "/32");
  y << YAML::EndMap << YAML::EndMap;
  uint32_t lastSplitCage = ir::None;
  for (const eth::Peer &p : peers) {
    eth::PortInfo pi = eth::portInfo(F, p.port);
    if (pi.perCage > 1 && pi.cage != lastSplitCage) {
      // A split cage: the parent carries the breakout, the swpNsM children the rest.
      lastSplitCage = pi.cage;
      y << YAML::Key << eth::swpCageName(pi) << YAML::Value << YAML::BeginMap;
      y << YAML::Key << "link" << YAML::Value << YAML::BeginMap;
      member(y, "breakout", fmt::format("{}x", pi.perCage));
      y << YAML::EndMap << YAML::Key << "type" << YAML::Value << "swp" << YAML::EndMap;
    }
    y << YAML::Key << eth::swpName(pi) << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "description" << YAML::Value << eth::peerDescription(F, p, 'c');
    if (p.routed && !unnumbered) {
      y << YAML::Key << "ip" << YAML::Value << YAML::BeginMap;
      member(y, "address", ipv4String(eth::localAddress(F, p)) + "/31");
      y << YAML::EndMap;
    }
    y << YAML::Key << "link" << YAML::Value << YAML::BeginMap << YAML::Key << "mtu" << YAML::Value << mtu;
    y << YAML::Key << "speed" << YAML::Value << speedName(pi.speed);
    member(y, "state", "up");
    y << YAML::EndMap << YAML::Key << "type" << YAML::Value << "swp" << YAML::EndMap;
  }
  y << YAML::EndMap;

  y << YAML::Key << "router" << YAML::Value << YAML::BeginMap << YAML::Key << "bgp" << YAML::Value << YAML::BeginMap
    << YAML::Key << "autonomous-system" << YAML::Value << F.devAsn[d] << YAML::Key << "enable" << YAML::Value << "on"
    << YAML::Key << "router-id" << YAML::Value << lo << YAML::EndMap << YAML::EndMap;

  y << YAML::Key << "vrf" << YAML::Value << YAML::BeginMap << YAML::Key << "default" << YAML::Value << YAML::BeginMap
    << YAML::Key << "router" << YAML::Value << YAML::BeginMap << YAML::Key << "bgp" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "address-family" << YAML::Value << YAML::BeginMap << YAML::Key << "ipv4-unicast" << YAML::Value
    << YAML::BeginMap << YAML::Key << "enable" << YAML::Value << "on";
  y << YAML::Key << "multipaths" << YAML::Value << YAML::BeginMap << YAML::Key << "ebgp" << YAML::Value << 64
    << YAML::EndMap;
  member(y, "network", lo + "/32");
  y << YAML::EndMap << YAML::EndMap;
  y << YAML::Key << "enable" << YAML::Value << "on";
  bool anyNeighbor = false;
  for (const eth::Peer &p : peers)
    anyNeighbor |= p.routed;
  y << YAML::Key << "neighbor" << YAML::Value;
  if (!anyNeighbor)
    y << YAML::Flow; // an empty map is still a map
  y << YAML::BeginMap;
  for (const eth::Peer &p : peers) {
    if (!p.routed)
      continue;
    std::string key = unnumbered ? eth::swpName(eth::portInfo(F, p.port)) : ipv4String(eth::peerAddress(F, p));
    y << YAML::Key << key << YAML::Value << YAML::BeginMap << YAML::Key << "description" << YAML::Value
      << eth::peerDescription(F, p, 'c') << YAML::Key << "peer-group" << YAML::Value << "FABRIC" << YAML::Key << "type"
      << YAML::Value << (unnumbered ? "unnumbered" : "numbered") << YAML::EndMap;
  }
  y << YAML::EndMap;
  y << YAML::Key << "path-selection" << YAML::Value << YAML::BeginMap << YAML::Key << "multipath" << YAML::Value
    << YAML::BeginMap << YAML::Key << "aspath-ignore" << YAML::Value << "on" << YAML::EndMap << YAML::EndMap;
  y << YAML::Key << "peer-group" << YAML::Value << YAML::BeginMap << YAML::Key << "FABRIC" << YAML::Value
    << YAML::BeginMap << YAML::Key << "remote-as" << YAML::Value << "external" << YAML::EndMap << YAML::EndMap;
  y << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap;

  if (roce.enabled) {
    // Cumulus Linux's lossless RoCE profile: PFC and ECN on priority 3, CNPs strict on 6.
    y << YAML::Key << "qos" << YAML::Value << YAML::BeginMap << YAML::Key << "roce" << YAML::Value << YAML::BeginMap
      << YAML::Key << "enable" << YAML::Value << "on" << YAML::Key << "mode" << YAML::Value << "lossless"
      << YAML::EndMap << YAML::EndMap;
  }
  y << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
}

// The RoCE profile NVUE applies is fixed; anything else would be silently ignored.
bool checkRoceProfile(BackendContext &ctx, const passes::RoceSettings &r) {
  if (!r.enabled)
    return true;
  passes::RoceSettings profile; // the defaults are the Cumulus profile's values
  std::string diff;
  auto cmp = [&](const char *name, uint64_t want, uint64_t have) {
    if (want != have)
      diff += fmt::format("{}{} = {} (the profile has {})", diff.empty() ? "" : ", ", name, have, want);
  };
  cmp("pfc_priority", profile.pfcPriority, r.pfcPriority);
  cmp("dscp", profile.dscp, r.dscp);
  cmp("cnp_dscp", profile.cnpDscp, r.cnpDscp);
  cmp("ecn", profile.ecn, r.ecn);
  cmp("ecn_min", profile.ecnMin, r.ecnMin);
  cmp("ecn_max", profile.ecnMax, r.ecnMax);
  cmp("ecn_probability", profile.ecnProbability, r.ecnProbability);
  if (diff.empty())
    return true;
  Diagnostic *d = ctx.diags.report(DiagCode::E0113, r.loc, "the NVUE lossless RoCE profile cannot carry {}", diff);
  DiagEngine::note(d, {}, "Cumulus Linux's 'qos roce mode lossless' uses priority 3, DSCP 26, CNP DSCP 48 and ECN "
                          "from 150000 to 1500000 bytes at 100%");
  return false;
}

} // namespace

bool runNvue(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  passes::RoceSettings roce = passes::roceSettings(F);
  std::vector<uint32_t> sw = eth::ethernetSwitches(ctx, "nvue");
  if (!checkRoceProfile(ctx, roce))
    return false;
  bool unnumbered = passes::bgpUnnumbered(F);
  uint32_t mtu = passes::fabricMtu(F);
  for (uint32_t d : sw) {
    YAML::Emitter y;
    emitSwitch(F, d, unnumbered, roce, mtu, y);
    if (!y.good()) {
      fmt::print(stderr, "fabc: error: nvue: {}\n", y.GetLastError());
      return false;
    }
    OutFile *o = ctx.out.open("nvue/" + passes::hostName(F, d) + "/startup.yaml");
    if (!o)
      return failOpen(ctx);
    o->print("# NVUE startup configuration of {} ('{}') in fabric '{}'\n# generated by fabc {}: do not edit\n",
             passes::hostName(F, d), F.deviceName(d), F.name, ctx.info.version);
    o->write(std::string_view(y.c_str(), y.size()));
    o->write("\n");
    o->close();
  }
  return true;
}

} // namespace fabc
