// SONiC: one config_db.json per Ethernet switch. Tables and keys as in SONiC's
// Configuration.md and its YANG models (sonic-port, sonic-interface, sonic-bgp-*,
// sonic-port-qos-map, ...); BGP through frrcfgd (frr_mgmt_framework_config), the mode
// in which SONiC supports unnumbered interface neighbors. Keys are sorted, as
// `config save` writes them, so a generated file diffs cleanly against a saved one.
#include "backends/Common.h"
#include "backends/ethernet/Ethernet.h"
#include "diag/Diag.h"
#include "passes/Addressing.h"
#include "passes/Roce.h"

#include <cmath>
#include <map>

namespace fabc {
namespace {
using passes::ipv4String;

// One switch's ConfigDB: table -> key -> field -> value (all strings, as in ConfigDB).
class ConfigDb {
public:
  void set(const std::string &table, const std::string &key, const std::string &field, std::string value) {
    db_[table][key][field] = std::move(value);
  }
  void touch(const std::string &table, const std::string &key) { db_[table][key]; }
  void write(OutFile &o) const {
    o.write("{");
    bool firstTable = true;
    for (const auto &t : db_) {
      o.print("{}\n    {}: {{", firstTable ? "" : ",", jsonString(t.first));
      firstTable = false;
      bool firstKey = true;
      for (const auto &k : t.second) {
        o.print("{}\n        {}: {{", firstKey ? "" : ",", jsonString(k.first));
        firstKey = false;
        bool firstField = true;
        for (const auto &f : k.second) {
          o.print("{}\n            {}: {}", firstField ? "" : ",", jsonString(f.first), jsonString(f.second));
          firstField = false;
        }
        o.write(k.second.empty() ? "}" : "\n        }");
      }
      o.write(t.second.empty() ? "}" : "\n    }");
    }
    o.write("\n}\n");
  }

private:
  std::map<std::string, std::map<std::string, std::map<std::string, std::string>>> db_;
};

const char *kMap = "AZURE"; // the name SONiC's own QoS and buffer templates use
const char *kGroup = "FABRIC";

std::string laneList(const eth::PortInfo &p) {
  std::string s;
  for (uint32_t i = 0; i < p.lanes; ++i)
    s += (i ? "," : "") + std::to_string(p.firstLane + i);
  return s;
}

void addPorts(const ir::Fabric &F, uint32_t d, uint32_t mtu, ConfigDb &db) {
  uint32_t base = F.devPortBase[d], n = F.layoutOf(d).ports;
  for (uint32_t port = base; port < base + n; ++port) {
    eth::PortInfo p = eth::portInfo(F, port);
    std::string name = eth::sonicPortName(p);
    db.set("PORT", name, "admin_status", F.portLink[port] == ir::None ? "down" : "up");
    db.set("PORT", name, "alias",
           fmt::format("etp{}{}", p.cage + 1, p.perCage > 1 ? std::string(1, char('a' + p.sub)) : std::string()));
    db.set("PORT", name, "index", std::to_string(p.cage + 1));
    db.set("PORT", name, "lanes", laneList(p));
    db.set("PORT", name, "mtu", std::to_string(mtu));
    db.set("PORT", name, "speed", fmt::format("{:.0f}", p.speed / 1e6));
    if (p.perCage > 1)
      db.set("PORT", name, "subport", std::to_string(p.sub + 1));
    // The cage's breakout mode, keyed by its first port (dynamic port breakout). The
    // mode must be one the platform's platform.json lists for the cage.
    if (p.sub == 0)
      db.set("BREAKOUT_CFG", name, "brkout_mode", fmt::format("{}x{:g}G", p.perCage, p.speed / 1e9));
  }
}

void addBgp(const ir::Fabric &F, uint32_t d, bool unnumbered, const std::vector<eth::Peer> &peers, ConfigDb &db) {
  std::string lo = ipv4String(F.devLoopback[d]);
  db.touch("LOOPBACK_INTERFACE", "Loopback0");
  db.touch("LOOPBACK_INTERFACE", "Loopback0|" + lo + "/32");
  db.set("BGP_GLOBALS", "default", "local_asn", std::to_string(F.devAsn[d]));
  db.set("BGP_GLOBALS", "default", "router_id", lo);
  db.set("BGP_GLOBALS", "default", "load_balance_mp_relax", "true");
  db.set("BGP_GLOBALS", "default", "log_nbr_state_changes", "true");
  db.set("BGP_GLOBALS_AF", "default|ipv4_unicast", "max_ebgp_paths", "64");
  db.touch("BGP_GLOBALS_AF_NETWORK", "default|ipv4_unicast|" + lo + "/32");
  std::string group = std::string("default|") + kGroup;
  db.set("BGP_PEER_GROUP", group, "peer_type", "external");
  db.set("BGP_PEER_GROUP", group, "admin_status", "up");
  if (unnumbered)
    db.set("BGP_PEER_GROUP", group, "capability_ext_nexthop", "true"); // IPv4 routes over IPv6 next hops
  db.set("BGP_PEER_GROUP_AF", group + "|ipv4_unicast", "admin_status", "up");
  for (const eth::Peer &p : peers) {
    if (!p.routed)
      continue;
    std::string ifname = eth::sonicPortName(eth::portInfo(F, p.port));
    std::string nbr;
    if (unnumbered) {
      db.set("INTERFACE", ifname, "ipv6_use_link_local_only", "enable");
      nbr = ifname;
    } else {
      db.touch("INTERFACE", ifname);
      db.touch("INTERFACE", ifname + "|" + ipv4String(eth::localAddress(F, p)) + "/31");
      nbr = ipv4String(eth::peerAddress(F, p));
    }
    std::string key = "default|" + nbr;
    db.set("BGP_NEIGHBOR", key, "peer_group_name", kGroup);
    db.set("BGP_NEIGHBOR", key, "name", passes::hostName(F, p.peerDev));
    db.set("BGP_NEIGHBOR", key, "admin_status", "up");
    if (!unnumbered) {
      db.set("BGP_NEIGHBOR", key, "asn", std::to_string(F.devAsn[p.peerDev]));
      db.set("BGP_NEIGHBOR", key, "local_addr", ipv4String(eth::localAddress(F, p)));
    }
    db.set("BGP_NEIGHBOR_AF", key + "|ipv4_unicast", "admin_status", "up");
  }
}

void addRoce(const ir::Fabric &F, const passes::RoceSettings &r, const std::vector<eth::Peer> &peers, ConfigDb &db) {
  std::string prio = std::to_string(r.pfcPriority), cnp = std::to_string(passes::RoceSettings::CnpTrafficClass);
  for (unsigned v = 0; v < 64; ++v)
    db.set("DSCP_TO_TC_MAP", kMap, std::to_string(v), v == r.dscp ? prio : v == r.cnpDscp ? cnp : "0");
  for (unsigned tc = 0; tc < 8; ++tc) {
    std::string t = std::to_string(tc);
    db.set("TC_TO_QUEUE_MAP", kMap, t, t);
    db.set("MAP_PFC_PRIORITY_TO_QUEUE", kMap, t, t);
    db.set("TC_TO_PRIORITY_GROUP_MAP", kMap, t, tc == r.pfcPriority ? t : "0");
  }
  // RoCE and the rest share the bandwidth (DWRR 50/50); CNPs are strict priority.
  db.set("SCHEDULER", "scheduler.0", "type", "DWRR");
  db.set("SCHEDULER", "scheduler.0", "weight", "50");
  db.set("SCHEDULER", "scheduler.1", "type", "DWRR");
  db.set("SCHEDULER", "scheduler.1", "weight", "50");
  db.set("SCHEDULER", "scheduler.2", "type", "STRICT");
  const char *wred = "AZURE_LOSSLESS";
  if (r.ecn) {
    db.set("WRED_PROFILE", wred, "ecn", "ecn_all");
    for (const char *color : {"green", "yellow", "red"}) {
      std::string c = color;
      db.set("WRED_PROFILE", wred, "wred_" + c + "_enable", "true");
      db.set("WRED_PROFILE", wred, c + "_min_threshold", std::to_string(r.ecnMin));
      db.set("WRED_PROFILE", wred, c + "_max_threshold", std::to_string(r.ecnMax));
      db.set("WRED_PROFILE", wred, c + "_drop_probability", std::to_string(r.ecnProbability));
    }
  }
  for (const eth::Peer &p : peers) {
    std::string ifname = eth::sonicPortName(eth::portInfo(F, p.port));
    db.set("PORT_QOS_MAP", ifname, "dscp_to_tc_map", kMap);
    db.set("PORT_QOS_MAP", ifname, "tc_to_queue_map", kMap);
    db.set("PORT_QOS_MAP", ifname, "tc_to_pg_map", kMap);
    db.set("PORT_QOS_MAP", ifname, "pfc_to_queue_map", kMap);
    db.set("PORT_QOS_MAP", ifname, "pfc_enable", prio);
    // Dynamic buffer model: "NULL" asks SONiC to size the lossless headroom from the
    // port's speed, MTU and CABLE_LENGTH.
    db.set("BUFFER_PG", ifname + "|" + prio, "profile", "NULL");
    db.set("QUEUE", ifname + "|0", "scheduler", "scheduler.0");
    db.set("QUEUE", ifname + "|" + prio, "scheduler", "scheduler.1");
    if (r.ecn)
      db.set("QUEUE", ifname + "|" + prio, "wred_profile", wred);
    db.set("QUEUE", ifname + "|" + cnp, "scheduler", "scheduler.2");
  }
}

bool checkLanes(BackendContext &ctx, const std::vector<uint32_t> &sw) {
  const ir::Fabric &F = ctx.F;
  std::vector<uint8_t> reported(F.models.size(), 0);
  bool ok = true;
  for (uint32_t d : sw) {
    const ir::Model &m = F.modelOf(d);
    for (const ir::PortGroup &g : m.ports)
      if (!g.lanes && !reported[F.devModel[d]]++) {
        Diagnostic *dg = ctx.diags.report(DiagCode::E0112, g.loc, "port group '{}' of '{}' has no lanes, which "
                                          "SONiC's PORT table needs", F.strings.str(g.name), F.strings.str(m.name));
        DiagEngine::note(dg, {}, "add lanes = N (SerDes lanes per port, e.g. 8 for an 800G OSFP) to the port group");
        ok = false;
      }
  }
  return ok;
}

} // namespace

bool runSonic(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  std::vector<uint32_t> sw = eth::ethernetSwitches(ctx, "sonic");
  if (!checkLanes(ctx, sw))
    return false;
  bool unnumbered = passes::bgpUnnumbered(F);
  uint32_t mtu = passes::fabricMtu(F);
  passes::RoceSettings roce = passes::roceSettings(F);
  for (uint32_t d : sw) {
    ConfigDb db;
    std::string host = passes::hostName(F, d);
    std::vector<eth::Peer> peers = eth::peersOf(F, d);
    const char *meta = "localhost";
    db.set("DEVICE_METADATA", meta, "hostname", host);
    db.set("DEVICE_METADATA", meta, "bgp_asn", std::to_string(F.devAsn[d]));
    db.set("DEVICE_METADATA", meta, "bgp_router_id", ipv4String(F.devLoopback[d]));
    db.set("DEVICE_METADATA", meta, "type", F.devTier[d] >= 2 && F.devTier[d] != 255 ? "SpineRouter" : "LeafRouter");
    db.set("DEVICE_METADATA", meta, "docker_routing_config_mode", "unified");
    db.set("DEVICE_METADATA", meta, "frr_mgmt_framework_config", "true");
    if (roce.enabled) {
      db.set("DEVICE_METADATA", meta, "buffer_model", "dynamic");
      db.set("DEVICE_METADATA", meta, "default_pfcwd_status", "enable");
    }
    addPorts(F, d, mtu, db);
    for (const eth::Peer &p : peers) {
      std::string ifname = eth::sonicPortName(eth::portInfo(F, p.port));
      db.set("PORT", ifname, "description", eth::peerDescription(F, p, 's'));
      bool sw2 = F.modelOf(p.peerDev).kind == ir::ModelKind::Switch;
      std::string peerPort;
      if (eth::isEthernetSwitch(F, p.peerDev)) {
        peerPort = eth::sonicPortName(eth::portInfo(F, p.peerPort));
      } else {
        std::string full = F.portName(p.peerPort);
        peerPort = full.substr(full.find('/') + 1);
      }
      db.set("DEVICE_NEIGHBOR", ifname, "name", passes::hostName(F, p.peerDev));
      db.set("DEVICE_NEIGHBOR", ifname, "port", peerPort);
      db.set("DEVICE_NEIGHBOR", ifname, "type",
             !sw2 ? "Server" : F.devTier[p.peerDev] >= 2 && F.devTier[p.peerDev] != 255 ? "SpineRouter" : "LeafRouter");
      db.set("CABLE_LENGTH", kMap, ifname, fmt::format("{:.0f}m", std::ceil(double(F.linkLength[p.link]))));
    }
    addBgp(F, d, unnumbered, peers, db);
    if (roce.enabled)
      addRoce(F, roce, peers, db);
    OutFile *o = ctx.out.open("sonic/" + host + "/config_db.json");
    if (!o)
      return failOpen(ctx);
    db.write(*o);
    o->close();
  }
  return true;
}

} // namespace fabc
