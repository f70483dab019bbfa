// What the figures summed over parts leave out (issue 26): a part without a failure rate
// counts as 0 failures a year; FAB-W0310 names each such model once, where it is declared,
// so a headline of "14 failures/year" is never fibre alone without a word. A
// design that rates no part at all gets no warning: its figures say "covers: no part". Run for the
// outputs that show the reliability figures (summary, report), once per compilation.
#include "diag/DiagCodes.h"
#include "checks/OutputChecks.h"

#include "diag/Diag.h"
#include "ir/Units.h"

#include <algorithm>
#include <cctype>

namespace fabc::checks {

bool checkCoverage(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  if (an.coverage.checked)
    return true;
  an.coverage.checked = true;
  const ReliabilityModel &R = an.reliabilityCounts();
  // A design without a single rate does not model failures: its figures are 0 and say
  // "covers: no part". The warning is for a figure that looks like a count but is not.
  if (!R.coverage().counted)
    return true;
  for (const UnratedModel &u : R.unratedModels) {
    const ir::Model &m = F.models[u.model];
    std::string label = failCategoryLabel(u.cat); // "Switches", "NICs", "CPO engines"
    if (label.rfind("CPO", 0) != 0 && label != "NICs")
      label[0] = char(std::tolower(label[0]));
    if (u.parts == 1) // "switches" -> "switch", "NICs" -> "NIC"
      label.erase(label.size() - (label.size() > 3 && label.compare(label.size() - 3, 3, "hes") == 0 ? 2 : 1));
    Diagnostic *d = diags.report(DiagCode::W0310, m.loc,
                                 "model '{}' states no failure rate ({}): its {} {} count{} as 0 failures a year",
                                 F.strings.str(m.name), u.property, formatCount(u.parts), label, u.parts == 1 ? "s" : "");
    DiagEngine::note(d, {}, fmt::format("add '{} = 1% source \"...\"'{} to model '{}'; an assumed figure says so: "
                                        "'{} = 1% estimate \"why\"'",
                                        u.property, std::string_view(u.property) == "afr" ? " (or mtbf)" : "",
                                        F.strings.str(m.name), u.property));
  }
  // Fibre routes whose cables state no cut rate (decision 0501): one warning per cable model.
  std::vector<uint32_t> named;
  for (const FibreRoute &r : R.routes) {
    if (r.model != ir::None || r.km <= 0 || r.cable == ir::None ||
        std::find(named.begin(), named.end(), r.cable) != named.end())
      continue;
    named.push_back(r.cable);
    uint64_t n = 0;
    double km = 0;
    for (const FibreRoute &o : R.routes)
      if (o.model == ir::None && o.km > 0 && o.cable == r.cable) {
        ++n;
        km += o.km;
      }
    const ir::Model &m = F.models[r.cable];
    Diagnostic *d = diags.report(DiagCode::W0440, m.loc,
                                 "model '{}' states no afr_per_km: {} fibre route{} between buildings ({}) count{} no cuts",
                                 F.strings.str(m.name), formatCount(n), n == 1 ? "" : "s",
                                 formatQuantity(km * 1000, dims::Length), n == 1 ? "s" : "");
    DiagEngine::note(d, {}, fmt::format("add 'afr_per_km = 0.002 source \"...\"' (cuts per km of route a year) to model "
                                        "'{}'; an assumed figure says so: 'afr_per_km = 0.002 estimate \"why\"'",
                                        F.strings.str(m.name)));
  }
  return true;
}

} // namespace fabc::checks
