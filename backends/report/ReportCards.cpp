// The report's energy and BOM sections (the Page of ReportPage.h): power by category
// with the CPO what-if, and the bill of materials with its cable-length histograms.
#include "backends/report/ReportPage.h"
#include "backends/report/SweepChart.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

namespace fabc::report {
using ir::None;

void Page::energy() {
  buf += "<section id=\"energy\"><h2>Energy</h2><div class=\"cards\">";
  bool est = !E.estimates.empty();
  buf += card("IT power", power(E.it), dataAttrs("energy:it_power_w", fixed(E.it, 1)),
              fmt::format("devices and their optics, <span id=\"power-coverage\"{}>{}</span>",
                          textAttrs("energy:coverage.headline", E.coverage.headline("no power figure")),
                          esc(fmt::format("{} parts; {}", formatCount(E.coverage.parts),
                                          E.coverage.headline("no power figure")))),
              est);
  buf += card("Facility power", power(E.facility()), dataAttrs("energy:facility_power_w", fixed(E.facility(), 1)),
              fmt::format("at PUE <span{}>{:g}</span> (option pue)", dataAttrs("energy:pue", fmt::format("{:g}", E.pue)),
                          E.pue),
              est);
  buf += card("Annual energy", number(E.annualMWh(), 0) + " MWh",
              dataAttrs("energy:annual_energy_mwh", fixed(E.annualMWh(), 1)), "facility, 8,760 h a year", est);
  buf += card("Interconnect power", power(E.interconnect),
              dataAttrs("energy:interconnect_power_w", fixed(E.interconnect, 1)),
              E.it > 0 ? fmt::format("{:.1f} % of IT: switches, NVLink switches, NICs, optics", 100 * E.interconnect / E.it)
                       : "",
              est);
  buf += "</div>\n";

  std::vector<Series> series;
  for (size_t c = 0; c < size_t(PowerCategory::Count); ++c)
    series.push_back({powerCategoryLabel(PowerCategory(c)), kCategoryColors[c]});
  // prefix: the bucket in energy.json (its total_w); catPrefix: its split by category.
  auto bar = [&](std::string label, const PowerBucket &b, const std::string &prefix, const std::string &catPrefix) {
    Bar r;
    r.label = std::move(label);
    for (size_t c = 0; c < size_t(PowerCategory::Count); ++c)
      r.segments.push_back({b.byCategory[c], c,
                            catPrefix.empty() ? "" : catPrefix + "." + powerCategoryKey(PowerCategory(c)),
                            fixed(b.byCategory[c], 1), b.estimated[c]});
    r.totalKey = prefix.empty() ? "" : prefix + ".total_w";
    r.totalText = fixed(b.total(), 1);
    r.estimate = b.anyEstimate();
    return r;
  };
  std::vector<Bar> tiers;
  for (int t = 5; t >= 0; --t)
    if (E.tiers[t].total())
      tiers.push_back(bar(t == 0 ? "end systems" : tierName(uint32_t(t)), E.tiers[t],
                          fmt::format("energy:by_tier.{}", tierName(uint32_t(t))),
                          fmt::format("energy:by_tier_category.{}", tierName(uint32_t(t)))));
  stackedBars(buf, "power-by-tier", "Power by tier", series, tiers, Unit::Power);
  std::vector<Bar> bld;
  for (size_t b = 0; b < E.buildings.size(); ++b)
    bld.push_back(bar("building " + std::string(F.strings.str(F.buildings[b].name)), E.buildings[b],
                      fmt::format("energy:by_building[{}]", b), fmt::format("energy:by_building_category[{}]", b)));
  if (E.unplaced.total() > 0)
    bld.push_back(bar("not placed", E.unplaced, "", ""));
  if (F.buildings.empty())
    buf += "<h3>Power by building</h3><p class=\"muted\" id=\"power-by-building\">The design places nothing in a "
           "building: see energy/racks.csv once it does.</p>";
  else
    stackedBars(buf, "power-by-building", "Power by building", series, bld, Unit::Power);

  // What CPO saves, on the two bases (all pluggable vs all CPO).
  if (E.cpo.applies) {
    buf += fmt::format(
        "<p id=\"cpo-savings\">Co-packaged optics on every switch port save <b{}>{:.1f} %</b> of the optics power of "
        "the all-pluggable build ({} of {}), which is <b{}>{:.1f} %</b> of its interconnect power (switches, NICs, "
        "NVLink switches and optics).{}</p>",
        dataAttrs("energy:cpo_savings.percent_of_optics", fixed(E.cpo.percentOfOptics(), 2)), E.cpo.percentOfOptics(),
        esc(power(E.cpo.saved())), esc(power(E.cpo.pluggableOptics)),
        dataAttrs("energy:cpo_savings.percent_of_interconnect", fixed(E.cpo.percentOfInterconnect(), 2)),
        E.cpo.percentOfInterconnect(), E.cpo.estimate ? " Estimate: it rests on estimated figures or missing parts." : "");
    // At equal bandwidth: each optical switch port both ways (energy.json's cpo_savings).
    const CpoSavings &c = E.cpo;
    buf += fmt::format(
        "<p id=\"cpo-equal-bandwidth\">At equal bandwidth ({} switch ports, {}): pluggable optics draw <b{}>{:.2f} W</b> "
        "per 800G of port, co-packaged engines <b{}>{:.2f} W</b> (<b{}>{:.2f}</b> times less); {} transceivers and {} lasers "
        "removed. Interconnect power: {}.</p>",
        count(c.ports), esc(bandwidth(c.bandwidth)),
        dataAttrs("energy:cpo_savings.pluggable_w_per_800g", fixed(c.per800G(c.plug), 2)), c.per800G(c.plug),
        dataAttrs("energy:cpo_savings.cpo_w_per_800g", fixed(c.per800G(c.cpo), 2)), c.per800G(c.cpo),
        dataAttrs("energy:cpo_savings.power_ratio", fixed(c.cpo > 0 ? c.plug / c.cpo : 0.0, 2)), c.cpo > 0 ? c.plug / c.cpo : 0.0,
        count(c.transceiversRemoved), c.lasersKnown ? count(c.lasersRemoved) : std::string("an unknown number of"),
        kInterconnectDefinition);
    // The range, from the catalog's bounds (energy.json's cpo_savings.range).
    CpoSavings::Case lo = c.least(), hi = c.most();
    auto span = [&](const char *key, double a, double b, int digits, const std::string &shownA, const std::string &shownB) {
      return fmt::format("<b{}>{}</b> to <b{}>{}</b>",
                         dataAttrs(fmt::format("energy:cpo_savings.range.{}[0]", key), fixed(a, digits)), esc(shownA),
                         dataAttrs(fmt::format("energy:cpo_savings.range.{}[1]", key), fixed(b, digits)), esc(shownB));
    };
    std::string unbounded;
    for (const std::string &u : c.unbounded)
      unbounded += (unbounded.empty() ? "" : ", ") + u;
    buf += fmt::format(
        "<p id=\"cpo-range\">With the catalog's bounds on these figures, CPO saves {} ({} % of the optics power, {} % of "
        "the interconnect power), a power ratio of {}{}. <span class=\"muted\">The least saving takes the pluggable "
        "parts at their low bound and the CPO engines at their high bound, the most the other way round; every other "
        "figure at its value.{}</span></p>",
        span("saved_w", lo.saved, hi.saved, 1, power(lo.saved), power(hi.saved)),
        span("percent_of_optics", lo.percentOfOptics, hi.percentOfOptics, 2, fixed(lo.percentOfOptics, 2),
             fixed(hi.percentOfOptics, 2)),
        span("percent_of_interconnect", lo.percentOfInterconnect, hi.percentOfInterconnect, 2,
             fixed(lo.percentOfInterconnect, 2), fixed(hi.percentOfInterconnect, 2)),
        span("power_ratio", lo.ratio, hi.ratio, 2, fixed(lo.ratio, 2), fixed(hi.ratio, 2)),
        c.lasersKnown ? ", and " + span("lasers_removed", lo.lasersRemoved, hi.lasersRemoved, 0,
                                        count(uint64_t(lo.lasersRemoved)), count(uint64_t(hi.lasersRemoved))) +
                            " lasers removed"
                      : std::string(),
        unbounded.empty() ? std::string()
                          : " Estimates without bounds, taken as exact: " + esc(unbounded) + ".");
  }

  // The site's facility power envelope and what fits in it, each way (energy.json's site_envelope).
  if (E.site.applies) {
    const SiteEnvelope &S = E.site;
    std::string unit = S.unit.name == "su" ? "SU" : S.unit.name;
    auto units = [&](uint64_t n) { return count(n) + " " + unit + (n == 1 ? "" : "s"); };
    auto fits = [&](const char *key, const SiteEnvelope::Build &b) {
      return fmt::format("<b{}>{}</b> ({} GPUs, {} of facility power per {}{})",
                         dataAttrs(fmt::format("energy:site_envelope.{}.units_fit", key), std::to_string(b.units)),
                         esc(units(b.units)), count(b.gpus), esc(power(b.facility / double(S.unit.count))), esc(unit),
                         b.complete ? "" : "; a part is missing from the catalog");
    };
    int64_t more = S.moreUnitsWithCpo();
    std::string head = fmt::format("<b{}>{}</b> {}", dataAttrs("energy:site_envelope.headroom_w", fixed(S.headroom(), 1)),
                                   esc(power(std::abs(S.headroom()))),
                                   S.headroom() >= 0 ? "of headroom" : "over the budget");
    std::string draws = fmt::format("The design draws {} ({} IT at PUE {:g})", esc(power(E.facility())),
                                    esc(power(E.it)), E.pue);
    draws += S.perSite ? fmt::format(" over {} sites, each held to the budget on its own: the tightest has {}.",
                                     count(S.sites.it.size()), head)
                       : ": " + head + ".";
    buf += fmt::format(
        "<h3 id=\"site-envelope\">Site power envelope</h3><p>{} budget is <b{}>{}</b> of facility power. {} In that "
        "budget fit, as designed, {}; built all pluggable, {}; built all CPO, {}: <b{}>{} {}</b> {} with CPO. <span "
        "class=\"muted\">Linear: each unit brings its share of the whole fabric, and the top tier's port limit is not "
        "applied; fabc sweep builds each size.</span></p>",
        S.perSite ? "Each site's" : "The site's", dataAttrs("energy:site_envelope.budget_w", fixed(S.budget, 1)),
        esc(power(S.budget)), draws, fits("as_built", S.asBuilt), fits("all_pluggable", S.pluggable),
        fits("all_cpo", S.cpo), dataAttrs("energy:site_envelope.more_units_with_cpo", std::to_string(more)),
        count(uint64_t(std::llabs(more))), esc(unit + (std::llabs(more) == 1 ? "" : "s")), more >= 0 ? "more" : "fewer");
    if (S.ranged) { // at the comparison's bounds (decision 0501)
      const SiteEnvelope::Case &lo = S.leastSaving, &hi = S.mostSaving;
      auto more = [&](const char *key, const SiteEnvelope::Case &c) {
        return fmt::format("<b{}>{:+d}</b> {} ({:+d} GPUs)",
                           dataAttrs(fmt::format("energy:site_envelope.cpo_range.{}.more_units_with_cpo", key),
                                     std::to_string(c.moreUnitsWithCpo())),
                           c.moreUnitsWithCpo(), esc(unit + (std::llabs(c.moreUnitsWithCpo()) == 1 ? "" : "s")),
                           c.moreGpusWithCpo());
      };
      buf += fmt::format("<p id=\"site-envelope-range\">At the CPO comparison's bounds, CPO fits {} at its least "
                         "saving (all pluggable {}, all CPO {}) and {} at its most (all pluggable {}, all CPO {}).</p>",
                         more("least_saving", lo), esc(units(lo.pluggable.units)), esc(units(lo.cpo.units)),
                         more("most_saving", hi), esc(units(hi.pluggable.units)), esc(units(hi.cpo.units)));
    }
    if (S.perSite) { // several sites: each against the budget on its own (FAB-E0047 per site)
      buf += "<p>Each site against the budget on its own (IT power of the devices placed in its buildings, at the "
             "same PUE):</p><ul>";
      for (size_t k = 0; k < S.sites.it.size(); ++k) {
        double facility = S.siteFacility(k), left = S.budget - facility;
        buf += fmt::format("<li>{}: {} of facility power ({} IT), <b{}>{}</b> {}</li>",
                           esc(std::string(ctx.F.strings.str(ctx.F.sites[k].name))), esc(power(facility)),
                           esc(power(S.sites.it[k])),
                           dataAttrs(fmt::format("energy:site_envelope.per_site[{}].headroom_w", k), fixed(left, 1)),
                           esc(power(std::abs(left))), left >= 0 ? "of headroom" : "over the budget");
      }
      if (S.sites.unsitedDevices)
        buf += fmt::format("<li>in no site, counted in no site's budget: {} device{}, {} IT</li>",
                           count(S.sites.unsitedDevices), S.sites.unsitedDevices == 1 ? "" : "s",
                           esc(power(S.sites.unsited)));
      buf += "</ul>";
    }
  }

  // A sweep given to the build (--sweep FILE): its chart, GPUs against facility power.
  if (const SweepTable *t = ctx.an.report.sweep.get()) {
    std::string over, best = "none passes every check";
    for (const SweepTable::Param &p : t->params)
      over += (over.empty() ? "" : ", ") + p.name + " (" + std::to_string(p.values.size()) + ")";
    if (t->largestPassing >= 0) {
      const SweepTable::Point &b = t->points[size_t(t->largestPassing)];
      best.clear();
      for (size_t k = 0; k < t->params.size(); ++k)
        best += (best.empty() ? "" : " ") + t->params[k].name + "=" + t->params[k].values[b.at[k]];
      best += std::isnan(b.gpus) ? "" : fmt::format(" ({} GPUs)", count(uint64_t(b.gpus)));
    }
    buf += fmt::format("<h3 id=\"sweep\">Design sweep</h3><p>{} points of {} over {}; the largest design that passes "
                       "every check: <b>{}</b>. Failing points are left out of the chart.</p><div class=\"chart\">{}</div>",
                       count(t->points.size()), esc(t->design), esc(over), esc(best), sweepChartSvg(*t));
  }

  // The what-if, side by side.
  auto whatIf = [&](const WhatIf &w, const char *key, bool toCpo) {
    std::string k = std::string("energy:what_if.") + key;
    const char *from = toCpo ? "Pluggable optics (as designed)" : "Co-packaged optics (as designed)";
    const char *to = toCpo ? "Co-packaged optics (CPO)" : "Pluggable optics";
    buf += fmt::format("<h3 id=\"whatif-{}\">What if: {} \xE2\x86\x92 {}</h3>", key, toCpo ? "pluggable" : "CPO",
                       toCpo ? "CPO" : "pluggable");
    if (!w.applies) {
      buf += fmt::format("<p class=\"muted\">{}</p>", toCpo ? "No switch port uses a pluggable transceiver: nothing to move to CPO."
                                                           : "No switch port uses co-packaged optics.");
      return;
    }
    if (!w.cages) {
      buf += "<p class=\"muted\">The catalog lacks the parts to price it:";
      for (const std::string &m : w.missing)
        buf += " " + esc(m) + ";";
      buf += "</p>";
      return;
    }
    double after = E.interconnect - w.saved();
    buf += "<div class=\"whatif\">";
    auto side = [&](const char *title, double optics, const std::string &opticsKey, double inter, uint64_t lasers,
                    const std::string &lasersKey, bool xcvrs) {
      buf += fmt::format("<div><h4>{}</h4><table>", title);
      buf += fmt::format("<tr><td>Switch-side optics</td><td class=\"n\"><b{}>{}</b>{}</td></tr>",
                         dataAttrs(opticsKey, fixed(optics, 1)), esc(power(optics)), estMark(w.estimate));
      buf += fmt::format("<tr><td>Interconnect power</td><td class=\"n\">{}{}</td></tr>", esc(power(inter)),
                         estMark(est));
      buf += fmt::format("<tr><td>Switch ports / cages</td><td class=\"n\">{} / {}</td></tr>", count(w.ports),
                         xcvrs ? count(w.cages) + " transceivers" : "engines, no transceivers");
      if (w.lasersKnown)
        buf += fmt::format("<tr><td>Lasers</td><td class=\"n\"{}>{}</td></tr>", dataAttrs(lasersKey, std::to_string(lasers)),
                           count(lasers));
      buf += "</table></div>";
    };
    side(from, w.before, k + ".optics_before_w", E.interconnect, w.lasersBefore, k + ".lasers_before", toCpo);
    side(to, w.after, k + ".optics_after_w", after, w.lasersAfter, k + ".lasers_after", !toCpo);
    buf += "</div><div class=\"cards savings\">";
    double saved = w.saved();
    buf += card("Power saved", power(saved), dataAttrs(k + ".saved_w", fixed(saved, 1)),
                saved >= 0 ? fmt::format("{} at the wall: {} MWh a year", esc(power(saved * E.pue)),
                                         esc(number(E.annualMWh(saved), 0)))
                           : fmt::format("{} would add {} at the wall: {} MWh a year", to, esc(power(-saved * E.pue)),
                                         esc(number(E.annualMWh(-saved), 0))),
                w.estimate, saved > 0);
    buf += card("Of optics power", fmt::format("{:.2f} %", E.savedPercentOfOptics(w)),
                dataAttrs(k + ".saved_percent_of_optics", fixed(E.savedPercentOfOptics(w), 2)),
                "every transceiver and CPO engine, systems' included", w.estimate);
    buf += card("Of interconnect power", fmt::format("{:.2f} %", E.savedPercentOfInterconnect(w)),
                dataAttrs(k + ".saved_percent_of_interconnect", fixed(E.savedPercentOfInterconnect(w), 2)), "", w.estimate);
    buf += card("Of IT power", fmt::format("{:.2f} %", E.savedPercentOfIt(w)),
                dataAttrs(k + ".saved_percent_of_it", fixed(E.savedPercentOfIt(w), 2)), "", w.estimate);
    buf += card(toCpo ? "Transceivers removed" : "Transceivers added", count(w.cages),
                dataAttrs(k + (toCpo ? ".transceivers_removed" : ".transceivers_added"), std::to_string(w.cages)),
                w.lasersKnown ? fmt::format("lasers {} \xE2\x86\x92 {}", count(w.lasersBefore), count(w.lasersAfter))
                              : "laser counts missing in the catalog");
    buf += "</div>";
    if (!w.missing.empty()) {
      buf += "<p class=\"note\">Not priced (no catalog part):";
      for (const std::string &m : w.missing)
        buf += " " + esc(m) + ";";
      buf += "</p>";
    }
    std::vector<Bar> cmp;
    auto interBar = [&](std::string label, double switchOptics) {
      Bar b;
      b.label = std::move(label);
      double otherOptics = E.all[PowerCategory::Optics] - w.before;
      b.segments.push_back({E.all[PowerCategory::Switches], 2, "", "", E.all.estimate(PowerCategory::Switches)});
      b.segments.push_back({E.all[PowerCategory::NvlinkSwitches], 3, "", "", E.all.estimate(PowerCategory::NvlinkSwitches)});
      b.segments.push_back({E.all[PowerCategory::Nics], 4, "", "", E.all.estimate(PowerCategory::Nics)});
      b.segments.push_back({std::max(0.0, otherOptics), 6, "", "", E.all.estimate(PowerCategory::Optics)});
      b.segments.push_back({switchOptics, 5, "", "", w.estimate});
      b.estimate = est;
      return b;
    };
    std::vector<Series> s2 = series;
    s2[5].label = "Switch-side optics";
    s2.push_back({"Other optics", "#fda4af"});
    cmp.push_back(interBar(toCpo ? "as designed" : "as designed", w.before));
    cmp.push_back(interBar(toCpo ? "all CPO" : "all pluggable", w.after));
    stackedBars(buf, std::string("whatif-chart-") + key, "Interconnect power, side by side", s2, cmp, Unit::Power);
  };
  whatIf(E.toCpo, "all_cpo", true);
  if (E.toPluggable.applies)
    whatIf(E.toPluggable, "all_pluggable", false);

  // Estimated figures.
  buf += "<h3 id=\"estimates\">Estimated figures</h3>";
  if (E.estimates.empty() && !latencyEstimate) {
    buf += "<p class=\"muted\">None: every figure behind the budget has a source in the catalog.</p>";
  } else {
    buf += "<table id=\"estimates-table\"><thead><tr><th>Model</th><th>Property</th><th class=\"n\">Value</th>"
           "<th>Catalog note</th></tr></thead><tbody>";
    size_t i = 0;
    for (const auto &e : E.estimates) {
      const ir::Figure &f = estimatedFigure(F, e);
      const ir::Model &m = F.models[e.first];
      buf += fmt::format("<tr><td class=\"mono\"{}>{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                         fmt::format(" data-json=\"energy:estimated_figures[{}].model\" data-text=\"{}\"", i,
                                     esc(F.strings.str(m.name))),
                         esc(F.strings.str(m.name)), esc(e.second), esc(e.second == "latency" ? duration(f.value) : power(f.value)),
                         esc(f.known ? F.strings.str(f.source) : "no figure in the catalog: counted as 0"));
      ++i;
    }
    buf += "</tbody></table>";
    if (latencyEstimate)
      buf += fmt::format("<p class=\"note\">Latency figures rest on estimated switch or NIC latencies ({}).</p>",
                         esc(latencyEstimateNote));
  }
  buf += "</section>\n";
}

void Page::bomSection() {
  buf += "<section id=\"bom\"><h2>Bill of materials</h2><div class=\"cards\">";
  buf += card("Transceivers", count(bom.xcvrTotal), dataAttrs("bom:summary.transceivers.total", std::to_string(bom.xcvrTotal)),
              fmt::format("<span{}>{}</span> at switches, <span{}>{}</span> at systems",
                          dataAttrs("bom:summary.transceivers.switch", std::to_string(bom.xcvrSwitch)), count(bom.xcvrSwitch),
                          dataAttrs("bom:summary.transceivers.compute_system", std::to_string(bom.xcvrCompute)),
                          count(bom.xcvrCompute)));
  buf += card("Transceivers per GPU", fixed(bom.transceiversPerGpu(), 2),
              dataAttrs("bom:summary.transceivers_per_gpu", fixed(bom.transceiversPerGpu(), 3)),
              BomSummary::TransceiversPerGpuNote);
  buf += card("CPO ports", count(F.metrics.cpoPorts), dataAttrs("bom:summary.cpo_ports", std::to_string(F.metrics.cpoPorts)),
              "fibre straight to the switch, no transceiver");
  buf += card("Cable length", length(bom.totalLength), dataAttrs("bom:summary.cable_length_m", fixed(bom.totalLength, 1)),
              "routed, before rounding to order lengths");
  buf += "</div>\n";

  auto powerCell = [&](const ir::Model &m) {
    if (!m.power.known)
      return std::string("<td class=\"n muted\">no figure</td>");
    return fmt::format("<td class=\"n\">{}{}</td>", esc(power(m.power.value)), estMark(m.power.estimate));
  };
  // With a `policy spares`, every table adds what the policy orders on top of the
  // design's count and the quantity a buyer orders (bom.json's spares and
  // order_quantity); without one the tables are as they were.
  const SparesPolicy &sp = bom.spares;
  const char *spareHeads = sp.set ? "<th class=\"n\">Spares</th><th class=\"n\">Order qty</th>" : "";
  auto spareCells = [&](const std::string &k, SpareCategory c, uint64_t n) {
    if (!sp.set)
      return std::string();
    uint64_t s = sp.spares(c, n);
    return fmt::format("<td class=\"n num\"{}>{}</td><td class=\"n num\"{}>{}</td>", dataAttrs(k + ".spares", std::to_string(s)),
                       count(s), dataAttrs(k + ".order_quantity", std::to_string(n + s)), count(n + s));
  };
  if (sp.set) {
    std::string parts;
    for (size_t c = 0; c < size_t(SpareCategory::Count); ++c)
      if (sp.named[c])
        parts += fmt::format("{}{} {:g}%", parts.empty() ? "" : ", ", spareCategoryName(SpareCategory(c)), sp.percent[c]);
    buf += fmt::format("<p class=\"note\" id=\"bom-spares-policy\">Spares per <code>policy spares</code>: {} of each "
                       "SKU's count, rounded up, and at least {} of every SKU in those categories; the order quantity is "
                       "the count plus its spares.</p>",
                       esc(parts), count(sp.minPerSku));
  }
  buf += fmt::format("<h3>Devices</h3><table id=\"bom-devices\"><thead><tr><th>SKU</th><th>Model</th><th>Kind</th>"
                     "<th>Vendor</th><th class=\"n\">Count</th>{}<th class=\"n\">Power each</th></tr></thead><tbody>",
                     spareHeads);
  size_t i = 0;
  for (const auto &kv : bom.devices) {
    const ir::Model &m = F.models[kv.first];
    std::string k = fmt::format("bom:devices[{}]", i++);
    buf += fmt::format("<tr><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n num\"{}>{}</td>{}{}</tr>",
                       esc(modelLabel(F, kv.first)), esc(F.strings.str(m.name)), ir::modelKindName(m.kind),
                       esc(F.strings.str(m.vendor)), dataAttrs(k + ".count", std::to_string(kv.second)), count(kv.second),
                       spareCells(k, deviceCategory(m), kv.second), powerCell(m));
  }
  buf += "</tbody></table>";

  buf += "<h3>Transceivers</h3>";
  if (bom.transceivers.empty()) {
    buf += "<p class=\"muted\">None: every link is copper or ends at a CPO port.</p>";
  } else {
    buf += fmt::format("<table id=\"bom-transceivers\"><thead><tr><th>SKU</th><th>Model</th><th>Media</th>"
                       "<th class=\"n\">Count</th><th class=\"n\">At switches</th><th class=\"n\">At systems</th>{}"
                       "<th class=\"n\">Power each</th></tr></thead><tbody>",
                       spareHeads);
    i = 0;
    for (const auto &kv : bom.transceivers) {
      const ir::Model &m = F.models[kv.first];
      std::string k = fmt::format("bom:transceivers[{}]", i++);
      buf += fmt::format("<tr><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td class=\"n num\"{}>{}</td>"
                         "<td class=\"n\"{}>{}</td><td class=\"n\"{}>{}</td>{}{}</tr>",
                         esc(modelLabel(F, kv.first)), esc(F.strings.str(m.name)), ir::mediaName(m.media),
                         dataAttrs(k + ".count", std::to_string(kv.second.total)), count(kv.second.total),
                         dataAttrs(k + ".at_switch", std::to_string(kv.second.atSwitch)), count(kv.second.atSwitch),
                         dataAttrs(k + ".at_compute_system", std::to_string(kv.second.atCompute)),
                         count(kv.second.atCompute), spareCells(k, SpareCategory::Transceiver, kv.second.total),
                         powerCell(m));
    }
    buf += "</tbody></table>";
  }

  buf += fmt::format("<h3>Cables by order length</h3><table id=\"bom-cables\" class=\"narrow\"><thead><tr><th>SKU</th>"
                     "<th>Media</th><th class=\"n\">Order length</th><th class=\"n\">Count</th>{}</tr></thead><tbody>",
                     spareHeads);
  i = 0;
  // Histogram per media: counts per order length, summed over SKUs.
  std::map<ir::Media, std::map<double, std::pair<uint64_t, std::string>>> hist;
  for (const auto &kv : bom.cables) {
    std::string row = fmt::format("bom:cables[{}]", i++), k = row + ".count";
    buf += fmt::format("<tr><td class=\"mono\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n num\"{}>{}</td>{}</tr>",
                       esc(kv.first.sku), ir::mediaName(kv.first.media), esc(orderLength(kv.first.length)),
                       dataAttrs(k, std::to_string(kv.second)), count(kv.second),
                       spareCells(row, SpareCategory::Cable, kv.second));
    auto &h = hist[kv.first.media][kv.first.length];
    h.first += kv.second;
    h.second += (h.second.empty() ? "" : "+") + k;
  }
  buf += "</tbody></table>";
  buf += "<h3>Cable lengths per media</h3><p class=\"note\">Cables are ordered in standard lengths: each link's "
         "routed length (with slack) rounded up to the next one.</p><div class=\"grid3\">";
  for (const auto &mh : hist) {
    std::vector<Column> cols;
    uint64_t total = 0;
    for (const auto &kv : mh.second) {
      cols.push_back({orderLength(kv.first), double(kv.second.first), kv.second.second, std::to_string(kv.second.first)});
      total += kv.second.first;
    }
    size_t m = size_t(mh.first);
    columnChart(buf, fmt::format("lengths-{}", mh.first == ir::Media::None ? "none" : ir::mediaName(mh.first)),
                fmt::format("{} \xC2\xB7 {} cable{}", mh.first == ir::Media::None ? "unresolved" : ir::mediaName(mh.first),
                            count(total), total == 1 ? "" : "s"),
                mediaColor(ir::Media(m)), cols, "order length");
  }
  buf += "</div></section>\n";
}

} // namespace fabc::report
