// SONiC: one config_db.json per Ethernet switch. Tables and keys as in SONiC's
// Configuration.md and its YANG models (sonic-port, sonic-interface, sonic-bgp-*,
// sonic-port-qos-map, ...); BGP through frrcfgd (frr_mgmt_framework_config), the mode
// in which SONiC supports unnumbered interface neighbors. Keys are sorted, as
// `config save` writes them, so a generated file diffs cleanly against a saved one.
#include "backends/sonic/SwitchDb.h"
#include "diag/Diag.h"
#include "ir/Address.h"
#include "passes/Addressing.h"
#include "passes/HostAddressing.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace fabc {
namespace {

const char *kMap = "AZURE"; // the name SONiC's own QoS and buffer templates use
const char *kWred = "AZURE_LOSSLESS";

const char *routerType(const ir::Fabric &F, uint32_t d) {
  return F.devTier[d] >= ir::Tier::Spine && F.devTier[d] != ir::Tier::Unknown ? "SpineRouter" : "LeafRouter";
}

} // namespace

namespace sonicdb {

void SwitchDb::fillPorts(uint32_t d) {
  dev_ = d;
  eth::peersOf(F, d, peers_);
  uint32_t base = F.devPortBase[d], n = F.layoutOf(d).ports;
  rows_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    PortRow &r = rows_[i];
    r.info = eth::portInfo(F, base + i);
    char digits[12], *e = digits + sizeof digits, *q = e;
    uint32_t v = r.info.firstLane;
    do {
      *--q = char('0' + v % 10);
      v /= 10;
    } while (v);
    std::memcpy(r.name, "Ethernet", 8);
    std::memcpy(r.name + 8, q, size_t(e - q));
    r.nameLen = uint32_t(8 + (e - q));
    r.peer = ir::None;
  }
  anyRouted_ = false;
  for (uint32_t k = 0; k < peers_.size(); ++k) {
    rows_[peers_[k].port - base].peer = k;
    anyRouted_ |= peers_[k].routed;
  }
  fillChannels();
}

void SwitchDb::write(TextBuffer &out, uint32_t d, uint32_t index, bool unnumbered, uint32_t mtu,
                     const passes::RoceSettings &roce) {
  fillPorts(d);
  const eth::SonicPortOrder &order = eth::sonicPortOrder(F, d, orders);
  names_.plain.clear();
  names_.piped.clear();
  for (uint32_t i : order.plain)
    names_.plain.push_back(rows_[i].sv());
  for (uint32_t i : order.piped)
    names_.piped.push_back(rows_[i].sv());
  const ir::Model &model = F.modelOf(d);
  const ManagementPlan &mgmt = an.management;
  int lossless = roce.enabled ? int(roce.pfcPriority) : -1;
  bool anyPeer = !peers_.empty();
  TextBuffer lo;
  appendIpv4(lo, F.devLoopback[d]);
  std::string_view los(lo.data(), lo.size());
  std::string prio = std::to_string(roce.pfcPriority);

  JsonWriter j(out, 4); // config_db.json as SONiC writes it: 4 spaces a level
  j.beginObject();

  aclTables(j, order.plain, unnumbered);
  bgpTables(j, d, los, unnumbered);

  // The cage's breakout mode, keyed by its first port (dynamic port breakout): the
  // platform.json name the sonic check picked, else fabc's short form (W0200).
  const std::vector<uint32_t> &modes = an.sonic.breakoutMode[F.devLayout[d]];
  j.key("BREAKOUT_CFG").beginObject();
  for (uint32_t i : order.plain) {
    const PortRow &r = rows_[i];
    if (r.info.sub != 0)
      continue;
    j.key(r.sv()).beginObject();
    tmp_.clear();
    if (uint32_t m = modes[r.info.group]) {
      append(tmp_, F.strings.str(m));
    } else {
      appendUint(tmp_, r.info.perCage);
      append(tmp_, 'x');
      appendShortest(tmp_, r.info.speed / 1e9);
      append(tmp_, 'G');
    }
    j.key("brkout_mode").string(key(tmp_));
    j.endObject();
  }
  j.endObject();

  // The buffer tables of SONiC's dynamic buffer model, for every port (the template
  // writes inactive ports too): SONiC sizes the lossless headroom from each port's
  // speed, MTU and CABLE_LENGTH.
  sonic::bufferPg(j, names_, lossless);
  sonic::bufferPool(j, model.sonicEgressLosslessPool / 8); // bytes
  sonic::bufferProfileLists(j, names_, true);
  sonic::bufferProfileLists(j, names_, false);
  sonic::bufferProfile(j);
  sonic::bufferQueue(j, names_, lossless);

  // Every port: the routed length of connected ones, rounded up to a metre; the
  // template's default for the others.
  j.key("CABLE_LENGTH").beginObject();
  j.key(kMap).beginObject();
  for (uint32_t i : order.plain) {
    const PortRow &r = rows_[i];
    tmp_.clear();
    if (r.peer == ir::None)
      append(tmp_, "5");
    else
      appendFixed0(tmp_, std::ceil(double(F.linkLength[peers_[r.peer].link])));
    append(tmp_, 'm');
    j.key(r.sv()).string(key(tmp_));
  }
  j.endObject();
  j.endObject();

  sonic::defaultLosslessParameter(j);

  j.key("DEVICE_METADATA").beginObject();
  j.key("localhost").beginObject();
  j.key("bgp_asn").quotedInteger(F.devAsn[d]);
  j.key("bgp_router_id").string(los);
  j.key("buffer_model").string("dynamic");
  if (roce.enabled && roce.pfcWatchdog)
    j.key("default_pfcwd_status").string("enable");
  j.key("docker_routing_config_mode").string("unified");
  j.key("frr_mgmt_framework_config").string("true");
  j.key("hostname").string(hosts(d));
  if (model.sonicHwsku)
    j.key("hwsku").string(F.strings.str(model.sonicHwsku));
  if (an.sonic.macs)
    j.key("mac").string(ir::macString(an.sonic.macBase + index));
  if (model.sonicPlatform)
    j.key("platform").string(F.strings.str(model.sonicPlatform));
  j.key("type").string(routerType(F, d));
  j.endObject();
  j.endObject();

  if (anyPeer) {
    j.key("DEVICE_NEIGHBOR").beginObject();
    eachPeer(order.plain, [&](const PortRow &r, const eth::Peer &p) {
      j.key(r.sv()).beginObject();
      j.key("name").string(hosts(p.peerDev));
      tmp_.clear();
      if (eth::isEthernetSwitch(F, p.peerDev)) {
        eth::appendSonicPortName(tmp_, eth::portInfo(F, p.peerPort));
      } else {
        std::string full = F.portName(p.peerPort);
        append(tmp_, std::string_view(full).substr(full.find('/') + 1));
      }
      j.key("port").string(key(tmp_));
      bool sw2 = F.modelOf(p.peerDev).kind == ir::ModelKind::Switch;
      j.key("type").string(!sw2 ? "Server" : routerType(F, p.peerDev));
      j.endObject();
    });
    j.endObject();
  }

  static const char *const digits[8] = {"0", "1", "2", "3", "4", "5", "6", "7"};
  if (roce.enabled) {
    // DSCP values as sorted strings: 0, 1, 10, 11, ..., 19, 2, 20, ...
    static const std::vector<unsigned> dscpOrder = [] {
      std::vector<unsigned> v(64);
      for (unsigned i = 0; i < 64; ++i)
        v[i] = i;
      std::sort(v.begin(), v.end(), [](unsigned a, unsigned b) { return std::to_string(a) < std::to_string(b); });
      return v;
    }();
    j.key("DSCP_TO_TC_MAP").beginObject();
    j.key(kMap).beginObject();
    for (unsigned v : dscpOrder) {
      char k[4];
      auto n = fmt::format_to_n(k, sizeof k, "{}", v).size;
      j.key({k, n}).string(digits[passes::dscpTrafficClass(roce, v)]);
    }
    j.endObject();
    j.endObject();
  }

  evpnSegments(j);

  bool hostP2p = false;
  for (const eth::Peer &p : peers_)
    hostP2p |= !p.routed && F.hostScheme == ir::HostScheme::P2p && passes::isHostLink(F, p.link);
  if (anyRouted_ || hostP2p) {
    j.key("INTERFACE").beginObject();
    interfaces(j, unnumbered);
    j.endObject();
  }

  j.key("LOOPBACK_INTERFACE").beginObject();
  j.key("Loopback0").emptyObject();
  j.keyf("Loopback0|{}/32", los).emptyObject();
  j.endObject();

  sonic::losslessTrafficPattern(j);

  if (roce.enabled) {
    j.key("MAP_PFC_PRIORITY_TO_QUEUE").beginObject();
    j.key(kMap).beginObject();
    for (unsigned tc = 0; tc < 8; ++tc)
      j.key(digits[tc]).string(digits[tc]);
    j.endObject();
    j.endObject();
  }

  mclagTables(j);
  sonic::mgmtTables(j, mgmt, index);
  sonic::ntp(j, mgmt);

  if (roce.enabled) {
    // The lossless priority's PFC frames pause its own priority group, as SONiC's
    // qos_config.j2 writes for Mellanox (there "3": "3", "4": "4").
    j.key("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP").beginObject();
    j.key(kMap).beginObject();
    j.key(prio).string(prio);
    j.endObject();
    j.endObject();
  }
  if (roce.enabled && roce.pfcWatchdog && anyPeer) {
    // The watchdog on every lossless port, and its global poll interval: what
    // `config reload` reads (default_pfcwd_status acts on load_minigraph only).
    passes::PfcWatchdog wd = passes::sonicPfcWatchdog(roce, uint32_t(rows_.size()));
    j.key("PFC_WD").beginObject();
    eachPeer(order.plain, [&](const PortRow &r, const eth::Peer &) {
      j.key(r.sv()).beginObject();
      j.key("action").string(wd.action);
      j.key("detection_time").quotedInteger(wd.detectionMs);
      j.key("restoration_time").quotedInteger(wd.restorationMs);
      j.endObject();
    });
    j.key("GLOBAL").beginObject();
    j.key("POLL_INTERVAL").quotedInteger(wd.pollMs);
    j.endObject();
    j.endObject();
  }

  j.key("PORT").beginObject();
  for (uint32_t i : order.plain) {
    const PortRow &r = rows_[i];
    const eth::PortInfo &p = r.info;
    j.key(r.sv()).beginObject();
    j.key("admin_status").string(r.peer == ir::None ? "down" : "up");
    tmp_.clear();
    append(tmp_, "etp");
    appendUint(tmp_, p.cage + 1);
    if (p.perCage > 1)
      append(tmp_, char('a' + p.sub));
    j.key("alias").string(key(tmp_));
    if (r.peer != ir::None) {
      tmp_.clear();
      eth::appendPeerDescription(tmp_, F, peers_[r.peer], 's', hosts);
      j.key("description").string(key(tmp_));
    }
    j.key("index").quotedInteger(p.cage + 1);
    tmp_.clear();
    for (uint32_t l = 0; l < p.lanes; ++l) {
      if (l)
        append(tmp_, ',');
      appendUint(tmp_, p.firstLane + l);
    }
    j.key("lanes").string(key(tmp_));
    j.key("mtu").quotedInteger(mtu);
    tmp_.clear();
    appendFixed0(tmp_, p.speed / 1e6);
    j.key("speed").string(key(tmp_));
    if (p.perCage > 1)
      j.key("subport").quotedInteger(p.sub + 1);
    j.endObject();
  }
  j.endObject();

  portChannelTables(j, mtu);

  if (roce.enabled && anyPeer) {
    j.key("PORT_QOS_MAP").beginObject();
    eachPeer(order.plain, [&](const PortRow &r, const eth::Peer &) {
      j.key(r.sv()).beginObject();
      j.key("dscp_to_tc_map").string(kMap);
      j.key("pfc_enable").string(prio);
      j.key("pfc_to_pg_map").string(kMap);
      j.key("pfc_to_queue_map").string(kMap);
      j.key("tc_to_pg_map").string(kMap);
      j.key("tc_to_queue_map").string(kMap);
      j.endObject();
    });
    j.endObject();
  }

  if (an.storm.enabled) {
    // policy storm_control on the host-facing ports, in kbit/s (sonic-storm-control.yang:
    // storm_type broadcast, unknown-unicast, unknown-multicast; kbps 0..100000000): the
    // policy's packets per second as frames of its frame_size.
    const StormControlPlan &st = an.storm;
    const std::pair<const char *, uint32_t> kinds[] = {
        {"broadcast", st.broadcast}, {"unknown-multicast", st.multicast}, {"unknown-unicast", st.unknownUnicast}};
    bool any = false;
    eachPeer(order.piped, [&](const PortRow &, const eth::Peer &p) { any |= eth::hostFacing(F, p); });
    if (any) {
      j.key("PORT_STORM_CONTROL").beginObject();
      eachPeer(order.piped, [&](const PortRow &r, const eth::Peer &p) {
        if (!eth::hostFacing(F, p))
          return;
        for (const auto &[kind, pps] : kinds) {
          if (!pps)
            continue;
          j.keyf("{}|{}", r.sv(), kind).beginObject();
          j.key("kbps").quotedInteger(st.kbps(pps)); // at most 100000000 (checks/Sonic.cpp)
          j.endObject();
        }
      });
      j.endObject();
    }
  }

  prefixTables(j, F.routePolicyOf(d));

  if (roce.enabled && anyPeer) {
    // Per port: queue 0 (default traffic), the RoCE queue and the CNP queue, in key
    // order; with RoCE on priority 0 its queue is queue 0.
    j.key("QUEUE").beginObject();
    eachPeer(order.piped, [&](const PortRow &r, const eth::Peer &) {
      for (unsigned q = 0; q < 8; ++q) {
        tmp_.clear();
        append(tmp_, r.sv());
        append(tmp_, '|');
        appendUint(tmp_, q);
        if (q == roce.pfcPriority) {
          j.key(key(tmp_)).beginObject();
          j.key("scheduler").string("scheduler.1");
          if (roce.ecn)
            j.key("wred_profile").string(kWred);
          j.endObject();
        } else if (q == 0 || q == passes::RoceSettings::CnpTrafficClass) {
          j.key(key(tmp_)).beginObject();
          j.key("scheduler").string(q == 0 ? "scheduler.0" : "scheduler.2");
          j.endObject();
        }
      }
    });
    j.endObject();
  }

  routeMapTables(j, F.routePolicyOf(d));

  if (roce.enabled) {
    // RoCE and the rest share the bandwidth (DWRR 50/50); CNPs are strict priority.
    j.key("SCHEDULER").beginObject();
    j.key("scheduler.0").beginObject();
    j.key("type").string("DWRR");
    j.key("weight").string("50");
    j.endObject();
    j.key("scheduler.1").beginObject();
    j.key("type").string("DWRR");
    j.key("weight").string("50");
    j.endObject();
    j.key("scheduler.2").beginObject();
    j.key("type").string("STRICT");
    j.endObject();
    j.endObject();

  }
  sonic::syslog(j, mgmt);
  sonic::tacplus(j, mgmt);
  if (roce.enabled) {
    j.key("TC_TO_PRIORITY_GROUP_MAP").beginObject();
    j.key(kMap).beginObject();
    for (unsigned tc = 0; tc < 8; ++tc)
      j.key(digits[tc]).string(tc == roce.pfcPriority ? digits[tc] : "0");
    j.endObject();
    j.endObject();

    j.key("TC_TO_QUEUE_MAP").beginObject();
    j.key(kMap).beginObject();
    for (unsigned tc = 0; tc < 8; ++tc)
      j.key(digits[tc]).string(digits[tc]);
    j.endObject();
    j.endObject();
  }

  // The schema version of the target release: db_migrator then replays no migration.
  j.key("VERSIONS").beginObject();
  j.key("DATABASE").beginObject();
  j.key("VERSION").string(an.sonic.dbVersion);
  j.endObject();
  j.endObject();

  vlanTables(j, d);
  vxlanTables(j, d, los);

  if (roce.enabled) {
    if (roce.ecn) {
      j.key("WRED_PROFILE").beginObject();
      j.key(kWred).beginObject();
      j.key("ecn").string("ecn_all");
      for (const char *color : {"green", "red"}) {
        j.keyf("{}_drop_probability", color).quotedInteger(roce.ecnProbability);
        j.keyf("{}_max_threshold", color).quotedInteger(roce.ecnMax);
        j.keyf("{}_min_threshold", color).quotedInteger(roce.ecnMin);
      }
      j.key("wred_green_enable").string("true");
      j.key("wred_red_enable").string("true");
      j.key("wred_yellow_enable").string("true");
      j.key("yellow_drop_probability").quotedInteger(roce.ecnProbability);
      j.key("yellow_max_threshold").quotedInteger(roce.ecnMax);
      j.key("yellow_min_threshold").quotedInteger(roce.ecnMin);
      j.endObject();
      j.endObject();
    }
  }
  j.endObject();
}

} // namespace sonicdb

bool runSonic(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const std::vector<uint32_t> &sw = eth::ethernetSwitches(ctx);
  bool unnumbered = passes::bgpUnnumbered(F);
  uint32_t mtu = passes::fabricMtu(F);
  passes::RoceSettings roce = passes::roceSettings(F);
  eth::HostNames hosts(ctx.an);
  std::vector<eth::SonicPortOrder> orders;
  sonicdb::SwitchDb db(F, ctx.an, hosts, orders);
  TextBuffer buf;
  // TACPLUS_SERVER's passkey (Tables.cpp) and BGP_PEER_GROUP's auth_password are secrets.
  const ManagementPlan &m = ctx.an.management;
  OutputDir::Access access = eth::configAccess(ctx, !m.tacacs.empty() && !m.tacacsSecret.empty());
  for (uint32_t i = 0; i < sw.size(); ++i) {
    uint32_t d = sw[i];
    buf.clear();
    db.write(buf, d, i, unnumbered, mtu, roce);
    OutFile *o = ctx.out.open("sonic/" + hosts(d) + "/config_db.json", access);
    if (!o)
      return failOpen(ctx);
    o->write(buf);
    o->close();
  }
  return true;
}

} // namespace fabc
