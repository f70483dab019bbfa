// The check of the expected-cabling files that LLDP-based tools compare a built Ethernet
// fabric with (docs/backends.md#ptm, #cvt): Cumulus PTM's topology.dot and the NVIDIA
// cable validation tool's DOT topology. Both name every end by host name and port, so
// the rule is the host-name rule for every device on an Ethernet link; the plan is the
// links and which end each file writes first (the switch, then the lower tier).
#include "diag/DiagCodes.h"
#include "checks/OutputChecks.h"

#include "checks/HostNames.h"
#include "diag/Diag.h"

namespace fabc::checks {
namespace {
bool isEthernetSwitch(const ir::Fabric &F, uint32_t d) {
  const ir::Model &m = F.modelOf(d);
  return m.kind == ir::ModelKind::Switch && m.protocol == ir::Protocol::Ethernet;
}

// Switches before end systems, then the lower tier first (leaf -- spine); a tie keeps
// the design's order. Unknown compares above every tier.
bool bFirst(const ir::Fabric &F, uint32_t a, uint32_t b) {
  bool sa = isEthernetSwitch(F, a), sb = isEthernetSwitch(F, b);
  if (sa != sb)
    return sb;
  return F.devTier[b] < F.devTier[a];
}
} // namespace

bool checkLldpCabling(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  LldpCablingPlan &p = an.lldpCabling;
  if (p.checked) // ptm and cvt share the plan: check once
    return p.ok;
  p.checked = true;
  std::vector<uint8_t> member(F.numDevices(), 0);
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    if (!isEthernetSwitch(F, a) && !isEthernetSwitch(F, b))
      continue;
    p.links.push_back(l);
    p.bFirst.push_back(bFirst(F, a, b));
    member[a] = member[b] = 1;
  }
  if (p.links.empty()) {
    Diagnostic *d = diags.report(DiagCode::W0160, F.loc, "fabric '{}' has no link to an Ethernet switch: no PTM or "
                                 "cable validation topology written", F.name);
    DiagEngine::note(d, {}, "add protocol = \"ethernet\" to the Ethernet switch models");
    return true; // nothing to write is a warning, not a failure
  }
  std::vector<uint32_t> devs;
  p.nameOf.assign(F.numDevices(), ir::None);
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    if (member[d]) {
      p.nameOf[d] = uint32_t(devs.size());
      devs.push_back(d);
      if (isEthernetSwitch(F, d))
        p.switches.push_back(d);
    }
  p.ok = checkHostNames(F, diags, devs, &p.names);
  return p.ok;
}

} // namespace fabc::checks
