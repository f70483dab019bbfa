// The checks of the Ethernet switch-config outputs (sonic, frr, nvue): which switches
// get a configuration, SONiC's port lanes, the RoCE profile NVUE can express.
#include "checks/OutputChecks.h"

#include "diag/Diag.h"
#include "passes/Roce.h"

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

// SONiC's PORT table names ports by their first lane: every port group needs lanes.
bool checkSonic(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  checkEthernet(F, an, diags, "sonic");
  std::vector<uint8_t> reported(F.models.size(), 0);
  bool ok = true;
  for (uint32_t d : an.ethernet.switches) {
    const ir::Model &m = F.modelOf(d);
    for (const ir::PortGroup &g : m.ports)
      if (!g.lanes && !reported[F.devModel[d]]++) {
        Diagnostic *dg = diags.report(DiagCode::E0112, g.loc, "port group '{}' of '{}' has no lanes, which "
                                      "SONiC's PORT table needs", F.strings.str(g.name), F.strings.str(m.name));
        DiagEngine::note(dg, {}, "add lanes = N (SerDes lanes per port, e.g. 8 for an 800G OSFP) to the port group");
        ok = false;
      }
  }
  return ok;
}

// The RoCE profile NVUE applies is fixed; anything else would be silently ignored.
bool checkNvue(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  checkEthernet(F, an, diags, "nvue");
  passes::RoceSettings r = passes::roceSettings(F);
  if (!r.enabled)
    return true;
  passes::RoceSettings profile; // the defaults are the Cumulus profile's values
  std::string diff;
  auto cmp = [&](const char *name, uint64_t want, uint64_t have) {
    if (want != have)
      diff += fmt::format("{}{} = {} (the profile has {})", diff.empty() ? "" : ", ", name, have, want);
  };
  cmp("pfc_priority", profile.pfcPriority, r.pfcPriority);
  cmp("dscp", profile.dscp, r.dscp);
  cmp("cnp_dscp", profile.cnpDscp, r.cnpDscp);
  cmp("ecn", profile.ecn, r.ecn);
  cmp("ecn_min", profile.ecnMin, r.ecnMin);
  cmp("ecn_max", profile.ecnMax, r.ecnMax);
  cmp("ecn_probability", profile.ecnProbability, r.ecnProbability);
  if (diff.empty())
    return true;
  Diagnostic *d = diags.report(DiagCode::E0113, r.loc, "the NVUE lossless RoCE profile cannot carry {}", diff);
  DiagEngine::note(d, {}, "Cumulus Linux's 'qos roce mode lossless' uses priority 3, DSCP 26, CNP DSCP 48 and ECN "
                          "from 150000 to 1500000 bytes at 100%");
  return false;
}

} // namespace fabc::checks
