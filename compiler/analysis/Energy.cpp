// The energy budget: computed once per compilation (Analyses::energy()), read by the
// energy backend and the report.
#include "analysis/Energy.h"
#include "ir/CpoModels.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <fmt/format.h>
#include <map>

namespace fabc {
using ir::None;

// The CPO optical engine for a port speed, None if the catalog has none.
CageUse cageUse(const ir::Fabric &F, uint32_t first, uint32_t portsPerCage) {
  CageUse u;
  for (uint32_t k = 0; k < portsPerCage; ++k) {
    uint32_t port = first + k, l = F.portLink[port];
    if (l == ir::None)
      continue;
    ++u.used;
    bool isA = F.linkA[l] == port;
    if ((isA ? F.linkXcvrA[l] : F.linkXcvrB[l]) && u.optic == ir::None)
      u.optic = isA ? F.linkOpticA[l] : F.linkOpticB[l];
  }
  return u;
}

uint32_t cpoEngine(const ir::Fabric &F, double speed) {
  for (uint32_t i = 0; i < F.models.size(); ++i)
    if (F.models[i].kind == ir::ModelKind::Optic && F.models[i].cpoEngine && F.models[i].speed == speed)
      return i;
  return None;
}

// A pluggable single-mode transceiver for a cage, for the CPO-to-pluggable what-if: one
// that speaks the engine's interface (the same lanes) where the catalog says, else any;
// the shortest reach among them.
uint32_t pluggableFor(const ir::Fabric &F, double speed, uint32_t cagePorts, uint32_t engine) {
  uint32_t want = engine == None ? 0 : F.models[engine].interface;
  uint32_t best = None;
  bool bestMatches = false;
  for (uint32_t i = 0; i < F.models.size(); ++i) {
    const ir::Model &m = F.models[i];
    if (!(m.kind == ir::ModelKind::Optic && !m.cpoEngine && m.media == ir::Media::SMF && m.speed == speed &&
          m.portsPerUnit == cagePorts))
      continue;
    bool matches = want && m.interface == want;
    if (best == None || (matches && !bestMatches) ||
        (matches == bestMatches && m.reach.value < F.models[best].reach.value)) {
      best = i;
      bestMatches = matches;
    }
  }
  return best;
}

namespace {
// Notes model `m`'s power figure when it is an estimate or missing. Called per device,
// cage and link end: `noted` (a flag per model) keeps it to one set insertion per model
// (the set's string key, built per call, was a third of the energy model's time).
// The CPO comparison's range rests on each part's power and lasers: an estimate without
// bounds is taken as exact there, and named.
void noteUnbounded(const ir::Fabric &F, uint32_t m, std::vector<uint8_t> &noted, std::set<std::string> &out) {
  if (noted[m])
    return;
  noted[m] = 1;
  const ir::Model &x = F.models[m];
  for (auto [f, what] : {std::pair(&x.power, "power"), std::pair(&x.lasers, "lasers")})
    if (f->known && f->estimate && !f->bounded)
      out.insert(fmt::format("{}'s {}", F.strings.str(x.name), what));
}

void collectEstimate(const ir::Fabric &F, uint32_t m, std::vector<uint8_t> &noted,
                     std::set<std::pair<uint32_t, std::string>> &out) {
  if (m == None || noted[m])
    return;
  noted[m] = 1;
  const ir::Figure &f = F.models[m].power;
  if (f.estimate || !f.known)
    out.insert({m, "power"});
}

PowerCategory categoryOf(const ir::Fabric &F, uint32_t d) {
  switch (F.modelOf(d).kind) {
  case ir::ModelKind::Switch: return PowerCategory::Switches;
  case ir::ModelKind::Nic: return PowerCategory::Nics;
  case ir::ModelKind::NvSwitch: return PowerCategory::NvlinkSwitches;
  default: return F.devRole[d] == ir::Role::Compute ? PowerCategory::GpuSystems : PowerCategory::ManagementSystems;
  }
}

void add(PowerBucket &b, PowerCategory c, double device, double optics, bool deviceEst, bool opticsEst) {
  b.byCategory[size_t(c)] += device;
  b.byCategory[size_t(PowerCategory::Optics)] += optics;
  b.estimated[size_t(c)] |= deviceEst;
  b.estimated[size_t(PowerCategory::Optics)] |= opticsEst;
  b.devices += device;
  b.optics += optics;
}

} // namespace

const char *powerCategoryKey(PowerCategory c) {
  static const char *keys[] = {"gpu_systems", "management_systems", "switches", "nvlink_switches", "nics", "optics"};
  return keys[size_t(c)];
}
const char *powerCategoryLabel(PowerCategory c) {
  static const char *labels[] = {"GPU systems", "Other systems", "Switches", "NVLink switches", "NICs", "Optics"};
  return labels[size_t(c)];
}

const ir::Figure &estimatedFigure(const ir::Fabric &F, const std::pair<uint32_t, std::string> &e) {
  const ir::Model &m = F.models[e.first];
  return e.second == "latency" ? m.latency : m.power;
}

namespace {
// The parts summed into the IT power, and those without a power figure, per category
// and model (EnergyModel::coverage).
class PowerTally {
public:
  explicit PowerTally(const ir::Fabric &F) : F_(F), missing_(F.models.size() + 1, 0) {}
  void add(PowerCategory c, uint32_t model, uint64_t units) {
    parts_[size_t(c)] += units;
    bool known = model != None && F_.models[model].power.known;
    if (known)
      return;
    unknown_[size_t(c)] += units;
    uint8_t &m = missing_[model == None ? F_.models.size() : model];
    m |= uint8_t(1u << unsigned(c));
  }
  Coverage finish() const {
    Coverage cov;
    for (size_t c = 0; c < size_t(PowerCategory::Count); ++c) {
      uint64_t n = parts_[c], u = unknown_[c];
      cov.parts += n;
      cov.counted += n - u;
      // As a count of parts: "optical modules" (transceivers and CPO engines).
      std::string label = PowerCategory(c) == PowerCategory::Optics ? "optical modules" : powerCategoryLabel(PowerCategory(c));
      if (label != "GPU systems" && label != "NVLink switches" && label != "NICs")
        label[0] = char(std::tolower(label[0]));
      if (n > u)
        cov.covers.push_back({u ? fmt::format("{} of {} {}", formatCount(n - u), formatCount(n), label) : label, n - u});
      if (!u)
        continue;
      Coverage::Left l{label, powerCategoryKey(PowerCategory(c)), u, {}};
      for (uint32_t m = 0; m < F_.models.size(); ++m)
        if (missing_[m] & (1u << c))
          l.models.push_back(m);
      cov.notCounted.push_back(std::move(l));
    }
    return cov;
  }

private:
  const ir::Fabric &F_;
  uint64_t parts_[size_t(PowerCategory::Count)] = {}, unknown_[size_t(PowerCategory::Count)] = {};
  std::vector<uint8_t> missing_; // per model (+1: a CPO port without a catalog engine): category bits
};
} // namespace

RepeatUnit repeatUnit(const ir::Fabric &F) {
  const ir::Metrics &M = F.metrics;
  RepeatUnit u;
  if (M.podKind != ir::GroupKind::Other && M.pods) {
    u.name = ir::groupKindName(M.podKind);
    u.count = M.pods;
  } else {
    u.name = "GPU system";
    u.count = M.systems;
  }
  u.gpus = u.count ? double(M.gpus) / double(u.count) : 0.0;
  return u;
}

uint64_t unitsThatFit(const RepeatUnit &u, double budget, double facility) {
  if (!u.count || facility <= 0)
    return 0;
  double perUnit = facility / double(u.count);
  return uint64_t(std::floor(budget / perUnit * (1 + 1e-12))); // a hair of tolerance
}

double itPower(const ir::Fabric &F) {
  double it = 0;
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    it += double(F.devPower[d]) + double(F.devOpticPower[d]);
  return it;
}

double siteBudget(const ir::Fabric &F) {
  double b = 0;
  for (const ir::Policy &p : F.policies)
    if (p.kind == ir::PolicyKind::Power && p.per == None && F.strings.str(p.scope) == "site" && (!b || p.max < b))
      b = p.max;
  return b;
}

SitePower sitePower(const ir::Fabric &F) {
  SitePower S;
  S.it.assign(F.sites.size(), 0);
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    double p = double(F.devPower[d]) + double(F.devOpticPower[d]);
    uint32_t b = F.buildingOf(d), site = b == None ? None : F.buildings[b].site;
    if (site == None) {
      S.unsited += p;
      ++S.unsitedDevices;
    } else {
      S.it[site] += p;
    }
  }
  return S;
}

namespace {
// Whole units that fit in `budget` when `facility` W serves `E.unit.count` of them.
SiteEnvelope::Build fit(const SiteEnvelope &E, double facility, bool complete) {
  SiteEnvelope::Build b;
  b.facility = facility;
  b.complete = complete;
  b.units = unitsThatFit(E.unit, E.budget, facility);
  b.gpus = uint64_t(std::llround(double(b.units) * E.unit.gpus));
  return b;
}

void computeSite(const ir::Fabric &F, EnergyModel &E) {
  SiteEnvelope &S = E.site;
  S.budget = siteBudget(F);
  S.unit = repeatUnit(F);
  if (S.budget <= 0 || !S.unit.count || E.it <= 0)
    return;
  S.applies = true;
  // All pluggable undoes the CPO ports, all CPO converts the pluggable cages (as CpoSavings).
  S.asBuilt = fit(S, E.facility(), true);
  S.pluggable = fit(S, (E.it - E.toPluggable.saved()) * E.pue, E.toPluggable.missing.empty());
  S.cpo = fit(S, (E.it - E.toCpo.saved()) * E.pue, E.toCpo.missing.empty());
  S.pue = E.pue;
  // At the comparison's bounds: each build's switch-port optics replaced by their bound.
  const CpoSavings &c = E.cpo;
  if ((S.ranged = c.applies && c.ports)) {
    double plugIt = E.it - E.toPluggable.saved() - c.plug, cpoIt = E.it - E.toCpo.saved() - c.cpo;
    auto at = [&](double plugW, double cpoW) {
      return SiteEnvelope::Case{fit(S, (plugIt + plugW) * E.pue, S.pluggable.complete),
                                fit(S, (cpoIt + cpoW) * E.pue, S.cpo.complete)};
    };
    S.leastSaving = at(c.plugW.lo, c.cpoW.hi);
    S.mostSaving = at(c.plugW.hi, c.cpoW.lo);
  }
  if ((S.perSite = budgetsPerSite(F)))
    S.sites = sitePower(F);
}
} // namespace

EnergyModel computeEnergy(const ir::Fabric &F) {
  EnergyModel E;
  PowerTally tally(F);
  E.racks.resize(F.racks.size());
  E.buildings.resize(F.buildings.size());
  // Devices whose cages hold a transceiver, or whose CPO ports an optical engine (the
  // power pass counts both), with an estimated or missing power figure.
  std::vector<uint8_t> opticEst(F.numDevices(), 0);
  std::vector<uint8_t> noted(F.models.size(), 0); // collectEstimate's: models already looked at
  std::map<double, uint32_t> portEngines;
  const ir::CpoPorts isCpo(F);
  for (size_t l = 0; l < F.numLinks(); ++l)
    for (int side = 0; side < 2; ++side) {
      uint32_t port = side ? F.linkB[l] : F.linkA[l], dev = F.portDevice[port];
      uint32_t o = side ? F.linkOpticB[l] : F.linkOpticA[l];
      if (isCpo(port)) {
        double speed = F.portSpeed(port);
        auto it = portEngines.find(speed);
        if (it == portEngines.end())
          it = portEngines.emplace(speed, cpoEngine(F, speed)).first;
        o = it->second;
        tally.add(PowerCategory::Optics, o, 1);
      } else if (uint8_t x = side ? F.linkXcvrB[l] : F.linkXcvrA[l]) {
        tally.add(PowerCategory::Optics, o, x);
      } else {
        continue;
      }
      if (o != None && (F.models[o].power.estimate || !F.models[o].power.known))
        opticEst[dev] = 1;
    }
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    double p = F.devPower[d], o = F.devOpticPower[d];
    PowerCategory c = categoryOf(F, d);
    const ir::Figure &pf = F.modelOf(d).power;
    bool pe = pf.estimate || !pf.known, oe = opticEst[d];
    collectEstimate(F, F.devModel[d], noted, E.estimates);
    tally.add(c, F.devModel[d], 1);
    unsigned t = ir::tierIndex(F.devTier[d]);
    add(E.tiers[t < EnergyModel::Untiered ? t : EnergyModel::Untiered], c, p, o, pe, oe);
    add(E.all, c, p, o, pe, oe);
    if (F.devRack[d] == None) {
      add(E.unplaced, c, p, o, pe, oe);
    } else {
      add(E.racks[F.devRack[d]], c, p, o, pe, oe);
      add(E.buildings[F.buildingOf(d)], c, p, o, pe, oe);
    }
  }
  // What-ifs, per switch cage: pluggable -> CPO, and CPO -> pluggable.
  CpoEngineCache engineFor(F);
  std::vector<uint8_t> boundsNoted(F.models.size(), 0); // noteUnbounded's: models already looked at
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::Switch)
      continue;
    F.forEachCage(d, [&](uint32_t g, const ir::GroupLayout &gl, uint32_t first) {
      bool cpo = m.ports[g].cpo;
      auto [used, optic] = cageUse(F, first, gl.portsPerCage);
      if (!used)
        return;
      uint32_t engine = engineFor(gl.speed);
      WhatIf &w = cpo ? E.toPluggable : E.toCpo;
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
      collectEstimate(F, engine, noted, E.estimates);
      noteUnbounded(F, engine, boundsNoted, E.cpo.unbounded);
      uint32_t p = optic;
      if (cpo && (p = pluggableFor(F, gl.speed, gl.portsPerCage, engine)) == None) {
        w.missing.insert(formatQuantity(gl.speed, dims::Bandwidth) + " single-mode transceiver");
        return;
      }
      const ir::Model &o = F.models[p];
      w.bandwidth += used * gl.speed;
      ++w.cages;
      w.ports += used;
      // Pluggable to CPO: the transceiver before, the engines after; CPO to pluggable the
      // other way round.
      (cpo ? w.after : w.before) += o.power.value;
      (cpo ? w.before : w.after) += enginePower;
      (cpo ? w.afterW : w.beforeW).add(o.power, 1);
      (cpo ? w.beforeW : w.afterW).add(e.power, used);
      (cpo ? w.lasersAfter : w.lasersBefore) += uint64_t(o.lasers.value);
      (cpo ? w.lasersBefore : w.lasersAfter) += engineLasers;
      (cpo ? w.lasersAfterN : w.lasersBeforeN).add(o.lasers, 1);
      (cpo ? w.lasersBeforeN : w.lasersAfterN).add(e.lasers, used);
      w.lasersKnown &= o.lasers.known;
      w.estimate |= o.power.estimate || !o.power.known;
      if (cpo)
        collectEstimate(F, p, noted, E.estimates);
      noteUnbounded(F, p, boundsNoted, E.cpo.unbounded);
    });
  }
  for (size_t l = 0; l < F.numLinks(); ++l) {
    if (F.linkXcvrA[l])
      collectEstimate(F, F.linkOpticA[l], noted, E.estimates);
    if (F.linkXcvrB[l])
      collectEstimate(F, F.linkOpticB[l], noted, E.estimates);
  }
  for (const PowerBucket &b : E.tiers)
    E.it += b.total();
  E.interconnect = E.all[PowerCategory::Switches] + E.all[PowerCategory::Optics] + E.all[PowerCategory::Nics] +
                   E.all[PowerCategory::NvlinkSwitches];
  E.pue = F.options.pue;
  E.coverage = tally.finish();
  // All pluggable vs all CPO: undo the CPO ports (toPluggable) for the one, convert the
  // pluggable cages (toCpo) for the other.
  CpoSavings &c = E.cpo;
  c.applies = E.toCpo.applies || E.toPluggable.applies;
  double optics = E.all[PowerCategory::Optics];
  c.pluggableOptics = optics - E.toPluggable.saved();
  c.cpoOptics = optics - E.toCpo.saved();
  c.pluggableInterconnect = E.interconnect - E.toPluggable.saved();
  // At equal bandwidth: each optical switch port built both ways. The pluggable cages
  // (toCpo) are pluggable before, the CPO ports (toPluggable) are pluggable after.
  const WhatIf &a = E.toCpo, &b = E.toPluggable;
  c.plug = a.before + b.after;
  c.cpo = a.after + b.before;
  c.plugW = {a.beforeW.lo + b.afterW.lo, a.beforeW.hi + b.afterW.hi};
  c.cpoW = {a.afterW.lo + b.beforeW.lo, a.afterW.hi + b.beforeW.hi};
  c.plugLasers = {a.lasersBeforeN.lo + b.lasersAfterN.lo, a.lasersBeforeN.hi + b.lasersAfterN.hi};
  c.cpoLasers = {a.lasersAfterN.lo + b.lasersBeforeN.lo, a.lasersAfterN.hi + b.lasersBeforeN.hi};
  c.bandwidth = a.bandwidth + b.bandwidth;
  c.ports = a.ports + b.ports;
  c.transceiversRemoved = a.cages + b.cages;
  c.lasersKnown = (a.lasersKnown || !a.cages) && (b.lasersKnown || !b.cages) && c.transceiversRemoved;
  c.lasersRemoved = (a.lasersBefore + b.lasersAfter) - std::min(a.lasersBefore + b.lasersAfter, a.lasersAfter + b.lasersBefore);
  c.estimate = E.toCpo.estimate || E.toPluggable.estimate || !E.toCpo.missing.empty() || !E.toPluggable.missing.empty() ||
               E.all.estimate(PowerCategory::Optics);
  computeSite(F, E);
  return E;
}

} // namespace fabc
