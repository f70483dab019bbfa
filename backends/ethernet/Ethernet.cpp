#include "backends/ethernet/Ethernet.h"
#include "diag/Diag.h"
#include "passes/Addressing.h"

#include <algorithm>

namespace fabc::eth {

bool isEthernetSwitch(const ir::Fabric &F, uint32_t dev) {
  const ir::Model &m = F.modelOf(dev);
  return m.kind == ir::ModelKind::Switch && m.protocol == ir::Protocol::Ethernet;
}

std::vector<uint32_t> ethernetSwitches(BackendContext &ctx, const char *backend) {
  const ir::Fabric &F = ctx.F;
  std::vector<uint32_t> out;
  std::vector<uint32_t> unspecified(F.models.size(), 0), first(F.models.size(), ir::None);
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::Switch)
      continue;
    if (m.protocol == ir::Protocol::Ethernet)
      out.push_back(d);
    else if (m.protocol == ir::Protocol::Unspecified && !unspecified[F.devModel[d]]++)
      first[F.devModel[d]] = d;
  }
  for (uint32_t m = 0; m < F.models.size(); ++m) {
    if (!unspecified[m])
      continue;
    Diagnostic *d = ctx.diags.report(DiagCode::W0120, F.models[m].loc,
                                     "switch model '{}' does not say its protocol: {} switch{} got no {} configuration",
                                     F.strings.str(F.models[m].name), unspecified[m], unspecified[m] == 1 ? "" : "es",
                                     backend);
    DiagEngine::note(d, {{F.devLoc[first[m]]}, 1}, fmt::format("'{}' is one of them", F.deviceName(first[m])));
    DiagEngine::note(d, {}, "add protocol = \"ethernet\" (or \"infiniband\") to the model");
  }
  return out;
}

PortInfo portInfo(const ir::Fabric &F, uint32_t port) {
  PortInfo p;
  p.port = port;
  uint32_t dev = F.portDevice[port], q = 0;
  p.group = F.portGroup(port, &q);
  const ir::Layout &lay = F.layoutOf(dev);
  const ir::Model &m = F.modelOf(dev);
  uint32_t cageBase = 0, laneBase = 0;
  for (uint32_t g = 0; g < p.group; ++g) {
    cageBase += lay.groups[g].count / std::max(1u, lay.groups[g].portsPerCage);
    laneBase += m.ports[g].count * m.ports[g].lanes;
  }
  const ir::GroupLayout &gl = lay.groups[p.group];
  p.perCage = std::max(1u, gl.portsPerCage);
  p.cage = cageBase + q / p.perCage;
  p.sub = q % p.perCage;
  p.lanes = gl.lanes;
  p.firstLane = laneBase + q * gl.lanes;
  p.speed = gl.speed;
  return p;
}

std::string sonicPortName(const PortInfo &p) { return fmt::format("Ethernet{}", p.firstLane); }

std::string swpCageName(const PortInfo &p) { return fmt::format("swp{}", p.cage + 1); }

std::string swpName(const PortInfo &p) {
  return p.perCage > 1 ? fmt::format("swp{}s{}", p.cage + 1, p.sub) : swpCageName(p);
}

std::vector<Peer> peersOf(const ir::Fabric &F, uint32_t dev) {
  std::vector<Peer> out;
  peersOf(F, dev, out);
  return out;
}

void peersOf(const ir::Fabric &F, uint32_t dev, std::vector<Peer> &out) {
  out.clear();
  bool routed = passes::isRoutedSwitch(F, dev);
  uint32_t base = F.devPortBase[dev], n = F.layoutOf(dev).ports;
  for (uint32_t p = base; p < base + n; ++p) {
    uint32_t l = F.portLink[p];
    if (l == ir::None)
      continue;
    uint32_t o = F.otherEnd(l, p);
    uint32_t od = F.portDevice[o];
    out.push_back({p, l, o, od, routed && passes::isRoutedSwitch(F, od)});
  }
}

const std::string &HostNames::operator()(uint32_t dev) {
  std::string &h = names_[dev];
  if (h.empty())
    h = passes::hostName(F_, dev);
  return h;
}

const SonicPortOrder &sonicPortOrder(const ir::Fabric &F, uint32_t dev, std::vector<SonicPortOrder> &cache) {
  uint32_t lay = F.devLayout[dev];
  if (cache.size() <= lay)
    cache.resize(lay + 1);
  SonicPortOrder &o = cache[lay];
  uint32_t n = F.layoutOf(dev).ports;
  if (o.plain.size() == n)
    return o;
  std::vector<std::string> names(n);
  for (uint32_t i = 0; i < n; ++i)
    names[i] = sonicPortName(portInfo(F, F.devPortBase[dev] + i));
  o.plain.resize(n);
  for (uint32_t i = 0; i < n; ++i)
    o.plain[i] = i;
  o.piped = o.plain;
  std::stable_sort(o.plain.begin(), o.plain.end(), [&](uint32_t a, uint32_t b) { return names[a] < names[b]; });
  for (std::string &s : names)
    s += '|';
  std::stable_sort(o.piped.begin(), o.piped.end(), [&](uint32_t a, uint32_t b) { return names[a] < names[b]; });
  return o;
}

void appendSonicPortName(TextBuffer &b, const PortInfo &p) {
  append(b, "Ethernet");
  appendUint(b, p.firstLane);
}

void appendSwpName(TextBuffer &b, const PortInfo &p) {
  append(b, "swp");
  appendUint(b, p.cage + 1);
  if (p.perCage > 1) {
    append(b, 's');
    appendUint(b, p.sub);
  }
}

void appendPeerDescription(TextBuffer &b, const ir::Fabric &F, const Peer &p, char style, HostNames &hosts) {
  if (isEthernetSwitch(F, p.peerDev)) {
    PortInfo pi = portInfo(F, p.peerPort);
    append(b, hosts(p.peerDev));
    append(b, " ");
    if (style == 's')
      appendSonicPortName(b, pi);
    else
      appendSwpName(b, pi);
    return;
  }
  std::string name;
  F.appendPortName(p.peerPort, name);
  append(b, name);
}

std::string peerDescription(const ir::Fabric &F, const Peer &p, char style) {
  if (isEthernetSwitch(F, p.peerDev)) {
    PortInfo pi = portInfo(F, p.peerPort);
    return passes::hostName(F, p.peerDev) + " " + (style == 's' ? sonicPortName(pi) : swpName(pi));
  }
  return F.portName(p.peerPort);
}

uint32_t localAddress(const ir::Fabric &F, const Peer &p) {
  uint32_t s = F.linkSubnet[p.link];
  return s ? s + (F.linkA[p.link] == p.port ? 0 : 1) : 0;
}

uint32_t peerAddress(const ir::Fabric &F, const Peer &p) {
  uint32_t s = F.linkSubnet[p.link];
  return s ? s + (F.linkA[p.link] == p.port ? 1 : 0) : 0;
}

} // namespace fabc::eth
