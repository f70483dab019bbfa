// NVUE (Cumulus Linux 5.x): one /etc/nvue.d/startup.yaml per Ethernet switch, the
// document `nv config save` writes: a list of a `header` (model, API version, target
// release) and one `set` tree (system, interface, router, vrf, qos), streamed with
// YamlWriter (backends/Stream.h) in the layout of yaml-cpp's emitter; one switch's
// document at a time, in the dialect of the target release (nvue/Dialect.h).
#include "backends/Common.h"
#include "backends/ethernet/Ethernet.h"
#include "backends/nvue/Acl.h"
#include "backends/nvue/Address.h"
#include "backends/nvue/Bonds.h"
#include "backends/nvue/Dialect.h"
#include "diag/Diag.h"
#include "passes/Addressing.h"
#include "passes/HostAddressing.h"
#include "passes/Roce.h"
#include <tuple>

namespace fabc {
namespace {

void speedName(TextBuffer &b, double bps) {
  appendShortest(b, bps / 1e9);
  append(b, 'G');
}


// One switch's document, streamed in the order yaml-cpp's emitter used to write it.
struct SwitchDoc {
  SwitchDoc(const ir::Fabric &F, eth::HostNames &hosts, const Analyses &an, const NvuePlan &plan)
      : F(F), hosts(hosts), an(an), plan(plan), nv(nvue::dialect(plan.dialect)) {}
  const ir::Fabric &F;
  eth::HostNames &hosts;
  const Analyses &an;
  const NvuePlan &plan;
  const nvue::Dialect &nv;
  std::vector<eth::Peer> peers;
  nvue::SwitchBonds bonds;
  TextBuffer name, desc, addr;

  // A bonded NIC's /31 network is its bond's: said once, at its first member.
  bool repeatsBond(uint32_t port, uint32_t link) const {
    if (F.linkBondNo.empty() || !F.linkBondNo[link])
      return false;
    for (const nvue::SwitchBonds::Bond &b : bonds.bonds)
      if (b.no == F.linkBondNo[link])
        return b.ports.front() != port;
    return false;
  }

  void write(TextBuffer &out, uint32_t d, uint32_t index, bool unnumbered, const passes::RoceSettings &roce, uint32_t mtu) {
    eth::peersOf(F, d, peers);
    bonds.fill(F, peers);
    // The PFC watchdog and adaptive routing came with Cumulus Linux 5.6 (W0331 otherwise).
    bool wd = roce.enabled && roce.pfcWatchdog && plan.minor >= 6;
    bool ar = roce.enabled && roce.adaptiveRouting && plan.minor >= 6;
    TextBuffer lob;
    appendIpv4(lob, F.devLoopback[d]);
    std::string_view lo = view(lob);
    YamlWriter y(out);
    // The header every `nv config show` / `nv config save` export starts with.
    y.beginSeqItem();
    y.beginMap("header");
    y.scalar("model", F.strings.str(F.modelOf(d).sku ? F.modelOf(d).sku : F.modelOf(d).name));
    y.scalar("nvue-api-version", "nvue_v1");
    y.scalar("rev-id", "1.0");
    y.scalarf("version", "Cumulus Linux {}", plan.version);
    y.endMap();
    y.endSeqItem();
    y.beginSeqItem();
    y.beginMap("set");
    if (plan.controlPlaneAcl)
      nvue::writeControlPlaneAcl(y, an.management, plan);

    writeSystem(y, d);

    y.beginMap("interface");
    nvue::writeBonds(y, F, d, bonds, nv, mtu, hosts);
    writeEth0(y, index);
    y.beginMap("lo");
    y.scalar("type", "loopback");
    nvue::writeIpv4(y, nv, addr, F.devLoopback[d], 32);
    y.endMap();
    nvue::writePeerlink(y, F, bonds, mtu, hosts);
    uint32_t lastSplitCage = ir::None;
    for (const eth::Peer &p : peers) {
      eth::PortInfo pi = eth::portInfo(F, p.port);
      if (pi.perCage > 1 && pi.cage != lastSplitCage) {
        // A split cage: the parent carries the breakout, the swpNsM children the rest.
        lastSplitCage = pi.cage;
        name.clear();
        append(name, "swp");
        appendUint(name, pi.cage + 1);
        y.beginMap(view(name));
        y.beginMap("link");
        name.clear();
        appendUint(name, pi.perCage);
        append(name, 'x');
        y.member("breakout", view(name));
        y.endMap();
        y.scalar("type", "swp");
        y.endMap();
      }
      name.clear();
      eth::appendSwpName(name, pi);
      y.beginMap(view(name));
      // A bond member's VLAN or address is its bond's (nvue/Bonds.cpp).
      bool hostPort = !p.routed && passes::isHostLink(F, p.link) && !bonds.member(F, p.link);
      if (hostPort && F.hostScheme != ir::HostScheme::P2p) {
        // An access port of its subnet's VLAN, in the default bridge.
        y.beginMap("bridge");
        y.beginMap("domain");
        y.beginMap("br_default");
        y.scalar("access", F.hostNets[F.linkHostNet[p.link]].vlan);
        y.endMap();
        y.endMap();
        y.endMap();
      }
      desc.clear();
      eth::appendPeerDescription(desc, F, p, 'c', hosts);
      y.scalar("description", view(desc));
      if (bonds.evpnGroups && p.routed) { // EVPN-MH tracks its uplinks (EVPN Multihoming: "Configure multihoming uplinks")
        y.beginMap("evpn");
        y.beginMap("multihoming");
        y.scalar("uplink", nv.on);
        y.endMap();
        y.endMap();
      }
      if (hostPort && F.hostScheme == ir::HostScheme::P2p) {
        nvue::writeIpv4(y, nv, addr, passes::hostGateway(F, p.link), 31); // the NIC's gateway: the /31's even address
      }
      if (p.routed && !unnumbered) {
        nvue::writeIpv4(y, nv, addr, eth::localAddress(F, p), 31);
      }
      y.beginMap("link");
      y.scalar("mtu", mtu);
      addr.clear();
      speedName(addr, pi.speed);
      y.scalar("speed", view(addr));
      y.member("state", "up");
      y.endMap();
      if (wd) { // every port carries the lossless class: qos roce applies PFC on all
        y.beginMap("qos");
        y.beginMap("pfc-watchdog");
        y.scalar("state", nv.wdOn);
        y.endMap();
        y.endMap();
      }
      if (ar && p.routed && passes::adaptiveRoutingSpeed(pi.speed)) {
        y.beginMap("router");
        y.beginMap("adaptive-routing");
        y.scalar(nv.state, nv.on);
        y.endMap();
        y.endMap();
      }
      if (an.storm.enabled && eth::hostFacing(F, p)) {
        // policy storm_control, in packets per second (NVUE command reference:
        // nv set interface <id> storm-control broadcast|multicast|unknown-unicast).
        const StormControlPlan &st = an.storm;
        y.beginMap("storm-control");
        if (st.broadcast)
          y.scalar("broadcast", st.broadcast);
        if (st.multicast)
          y.scalar("multicast", st.multicast);
        if (st.unknownUnicast)
          y.scalar("unknown-unicast", st.unknownUnicast);
        y.endMap();
      }
      y.scalar("type", "swp");
      y.endMap();
    }
    // The host subnets' gateways: one SVI per subnet of this leaf.
    auto [firstNet, lastNet] = passes::hostNetsOf(F, d);
    for (uint32_t n = firstNet; n < lastNet; ++n) {
      const ir::HostNet &net = F.hostNets[n];
      name.clear();
      fmt::format_to(fmt::appender(name), "vlan{}", net.vlan);
      y.beginMap(view(name));
      y.beginMap(nv.ipv4);
      if (net.shared) {
        nvue::writeVrr(y, net, nv);
      } else {
        nvue::writeAddress(y, addr, net.base + 1, net.len);
      }
      y.endMap();
      y.scalar("type", "svi");
      y.scalar("vlan", net.vlan);
      y.endMap();
    }
    y.endMap();
    if (firstNet < lastNet) {
      y.beginMap("bridge");
      y.beginMap("domain");
      y.beginMap("br_default");
      y.beginMap("vlan");
      for (uint32_t n = firstNet; n < lastNet; ++n) {
        name.clear();
        fmt::format_to(fmt::appender(name), "'{}'", F.hostNets[n].vlan);
        if (F.isVtep(d) && F.hostNetVni[n]) {
          nvue::writeVlanVni(y, F.hostNets[n].vlan, F.hostNetVni[n]);
          continue;
        }
        y.emptyMapRawKey(view(name));
      }
      y.endMap();
      y.endMap();
      y.endMap();
      y.endMap();
    }
    nvue::writeEvpnMlag(y, F, d, bonds, nv);

    y.beginMap("router");
    if (ar) {
      y.beginMap("adaptive-routing");
      y.scalar(nv.state, nv.on);
      y.endMap();
    }
    if (an.bfd.enabled && plan.dialect == NvueDialect::Cl515) {
      // The global switch NVUE's BFD reference documents from 5.15, beside the peer group's timers.
      y.beginMap("bfd");
      y.scalar(nv.state, nv.on);
      y.endMap();
    }
    y.beginMap("bgp");
    y.scalar("autonomous-system", F.devAsn[d]);
    y.scalar(nv.state, nv.on);
    y.scalar("router-id", lo);
    y.endMap();
    writePolicy(y, F.routePolicyOf(d));
    y.endMap();

    y.beginMap("vrf");
    y.beginMap("default");
    y.beginMap("router");
    y.beginMap("bgp");
    y.beginMap("address-family");
    y.beginMap("ipv4-unicast");
    y.scalar(nv.state, nv.on);
    y.beginMap("multipaths");
    y.scalar("ebgp", 64);
    y.endMap();
    y.beginMap("network");
    addr.clear();
    fmt::format_to(fmt::appender(addr), "{}/32", lo);
    y.emptyMap(view(addr));
    for (const eth::Peer &p : peers) { // the host subnets: a /31 per NIC, or the SVIs'
      if (F.hostScheme != ir::HostScheme::P2p || p.routed || !passes::isHostLink(F, p.link) ||
          repeatsBond(p.port, p.link))
        continue;
      addr.clear();
      appendIpv4(addr, passes::hostSubnet(F, p.link));
      append(addr, "/31");
      y.emptyMap(view(addr));
    }
    for (uint32_t n = firstNet; n < lastNet; ++n) {
      addr.clear();
      appendIpv4(addr, F.hostNets[n].base);
      fmt::format_to(fmt::appender(addr), "/{}", unsigned(F.hostNets[n].len));
      y.emptyMap(view(addr));
    }
    y.endMap();
    y.endMap();
    y.endMap();
    y.scalar(nv.state, nv.on);
    bool anyNeighbor = false;
    for (const eth::Peer &p : peers)
      anyNeighbor |= p.routed;
    if (!anyNeighbor) {
      y.emptyMap("neighbor"); // an empty map is still a map
    } else {
      y.beginMap("neighbor");
      for (const eth::Peer &p : peers) {
        if (!p.routed)
          continue;
        name.clear();
        if (unnumbered)
          eth::appendSwpName(name, eth::portInfo(F, p.port));
        else
          appendIpv4(name, eth::peerAddress(F, p));
        y.beginMap(view(name));
        desc.clear();
        eth::appendPeerDescription(desc, F, p, 'c', hosts);
        y.scalar("description", view(desc));
        y.scalar("peer-group", "FABRIC");
        y.scalar("type", unnumbered ? "unnumbered" : "numbered");
        y.endMap();
      }
      y.endMap();
    }
    y.beginMap("path-selection");
    y.beginMap("multipath");
    y.scalar("aspath-ignore", nv.on);
    y.endMap();
    y.endMap();
    y.beginMap("peer-group");
    y.beginMap("FABRIC");
    y.beginMap("address-family");
    y.beginMap("ipv4-unicast");
    y.beginMap("policy");
    y.beginMap("inbound");
    y.scalar("route-map", "FABRIC_IN");
    y.endMap();
    y.beginMap("outbound");
    y.scalar("route-map", "FABRIC_OUT");
    y.endMap();
    y.endMap();
    if (an.bgp.enabled && an.bgp.maxPrefix) {
      // policy bgp: `nv set vrf default router bgp peer-group FABRIC address-family
      // ipv4-unicast prefix-limits inbound maximum N` (Cumulus Linux 5.15 user guide,
      // Optional BGP Configuration; warning-only from the NVUE command reference).
      y.beginMap("prefix-limits");
      y.beginMap("inbound");
      y.scalar("maximum", an.bgp.maxPrefix);
      if (an.bgp.warningOnly)
        y.scalar("warning-only", nv.on);
      y.endMap();
      y.endMap();
    }
    y.endMap();
    if (F.runsEvpn(d)) { // the EVPN-VXLAN overlay (decision 0511)
      y.beginMap("l2vpn-evpn");
      y.scalar(nv.state, nv.on);
      y.endMap();
    }
    y.endMap();
    if (an.bfd.enabled) {
      // policy bfd on every session of the peer group (BFD timers in milliseconds).
      y.beginMap("bfd");
      y.scalar("detect-multiplier", an.bfd.multiplier);
      y.scalar("min-rx-interval", an.bfd.intervalMs);
      y.scalar("min-tx-interval", an.bfd.intervalMs);
      y.scalar(nv.state, nv.on);
      y.endMap();
    }
    if (!an.bgp.password.empty()) // policy bgp password: `nv set vrf default router bgp peer-group FABRIC password`
      y.scalar("password", an.bgp.password);
    y.scalar("remote-as", "external");
    y.endMap();
    y.endMap();
    y.endMap(); // bgp
    y.endMap(); // router
    y.endMap(); // default
    y.endMap(); // vrf

    if (roce.enabled) {
      // Cumulus Linux's lossless RoCE profile: PFC and ECN on priority 3, CNPs strict on 6.
      y.beginMap("qos");
      if (wd && (roce.pfcwdPollMs || roce.pfcwdDetectionMs)) {
        // Cumulus's defaults (100 ms x 3) unless the policy pins the times.
        y.beginMap("pfc-watchdog");
        y.scalar("polling-interval", roce.pfcwdPollMs ? roce.pfcwdPollMs : 100);
        y.scalar("robustness", passes::nvueRobustness(roce));
        y.endMap();
      }
      y.beginMap("roce");
      y.scalar(nv.state, nv.on);
      y.scalar("mode", "lossless");
      y.endMap();
      y.endMap();
    }
    y.endMap(); // set
    y.endSeqItem();
  }

  // system: the host name and policy management's services, in the target's dialect.
  void writeSystem(YamlWriter &y, uint32_t d) {
    const ManagementPlan &m = an.management;
    const char *vrf = m.vrf ? "mgmt" : "default";
    y.beginMap("system");
    if (!m.tacacs.empty() && plan.minor >= 4) { // NVUE's TACACS+ keys came with 5.4 (W0201)
      // Cumulus Linux 5.15 user guide, TACACS: a priority per server (the lower number
      // is asked first: the order of tacacs_servers), its secret, the VRF for all. The
      // servers are keyed by address from 5.12, by priority with `host` and `enable`
      // before (NVUE command reference, TACACS: "Cumulus Linux 5.12 and later does not
      // provide this command" on `server <priority-id> host` and `tacacs enable`; the
      // 5.12 user guide's `server <ip> priority`): a TACACS+ change, not the 5.15 dialect.
      bool byAddress = plan.minor >= 12;
      y.beginMap("aaa");
      y.beginMap("tacacs");
      if (!byAddress)
        y.scalar("enable", nv.on);
      y.beginMap("server");
      for (size_t i = 0; i < m.tacacs.size(); ++i) {
        addr.clear();
        if (byAddress) {
          appendIpv4(addr, m.tacacs[i]);
          y.beginMap(view(addr));
        } else { // keyed by priority, with the address as `host`
          fmt::format_to(fmt::appender(addr), "'{}'", i + 1);
          y.beginMapRawKey(view(addr));
          addr.clear();
          appendIpv4(addr, m.tacacs[i]);
          y.scalar("host", view(addr));
        }
        if (byAddress)
          y.scalar("priority", i + 1);
        if (!m.tacacsSecret.empty())
          y.scalar("secret", m.tacacsSecret);
        y.endMap();
      }
      y.endMap();
      y.scalar("vrf", vrf);
      y.endMap();
      y.endMap();
    }
    if (plan.controlPlaneAcl)
      nvue::bindControlPlaneAcl(y);
    y.scalar("hostname", hosts(d));
    if (nv.cl515 && !m.ntp.empty()) { // system ntp server ..., system ntp vrf (5.15)
      y.beginMap("ntp");
      writeServers(y, m.ntp, Server::Iburst, vrf);
      y.scalar("vrf", vrf);
      y.endMap();
    }
    if (nv.cl515 && !m.syslog.empty()) { // system syslog server <ip> vrf <vrf> (5.15)
      y.beginMap("syslog");
      writeServers(y, m.syslog, Server::Vrf, vrf);
      y.endMap();
    }
    y.endMap();
    if (nv.cl515 || (m.ntp.empty() && m.syslog.empty()))
      return;
    // 5.0 to 5.14: service ntp <vrf> server <ip> iburst on; service syslog <vrf> server <ip>.
    y.beginMap("service");
    for (const auto &[name, servers, attr] : {std::tuple("ntp", &m.ntp, Server::Iburst),
                                              std::tuple("syslog", &m.syslog, Server::Bare)}) {
      if (servers->empty())
        continue;
      y.beginMap(name);
      y.beginMap(vrf);
      writeServers(y, *servers, attr, vrf);
      y.endMap();
      y.endMap();
    }
    y.endMap();
  }

  // `server: {<ip>: ...}`, as both dialects write NTP and syslog servers: with `iburst
  // on`, with the VRF (5.15's syslog), or bare (older syslog).
  enum class Server { Iburst, Vrf, Bare };
  void writeServers(YamlWriter &y, const std::vector<uint32_t> &servers, Server attr, const char *vrf) {
    y.beginMap("server");
    for (uint32_t a : servers) {
      addr.clear();
      appendIpv4(addr, a);
      if (attr == Server::Bare) {
        y.emptyMap(view(addr));
        continue;
      }
      y.beginMap(view(addr));
      if (attr == Server::Iburst)
        y.scalar("iburst", nv.on);
      else
        y.scalar("vrf", vrf);
      y.endMap();
    }
    y.endMap();
  }

  // eth0, the management port: its address from mgmt_pool, the gateway, and its VRF
  // (5.15: `interface eth0 ipv4 address`, `ipv4 gateway`, `vrf`; before: under `ip`).
  // Written whenever policy management gives a pool or the VRF, so that a full
  // `nv config replace` keeps out-of-band access as the design states it.
  void writeEth0(YamlWriter &y, uint32_t index) {
    const ManagementPlan &m = an.management;
    if (!m.addresses && !m.vrf)
      return;
    const char *vrf = m.vrf ? "mgmt" : "default";
    y.beginMap("eth0");
    if (m.addresses || !nv.cl515) {
      y.beginMap(nv.ipv4);
      if (m.addresses) {
        nvue::writeAddress(y, addr, m.address(index), m.len);
        if (m.gateway) {
          addr.clear();
          appendIpv4(addr, m.gateway);
          y.member("gateway", view(addr));
        }
      }
      if (!nv.cl515)
        y.scalar("vrf", vrf);
      y.endMap();
    }
    y.scalar("type", "eth");
    if (nv.cl515)
      y.scalar("vrf", vrf);
    y.endMap();
  }

  // router policy: the prefix-lists of the switch's domain (F.routePolicyOf, decision
  // 0521) and the route-maps FABRIC_IN and FABRIC_OUT that permit them (and deny the
  // rest), as in frr.conf.
  void writePolicy(YamlWriter &y, const std::vector<ir::PrefixRule> &policy) {
    static const char *const lists[2] = {"FABRIC_LOOPBACKS", "FABRIC_HOSTS"};
    bool used[2] = {false, false};
    for (const ir::PrefixRule &r : policy)
      used[r.list] = true;
    y.beginMap("policy");
    y.beginMap("prefix-list");
    for (unsigned l = 0; l < 2; ++l) {
      if (!used[l])
        continue;
      y.beginMap(lists[l]);
      y.beginMap("rule");
      unsigned seq = 0;
      for (const ir::PrefixRule &r : policy) {
        if (r.list != l)
          continue;
        name.clear();
        fmt::format_to(fmt::appender(name), "'{}'", seq += 10);
        y.beginMapRawKey(view(name));
        y.scalar("action", "permit");
        y.beginMap("match");
        addr.clear();
        appendIpv4(addr, r.base);
        fmt::format_to(fmt::appender(addr), "/{}", unsigned(r.len));
        if (r.ge > r.len) {
          y.beginMap(view(addr));
          y.scalar("max-prefix-len", r.le);
          y.scalar("min-prefix-len", r.ge);
          y.endMap();
        } else {
          y.emptyMap(view(addr));
        }
        y.endMap();
        y.endMap();
      }
      y.endMap();
      y.scalar("type", "ipv4");
      y.endMap();
    }
    y.endMap();
    y.beginMap("route-map");
    for (const char *map : {"FABRIC_IN", "FABRIC_OUT"}) {
      y.beginMap(map);
      y.beginMap("rule");
      unsigned seq = 0;
      for (unsigned l = 0; l < 2; ++l) {
        if (!used[l])
          continue;
        name.clear();
        fmt::format_to(fmt::appender(name), "'{}'", seq += 10);
        y.beginMapRawKey(view(name));
        y.beginMap("action");
        y.emptyMap("permit");
        y.endMap();
        y.beginMap("match");
        y.scalar("ip-prefix-list", lists[l]);
        y.scalar("type", "ipv4");
        y.endMap();
        y.endMap();
      }
      y.endMap();
      y.endMap();
    }
    y.endMap();
    y.endMap();
  }
};

} // namespace

bool runNvue(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  passes::RoceSettings roce = passes::roceSettings(F);
  const std::vector<uint32_t> &sw = eth::ethernetSwitches(ctx);
  bool unnumbered = passes::bgpUnnumbered(F);
  uint32_t mtu = passes::fabricMtu(F);
  eth::HostNames hosts(ctx.an);
  SwitchDoc doc(F, hosts, ctx.an, ctx.an.nvue);
  TextBuffer buf;
  // The TACACS+ servers' secret (writeSystem, 5.4 and later) and the peer group's password.
  const ManagementPlan &m = ctx.an.management;
  OutputDir::Access access =
      eth::configAccess(ctx, !m.tacacs.empty() && ctx.an.nvue.minor >= 4 && !m.tacacsSecret.empty());
  for (uint32_t i = 0; i < sw.size(); ++i) {
    uint32_t d = sw[i];
    const std::string &host = hosts(d);
    buf.clear();
    fmt::format_to(fmt::appender(buf),
                   "# NVUE startup configuration of {} ('{}') in fabric '{}'\n# generated by fabc {}: do not edit\n", host,
                   F.deviceName(d), F.name, ctx.info.version);
    doc.write(buf, d, i, unnumbered, roce, mtu);
    append(buf, "\n");
    OutFile *o = ctx.out.open("nvue/" + host + "/startup.yaml", access);
    if (!o)
      return failOpen(ctx);
    o->write(buf);
    o->close();
  }
  return true;
}

} // namespace fabc
