// hosts: the server side of host-facing addressing (passes/HostAddressing.h): a per-NIC
// plan (hosts/plan.csv, hosts/plan.json) and one netplan file per GPU server
// (hosts/netplan/HOST.yaml, for /etc/netplan/), with per-rail routing: every NIC has its
// own routing table, selected by its source address, whose route to the host pool goes
// through that NIC's leaf. With policy roce, also the servers' RoCE files (HostRoce.h):
// hosts/roce/HOST.sh, hosts/nccl/HOST.env and hosts/nic-configuration-operator.yaml.
// Writes nothing when the design declares no host addressing.
#include "backends/Common.h"
#include "backends/hosts/HostRoce.h"
#include "backends/ethernet/Ethernet.h"
#include "ir/Address.h"
#include "passes/Addressing.h"
#include "passes/HostAddressing.h"
#include "passes/Roce.h"

#include <algorithm>

namespace fabc {
namespace {

constexpr uint32_t kFirstTable = 101; // NIC k of a server routes through table 101 + k

// One NIC of a server: its link, in port order, and its bond (ir::None: none).
struct Nic {
  uint32_t port, link, leaf, leafPort, bond;
};

// The NICs of device d (its first port group's ports with a host address).
void nicsOf(const ir::Fabric &F, uint32_t d, std::vector<Nic> &out) {
  out.clear();
  auto [first, last] = passes::nicPortRange(F, d);
  for (uint32_t p = first; p < last; ++p) {
    uint32_t l = F.portLink[p];
    if (l == ir::None || !passes::isHostLink(F, l))
      continue;
    uint32_t o = F.otherEnd(l, p);
    out.push_back({p, l, F.portDevice[o], o, F.bondOf(p)});
  }
}

void appendCidr(TextBuffer &b, uint32_t a, uint32_t len) {
  appendIpv4(b, a);
  append(b, '/');
  appendUint(b, len);
}

struct Writer {
  BackendContext &ctx;
  const ir::Fabric &F;
  eth::HostNames hosts;
  std::vector<Nic> nics;
  TextBuffer a, b, sub;
  std::string pool;
  passes::RoceSettings roce;
  std::vector<fabc::hosts::RoceNic> roceNics;

  explicit Writer(BackendContext &cx) : ctx(cx), F(cx.F), hosts(cx.an), roce(passes::roceSettings(cx.F)) {
    TextBuffer t;
    appendCidr(t, F.hostPoolBase, F.hostPoolLen);
    pool = std::string(view(t));
  }

  // The interface name on the server: the port's label ("cx3"), see docs/backends.md.
  std::string ifname(uint32_t port) { return names::portLabel(F, port); }
  // A bond's interface name: bond + the GPU's index in its server.
  std::string bondName(uint32_t bond) { return fmt::format("bond{}", F.bonds[bond].gpu); }
  // The interface that carries the address: the NIC's own, or its bond's.
  std::string addrIf(const Nic &n) { return n.bond == ir::None ? ifname(n.port) : bondName(n.bond); }
  // What carries an address: each NIC not in a bond, and each bond once (its first member).
  bool firstOfUnit(uint32_t k) const { return nics[k].bond == ir::None || k == 0 || nics[k - 1].bond != nics[k].bond; }

  // The addressed interface's settings in netplan (ethernets or bonds): addresses, per-rail routes.
  void addressing(TextBuffer &y, const Nic &n, uint32_t k) {
    uint32_t table = kFirstTable + k;
    a.clear();
    appendIpv4(a, F.linkHostAddr[n.link]);
    b.clear();
    appendIpv4(b, passes::hostGateway(F, n.link));
    fmt::format_to(fmt::appender(y), "      addresses:\n        - {}/{}\n", view(a), passes::hostPrefixLen(F, n.link));
    // The NIC's own subnet on link in its table (a peer on the same subnet, so on the same
    // leaf, is reached directly, not through the gateway); the host pool through this NIC's
    // leaf, in the NIC's own table (per-rail routing: traffic from this NIC's address leaves
    // by this NIC), and in the main table with a metric per NIC, for traffic that has not
    // chosen a source yet.
    uint32_t len = passes::hostPrefixLen(F, n.link);
    uint32_t net = len ? F.linkHostAddr[n.link] & ~((1ull << (32 - len)) - 1) : 0;
    sub.clear();
    appendCidr(sub, net, len);
    // The host pool this NIC reaches: its plane's slice with addressing domains (0521).
    auto [poolBase, poolLen] = passes::hostPoolOf(F, n.link);
    TextBuffer own;
    appendCidr(own, poolBase, poolLen);
    std::string_view reach = view(own);
    fmt::format_to(fmt::appender(y),
                   "      routes:\n        - to: {}\n          scope: link\n          from: {}\n          table: {}\n"
                   "        - to: {}\n          via: {}\n          table: {}\n"
                   "        - to: {}\n          via: {}\n          metric: {}\n",
                   view(sub), view(a), table, reach, view(b), table, reach, view(b), 100 + k);
    fmt::format_to(fmt::appender(y), "      routing-policy:\n        - from: {}\n          table: {}\n", view(a),
                   table);
  }

  void netplan(OutFile &o, uint32_t d, uint32_t mtu) {
    TextBuffer y;
    const std::string &host = hosts(d);
    // NICs whose MAC a discovery reported (fabc build --guids-from, verify/PinMacs.h) are
    // matched by it and renamed to their key; the others keep the key as interface name.
    size_t known = 0;
    for (const Nic &n : nics)
      known += F.nicMac(n.port) != 0;
    const char *keys = known == 0 ? "# Each key is the NIC's interface name: the design has no MAC for a NIC to match and\n"
                                    "# set-name by, so name the NICs so (udev) or edit the keys (docs/backends.md, hosts).\n"
                       : known == nics.size()
                           ? "# Each NIC is matched by the MAC a discovery reported (fabc build --guids-from) and\n"
                             "# renamed to its key (set-name).\n"
                           : "# The NICs with `match` are found by the MAC a discovery reported and renamed to their\n"
                             "# key (set-name); the other keys are interface names: name those NICs so (udev).\n";
    fmt::format_to(fmt::appender(y),
                   "# netplan of {} ('{}') in fabric '{}': the GPU NICs, per-rail routing\n"
                   "# generated by fabc {}: install as /etc/netplan/60-fabc-gpu.yaml, then `netplan apply`\n"
                   "{}network:\n  version: 2\n  renderer: networkd\n  ethernets:\n",
                   host, F.deviceName(d), F.name, ctx.info.version, keys);
    // NIC k's table is 101 + k, counting a bond once (unit).
    bool bonded = false;
    for (uint32_t k = 0, unit = 0; k < nics.size(); ++k) {
      const Nic &n = nics[k];
      // optional: a GPU NIC down does not hold the boot at network-online.
      if (n.bond == ir::None)
        fmt::format_to(fmt::appender(y), "    {}:\n      # {}, rail {}, to {} {}\n", ifname(n.port), F.portName(n.port),
                       passes::nicRail(F, n.port), hosts(n.leaf), eth::swpName(eth::portInfo(F, n.leafPort)));
      else
        fmt::format_to(fmt::appender(y), "    {}:\n      # {}, rail {}, in {}, to {} {}\n", ifname(n.port),
                       F.portName(n.port), passes::nicRail(F, n.port), bondName(n.bond), hosts(n.leaf),
                       eth::swpName(eth::portInfo(F, n.leafPort)));
      if (uint64_t mac = F.nicMac(n.port))
        fmt::format_to(fmt::appender(y), "      match:\n        macaddress: \"{}\"\n      set-name: {}\n",
                       ir::macString(mac), ifname(n.port));
      fmt::format_to(fmt::appender(y), "      mtu: {}\n      optional: true\n", mtu);
      bonded |= n.bond != ir::None;
      if (firstOfUnit(k) && n.bond == ir::None)
        addressing(y, n, unit);
      unit += firstOfUnit(k);
    }
    if (bonded) {
      // A GPU's bond: LACP (802.3ad) with its switches' port channel, MC-LAG or EVPN-MH
      // Ethernet segment, which hash layer 3+4 the same way (docs/decisions/0441).
      append(y, "  bonds:\n");
      for (uint32_t k = 0, unit = 0; k < nics.size(); unit += firstOfUnit(k), ++k) {
        const Nic &n = nics[k];
        if (n.bond == ir::None || !firstOfUnit(k))
          continue;
        fmt::format_to(fmt::appender(y), "    {}:\n      # GPU {} of {}, rail {}:", bondName(n.bond), F.bonds[n.bond].gpu,
                       F.deviceName(d), passes::nicRail(F, n.port));
        std::string members;
        for (uint32_t m = k; m < nics.size() && nics[m].bond == n.bond; ++m) {
          fmt::format_to(fmt::appender(y), "{} {} to {} {}", m == k ? "" : ",", ifname(nics[m].port), hosts(nics[m].leaf),
                         eth::swpName(eth::portInfo(F, nics[m].leafPort)));
          members += (members.empty() ? "" : ", ") + ifname(nics[m].port);
        }
        fmt::format_to(fmt::appender(y),
                       "\n      interfaces: [{}]\n      mtu: {}\n      optional: true\n      parameters:\n"
                       "        mode: 802.3ad\n        lacp-rate: fast\n        mii-monitor-interval: 100\n"
                       "        transmit-hash-policy: layer3+4\n",
                       members, mtu);
        addressing(y, n, unit);
      }
    }
    o.write(view(y));
  }

  bool run() {
    const std::vector<uint32_t> &servers = ctx.an.hosts.servers;
    uint32_t mtu = passes::hostMtu(F); // docs/decisions/0271: the NICs' MTU
    OutFile *csv = ctx.out.open("hosts/plan.csv");
    if (!csv)
      return failOpen(ctx);
    OutFile *json = ctx.out.open("hosts/plan.json");
    if (!json)
      return failOpen(ctx);
    TextBuffer c;
    // With bonds, a last column names the NIC's bond (docs/backends.md): without, the file is as before.
    const bool bonds = !F.bonds.empty();
    append(c, bonds ? "host,nic,rail,interface,address,gateway,table,vlan,leaf,leaf_port,leaf_port_sonic,bond\n"
                    : "host,nic,rail,interface,address,gateway,table,vlan,leaf,leaf_port,leaf_port_sonic\n");
    JsonWriter j(sinkTo(*json));
    j.beginObject();
    j.key("format_version").string(formats::HostsPlan);
    j.key("fabric").string(F.name);
    j.key("generator").string("fabc " + ctx.info.version);
    j.key("scheme").string(ir::hostSchemeName(F.hostScheme));
    j.key("host_pool").string(pool);
    j.key("nics").beginArray(JsonLayout::BlockOpenWhenEmpty);
    for (uint32_t d : servers) {
      nicsOf(F, d, nics);
      for (uint32_t k = 0, units = 0; k < nics.size(); ++k) {
        const Nic &n = nics[k];
        units += firstOfUnit(k);
        uint32_t unit = units - 1; // a bond's members share its table
        a.clear();
        appendCidr(a, F.linkHostAddr[n.link], passes::hostPrefixLen(F, n.link));
        b.clear();
        appendIpv4(b, passes::hostGateway(F, n.link));
        uint32_t vlan = F.linkHostNet.empty() ? 0 : F.hostNets[F.linkHostNet[n.link]].vlan;
        eth::PortInfo pi = eth::portInfo(F, n.leafPort);
        std::string swp = eth::swpName(pi), sonic = eth::sonicPortName(pi), name = F.portName(n.port);
        std::string ifn = ifname(n.port);
        uint32_t rail = passes::nicRail(F, n.port);
        std::string bond = n.bond == ir::None ? std::string() : bondName(n.bond);
        fmt::format_to(fmt::appender(c), "{},{},{},{},{},{},{},{},{},{},{}", hosts(d), csvField(name), rail, ifn,
                       view(a), view(b), kFirstTable + unit, vlan ? std::to_string(vlan) : "", hosts(n.leaf), swp, sonic);
        if (bonds)
          fmt::format_to(fmt::appender(c), ",{}", bond);
        append(c, '\n');
        j.beginObject(JsonLayout::Inline);
        j.key("host").string(hosts(d));
        j.key("nic").string(name);
        j.key("rail").integer(rail);
        j.key("interface").string(ifn);
        j.key("address").string(view(a));
        j.key("gateway").string(view(b));
        j.key("table").integer(kFirstTable + unit);
        if (vlan)
          j.key("vlan").integer(vlan);
        else
          j.key("vlan").null();
        j.key("leaf").string(hosts(n.leaf));
        j.key("leaf_port").string(swp);
        j.key("leaf_port_sonic").string(sonic);
        if (!bond.empty())
          j.key("bond").string(bond);
        j.endObject();
      }
      if (c.size() > (1u << 20)) {
        csv->write(view(c));
        c.clear();
      }
      OutFile *np = ctx.out.open("hosts/netplan/" + hosts(d) + ".yaml");
      if (!np)
        return failOpen(ctx);
      netplan(*np, d, mtu);
      np->close();
      // RoCE over a bond is the adapter's RoCE LAG, which the design cannot state (W0401):
      // a server with a bonded GPU gets no RoCE files.
      bool anyBond = false;
      for (const Nic &n : nics)
        anyBond |= n.bond != ir::None;
      if (roce.enabled && !nics.empty() && !anyBond && !roceFiles(d, mtu))
        return false;
    }
    csv->write(view(c));
    j.endArray();
    j.endObject();
    if (roce.enabled && !roce.nicType.empty() && passes::defaultDscpMap(roce)) {
      return writeFile("hosts/nic-configuration-operator.yaml",
                       [&](TextBuffer &o) { fabc::hosts::nicTemplate(o, F.name, ctx.info.version, roce); });
    }
    return true;
  }

  // One whole file made in the scratch buffer `a` by gen(a).
  template <typename Gen> bool writeFile(const std::string &path, Gen gen) {
    OutFile *f = ctx.out.open(path);
    if (!f)
      return failOpen(ctx);
    a.clear();
    gen(a);
    f->write(view(a));
    f->close();
    return true;
  }

  // Server d's RoCE script and NCCL file: its NICs (this->nics) in rail order.
  bool roceFiles(uint32_t d, uint32_t mtu) {
    roceNics.clear();
    for (const Nic &n : nics) {
      fabc::hosts::RoceNic r;
      r.ifname = ifname(n.port);
      r.rail = passes::nicRail(F, n.port);
      r.addr = F.linkHostAddr[n.link];
      r.where = fmt::format("{}, rail {}, to {} {}", F.portName(n.port), r.rail, hosts(n.leaf),
                            eth::swpName(eth::portInfo(F, n.leafPort)));
      roceNics.push_back(std::move(r));
    }
    std::stable_sort(roceNics.begin(), roceNics.end(),
                     [](const fabc::hosts::RoceNic &x, const fabc::hosts::RoceNic &y) { return x.rail < y.rail; });
    const std::string &host = hosts(d), device = F.deviceName(d);
    fabc::hosts::RoceHost h{host, device, F.name, ctx.info.version, mtu};
    return writeFile("hosts/roce/" + host + ".sh",
                     [&](TextBuffer &o) { fabc::hosts::roceScript(o, h, roceNics, roce); }) &&
           writeFile("hosts/nccl/" + host + ".env", [&](TextBuffer &o) { fabc::hosts::ncclEnv(o, h, roceNics, roce); });
  }
};

} // namespace

bool runHosts(BackendContext &ctx) {
  if (ctx.F.hostScheme == ir::HostScheme::None)
    return true; // no host addressing declared: nothing to write
  Writer w(ctx);
  return w.run();
}

} // namespace fabc
