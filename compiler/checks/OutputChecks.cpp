// The table of output checks by backend name, and the checks of the outputs that take
// an option (report, dot).
#include "checks/OutputChecks.h"

#include "checks/HostNames.h"
#include "diag/Diag.h"

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
      {"report", checkReport},
      {"infiniband", checkInfiniband},
      {"slurm", checkSlurm},
      {"dot", checkDot},
      {"sonic", checkSonic},
      {"frr", [](const ir::Fabric &F, Analyses &an, DiagEngine &d) { return checkEthernet(F, an, d, "frr"); }},
      {"nvue", checkNvue},
  };
  for (const Entry &e : table)
    if (backend == e.backend)
      return e.check(F, an, diags);
  return true;
}

bool checkReport(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  an.report.checked = true;
  const ir::Setting *s = F.option("report_collapse");
  if (!s)
    return true;
  if (s->type != ir::Setting::Number || !s->dim.none()) {
    Diagnostic *d = diags.report(DiagCode::E0026, s->loc, "option report_collapse takes a number of devices");
    DiagEngine::note(d, {}, "for example: option report_collapse = 128;");
    return false;
  }
  if (s->number < 1 || s->number > 1e9 || s->number != std::floor(s->number)) {
    Diagnostic *d = diags.report(DiagCode::E0034, s->loc, "option report_collapse is {:g}; it takes a whole number "
                                                          "of devices from 1 up",
                                 s->number);
    DiagEngine::note(d, {}, "pods of more devices than this are drawn as one block per tier and model");
    return false;
  }
  an.report.collapse = uint32_t(s->number);
  return true;
}

bool checkDot(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  DotPlan &p = an.dot;
  p.checked = true;
  if (const ir::Setting *s = F.option("dot_max_nodes")) {
    bool ok = s->type == ir::Setting::Number && s->dim == Dim() && s->number >= 1 && s->number <= 100000 &&
              s->number == std::floor(s->number);
    if (!ok) {
      Diagnostic *d = diags.report(DiagCode::E0136, s->loc, "option dot_max_nodes must be a whole number from "
                                                            "1 to 100000");
      DiagEngine::note(d, {}, "for example: option dot_max_nodes = 5000;");
      return false;
    }
    p.maxNodes = uint32_t(s->number);
  }
  // Every device is drawn, and named, up to the limit; past it, groups are.
  p.collapsed = F.numDevices() > p.maxNodes;
  if (p.collapsed)
    return true;
  std::vector<uint32_t> all(F.numDevices());
  std::iota(all.begin(), all.end(), 0);
  return checkHostNames(F, diags, all, &p.hosts);
}

} // namespace fabc::checks
