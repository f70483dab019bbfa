// The table of output checks by backend name, and the checks of the outputs that take
// an option (report, dot).
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
  return checkHostNames(F, diags, p.servers);
}

} // namespace fabc::checks
