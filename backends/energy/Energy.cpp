// The energy budget: power per tier, per category, per building and rack, annual
// energy at the design's PUE, and the pluggable-vs-CPO what-if. Every figure that
// rests on a catalog estimate is listed as such. The figures come from the energy
// analysis (compiler/analysis/Energy.h, Analyses::energy()), which the report shares.
#include "backends/Common.h"
#include "analysis/Energy.h"

namespace fabc {
namespace {
// "gpu_systems": ..., "optics": ...: a bucket split by category, as members.
void categoryMembers(JsonWriter &j, const PowerBucket &b) {
  for (size_t c = 0; c < size_t(PowerCategory::Count); ++c)
    j.key(powerCategoryKey(PowerCategory(c))).fixed(b.byCategory[c], 1);
}
} // namespace

void writeSiteEnvelope(JsonWriter &j, const ir::Fabric &F, const SiteEnvelope &s) {
  j.key("site_envelope");
  if (!s.applies) {
    j.null();
    return;
  }
  j.beginObject();
  j.key("budget_w").fixed(s.budget, 1);
  j.key("headroom_w").fixed(s.headroom(), 1);
  j.key("unit").string(s.unit.name);
  j.key("units").integer(s.unit.count);
  j.key("gpus_per_unit").fixed(s.unit.gpus, 1);
  auto build = [&](const char *name, const SiteEnvelope::Build &b) {
    j.key(name).beginObject(JsonLayout::Inline);
    j.key("facility_power_w").fixed(b.facility, 1);
    j.key("units_fit").integer(b.units);
    j.key("gpus_fit").integer(b.gpus);
    j.key("complete").boolean(b.complete);
    j.endObject();
  };
  build("as_built", s.asBuilt);
  build("all_pluggable", s.pluggable);
  build("all_cpo", s.cpo);
  j.key("more_units_with_cpo").integer(s.moreUnitsWithCpo());
  if (s.ranged) { // the same at the CPO comparison's bounds (cpo_savings.range), format 1.5
    j.key("cpo_range").beginObject();
    auto at = [&](const char *name, const SiteEnvelope::Case &c) {
      j.key(name).beginObject(JsonLayout::Inline);
      j.key("pluggable_units_fit").integer(c.pluggable.units);
      j.key("cpo_units_fit").integer(c.cpo.units);
      j.key("more_units_with_cpo").integer(c.moreUnitsWithCpo());
      j.key("more_gpus_with_cpo").integer(c.moreGpusWithCpo());
      j.endObject();
    };
    at("least_saving", s.leastSaving);
    at("most_saving", s.mostSaving);
    j.endObject();
  }
  if (s.perSite) { // several sites: each against the budget on its own
    j.key("per_site").beginArray();
    for (size_t k = 0; k < s.sites.it.size(); ++k) {
      double facility = s.siteFacility(k);
      j.beginObject(JsonLayout::Inline);
      j.key("site").string(F.strings.str(F.sites[k].name));
      j.key("it_power_w").fixed(s.sites.it[k], 1);
      j.key("facility_power_w").fixed(facility, 1);
      j.key("headroom_w").fixed(s.budget - facility, 1);
      j.endObject();
    }
    j.endArray();
    j.key("unsited_it_power_w").fixed(s.sites.unsited, 1);
    j.key("unsited_devices").integer(s.sites.unsitedDevices);
  }
  j.key("scaling").string("linear: each unit brings its share of the whole fabric; the top tier's port limit is not "
                          "applied (fabc sweep builds each size)");
  j.endObject();
}

void writeCpoRange(JsonWriter &j, const CpoSavings &c) {
  CpoSavings::Case lo = c.least(), hi = c.most();
  j.key("range").beginObject();
  auto pair = [&](const char *key, double a, double b, int digits) {
    j.key(key).beginArray(JsonLayout::Inline);
    j.fixed(a, digits);
    j.fixed(b, digits);
    j.endArray();
  };
  pair("saved_w", lo.saved, hi.saved, 1);
  pair("percent_of_optics", lo.percentOfOptics, hi.percentOfOptics, 2);
  pair("percent_of_interconnect", lo.percentOfInterconnect, hi.percentOfInterconnect, 2);
  pair("pluggable_w_per_800g", lo.plugPer800G, hi.plugPer800G, 2);
  pair("cpo_w_per_800g", lo.cpoPer800G, hi.cpoPer800G, 2);
  pair("power_ratio", lo.ratio, hi.ratio, 2);
  pair("transceivers_removed", double(c.transceiversRemoved), double(c.transceiversRemoved), 0);
  if (c.lasersKnown)
    pair("lasers_removed", lo.lasersRemoved, hi.lasersRemoved, 0);
  else
    j.key("lasers_removed").null();
  j.key("covers").string(kCpoRangeCovers);
  j.key("unbounded_estimates").beginArray(JsonLayout::Inline);
  for (const std::string &u : c.unbounded)
    j.string(u);
  j.endArray();
  j.endObject();
}

bool runEnergy(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const EnergyModel &E = ctx.an.energy();
  OutFile *json = ctx.out.open("energy/energy.json");
  OutFile *csv = ctx.out.open("energy/racks.csv");
  if (!json || !csv)
    return failOpen(ctx);
  JsonWriter j(sinkTo(*json));
  j.beginObject();
  j.key("format_version").string(formats::Energy);
  j.key("fabric").string(F.name);
  j.key("generator").string("fabc " + ctx.info.version);
  j.key("uses_estimates").boolean(!E.estimates.empty());
  j.key("it_power_w").fixed(E.it, 1);
  j.key("pue").general(E.pue);
  j.key("facility_power_w").fixed(E.facility(), 1);
  j.key("annual_energy_mwh").fixed(E.annualMWh(), 1);
  j.key("interconnect_power_w").fixed(E.interconnect, 1);
  writeCoverage(j, F, E.coverage, "no power figure");
  j.key("by_category").beginObject(JsonLayout::Inline);
  categoryMembers(j, E.all);
  j.endObject();
  j.key("by_tier").beginObject(JsonLayout::BlockOpenWhenEmpty);
  for (uint32_t t = 0; t < 6; ++t) {
    const PowerBucket &b = E.tiers[t];
    if (!b.total())
      continue;
    j.key(tierName(t)).beginObject(JsonLayout::Inline);
    j.key("devices_w").fixed(b.devices, 1);
    j.key("optics_w").fixed(b.optics, 1);
    j.key("total_w").fixed(b.total(), 1);
    j.endObject();
  }
  j.endObject();
  j.key("by_building").beginArray();
  for (size_t b = 0; b < E.buildings.size(); ++b) {
    j.beginObject(JsonLayout::Inline);
    j.key("building").string(F.strings.str(F.buildings[b].name));
    j.key("devices_w").fixed(E.buildings[b].devices, 1);
    j.key("optics_w").fixed(E.buildings[b].optics, 1);
    j.key("total_w").fixed(E.buildings[b].total(), 1);
    j.endObject();
  }
  j.endArray();
  j.key("unplaced_w").fixed(E.unplaced.total(), 1);
  // The same tiers and buildings split by category (the report's stacked bars).
  j.key("by_tier_category").beginObject(JsonLayout::BlockOpenWhenEmpty);
  for (uint32_t t = 0; t < 6; ++t) {
    if (!E.tiers[t].total())
      continue;
    j.key(tierName(t)).beginObject(JsonLayout::Inline);
    categoryMembers(j, E.tiers[t]);
    j.endObject();
  }
  j.endObject();
  j.key("by_building_category").beginArray();
  for (size_t b = 0; b < E.buildings.size(); ++b) {
    j.beginObject(JsonLayout::Inline);
    j.key("building").string(F.strings.str(F.buildings[b].name));
    categoryMembers(j, E.buildings[b]);
    j.endObject();
  }
  j.endArray();
  auto whatIf = [&](const char *name, const WhatIf &w) {
    j.key(name).beginObject(JsonLayout::Inline);
    j.key("applies").boolean(w.applies);
    j.key("switch_cages").integer(w.cages);
    j.key("switch_ports").integer(w.ports);
    j.key("optics_before_w").fixed(w.before, 1);
    j.key("optics_after_w").fixed(w.after, 1);
    j.key("saved_w").fixed(w.saved(), 1);
    j.key("saved_percent_of_interconnect").fixed(E.savedPercentOfInterconnect(w), 2);
    j.key("saved_percent_of_it").fixed(E.savedPercentOfIt(w), 2);
    j.key("saved_percent_of_optics").fixed(E.savedPercentOfOptics(w), 2);
    j.key(std::string_view(name) == "all_cpo" ? "transceivers_removed" : "transceivers_added").integer(w.cages);
    bool lasers = w.lasersKnown && w.cages;
    j.key("lasers_before");
    lasers ? j.integer(w.lasersBefore) : j.null();
    j.key("lasers_after");
    lasers ? j.integer(w.lasersAfter) : j.null();
    j.key("estimate").boolean(w.estimate);
    j.key("missing_parts").beginArray(JsonLayout::Inline);
    for (const std::string &m : w.missing)
      j.string(m);
    j.endArray();
    j.endObject();
  };
  j.key("what_if").beginObject();
  whatIf("all_cpo", E.toCpo);
  whatIf("all_pluggable", E.toPluggable);
  j.endObject();
  // All pluggable vs all CPO, as shares of the pluggable build (analysis::CpoSavings),
  // at equal bandwidth (every optical switch port both ways).
  const CpoSavings &c = E.cpo;
  j.key("cpo_savings").beginObject();
  j.key("applies").boolean(c.applies);
  j.key("pluggable_optics_w").fixed(c.pluggableOptics, 1);
  j.key("cpo_optics_w").fixed(c.cpoOptics, 1);
  j.key("saved_w").fixed(c.saved(), 1);
  j.key("percent_of_optics").fixed(c.percentOfOptics(), 2);
  j.key("percent_of_interconnect").fixed(c.percentOfInterconnect(), 2);
  j.key("transceivers_removed").integer(c.transceiversRemoved);
  j.key("lasers_removed");
  c.lasersKnown ? j.integer(c.lasersRemoved) : j.null();
  j.key("switch_ports").integer(c.ports);
  j.key("switch_port_bandwidth_gbps").fixed(c.bandwidth / 1e9, 0);
  j.key("pluggable_w_per_800g").fixed(c.per800G(c.plug), 2);
  j.key("cpo_w_per_800g").fixed(c.per800G(c.cpo), 2);
  j.key("power_ratio").fixed(c.cpo > 0 ? c.plug / c.cpo : 0.0, 2);
  j.key("interconnect_definition").string(kInterconnectDefinition);
  j.key("estimate").boolean(c.estimate);
  writeCpoRange(j, c);
  j.endObject();
  writeSiteEnvelope(j, F, E.site);
  j.key("estimated_figures").beginArray();
  for (const auto &e : E.estimates) {
    const ir::Model &m = F.models[e.first];
    const ir::Figure &f = estimatedFigure(F, e);
    j.beginObject(JsonLayout::Inline);
    j.key("model").string(F.strings.str(m.name));
    j.key("property").string(e.second);
    j.key("value").general(f.value);
    if (f.bounded) { // in the figure's unit, as `value`
      j.key("low").general(f.low);
      j.key("high").general(f.high);
    }
    j.key("note").string(f.known ? F.strings.str(f.source) : "no figure in the catalog: counted as 0");
    j.endObject();
  }
  j.endArray();
  j.endObject();

  csv->write("rack,building,hall,row,rack_position,devices_w,optics_w,total_w\n");
  for (size_t r = 0; r < F.racks.size(); ++r) {
    const ir::Rack &rk = F.racks[r];
    const ir::Hall &h = F.halls[rk.hall];
    csv->print("{},{},{},{},{},{:.1f},{:.1f},{:.1f}\n", csvField(F.rackName(uint32_t(r))),
               csvField(F.strings.str(F.buildings[h.building].name)), csvField(F.strings.str(h.name)), rk.row, rk.pos,
               E.racks[r].devices, E.racks[r].optics, E.racks[r].total());
  }
  return true;
}

} // namespace fabc
