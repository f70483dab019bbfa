// The table of output checks by backend name, and the checks of the outputs that take
// an option (report, dot).
#include "diag/DiagCodes.h"
#include "checks/OutputChecks.h"

#include "checks/HostNames.h"
#include "diag/Diag.h"
#include "passes/HostAddressing.h"

#include <algorithm>

#include <cmath>
#include <numeric>

namespace fabc::checks {

bool checkOutput(std::string_view backend, const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  // The backends without a rule (summary, bom, cabling, energy) read the IR and the
  // analyses as they are.
  struct Entry {
    const char *backend;
    bool (*check)(const ir::Fabric &, Analyses &, DiagEngine &);
  };
  static const Entry table[] = {
      {"report", [](const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
         return checkCoverage(F, an, diags) && checkReport(F, an, diags);
       }},
      {"summary", checkCoverage},
      {"infiniband", checkInfiniband},
      {"slurm", checkSlurm},
      {"dot", checkDot},
      {"sonic", checkSonic},
      {"frr", checkFrr},
      {"nvue", checkNvue},
      {"hosts", checkHosts},
      {"ptm", checkLldpCabling},
      {"cvt", checkLldpCabling},
      {"design", checkExport},
      {"design-yaml", checkExport},
      {"netbox", checkExport},
  };
  for (const Entry &e : table)
    if (backend == e.backend)
      return e.check(F, an, diags);
  return true;
}

// report_collapse and dot_max_nodes are validated with the design, whatever is built
// (the elaborator's range table, elab/Ranges.def): here they are only read.
bool checkReport(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  an.report.checked = true;
  if (const ir::Setting *s = F.option("report_collapse"))
    an.report.collapse = uint32_t(s->number);
  return true;
}

bool checkDot(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  DotPlan &p = an.dot;
  p.checked = true;
  if (const ir::Setting *s = F.option("dot_max_nodes"))
    p.maxNodes = uint32_t(s->number);
  // Every device is drawn, and named, up to the limit; past it, groups are.
  p.collapsed = F.numDevices() > p.maxNodes;
  if (p.collapsed)
    return true;
  std::vector<uint32_t> all(F.numDevices());
  std::iota(all.begin(), all.end(), 0);
  return checkHostNames(F, diags, all, &p.hosts);
}

// The servers the hosts output writes a netplan for are named by the host-name rule.
bool checkHosts(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  HostsPlan &p = an.hosts;
  p.checked = true;
  p.servers.clear();
  if (F.hostScheme == ir::HostScheme::None)
    return true;
  uint32_t last = ir::None;
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    if (!F.linkHostAddr[l])
      continue;
    uint32_t nic = F.portDevice[passes::nicPortOf(F, l)];
    if (nic != last)
      p.servers.push_back(nic);
    last = nic;
  }
  std::sort(p.servers.begin(), p.servers.end());
  p.servers.erase(std::unique(p.servers.begin(), p.servers.end()), p.servers.end());
  bool ok = checkInterfaceNames(F, diags);
  return checkHostNames(F, diags, p.servers) && ok;
}

// The netplan files name each NIC after its port (names::portLabel, "cx3"), and Linux
// takes at most IFNAMSIZ - 1 = 15 bytes (IFNAMSIZ is 16 with the NUL, linux/if.h):
// netplan would fail on the server. FAB-E0145 once per port group of a model, at the group.
bool checkInterfaceNames(const ir::Fabric &F, DiagEngine &diags) {
  constexpr size_t kMaxIfName = 15;
  std::vector<bool> seen; // per (model, port group), flattened
  std::vector<uint32_t> groupBase(F.models.size() + 1, 0);
  for (size_t m = 0; m < F.models.size(); ++m)
    groupBase[m + 1] = groupBase[m] + uint32_t(F.models[m].ports.size());
  seen.assign(groupBase.back(), false);
  bool ok = true;
  unsigned shown = 0;
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    if (!F.linkHostAddr[l])
      continue;
    uint32_t port = passes::nicPortOf(F, l), idx = 0;
    uint32_t g = F.portGroup(port, &idx);
    uint32_t model = F.devModel[F.portDevice[port]];
    if (seen[groupBase[model] + g])
      continue;
    std::string name = names::portLabel(F, port);
    if (name.size() <= kMaxIfName)
      continue;
    seen[groupBase[model] + g] = true;
    ok = false;
    const ir::Model &m = F.models[model];
    const ir::PortGroup &pg = m.ports[g];
    if (shown++ >= 20) {
      diags.tally(DiagCode::E0145, pg.loc);
      continue;
    }
    std::string stem = name.substr(0, name.size() - std::to_string(idx).size());
    size_t digits = name.size() - stem.size();
    Diagnostic *d = diags.report(DiagCode::E0145, pg.loc,
                                 "interface name '{}' of '{}' is {} characters, past the 15 Linux allows (IFNAMSIZ)",
                                 name, F.deviceName(F.portDevice[port]), name.size());
    DiagEngine::note(d, {}, fmt::format("the hosts output names a NIC after its port group ('{}' + index): rename port "
                                        "group '{}' of model '{}' so that its label is at most {} characters",
                                        stem, F.strings.str(pg.name), F.strings.str(m.name),
                                        kMaxIfName > digits ? kMaxIfName - digits : 1));
  }
  return ok;
}

} // namespace fabc::checks
