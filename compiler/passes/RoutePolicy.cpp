// The routing policy of the fabric BGP sessions (part of the addressing pass): the
// prefix-lists every session filters with, in and out, one set per addressing domain
// (decision 0521). A domain's switches accept and announce their own loopback slice and
// host slice only: a plane only ever hears its own. The shared plan is one domain, the
// whole pools. Linear in devices, plus a sort of the explicit loopbacks outside a slice.
#include "passes/AddressDomains.h"
#include "passes/HostAddressing.h"

#include <algorithm>

namespace fabc::passes {

namespace {
bool inPrefix(uint32_t a, uint32_t base, unsigned len) {
  return uint64_t(a) >= base && uint64_t(a) < uint64_t(base) + (uint64_t(1) << (32 - len));
}
} // namespace

void buildRoutePolicy(ir::Fabric &F, const FabricPools &pools, const AddressDomains &dom,
                      const std::vector<uint8_t> &routed) {
  F.routePolicies.assign(dom.count, {});
  F.devDomain.clear();
  if (dom.split())
    F.devDomain = dom.of;
  const unsigned lbLen = pools.lbLen + dom.splitBits;
  // Explicit loopbacks outside their domain's slice, each exactly (sorted, once per domain).
  std::vector<std::vector<uint32_t>> outside(dom.count);
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    uint32_t a = F.devLoopback[d], k = dom.at(d);
    if (routed[d] && a && !inPrefix(a, sliceBase(pools.lbBase, pools.lbLen, dom.splitBits, k), lbLen))
      outside[k].push_back(a);
  }
  unsigned hostLen = F.hostScheme == ir::HostScheme::P2p ? 31 : F.hostNets.empty() ? 31 : F.hostNets[0].len;
  for (uint32_t k = 0; k < dom.count; ++k) {
    std::vector<ir::PrefixRule> &rules = F.routePolicies[k];
    auto rule = [&](uint32_t base, unsigned len, unsigned ge, unsigned le, uint8_t list) {
      rules.push_back({base, uint8_t(len), uint8_t(ge), uint8_t(le), list});
    };
    rule(sliceBase(pools.lbBase, pools.lbLen, dom.splitBits, k), lbLen, 32, 32, ir::PrefixListLoopbacks);
    std::vector<uint32_t> &out = outside[k];
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    for (uint32_t a : out)
      rule(a, 32, 32, 32, ir::PrefixListLoopbacks);
    if (F.hostScheme == ir::HostScheme::None)
      continue;
    bool sliced = k < F.addressDomains.size() && F.addressDomains[k].hostLen;
    rule(sliced ? F.addressDomains[k].hostBase : F.hostPoolBase,
         sliced ? F.addressDomains[k].hostLen : F.hostPoolLen, hostLen, hostLen, ir::PrefixListHosts);
  }
}

} // namespace fabc::passes
