// The energy budget: power per tier, per category, per building and rack, annual
// energy at the design's PUE, and the pluggable-vs-CPO what-if. Every figure that
// rests on a catalog estimate is listed as such.
#include "backends/Common.h"

#include <set>

namespace fabc {
namespace {
using ir::None;

struct Bucket {
  double devices = 0, optics = 0;
  double total() const { return devices + optics; }
};

// The CPO optical engine for a port speed, None if the catalog has none.
uint32_t cpoEngine(const ir::Fabric &F, double speed) {
  for (uint32_t i = 0; i < F.models.size(); ++i)
    if (F.models[i].kind == ir::ModelKind::Optic && F.models[i].cpoEngine && F.models[i].speed == speed)
      return i;
  return None;
}

// A pluggable single-mode transceiver for a cage, for the CPO-to-pluggable what-if.
uint32_t pluggableFor(const ir::Fabric &F, double speed, uint32_t cagePorts) {
  uint32_t best = None;
  for (uint32_t i = 0; i < F.models.size(); ++i) {
    const ir::Model &m = F.models[i];
    if (m.kind == ir::ModelKind::Optic && !m.cpoEngine && m.media == ir::Media::SMF && m.speed == speed &&
        m.portsPerUnit == cagePorts && (best == None || m.reach.value < F.models[best].reach.value))
      best = i;
  }
  return best;
}

struct WhatIf {
  bool applies = false;
  uint64_t cages = 0, ports = 0, lasersBefore = 0, lasersAfter = 0;
  double before = 0, after = 0; // W of switch-side optics
  bool lasersKnown = true, estimate = false;
  std::set<std::string> missing; // speeds without a catalog part
};

void collectEstimate(const ir::Fabric &F, uint32_t m, const char *what, std::set<std::pair<uint32_t, std::string>> &out) {
  if (m == None)
    return;
  const ir::Model &x = F.models[m];
  const ir::Figure &f = std::string_view(what) == "latency" ? x.latency : x.power;
  if (f.estimate || !f.known)
    out.insert({m, what});
}

} // namespace

bool runEnergy(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  Bucket tiers[6]; // 0 systems, 1..4 switch tiers, 5 untiered
  double gpuSystems = 0, mgmt = 0, switches = 0, nics = 0, nvswitch = 0, optics = 0;
  std::vector<Bucket> racks(F.racks.size()), buildings(F.buildings.size());
  Bucket unplaced;
  std::set<std::pair<uint32_t, std::string>> estimates;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    double p = F.devPower[d], o = F.devOpticPower[d];
    const ir::Model &m = F.modelOf(d);
    collectEstimate(F, F.devModel[d], "power", estimates);
    uint8_t t = F.devTier[d];
    Bucket &tb = tiers[t < 5 ? t : 5];
    tb.devices += p;
    tb.optics += o;
    optics += o;
    switch (m.kind) {
    case ir::ModelKind::Switch: switches += p; break;
    case ir::ModelKind::Nic: nics += p; break;
    case ir::ModelKind::NvSwitch: nvswitch += p; break;
    default: (F.devRole[d] == ir::Role::Compute ? gpuSystems : mgmt) += p;
    }
    Bucket &rb = F.devRack[d] == None ? unplaced : racks[F.devRack[d]];
    rb.devices += p;
    rb.optics += o;
    if (F.devRack[d] != None) {
      Bucket &bb = buildings[F.buildingOf(d)];
      bb.devices += p;
      bb.optics += o;
    }
  }
  // What-ifs, per switch cage: pluggable -> CPO, and CPO -> pluggable.
  WhatIf toCpo, toPluggable;
  std::map<double, uint32_t> engines; // per port speed: the catalog scan happens once
  auto engineFor = [&](double speed) {
    auto it = engines.find(speed);
    return it != engines.end() ? it->second : engines[speed] = cpoEngine(F, speed);
  };
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::Switch)
      continue;
    F.forEachCage(d, [&](uint32_t g, const ir::GroupLayout &gl, uint32_t first) {
      bool cpo = m.ports[g].cpo;
      uint32_t used = 0, optic = None;
      for (uint32_t k = 0; k < gl.portsPerCage; ++k) {
        uint32_t port = first + k, l = F.portLink[port];
        if (l == None)
          continue;
        ++used;
        bool isA = F.linkA[l] == port;
        if ((isA ? F.linkXcvrA[l] : F.linkXcvrB[l]) && optic == None)
          optic = isA ? F.linkOpticA[l] : F.linkOpticB[l];
      }
      if (!used)
        return;
      uint32_t engine = engineFor(gl.speed);
      WhatIf &w = cpo ? toPluggable : toCpo;
      if (!cpo && optic == None)
        return; // copper: no optics either way
      w.applies = true;
      if (engine == None) {
        w.missing.insert(formatQuantity(gl.speed, dims::Bandwidth) + " CPO engine");
        return;
      }
      const ir::Model &e = F.models[engine];
      double enginePower = e.power.value * used;
      uint64_t engineLasers = uint64_t(e.lasers.value * used);
      w.estimate |= e.power.estimate || !e.power.known;
      w.lasersKnown &= e.lasers.known;
      collectEstimate(F, engine, "power", estimates);
      if (!cpo) {
        ++w.cages;
        w.ports += used;
        const ir::Model &o = F.models[optic];
        w.before += o.power.value;
        w.after += enginePower;
        w.lasersBefore += uint64_t(o.lasers.value);
        w.lasersAfter += engineLasers;
        w.lasersKnown &= o.lasers.known;
        w.estimate |= o.power.estimate || !o.power.known;
        return;
      }
      uint32_t p = pluggableFor(F, gl.speed, gl.portsPerCage);
      if (p == None) {
        w.missing.insert(formatQuantity(gl.speed, dims::Bandwidth) + " single-mode transceiver");
        return;
      }
      const ir::Model &o = F.models[p];
      ++w.cages;
      w.ports += used;
      w.before += enginePower;
      w.after += o.power.value;
      w.lasersBefore += engineLasers;
      w.lasersAfter += uint64_t(o.lasers.value);
      w.lasersKnown &= o.lasers.known;
      w.estimate |= o.power.estimate || !o.power.known;
      collectEstimate(F, p, "power", estimates);
    });
  }
  for (size_t l = 0; l < F.numLinks(); ++l) {
    if (F.linkXcvrA[l])
      collectEstimate(F, F.linkOpticA[l], "power", estimates);
    if (F.linkXcvrB[l])
      collectEstimate(F, F.linkOpticB[l], "power", estimates);
  }

  double it = 0;
  for (const Bucket &b : tiers)
    it += b.total();
  double interconnect = switches + optics + nics + nvswitch;
  double pue = F.options.pue;
  OutFile *json = ctx.out.open("energy/energy.json");
  OutFile *csv = ctx.out.open("energy/racks.csv");
  if (!json || !csv)
    return failOpen(ctx);
  json->print("{{\n  \"fabric\": {},\n  \"generator\": \"fabc {}\",\n  \"uses_estimates\": {},\n", jsonString(F.name),
              ctx.info.version, estimates.empty() ? "false" : "true");
  json->print("  \"it_power_w\": {:.1f},\n  \"pue\": {:g},\n  \"facility_power_w\": {:.1f},\n  \"annual_energy_mwh\": {:.1f},\n",
              it, pue, it * pue, it * pue * 8760 / 1e6);
  json->print("  \"interconnect_power_w\": {:.1f},\n", interconnect);
  json->print("  \"by_category\": {{\"gpu_systems\": {:.1f}, \"management_systems\": {:.1f}, \"switches\": {:.1f}, "
              "\"nvlink_switches\": {:.1f}, \"nics\": {:.1f}, \"optics\": {:.1f}}},\n",
              gpuSystems, mgmt, switches, nvswitch, nics, optics);
  json->write("  \"by_tier\": {");
  bool first = true;
  for (uint32_t t = 0; t < 6; ++t) {
    if (!tiers[t].total())
      continue;
    json->print("{}\n    \"{}\": {{\"devices_w\": {:.1f}, \"optics_w\": {:.1f}, \"total_w\": {:.1f}}}", first ? "" : ",",
                t < 5 ? tierName(t) : "untiered", tiers[t].devices, tiers[t].optics, tiers[t].total());
    first = false;
  }
  json->write("\n  },\n  \"by_building\": [");
  for (size_t b = 0; b < buildings.size(); ++b)
    json->print("{}\n    {{\"building\": {}, \"devices_w\": {:.1f}, \"optics_w\": {:.1f}, \"total_w\": {:.1f}}}", b ? "," : "",
                jsonString(F.strings.str(F.buildings[b].name)), buildings[b].devices, buildings[b].optics,
                buildings[b].total());
  json->print("{}],\n  \"unplaced_w\": {:.1f},\n", buildings.empty() ? "" : "\n  ", unplaced.total());
  auto whatIf = [&](const char *name, const WhatIf &w) {
    double saved = w.before - w.after;
    json->print("    \"{}\": {{\"applies\": {}, \"switch_cages\": {}, \"switch_ports\": {}, \"optics_before_w\": {:.1f}, "
                "\"optics_after_w\": {:.1f}, \"saved_w\": {:.1f}, \"saved_percent_of_interconnect\": {:.2f}, "
                "\"saved_percent_of_it\": {:.2f}, \"transceivers_{}\": {}, ",
                name, w.applies ? "true" : "false", w.cages, w.ports, w.before, w.after, saved,
                interconnect > 0 ? 100 * saved / interconnect : 0.0, it > 0 ? 100 * saved / it : 0.0,
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
  whatIf("all_cpo", toCpo);
  json->write(",\n");
  whatIf("all_pluggable", toPluggable);
  json->write("\n  },\n  \"estimated_figures\": [");
  first = true;
  for (const auto &e : estimates) {
    const ir::Model &m = F.models[e.first];
    const ir::Figure &f = e.second == "latency" ? m.latency : m.power;
    json->print("{}\n    {{\"model\": {}, \"property\": \"{}\", \"value\": {:g}, \"note\": {}}}", first ? "" : ",",
                jsonString(F.strings.str(m.name)), e.second, f.value,
                jsonString(f.known ? F.strings.str(f.source) : "no figure in the catalog: counted as 0"));
    first = false;
  }
  json->print("{}]\n}}\n", estimates.empty() ? "" : "\n  ");

  csv->write("rack,building,hall,row,rack_position,devices_w,optics_w,total_w\n");
  for (size_t r = 0; r < F.racks.size(); ++r) {
    const ir::Rack &rk = F.racks[r];
    const ir::Hall &h = F.halls[rk.hall];
    csv->print("{},{},{},{},{},{:.1f},{:.1f},{:.1f}\n", csvField(F.rackName(uint32_t(r))),
               csvField(F.strings.str(F.buildings[h.building].name)), csvField(F.strings.str(h.name)), rk.row, rk.pos,
               racks[r].devices, racks[r].optics, racks[r].total());
  }
  return true;
}

} // namespace fabc
