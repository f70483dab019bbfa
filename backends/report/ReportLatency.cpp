// The report's round-trip latency matrix (issue 26, decision 0411): between every two
// buildings holding GPUs, and every two sites, as summary.json's `latency_matrix` says
// (each cell is tied to it by data-json), and the round-trip SLOs met or exceeded.
#include "analysis/Measure.h"
#include "backends/report/ReportPage.h"

#include <algorithm>

namespace fabc::report {
using ir::None;

namespace {
// The places of one matrix (buildings or sites), in their order, that have a path.
std::vector<uint32_t> placesOf(const std::vector<ir::PlacePath> &v) {
  std::vector<uint32_t> r;
  for (const ir::PlacePath &p : v) {
    r.push_back(p.a);
    r.push_back(p.b);
  }
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}
} // namespace

void Page::latencyMatrix() {
  if (M.buildingPaths.empty() || (F.buildings.size() < 2 && F.sites.empty()))
    return;
  buf += fmt::format("<h3 id=\"latency-matrix\">Round trips between buildings{}</h3><p class=\"note\">{}.</p>",
                     F.sites.empty() ? "" : " and sites", esc(analysis::kLatencyMatrixCovers));
  auto table = [&](const char *id, const char *key, const std::vector<ir::PlacePath> &v, bool sites) {
    std::vector<uint32_t> places = placesOf(v);
    auto name = [&](uint32_t i) { return F.strings.str(sites ? F.sites[i].name : F.buildings[i].name); };
    buf += fmt::format("<table id=\"{}\"><thead><tr><th>{}</th>", id, sites ? "Site" : "Building");
    for (uint32_t p : places)
      buf += fmt::format("<th class=\"n\">{}</th>", esc(name(p)));
    buf += "</tr></thead><tbody>";
    for (uint32_t r : places) {
      buf += fmt::format("<tr><td>{}</td>", esc(name(r)));
      for (uint32_t c : places) {
        auto it = std::find_if(v.begin(), v.end(), [&](const ir::PlacePath &p) {
          return p.a == std::min(r, c) && p.b == std::max(r, c);
        });
        if (it == v.end()) {
          buf += "<td class=\"n muted\">no path</td>";
          continue;
        }
        const ir::PathStats &p = it->path;
        double rtt = 2 * p.latency;
        buf += fmt::format("<td class=\"n\" title=\"{} of fibre one way, {} switch{}, turning at {}\"{}>{}{}</td>",
                           esc(length(p.fibre)), p.hops, p.hops == 1 ? "" : "es", esc(F.deviceName(p.via)),
                           dataAttrs(fmt::format("summary:latency_matrix.{}[{}].round_trip_us", key, it - v.begin()),
                                     fixed(rtt * 1e6, 3)),
                           esc(duration(rtt)), estMark(latencyEstimate));
      }
      buf += "</tr>";
    }
    buf += "</tbody></table>";
  };
  table("latency-matrix-buildings", "buildings", M.buildingPaths, false);
  if (!M.sitePaths.empty())
    table("latency-matrix-sites", "sites", M.sitePaths, true);
  // The round-trip SLOs (FAB-E0380, FAB-E0381 when exceeded).
  for (const ir::Policy &p : F.policies) {
    if (p.kind != ir::PolicyKind::Latency || !p.roundTrips)
      continue;
    std::string_view a = F.strings.str(p.placeA), b = F.strings.str(p.placeB);
    std::string what = p.workflow ? fmt::format("{} sequential round trips between {} and {} within {}", p.roundTrips,
                                                esc(a), esc(b), esc(duration(p.max)))
                                  : fmt::format("round trip between {} and {} within {}", esc(a), esc(b),
                                                esc(duration(p.max)));
    // The worst pair the policy covers, as the check finds it (passes/ValidateLatency.cpp).
    double worst = -1;
    auto in = [&](uint32_t bld, uint32_t name) {
      const ir::Building &B = F.buildings[bld];
      return B.name == name || (B.site != None && F.sites[B.site].name == name);
    };
    for (const ir::PlacePath &pp : M.buildingPaths)
      if ((in(pp.a, p.placeA) && in(pp.b, p.placeB)) || (in(pp.b, p.placeA) && in(pp.a, p.placeB)))
        worst = std::max(worst, 2 * pp.path.latency * p.roundTrips);
    buf += fmt::format("<p class=\"slo\">Latency SLO: {} \xE2\x80\x94 {}</p>", what,
                       worst < 0          ? "<span class=\"muted\">not checked: no path</span>"
                       : worst <= p.max ? fmt::format("<span class=\"ok\">met</span> ({})", esc(duration(worst)))
                                        : fmt::format("<span class=\"bad\">exceeded</span> ({})", esc(duration(worst))));
  }
}

} // namespace fabc::report
