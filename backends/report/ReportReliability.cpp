// The report's reliability section (issue 18): expected failures per year by category,
// the design against its all-pluggable and all-CPO builds side by side, the bisection left
// after losing one switch of each tier, single points of failure and reachability. Every
// figure is tied to summary.json's `reliability` section (data-json), which reads the same
// analyses (Analyses::reliability(), metrics.resilience).
#include "analysis/Reliability.h"
#include "backends/report/ReportPage.h"

namespace fabc::report {
using ir::None;

namespace {
const char *const kOtherColor = "#cbd5e1", *const kSwitchOpticsColor = "#e11d48";
std::string key(std::string_view path) { return "summary:reliability." + std::string(path); }
} // namespace

void Page::reliability() {
  const ReliabilityModel &R = ctx.an.reliability();
  const ir::ResilienceStats &S = M.resilience;
  bool est = R.usesEstimates();
  buf += "<section id=\"reliability\"><h2>Reliability</h2><div class=\"cards\">";
  buf += card("Failures per year", number(R.all.total(), 2), dataAttrs(key("failures_per_year"), fixed(R.all.total(), 3)),
              fmt::format("<span id=\"reliability-coverage\"{}>{}</span><br><span id=\"reliability-range\">{} to {} "
                          "with the rates' catalog bounds{}</span>",
                          textAttrs(key("coverage.headline"), R.coverage().headline("no failure rate")),
                          esc(R.coverage().headline("no rate")),
                          fmt::format("<b{}>{}</b>", dataAttrs(key("failures_per_year_range[0]"), fixed(R.all.lo, 3)),
                                      esc(number(R.all.lo, 2))),
                          fmt::format("<b{}>{}</b>", dataAttrs(key("failures_per_year_range[1]"), fixed(R.all.hi, 3)),
                                      esc(number(R.all.hi, 2))),
                          R.unbounded.empty() ? "" : fmt::format(" ({} without bounds)", R.unbounded.size())),
              est);
  buf += card("Failures per day", number(R.all.total() / 365, 3),
              dataAttrs(key("failures_per_day"), fixed(R.all.total() / 365, 4)), "the same, per day", est);
  buf += card("Field replacements per year", number(R.all.touches, 2),
              dataAttrs(key("touches_per_year"), fixed(R.all.touches, 3)), "a hand in a rack for each failed part", est);
  buf += card("Links down per year", number(R.all.linksDown, 2),
              dataAttrs(key("links_down_per_year"), fixed(R.all.linksDown, 3)),
              "links out while a failed part is replaced", est);
  buf += "</div>\n";

  // Failures per year by category; the all-pluggable and all-CPO builds beside the design.
  std::vector<Series> series;
  size_t n = size_t(FailCategory::Count);
  for (size_t c = 0; c < n; ++c)
    series.push_back({failCategoryLabel(FailCategory(c)), kCategoryColors[c]});
  series.push_back({"other parts (what-if)", kOtherColor});
  series.push_back({"switch-side optics (what-if)", kSwitchOpticsColor});
  std::vector<Bar> bars;
  Bar design;
  design.label = "as designed";
  for (size_t c = 0; c < n; ++c)
    design.segments.push_back({R.all.failures[c], c,
                               key(fmt::format("by_category.{}.failures_per_year", failCategoryKey(FailCategory(c)))),
                               fixed(R.all.failures[c], 3), est});
  design.totalKey = key("failures_per_year");
  design.totalText = fixed(R.all.total(), 3);
  design.estimate = est;
  bars.push_back(design);
  const FailureWhatIf &w = R.cpo;
  if (w.applies) {
    auto build = [&](const char *label, double optics, double total, const char *which) {
      Bar b;
      b.label = label;
      b.segments.push_back({total - optics, n, "", "", w.estimate});
      b.segments.push_back({optics, n + 1, key(fmt::format("cpo_what_if.{}_failures_per_year", which)), fixed(optics, 3),
                            w.estimate});
      b.totalKey = key(fmt::format("cpo_what_if.design_{}_failures_per_year", which));
      b.totalText = fixed(total, 3);
      b.estimate = w.estimate;
      return b;
    };
    bars.push_back(build("all pluggable", w.pluggable, w.pluggableTotal, "pluggable"));
    bars.push_back(build("all CPO", w.cpo, w.cpoTotal, "cpo"));
  }
  stackedBars(buf, "failures-by-category", "Failures per year by category, pluggable vs CPO", series, bars, Unit::Rate);
  if (w.applies) {
    auto cell = [&](std::string_view path, double v) {
      return fmt::format("<td class=\"n\"{}>{}</td>", dataAttrs(key(path), fixed(v, path.find("per_day") != std::string_view::npos ? 4 : 3)),
                         number(v, path.find("per_day") != std::string_view::npos ? 3 : 2));
    };
    buf += "<table id=\"reliability-cpo\"><thead><tr><th>switch-side optics</th><th>failures per year</th><th>per "
           "day</th><th>field replacements per year</th><th>links down per year</th></tr></thead><tbody>";
    buf += "<tr><td>all pluggable</td>" + cell("cpo_what_if.pluggable_failures_per_year", w.pluggable) +
           cell("cpo_what_if.pluggable_failures_per_day", w.pluggable / 365) +
           cell("cpo_what_if.pluggable_touches_per_year", w.pluggableTouches) +
           cell("cpo_what_if.pluggable_links_down_per_year", w.pluggableLinksDown) + "</tr>";
    buf += "<tr><td>all CPO</td>" + cell("cpo_what_if.cpo_failures_per_year", w.cpo) +
           cell("cpo_what_if.cpo_failures_per_day", w.cpo / 365) + cell("cpo_what_if.cpo_touches_per_year", w.cpoTouches) +
           cell("cpo_what_if.cpo_links_down_per_year", w.cpoLinksDown) + "</tr></tbody></table>";
    buf += fmt::format("<p class=\"muted\">A CPO engine sits inside its switch: replacing it swaps the switch and takes "
                       "all its links down, so CPO can fail less and still take more links down.{}{}</p>",
                       w.estimate ? " Estimate: the failure rates are catalog estimates." : "",
                       w.missing.empty() ? "" : " Missing from the catalog: " + esc([&] {
                         std::string m;
                         for (const std::string &x : w.missing)
                           m += (m.empty() ? "" : ", ") + x;
                         return m;
                       }()) + ".");
  }

  // Bisection after losing one switch of each tier.
  std::vector<Column> cols;
  size_t row = 0;
  for (unsigned t = 1; t < ir::NumTiers; ++t) {
    if (!M.tiers[t].switches)
      continue;
    double sh = M.bisection > 0 ? S.tiers[t].bisection / M.bisection : 0;
    cols.push_back({tierName(t), 100 * sh, key(fmt::format("failure_what_if.lose_one[{}].bisection_share", row++)),
                    fixed(sh, 4)});
  }
  if (!cols.empty()) { // in a grid column, as the page's other charts: alone, it would span the page
    buf += "<div class=\"grid3\">";
    columnChart(buf, "bisection-under-failure", "Bisection left after losing one switch, % per tier", "#0891b2", cols,
                "tier of the switch lost");
    buf += "</div>";
  }
  buf += "<ul id=\"resilience-facts\">";
  if (S.worstSwitch != None)
    buf += fmt::format("<li>The costliest switch to lose is <b>{}</b>: the bisection keeps {}.</li>",
                       esc(F.deviceName(S.worstSwitch)),
                       share(M.bisection > 0 ? S.worstSwitchBisection / M.bisection : 0));
  buf += fmt::format("<li><b{}>{}</b> single point{} of failure (switches whose loss cuts GPUs off), <b{}>{}</b> GPUs "
                     "behind them{}.</li>",
                     dataAttrs(key("failure_what_if.single_points_of_failure"), std::to_string(S.singlePointCount)),
                     count(S.singlePointCount), S.singlePointCount == 1 ? "" : "s",
                     dataAttrs(key("failure_what_if.gpus_behind_single_points"), std::to_string(S.gpusBehindSinglePoints)),
                     count(S.gpusBehindSinglePoints),
                     S.singlePoints.empty() ? "" : ", the first " + esc(F.deviceName(S.singlePoints[0].device)));
  for (size_t i = 0; i < S.spans.size(); ++i) {
    const ir::SpanLoss &sp = S.spans[i];
    buf += fmt::format("<li>Cutting the span {} &ndash; {} ({} links) keeps {} of the bisection.</li>",
                       esc(F.strings.str(F.buildings[sp.a].name)), esc(F.strings.str(F.buildings[sp.b].name)),
                       count(sp.links), share(M.bisection > 0 ? sp.bisection / M.bisection : 0));
  }
  buf += "</ul>";

  // Reachability: GPU endpoint pairs over the network, through NVLink only, or not at all.
  const ir::Reachability &r = S.reach;
  if (r.pairs > 0) {
    auto part = [&](double v) { return v / r.pairs; };
    Bar b;
    b.label = "GPU endpoint pairs";
    b.segments.push_back({100 * part(r.networkPairs), 0, key("reachability.pairs_over_network"), fixed(part(r.networkPairs), 4)});
    b.segments.push_back({100 * part(r.nvlinkOnlyPairs), 1, key("reachability.pairs_through_nvlink_only"),
                          fixed(part(r.nvlinkOnlyPairs), 4)});
    b.segments.push_back({100 * part(r.unreachablePairs), 2, key("reachability.pairs_unreachable"),
                          fixed(part(r.unreachablePairs), 4)});
    stackedBars(buf, "reachability", "Who reaches whom, % of GPU endpoint pairs",
                {{"over the network", "#16a34a"}, {"through an NVLink domain only", "#f59e0b"}, {"not at all", "#e11d48"}},
                {b}, Unit::Count);
    buf += fmt::format("<p id=\"reachability-note\">{} GPU endpoints on {} network island{}{}.</p>", count(r.endpoints),
                       count(r.islands), r.islands == 1 ? "" : "s",
                       r.railOnly ? ": a rail-only network, rails meet only through NVLink domains" : "");
  }
  // Planes (group plane): each a network of its own in which every GPU has a port.
  std::string planes;
  uint32_t nPlanes = 0;
  for (const ir::GroupStats &g : M.groupStats) {
    if (F.groups[g.group].kind != ir::GroupKind::Plane)
      continue;
    if (nPlanes++ < 16)
      planes += fmt::format("<li><b>{}</b>: {} GPUs, {} switches, {} links inside and {} to its GPUs, bisection {}</li>",
                            esc(F.nodeName(F.groups[g.group].node)), count(g.gpus), count(g.switches), count(g.links),
                            count(g.boundaryLinks), esc(bandwidth(g.bisection)));
  }
  if (nPlanes)
    buf += fmt::format("<p id=\"planes-note\">{} plane{}, each a network of its own in which every GPU has a port{}:</p>"
                       "<ul id=\"planes\">{}</ul>",
                       count(nPlanes), nPlanes == 1 ? "" : "s", nPlanes > 16 ? " (the first 16)" : "", planes);
  buf += "</section>\n";
}

} // namespace fabc::report
