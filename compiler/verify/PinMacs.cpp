// fabc build --guids-from, Ethernet NIC MACs (PinMacs.h).
#include "diag/DiagCodes.h"
#include "verify/PinMacs.h"

#include "verify/DesignNames.h"

#include "analysis/Groups.h"
#include "ir/Address.h"
#include "passes/Addressing.h"

#include <algorithm>

namespace fabc::verify {
namespace {
using ir::None;
} // namespace

uint64_t pinMacs(ir::Fabric &F, const discovery::Observed &obs, SourceManager &sm, DiagEngine &diags) {
  F.nicMacs.clear();
  if (!obs.hasMacs())
    return 0;
  DesignNames names(F);
  unsigned reported = 0;
  auto notPinned = [&](const discovery::Link &l, const std::string &why) {
    if (reported++ >= 20) {
      diags.tally(DiagCode::W0203, obs.atLine(sm, diags, l.at));
      return;
    }
    Diagnostic *d = diags.report(DiagCode::W0203, obs.atLine(sm, diags, l.at), "{}: the MAC is not pinned", why);
    DiagEngine::note(d, {}, "the netplan file keys this NIC by its interface name; fabc verify lists the cabling "
                            "differences");
  };
  struct Pin {
    uint32_t port;
    uint64_t mac;
    uint32_t link; // observed link, for the diagnostics
  };
  std::vector<Pin> pins;
  for (uint32_t li = 0; li < obs.links.size(); ++li) {
    const discovery::Link &l = obs.links[li];
    for (int side = 0; side < 2; ++side) {
      const discovery::End &nic = side ? l.b : l.a, &sw = side ? l.a : l.b;
      uint64_t mac = nic.name ? obs.macAt(nic) : 0;
      if (!mac)
        continue;
      uint32_t sd = names.host(obs.strings.str(obs.nodes[sw.node].name));
      if (sd == None || !analysis::isSwitch(F, sd) || !sw.name)
        continue; // not the design's switch: fabc verify's to report
      uint32_t sp = names.port(sd, obs.strings.str(sw.name));
      if (sp == None || F.portLink[sp] == None)
        continue;
      uint32_t hp = F.otherEnd(F.portLink[sp], sp), hd = F.portDevice[hp];
      std::string_view seen = obs.strings.str(obs.nodes[nic.node].name);
      if (analysis::isSwitch(F, hd))
        continue; // a switch-to-switch link: no NIC
      if (names.host(seen) != hd) {
        notPinned(l, fmt::format("the discovery has '{}' on {} {}, where the design cables '{}'", seen,
                                 passes::hostName(F, sd), obs.strings.str(sw.name), passes::hostName(F, hd)));
        continue;
      }
      if (mac == discovery::Observed::ConflictingMac) {
        notPinned(l, fmt::format("'{}' port {} is reported with two MACs", seen, obs.strings.str(nic.name)));
        continue;
      }
      pins.push_back({hp, mac, li});
    }
  }
  // One MAC a port, one port a MAC: anything else is not pinned.
  std::sort(pins.begin(), pins.end(), [](const Pin &a, const Pin &b) { return a.port < b.port; });
  std::vector<uint8_t> drop(pins.size(), 0);
  for (size_t i = 1; i < pins.size(); ++i)
    if (pins[i].port == pins[i - 1].port && pins[i].mac != pins[i - 1].mac)
      drop[i] = drop[i - 1] = 1;
  std::vector<size_t> byMac(pins.size());
  for (size_t i = 0; i < pins.size(); ++i)
    byMac[i] = i;
  std::sort(byMac.begin(), byMac.end(), [&](size_t a, size_t b) {
    return pins[a].mac != pins[b].mac ? pins[a].mac < pins[b].mac : pins[a].port < pins[b].port;
  });
  for (size_t k = 1; k < byMac.size(); ++k) {
    const Pin &a = pins[byMac[k - 1]], &b = pins[byMac[k]];
    if (a.mac == b.mac && a.port != b.port) {
      drop[byMac[k]] = drop[byMac[k - 1]] = 1;
      notPinned(obs.links[b.link], fmt::format("MAC {} is reported on '{}' and on '{}'", ir::macString(a.mac),
                                               F.portName(a.port), F.portName(b.port)));
    }
  }
  for (size_t i = 0; i < pins.size(); ++i) {
    if (drop[i]) {
      if (i + 1 < pins.size() && pins[i + 1].port == pins[i].port && pins[i + 1].mac != pins[i].mac)
        notPinned(obs.links[pins[i].link], fmt::format("'{}' is reported with two MACs", F.portName(pins[i].port)));
      continue;
    }
    if (!F.nicMacs.empty() && F.nicMacs.back().port == pins[i].port)
      continue; // the same MAC seen twice (both ends' discoveries)
    F.nicMacs.push_back({pins[i].port, pins[i].mac});
  }
  return F.nicMacs.size();
}

} // namespace fabc::verify
