// The energy budget: power per tier, per category, per building and rack, annual
// energy at the design's PUE, and the pluggable-vs-CPO what-if. Every figure that
// rests on a catalog estimate is listed as such. The figures come from the energy
// analysis (compiler/analysis/Energy.h, Analyses::energy()), which the report shares.
#include "backends/Common.h"
#include "analysis/Energy.h"

namespace fabc {
namespace {
// {"gpu_systems": ..., "optics": ...}: a bucket split by category.
std::string categoriesJson(const PowerBucket &b) {
  std::string r = "{";
  for (size_t c = 0; c < size_t(PowerCategory::Count); ++c)
    r += fmt::format("{}\"{}\": {:.1f}", c ? ", " : "", powerCategoryKey(PowerCategory(c)), b.byCategory[c]);
  return r + "}";
}
} // namespace

bool runEnergy(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const EnergyModel &E = ctx.an.energy();
  OutFile *json = ctx.out.open("energy/energy.json");
  OutFile *csv = ctx.out.open("energy/racks.csv");
  if (!json || !csv)
    return failOpen(ctx);
  json->print("{{\n  \"fabric\": {},\n  \"generator\": \"fabc {}\",\n  \"uses_estimates\": {},\n", jsonString(F.name),
              ctx.info.version, E.estimates.empty() ? "false" : "true");
  json->print("  \"it_power_w\": {:.1f},\n  \"pue\": {:g},\n  \"facility_power_w\": {:.1f},\n  \"annual_energy_mwh\": {:.1f},\n",
              E.it, E.pue, E.facility(), E.annualMWh());
  json->print("  \"interconnect_power_w\": {:.1f},\n", E.interconnect);
  json->print("  \"by_category\": {},\n", categoriesJson(E.all));
  json->write("  \"by_tier\": {");
  bool first = true;
  for (uint32_t t = 0; t < 6; ++t) {
    const PowerBucket &b = E.tiers[t];
    if (!b.total())
      continue;
    json->print("{}\n    \"{}\": {{\"devices_w\": {:.1f}, \"optics_w\": {:.1f}, \"total_w\": {:.1f}}}", first ? "" : ",",
                tierName(t), b.devices, b.optics, b.total());
    first = false;
  }
  json->write("\n  },\n  \"by_building\": [");
  for (size_t b = 0; b < E.buildings.size(); ++b)
    json->print("{}\n    {{\"building\": {}, \"devices_w\": {:.1f}, \"optics_w\": {:.1f}, \"total_w\": {:.1f}}}", b ? "," : "",
                jsonString(F.strings.str(F.buildings[b].name)), E.buildings[b].devices, E.buildings[b].optics,
                E.buildings[b].total());
  json->print("{}],\n  \"unplaced_w\": {:.1f},\n", E.buildings.empty() ? "" : "\n  ", E.unplaced.total());
  // The same tiers and buildings split by category (the report's stacked bars).
  json->write("  \"by_tier_category\": {");
  first = true;
  for (uint32_t t = 0; t < 6; ++t) {
    if (!E.tiers[t].total())
      continue;
    json->print("{}\n    \"{}\": {}", first ? "" : ",", tierName(t), categoriesJson(E.tiers[t]));
    first = false;
  }
  json->write("\n  },\n  \"by_building_category\": [");
  for (size_t b = 0; b < E.buildings.size(); ++b)
    json->print("{}\n    {{\"building\": {}, {}", b ? "," : "", jsonString(F.strings.str(F.buildings[b].name)),
                categoriesJson(E.buildings[b]).substr(1));
  json->print("{}],\n", E.buildings.empty() ? "" : "\n  ");
  auto whatIf = [&](const char *name, const WhatIf &w) {
    json->print("    \"{}\": {{\"applies\": {}, \"switch_cages\": {}, \"switch_ports\": {}, \"optics_before_w\": {:.1f}, "
                "\"optics_after_w\": {:.1f}, \"saved_w\": {:.1f}, \"saved_percent_of_interconnect\": {:.2f}, "
                "\"saved_percent_of_it\": {:.2f}, \"transceivers_{}\": {}, ",
                name, w.applies ? "true" : "false", w.cages, w.ports, w.before, w.after, w.saved(),
                E.savedPercentOfInterconnect(w), E.savedPercentOfIt(w),
                std::string_view(name) == "all_cpo" ? "removed" : "added", w.cages);
    if (w.lasersKnown && w.cages)
      json->print("\"lasers_before\": {}, \"lasers_after\": {}, ", w.lasersBefore, w.lasersAfter);
    else
      json->write("\"lasers_before\": null, \"lasers_after\": null, ");
    json->print("\"estimate\": {}, \"missing_parts\": [", w.estimate ? "true" : "false");
    bool f = true;
    for (const std::string &m : w.missing) {
      json->print("{}{}", f ? "" : ", ", jsonString(m));
      f = false;
    }
    json->write("]}");
  };
  json->write("  \"what_if\": {\n");
  whatIf("all_cpo", E.toCpo);
  json->write(",\n");
  whatIf("all_pluggable", E.toPluggable);
  json->write("\n  },\n  \"estimated_figures\": [");
  first = true;
  for (const auto &e : E.estimates) {
    const ir::Model &m = F.models[e.first];
    const ir::Figure &f = estimatedFigure(F, e);
    json->print("{}\n    {{\"model\": {}, \"property\": \"{}\", \"value\": {:g}, \"note\": {}}}", first ? "" : ",",
                jsonString(F.strings.str(m.name)), e.second, f.value,
                jsonString(f.known ? F.strings.str(f.source) : "no figure in the catalog: counted as 0"));
    first = false;
  }
  json->print("{}]\n}}\n", E.estimates.empty() ? "" : "\n  ");

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
