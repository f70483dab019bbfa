// `policy latency` between two places (issue 26, decision 0411): one round trip, or a
// workflow of N sequential round trips, between GPUs of two buildings or sites, against
// the worst paths of analysis::measureLatencyMatrix. The plain `max` form is checkLatency's.
#include "diag/DiagCodes.h"
#include "diag/Diag.h"
#include "passes/Passes.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cmath>

namespace fabc::passes {
using ir::None;

namespace {
// Three significant digits: "1.23 ms", "40.8 km" (formatQuantity prints six).
double sig3(double v) {
  if (v == 0 || !std::isfinite(v))
    return v;
  double scale = std::pow(10.0, 2 - std::floor(std::log10(std::fabs(v))));
  return std::round(v * scale) / scale;
}
std::string qty(double v, const Dim &d) { return formatQuantity(sig3(v), d); }

// The buildings a name stands for: a building, or every building of a site.
bool placeBuildings(const ir::Fabric &F, uint32_t name, std::vector<uint8_t> &in) {
  in.assign(F.buildings.size(), 0);
  for (size_t b = 0; b < F.buildings.size(); ++b)
    if (F.buildings[b].name == name) {
      in[b] = 1;
      return true;
    }
  bool any = false;
  for (size_t s = 0; s < F.sites.size(); ++s)
    if (F.sites[s].name == name)
      for (size_t b = 0; b < F.buildings.size(); ++b)
        if (F.buildings[b].site == s) {
          in[b] = 1;
          any = true;
        }
  return any;
}
} // namespace

void checkRoundTrips(ir::Fabric &F, DiagEngine &diags) {
  const ir::Metrics &M = F.metrics;
  std::vector<uint8_t> inA, inB;
  for (const ir::Policy &p : F.policies) {
    if (p.kind != ir::PolicyKind::Latency || !p.roundTrips)
      continue;
    bool okA = placeBuildings(F, p.placeA, inA), okB = placeBuildings(F, p.placeB, inB);
    if (!okA || !okB) {
      std::string_view bad = F.strings.str(okA ? p.placeB : p.placeA);
      std::vector<std::string_view> names;
      for (const ir::Building &b : F.buildings)
        names.push_back(F.strings.str(b.name));
      for (const ir::Site &s : F.sites)
        names.push_back(F.strings.str(s.name));
      std::string_view best;
      unsigned bestDist = std::max<unsigned>(2, unsigned(bad.size() / 3)) + 1;
      for (std::string_view n : names)
        if (unsigned e = llvm::StringRef(bad).edit_distance(n, true, bestDist); e < bestDist) {
          bestDist = e;
          best = n;
        }
      Diagnostic *d = diags.report(DiagCode::E0382, p.betweenLoc, "latency policy names '{}', which is no building or site{}",
                                   bad, best.empty() ? std::string() : fmt::format("; did you mean '{}'?", best));
      std::string list;
      for (size_t i = 0; i < names.size() && i < 12; ++i)
        list += fmt::format("{}'{}'", i ? ", " : "", names[i]);
      DiagEngine::note(d, {}, fmt::format("between names two buildings, or sites (site = \"NAME\" on a building); "
                                          "this design has: {}{}", names.empty() ? "none" : list,
                                          names.size() > 12 ? ", ..." : ""));
      continue;
    }
    // The worst path from a building of A to one of B (either way round).
    const ir::PlacePath *worst = nullptr;
    for (const ir::PlacePath &pp : M.buildingPaths)
      if (((inA[pp.a] && inB[pp.b]) || (inA[pp.b] && inB[pp.a])) && (!worst || pp.path.latency > worst->path.latency))
        worst = &pp;
    std::string_view a = F.strings.str(p.placeA), b = F.strings.str(p.placeB);
    if (!worst) {
      Diagnostic *d = diags.report(DiagCode::W0380, p.loc, "no GPU-to-GPU path joins '{}' and '{}': the latency SLO is "
                                   "not checked", a, b);
      DiagEngine::note(d, {}, "place GPU systems in both, and link them through the switches");
      continue;
    }
    const ir::PathStats &w = worst->path;
    double rtt = 2 * w.latency, total = rtt * p.roundTrips;
    if (total <= p.max)
      continue;
    Diagnostic *d;
    if (!p.workflow)
      d = diags.report(DiagCode::E0380, p.loc, "round trip between '{}' and '{}' is {}, above the SLO of {}", a, b,
                       qty(rtt, dims::Time), formatQuantity(p.max, dims::Time));
    else
      d = diags.report(DiagCode::E0381, p.loc,
                       "{} sequential round trips between '{}' and '{}' take {} ({} each), above the workflow SLO of {}",
                       p.roundTrips, a, b, qty(total, dims::Time), qty(rtt, dims::Time), formatQuantity(p.max, dims::Time));
    double fibre = w.fibre * ir::FibreDelayPerMetre, fixed = w.latency - fibre; // switches and NICs, one way
    DiagEngine::note(d, {F.devLoc[w.via], 1},
                     fmt::format("the worst path, one way: {} of fibre ({}), {} switch{} and the NICs at both ends ({}), "
                                 "turning at '{}' (between '{}' and '{}')",
                                 qty(w.fibre, dims::Length), qty(fibre, dims::Time), w.hops, w.hops == 1 ? "" : "es",
                                 qty(fixed, dims::Time), F.deviceName(w.via), F.strings.str(F.buildings[worst->a].name),
                                 F.strings.str(F.buildings[worst->b].name)));
    // The longest fibre at which the budget holds: 1 ms of round trip is ~102 km of
    // fibre one way, less the time the path's switches and NICs take.
    double perTrip = p.max / p.roundTrips, oneWay = perTrip / 2;
    std::string budget = p.workflow ? fmt::format("{} per round trip ({} / {})", qty(perTrip, dims::Time),
                                                  formatQuantity(p.max, dims::Time), p.roundTrips)
                                    : formatQuantity(p.max, dims::Time) + " round trip";
    if (oneWay <= fixed)
      DiagEngine::note(d, {}, fmt::format("the SLO cannot hold at any distance on this path: {} is {} one way, and its "
                                          "switches and NICs alone take {}",
                                          budget, qty(oneWay, dims::Time), qty(fixed, dims::Time)));
    else
      DiagEngine::note(d, {}, fmt::format("the SLO could hold up to {} of fibre one way: {} is {} of fibre at 4.9 us/km, "
                                          "less the {} of the switches and NICs; this path has {}",
                                          qty((oneWay - fixed) / ir::FibreDelayPerMetre, dims::Length), budget,
                                          qty(oneWay / ir::FibreDelayPerMetre, dims::Length), qty(fixed, dims::Time),
                                          qty(w.fibre, dims::Length)));
  }
}

} // namespace fabc::passes
