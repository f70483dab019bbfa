// The checks of the Ethernet switch-config outputs (sonic, frr, nvue): which switches
// get a configuration, SONiC's port lanes (NVUE's rules: checks/Nvue.cpp).
#include "diag/DiagCodes.h"
#include "checks/OutputChecks.h"

#include "diag/Diag.h"

namespace fabc::checks {

// The Ethernet switches in device order. Warns (W0120) once per switch model that does
// not say its protocol, since its switches get no configuration: once per backend,
// which names itself in the message.
bool checkEthernet(const ir::Fabric &F, Analyses &an, DiagEngine &diags, const char *backend) {
  EthernetPlan &p = an.ethernet;
  bool fill = !p.checked;
  p.checked = true;
  std::vector<uint32_t> unspecified(F.models.size(), 0), first(F.models.size(), ir::None);
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::Switch)
      continue;
    if (m.protocol == ir::Protocol::Ethernet) {
      if (fill)
        p.switches.push_back(d);
    } else if (m.protocol == ir::Protocol::Unspecified && !unspecified[F.devModel[d]]++) {
      first[F.devModel[d]] = d;
    }
  }
  for (uint32_t m = 0; m < F.models.size(); ++m) {
    if (!unspecified[m])
      continue;
    Diagnostic *d = diags.report(DiagCode::W0120, F.models[m].loc,
                                 "switch model '{}' does not say its protocol: {} switch{} got no {} configuration",
                                 F.strings.str(F.models[m].name), unspecified[m], unspecified[m] == 1 ? "" : "es",
                                 backend);
    DiagEngine::note(d, {{F.devLoc[first[m]]}, 1}, fmt::format("'{}' is one of them", F.deviceName(first[m])));
    DiagEngine::note(d, {}, "add protocol = \"ethernet\" (or \"infiniband\") to the model");
  }
  return true;
}

} // namespace fabc::checks
