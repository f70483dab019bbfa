// The EVPN-VXLAN overlay (Overlay.h). Linear in the VTEPs' ports and the host nets, plus
// a sort of the EVPN domains.
#include "passes/Overlay.h"
#include "diag/Diag.h"
#include "diag/DiagCodes.h"
#include "passes/Addressing.h"
#include "passes/Bonds.h"
#include "passes/Passes.h"
#include "passes/Roce.h"

#include <algorithm>

namespace fabc::passes {
using ir::None;

namespace {

constexpr uint32_t kVxlanOverhead = 50; // bytes: RFC 7348's encapsulation over IPv4

using Kind = ir::Model::Bond;

// A link of group g's first bond, where the diagnostics point.
uint32_t firstLinkOf(const ir::Fabric &F, uint32_t g) {
  for (uint32_t p = 0; p < F.portBond.size(); ++p)
    if (F.portBond[p] != None && F.bonds[F.portBond[p]].group == g)
      return F.portLink[p];
  return None;
}

SourceRange at(const ir::Fabric &F, uint32_t link) {
  return link == None ? SourceRange{} : linkRange(F, link);
}

// Calls fn for each routed switch linked to d, over links that are not MC-LAG peer links.
template <class Fn>
void forEachRoutedNeighbour(const ir::Fabric &F, const std::vector<uint8_t> &routed, uint32_t d, Fn fn) {
  uint32_t base = F.devPortBase[d], n = F.layoutOf(d).ports;
  for (uint32_t p = base; p < base + n; ++p) {
    uint32_t l = F.portLink[p];
    if (l == None || F.isPeerLink(l))
      continue;
    uint32_t o = F.portDevice[F.otherEnd(l, p)];
    if (routed[o])
      fn(o);
  }
}

// Whether switches a and b are linked directly or through one routed switch.
bool withinTwoHops(const ir::Fabric &F, const std::vector<uint8_t> &routed, uint32_t a, uint32_t b,
                   std::vector<uint8_t> &mark) {
  std::fill(mark.begin(), mark.end(), 0);
  auto neighbours = [&](uint32_t d, auto fn) { forEachRoutedNeighbour(F, routed, d, fn); };
  bool found = false;
  neighbours(a, [&](uint32_t o) { mark[o] = 1; });
  neighbours(b, [&](uint32_t o) { found |= o == a || mark[o]; });
  return found;
}

} // namespace

void planOverlay(ir::Fabric &F, DiagEngine &diags, const std::vector<uint8_t> &routed) {
  F.devEvpn.clear();
  F.hostNetVni.clear();
  uint32_t firstGroup = None;
  for (uint32_t g = 0; g < F.bondGroups.size() && firstGroup == None; ++g)
    if (F.bondGroups[g].kind == uint8_t(Kind::EvpnMh))
      firstGroup = g;
  if (firstGroup == None)
    return;

  // The overlay carries the host VLANs: without host addressing the ToRs have none.
  if (F.hostScheme == ir::HostScheme::None || F.hostNets.empty()) {
    Diagnostic *dg = diags.report(DiagCode::W0400, at(F, firstLinkOf(F, firstGroup)),
                                  "EVPN multihoming bonds need a host VLAN for the EVPN-VXLAN overlay to carry, and "
                                  "the design gives its ToRs none");
    noteLinkInstances(dg, F, firstLinkOf(F, firstGroup));
    DiagEngine::note(dg, {}, "the overlay maps each ToR's host VLAN to a VNI: give the hosts subnets behind VLANs, "
                             "policy addressing { host_pool = \"172.16.0.0/16\"; host_scheme = \"leaf\"; }, or write "
                             "the VTEPs and VNIs by hand (docs/backends.md)");
    return;
  }

  const size_t nd = F.numDevices();
  F.devEvpn.assign(nd, 0);
  for (uint32_t g = 0; g < F.bondGroups.size(); ++g) {
    if (F.bondGroups[g].kind != uint8_t(Kind::EvpnMh))
      continue;
    const uint32_t *sw = groupSwitches(F, g);
    for (uint32_t i = 0; i < F.bondGroups[g].count; ++i)
      F.devEvpn[sw[i]] = ir::Fabric::kVtep;
  }

  // The EVPN domains: the bond domains (Bonds.h) with a VTEP, by their lowest switch.
  std::vector<uint32_t> dom = bondDomains(F), domIndex(nd, None);
  uint32_t domains = 0;
  for (uint32_t d = 0; d < nd; ++d)
    if (F.devEvpn[d] == ir::Fabric::kVtep && domIndex[dom[d]] == None)
      domIndex[dom[d]] = domains++;
  if (domains > kMaxEvpnDomains) {
    Diagnostic *dg = diags.report(DiagCode::E0405, at(F, firstLinkOf(F, firstGroup)),
                                  "{} groups of ToRs joined by EVPN multihoming, but their VNIs (4096 per group) "
                                  "run out past {}",
                                  domains, kMaxEvpnDomains);
    noteLinkInstances(dg, F, firstLinkOf(F, firstGroup));
    DiagEngine::note(dg, {}, "a VNI is 24 bits and each group's host VLANs take VNIs 4096 * group + VLAN: bond fewer "
                             "ToR groups with bond = \"evpn-mh\" (bond = \"mc-lag\" needs no VNI)");
    F.devEvpn.clear();
    return;
  }
  F.hostNetVni.assign(F.hostNets.size(), 0);
  for (uint32_t n = 0; n < F.hostNets.size(); ++n) {
    const ir::HostNet &net = F.hostNets[n];
    if (net.leaf != None && F.devEvpn[net.leaf] == ir::Fabric::kVtep)
      F.hostNetVni[n] = overlayVni(domIndex[dom[net.leaf]], net.vlan);
  }

  // The VTEPs' routed neighbours carry the address family between them (eBGP keeps the
  // VTEP as the EVPN routes' next hop).
  for (uint32_t d = 0; d < nd; ++d) {
    if (F.devEvpn[d] != ir::Fabric::kVtep)
      continue;
    forEachRoutedNeighbour(F, routed, d, [&](uint32_t o) {
      if (!F.devEvpn[o])
        F.devEvpn[o] = ir::Fabric::kEvpnTransit;
    });
  }

  // A host frame bridged between a segment's VTEPs (to a GPU whose link to the receiving
  // ToR is down, and every flooded frame) crosses the underlay in VXLAN: 50 bytes more
  // (inner Ethernet 14, VXLAN 8, UDP 8, outer IPv4 20) than the host sent. Full-size
  // frames that no longer fit the fabric MTU are dropped, not fragmented.
  const uint32_t host = hostMtu(F), fabric = fabricMtu(F);
  if (host + kVxlanOverhead > fabric) {
    const ir::Setting *roceMtu = roceMtuSetting(F);
    const ir::Setting *mtuOpt = F.option("mtu");
    SourceRange where = roceMtu ? roceMtu->loc : mtuOpt ? mtuOpt->loc : at(F, firstLinkOf(F, firstGroup));
    Diagnostic *dg = diags.report(DiagCode::W0405, where,
                                  "the EVPN-VXLAN overlay adds {} bytes to a host frame, and the host MTU {} plus "
                                  "them exceeds the fabric MTU {}",
                                  kVxlanOverhead, host, fabric);
    uint32_t fit = fabric >= kVxlanOverhead + 68 ? fabric - kVxlanOverhead : 0;
    DiagEngine::note(dg, {},
                     fit ? fmt::format("a full-size frame bridged between a segment's ToRs would be dropped: set "
                                       "policy roce {{ mtu = {}; }} (the host MTU) or less, or raise option mtu to {}",
                                       fit, std::min<uint32_t>(host + kVxlanOverhead, 9216))
                         : std::string("raise option mtu: it leaves no room for a host frame and VXLAN"));
  }

  // The switches of a segment exchange its routes through one such neighbour; two that
  // share none (ToRs of one segment in different pods) need the address family further up.
  std::vector<uint8_t> mark(nd, 0);
  for (uint32_t g = 0; g < F.bondGroups.size(); ++g) {
    const ir::BondGroup &bg = F.bondGroups[g];
    if (bg.kind != uint8_t(Kind::EvpnMh))
      continue;
    const uint32_t *sw = groupSwitches(F, g);
    for (uint32_t i = 1; i < bg.count; ++i) {
      if (withinTwoHops(F, routed, sw[0], sw[i], mark))
        continue;
      Diagnostic *dg = diags.report(DiagCode::W0400, at(F, firstLinkOf(F, g)),
                                    "the Ethernet segment's switches '{}' and '{}' share no spine, and the EVPN "
                                    "overlay fabc writes reaches one tier above the VTEPs only",
                                    F.deviceName(sw[0]), F.deviceName(sw[i]));
      noteLinkInstances(dg, F, firstLinkOf(F, g));
      DiagEngine::note(dg, {}, "bond each GPU to ToRs below a common spine (one pod), or activate BGP's l2vpn-evpn "
                               "address family by hand on the switches between them (docs/backends.md)");
      return;
    }
  }
}

} // namespace fabc::passes
