#include "backends/ethernet/Ethernet.h"
#include "passes/Addressing.h"

#include <algorithm>

namespace fabc::eth {

bool isEthernetSwitch(const ir::Fabric &F, uint32_t dev) {
  const ir::Model &m = F.modelOf(dev);
  return m.kind == ir::ModelKind::Switch && m.protocol == ir::Protocol::Ethernet;
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
    // An MC-LAG peer link is the pair's L2 port channel, no BGP session (decision 0441).
    out.push_back({p, l, o, od, routed && passes::isRoutedSwitch(F, od) && !F.isPeerLink(l)});
  }
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

std::string cumulusEndName(const ir::Fabric &F, uint32_t port) {
  return isEthernetSwitch(F, F.portDevice[port]) ? swpName(portInfo(F, port)) : names::portLabel(F, port);
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
