// Expected failures per year (analysis/Reliability.h). One pass over the devices, one
// over the links, one over the switch cages for the what-if: linear in links.
#include "analysis/Reliability.h"
#include "ir/CpoModels.h"

#include "analysis/Energy.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <map>

namespace fabc {
using ir::None;

const char *failCategoryKey(FailCategory c) {
  static const char *keys[] = {"switches", "nics", "transceivers", "cables", "cpo_engines", "lasers"};
  return keys[size_t(c)];
}
const char *failCategoryLabel(FailCategory c) {
  static const char *labels[] = {"Switches", "NICs", "Transceivers", "Cables", "CPO engines", "CPO lasers"};
  return labels[size_t(c)];
}

namespace {

// One failing kind of part, `units` of it on a device: its rate, and what each failure
// costs (a touch; `links` links down while it is out).
struct Charge {
  FailCategory cat;
  const ir::Figure *rate; // per unit-year; unknown: counted as 0
  double units;
  double links; // links down per failure
  uint32_t model;
  uint8_t which; // Counter::Figure
  bool isPart = true; // false: a route cut, whose cables are counted as parts already
};

class Counter {
public:
  Counter(const ir::Fabric &F, ReliabilityModel &R, bool countsOnly) : F_(F), R_(R), countsOnly_(countsOnly) {}
  void charge(uint32_t dev, const Charge &c) {
    if (countsOnly_) {
      countParts(R_.all, c);
      noteUnrated(c);
      return;
    }
    double f = c.rate->known ? c.rate->value * c.units : 0;
    unsigned t = ir::tierIndex(F_.devTier[dev]);
    add(R_.all, c, f);
    if (c.rate->known) {
      R_.all.lo += c.rate->lo() * c.units;
      R_.all.hi += c.rate->hi() * c.units;
    }
    add(R_.tiers[t < ReliabilityModel::Untiered ? t : ReliabilityModel::Untiered], c, f);
    uint32_t b = F_.buildingOf(dev);
    add(b == None ? R_.unplaced : R_.buildings[b], c, f);
    noteUnrated(c);
  }
  void noteUnrated(const Charge &c) {
    if (!c.rate->known && c.isPart) {
      if (unrated_.empty())
        unrated_.assign(F_.models.size() * 3, {});
      auto &u = unrated_[c.model * 3 + (c.which == Afr ? 0 : c.which == NicAfr ? 1 : 2)];
      u.first = c.cat;
      u.second += uint64_t(c.units + 0.5);
    }
  }
  // The models counted without a rate, in model order (after every charge).
  void collectUnrated() {
    static const char *props[] = {"afr", "nic_afr", "laser_afr"};
    for (size_t i = 0; i < unrated_.size(); ++i)
      if (unrated_[i].second)
        R_.unratedModels.push_back({uint32_t(i / 3), unrated_[i].first, props[i % 3], unrated_[i].second});
  }
  // A model's rate, noted when it is an estimate or missing. Called per device and link
  // end: a flag per (model, figure) keeps it to one set insertion each (the set's string
  // key, built per call, was a third of the model's time).
  enum Figure : uint8_t { Afr = 1, NicAfr = 2, LaserAfr = 4, AfrPerKm = 8 };
  const ir::Figure &rate(uint32_t model, const ir::Figure &f, Figure which) {
    if (noted_.empty())
      noted_.assign(F_.models.size(), 0);
    if (noted_[model] & which)
      return f;
    noted_[model] |= which;
    const char *name = which == Afr ? "afr" : which == NicAfr ? "nic_afr" : which == LaserAfr ? "laser_afr" : "afr_per_km";
    if (f.estimate || !f.known)
      R_.estimates.insert({model, name});
    if (f.known && f.estimate && !f.bounded)
      R_.unbounded.insert(fmt::format("{}'s {}", F_.strings.str(F_.models[model].name), name));
    return f;
  }

private:
  static void countParts(FailureBucket &b, const Charge &c) {
    if (c.isPart) {
      b.parts[size_t(c.cat)] += uint64_t(c.units + 0.5);
      if (!c.rate->known)
        b.unrated[size_t(c.cat)] += uint64_t(c.units + 0.5);
    }
  }
  static void add(FailureBucket &b, const Charge &c, double f) {
    b.failures[size_t(c.cat)] += f;
    countParts(b, c);
    b.touches += f;
    b.linksDown += f * c.links;
  }
  const ir::Fabric &F_;
  ReliabilityModel &R_;
  bool countsOnly_;
  std::vector<uint8_t> noted_; // rate()'s: Figure flags per model
  std::vector<std::pair<FailCategory, uint64_t>> unrated_; // per model x figure: units without a rate
};

// Links a failure takes down: a CPO engine's own port (the switch goes on forwarding on
// its other ports; the swap that repairs it is planned and drained, a touch, not an
// outage: docs/decisions/0054-expected-failures-per-year.md). A laser: the ports it feeds.
double portsPerLaser(const ir::Model &e) { return e.lasers.known && e.lasers.value > 0 ? std::max(1.0, 1 / e.lasers.value) : 1; }

// Fibre routes between buildings (decision 0501): the links whose length crosses a span,
// grouped by their two buildings; each route is cut at its cable's afr_per_km times its
// length, once for all of its links. Charged to the upper end of its first link, as a
// cable is. Linear in links, plus the spans per route.
void chargeRoutes(const ir::Fabric &F, Counter &C, ReliabilityModel &R) {
  std::map<std::pair<uint32_t, uint32_t>, std::pair<FibreRoute, uint32_t>> byPair; // route, its first link
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    if (!(F.linkFlags[l] & ir::LinkInterBuilding))
      continue;
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    uint32_t ba = F.buildingOf(a), bb = F.buildingOf(b);
    if (ba == None || bb == None)
      continue;
    if (bb < ba)
      std::swap(ba, bb);
    auto [it, fresh] = byPair.try_emplace({ba, bb});
    FibreRoute &r = it->second.first;
    if (fresh) {
      r.a = ba;
      r.b = bb;
      r.km = F.routeBetween(r.a, r.b) / 1000;
      r.cable = F.linkCable[l];
      it->second.second = l;
    }
    ++r.links;
    uint32_t c = F.linkCable[l];
    if (c != None && F.models[c].afrPerKm.known &&
        (r.model == None || F.models[c].afrPerKm.value > F.models[r.model].afrPerKm.value))
      r.model = c;
  }
  for (auto &[key, entry] : byPair) {
    FibreRoute &r = entry.first;
    if (r.model != None && r.km > 0) {
      const ir::Figure &rate = C.rate(r.model, F.models[r.model].afrPerKm, Counter::AfrPerKm);
      r.cuts = rate.value * r.km;
      r.lo = rate.lo() * r.km;
      r.hi = rate.hi() * r.km;
      uint32_t l = entry.second, a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
      uint32_t upper = F.devTier[b] > F.devTier[a] && F.devTier[b] != ir::Tier::Unknown ? b : a;
      C.charge(upper, {FailCategory::Cables, &rate, r.km, double(r.links), r.model, Counter::AfrPerKm, false});
    }
    R.routes.push_back(r);
  }
}

} // namespace

ReliabilityModel computeReliability(const ir::Fabric &F, bool countsOnly) {
  ReliabilityModel R;
  R.buildings.resize(F.buildings.size());
  Counter C(F, R, countsOnly);
  size_t nd = F.numDevices();
  std::vector<uint32_t> linked(nd, 0); // links down with a device: the sums only
  for (size_t l = 0; !countsOnly && l < F.numLinks(); ++l) {
    ++linked[F.portDevice[F.linkA[l]]];
    ++linked[F.portDevice[F.linkB[l]]];
  }
  for (uint32_t d = 0; d < nd; ++d) {
    const ir::Model &m = F.modelOf(d);
    uint32_t mi = F.devModel[d];
    if (m.kind == ir::ModelKind::Switch || m.kind == ir::ModelKind::NvSwitch) {
      const ir::Figure &f = C.rate(mi, m.afr, Counter::Afr);
      C.charge(d, {FailCategory::Switches, &f, 1, double(linked[d]), mi, Counter::Afr});
    } else if (m.kind == ir::ModelKind::Nic) {
      const ir::Figure &f = C.rate(mi, m.afr, Counter::Afr);
      C.charge(d, {FailCategory::Nics, &f, 1, double(linked[d]), mi, Counter::Afr});
    } else if (m.kind == ir::ModelKind::System && m.gpus && F.devRole[d] == ir::Role::Compute && !m.ports.empty()) {
      const ir::Figure &f = C.rate(mi, m.nicAfr, Counter::NicAfr);
      // One NIC per GPU: ports_per_gpu ports go down with it.
      uint32_t per = std::max<uint32_t>(1, m.portsPerGpu);
      C.charge(d, {FailCategory::Nics, &f, double(m.ports[0].count / per), double(per), mi, Counter::NicAfr});
    }
  }
  CpoEngineCache engineFor(F);
  const ir::CpoPorts isCpo(F);
  // Counting alone: each transceiver and cable model's units summed over the links, then
  // charged once per model (every unit is whole, so the counts are the same).
  std::vector<uint64_t> xcvrUnits(countsOnly ? F.models.size() : 0), cableUnits(xcvrUnits.size());
  for (size_t l = 0; l < F.numLinks(); ++l) {
    for (int side = 0; side < 2; ++side) {
      // The device only where the sums need it: counting alone (countsOnly) reads the
      // link's own arrays, in order, and no port's device.
      const uint32_t port = side ? F.linkB[l] : F.linkA[l];
      auto dev = [&] { return countsOnly ? None : F.portDevice[port]; };
      if (isCpo(port)) {
        uint32_t e = engineFor(F.portSpeed(port));
        if (e == None)
          continue;
        const ir::Model &em = F.models[e];
        const ir::Figure &f = C.rate(e, em.afr, Counter::Afr);
        C.charge(dev(), {FailCategory::CpoEngines, &f, 1, 1, e, Counter::Afr});
        const ir::Figure &lf = C.rate(e, em.laserAfr, Counter::LaserAfr);
        C.charge(dev(), {FailCategory::Lasers, &lf, em.lasers.value, portsPerLaser(em), e, Counter::LaserAfr});
        continue;
      }
      uint8_t n = side ? F.linkXcvrB[l] : F.linkXcvrA[l];
      uint32_t o = side ? F.linkOpticB[l] : F.linkOpticA[l];
      if (!n || o == None)
        continue;
      if (countsOnly) {
        xcvrUnits[o] += n;
        continue;
      }
      const ir::Model &om = F.models[o];
      const ir::Figure &f = C.rate(o, om.afr, Counter::Afr);
      C.charge(dev(), {FailCategory::Transceivers, &f, double(n), double(om.portsPerUnit), o, Counter::Afr});
    }
    uint32_t c = F.linkCable[l];
    if (c != None && F.linkCableUnits[l]) {
      if (countsOnly) {
        cableUnits[c] += F.linkCableUnits[l];
        continue;
      }
      uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
      uint32_t upper = F.devTier[b] > F.devTier[a] && F.devTier[b] != ir::Tier::Unknown ? b : a;
      const ir::Model &cm = F.models[c];
      const ir::Figure &f = C.rate(c, cm.afr, Counter::Afr);
      C.charge(upper, {FailCategory::Cables, &f, double(F.linkCableUnits[l]),
                       double(std::max(cm.portsPerUnit, cm.legs)), c, Counter::Afr});
    }
  }
  for (uint32_t m = 0; m < xcvrUnits.size(); ++m) { // counting alone: once per model
    const ir::Model &mm = F.models[m];
    if (xcvrUnits[m])
      C.charge(None, {FailCategory::Transceivers, &C.rate(m, mm.afr, Counter::Afr), double(xcvrUnits[m]), 0, m,
                      Counter::Afr});
    if (cableUnits[m])
      C.charge(None, {FailCategory::Cables, &C.rate(m, mm.afr, Counter::Afr), double(cableUnits[m]), 0, m,
                      Counter::Afr});
  }

  chargeRoutes(F, C, R);
  C.collectUnrated();
  if (countsOnly)
    return R;

  // The what-if: every switch cage with optics, pluggable one way and CPO the other.
  FailureWhatIf &w = R.cpo;
  double current = 0; // failures per year of the switch-side optics as designed
  for (uint32_t d = 0; d < nd; ++d) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::Switch)
      continue;
    F.forEachCage(d, [&](uint32_t g, const ir::GroupLayout &gl, uint32_t first) {
      bool cpo = m.ports[g].cpo;
      auto [used, optic] = cageUse(F, first, gl.portsPerCage);
      if (!used || (!cpo && optic == None))
        return; // unused, or copper: no optics either way
      w.applies = true;
      uint32_t engine = engineFor(gl.speed);
      uint32_t plug = cpo ? pluggableFor(F, gl.speed, gl.portsPerCage, engine) : optic;
      if (engine == None || plug == None) {
        w.missing.insert(formatQuantity(gl.speed, dims::Bandwidth) + (engine == None ? " CPO engine" : " single-mode transceiver"));
        return;
      }
      const ir::Model &e = F.models[engine], &p = F.models[plug];
      if (!e.afr.known || !e.laserAfr.known || !p.afr.known) {
        w.missing.insert(std::string(F.strings.str(!p.afr.known ? p.name : e.name)) + " failure rate");
        return;
      }
      w.estimate |= e.afr.estimate || e.laserAfr.estimate || p.afr.estimate;
      double pf = p.afr.value, ef = e.afr.value * used, lf = e.laserAfr.value * e.lasers.value * used;
      current += cpo ? ef + lf : pf;
      w.pluggable += pf;
      w.pluggableTouches += pf;
      w.pluggableLinksDown += pf * used;
      w.cpo += ef + lf;
      w.cpoTouches += ef + lf;
      w.cpoLinksDown += ef + lf * portsPerLaser(e);
    });
  }
  w.estimate |= !w.missing.empty();
  w.pluggableTotal = R.all.total() - current + w.pluggable;
  w.cpoTotal = R.all.total() - current + w.cpo;
  return R;
}

Coverage ReliabilityModel::coverage() const {
  Coverage c;
  for (size_t i = 0; i < size_t(FailCategory::Count); ++i) {
    uint64_t n = all.parts[i], u = all.unrated[i];
    c.parts += n;
    c.counted += n - u;
    std::string label = failCategoryLabel(FailCategory(i)); // "Switches", "NICs", "CPO engines"
    if (label.rfind("CPO", 0) != 0 && label != "NICs")
      label[0] = char(std::tolower(static_cast<unsigned char>(label[0])));
    if (n > u)
      c.covers.push_back({u ? fmt::format("{} of {} {}", formatCount(n - u), formatCount(n), label) : label, n - u});
    if (u) {
      Coverage::Left l{label, failCategoryKey(FailCategory(i)), u, {}};
      for (const UnratedModel &m : unratedModels)
        if (size_t(m.cat) == i && (l.models.empty() || l.models.back() != m.model))
          l.models.push_back(m.model);
      c.notCounted.push_back(std::move(l));
    }
  }
  // Fibre routes between buildings (decision 0501): a route is a failing unit of its own.
  uint64_t routesAll = 0, routesRated = 0;
  Coverage::Left lr{"fibre routes", "fibre_routes", 0, {}};
  for (const FibreRoute &r : routes) {
    if (r.km <= 0)
      continue; // no span: FAB-E0052
    ++routesAll;
    if (r.model != ir::None) {
      ++routesRated;
    } else if (r.cable != ir::None && std::find(lr.models.begin(), lr.models.end(), r.cable) == lr.models.end()) {
      lr.models.push_back(r.cable);
    }
  }
  c.parts += routesAll;
  c.counted += routesRated;
  if (routesRated)
    c.covers.push_back({routesRated < routesAll ? fmt::format("{} of {} fibre routes", formatCount(routesRated),
                                                              formatCount(routesAll))
                                                : std::string("fibre routes"),
                        routesRated});
  if ((lr.parts = routesAll - routesRated)) {
    std::sort(lr.models.begin(), lr.models.end());
    c.notCounted.push_back(std::move(lr));
  }
  return c;
}

ReliabilityFigures reliabilityFigures(const ir::Fabric &F, const ReliabilityModel &R) {
  ReliabilityFigures r;
  const ir::ResilienceStats &S = F.metrics.resilience;
  r.failuresPerYear = R.all.total();
  r.touchesPerYear = R.all.touches;
  r.linksDownPerYear = R.all.linksDown;
  r.costliestShare = F.metrics.bisection > 0 && S.worstSwitch != None ? S.worstSwitchBisection / F.metrics.bisection : 1;
  r.singlePoints = S.singlePointCount;
  r.islands = S.reach.islands;
  r.railOnly = S.reach.railOnly;
  r.estimate = R.usesEstimates();
  for (uint64_t u : R.all.unrated)
    r.unrated += u;
  return r;
}

} // namespace fabc
