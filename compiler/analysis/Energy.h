#pragma once
// The energy budget, an analysis computed once from the IR (Analyses::energy()): power
// per tier, per building and rack, by category, and the pluggable-vs-CPO what-ifs. The
// energy backend writes it, the report draws it: both read this one result, so their
// figures cannot disagree.
#include "analysis/Coverage.h"
#include "ir/Fabric.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace fabc {

enum class PowerCategory : uint8_t { GpuSystems, ManagementSystems, Switches, NvlinkSwitches, Nics, Optics, Count };
// JSON key ("gpu_systems", ...) and label ("GPU systems", ...).
const char *powerCategoryKey(PowerCategory c);
const char *powerCategoryLabel(PowerCategory c);

struct PowerBucket {
  double byCategory[size_t(PowerCategory::Count)] = {};
  bool estimated[size_t(PowerCategory::Count)] = {}; // a figure behind the category is an estimate or missing
  double devices = 0, optics = 0; // W; optics: transceivers in the devices' cages
  double total() const { return devices + optics; }
  double operator[](PowerCategory c) const { return byCategory[size_t(c)]; }
  bool estimate(PowerCategory c) const { return estimated[size_t(c)]; }
  bool anyEstimate() const {
    for (bool e : estimated)
      if (e)
        return true;
    return false;
  }
};

// A figure summed over parts at the parts' catalog bounds (ir::Figure::lo/hi). All units
// of a model move together (the uncertainty is the model's figure, not each unit's), so
// the bounds of a sum are the sums of the bounds.
struct Bounds {
  double lo = 0, hi = 0;
  void add(const ir::Figure &f, double n) {
    lo += f.lo() * n;
    hi += f.hi() * n;
  }
};

struct WhatIf {
  bool applies = false;
  uint64_t cages = 0, ports = 0, lasersBefore = 0, lasersAfter = 0;
  double before = 0, after = 0; // W of switch-side optics
  Bounds beforeW, afterW, lasersBeforeN, lasersAfterN; // the same at the figures' bounds
  double bandwidth = 0;          // b/s of the ports converted
  bool lasersKnown = true, estimate = false;
  std::set<std::string> missing; // speeds without a catalog part
  double saved() const { return before - after; }
};

// The design built all pluggable against all CPO (every switch port), from the two
// what-ifs: what CPO saves, as a share of the pluggable build's optics power (every
// transceiver and engine, systems' included) and of its interconnect power, the two
// bases a reader compares with vendor claims (30-50% of optics) and with the budget.
struct CpoSavings {
  bool applies = false;  // some switch port has optics (pluggable or CPO)
  bool estimate = false; // rests on an estimate, or a part is missing from the catalog
  double pluggableOptics = 0, cpoOptics = 0; // W, all optics of each build
  double pluggableInterconnect = 0;          // W
  double saved() const { return pluggableOptics - cpoOptics; }
  double percentOfOptics() const { return pluggableOptics > 0 ? 100 * saved() / pluggableOptics : 0.0; }
  double percentOfInterconnect() const { return pluggableInterconnect > 0 ? 100 * saved() / pluggableInterconnect : 0.0; }
  // At equal bandwidth (issue 26): the switch-side optics of every optical switch port,
  // built pluggable (transceivers) and CPO (engines), and the bandwidth they carry (b/s).
  double plug = 0, cpo = 0, bandwidth = 0;
  uint64_t transceiversRemoved = 0, lasersRemoved = 0, ports = 0;
  bool lasersKnown = false;
  // W per 800 Gb/s of switch port, each way (0 without optical ports).
  double per800G(double w) const { return bandwidth > 0 ? w * 800e9 / bandwidth : 0.0; }

  // The range (issue 26, decision 0421): the switch ports' transceivers and CPO engines at
  // their catalog bounds, pluggable low with CPO high for the least saving and the other
  // way round for the most; every other figure at its value, so the range is that of the
  // comparison, not of the whole budget. transceiversRemoved is a count of cages: exact.
  Bounds plugW, cpoW, plugLasers, cpoLasers;
  // "MODEL's power" for each estimate the comparison rests on that states no bounds: the
  // range takes it as exact, and says so.
  std::set<std::string> unbounded;
  struct Case {
    double saved, percentOfOptics, percentOfInterconnect, plugPer800G, cpoPer800G, ratio, lasersRemoved;
  };
  Case at(double plugW_, double cpoW_, double plugL, double cpoL) const {
    double pluggable = pluggableOptics - plug + plugW_, cpoBuild = cpoOptics - cpo + cpoW_;
    double inter = pluggableInterconnect - plug + plugW_, s = pluggable - cpoBuild;
    return {s, pluggable > 0 ? 100 * s / pluggable : 0.0, inter > 0 ? 100 * s / inter : 0.0, per800G(plugW_),
            per800G(cpoW_), cpoW_ > 0 ? plugW_ / cpoW_ : 0.0, plugL > cpoL ? plugL - cpoL : 0.0};
  }
  Case least() const { return at(plugW.lo, cpoW.hi, plugLasers.lo, cpoLasers.hi); }
  Case most() const { return at(plugW.hi, cpoW.lo, plugLasers.hi, cpoLasers.lo); }
};

// What "interconnect power" means in every output (docs/backends.md): the same words.
inline constexpr const char *kInterconnectDefinition =
    "switches, NVLink switches, NICs and all optics (transceivers and CPO engines, switch and system side); GPU "
    "systems and other servers excluded";

// The unit a design repeats, for "how many more would fit" (issue 26): its pods (pod
// groups, else su groups, as summary.json counts them), else its GPU systems.
struct RepeatUnit {
  std::string name;   // "pod", "su", "GPU system"
  uint64_t count = 0; // in the design
  double gpus = 0;    // GPUs per unit, on average
};
RepeatUnit repeatUnit(const ir::Fabric &F);

// Whole units of `u` that fit in `budget` W when `facility` W serves all of the design's
// u.count units: each brings its share of the whole fabric. A design exactly at its budget
// fits itself.
uint64_t unitsThatFit(const RepeatUnit &u, double budget, double facility);

// IT power (W): every device, placed or not, with its transceivers and CPO engines; the
// sum energy.json's it_power_w gives.
double itPower(const ir::Fabric &F);

// The tightest `policy power { per = "site"; }` (W of facility power), 0 when none.
double siteBudget(const ir::Fabric &F);

// IT power (W) per site, in Fabric::sites order: the devices placed in the buildings that
// name the site, with their transceivers and CPO engines. What no site holds (unplaced
// devices, buildings without `site`) is `unsited`, never a site's.
struct SitePower {
  std::vector<double> it;
  double unsited = 0;
  uint64_t unsitedDevices = 0;
};
SitePower sitePower(const ir::Fabric &F);
// Several sites: `policy power { per = "site"; }` budgets each on its own (decision 0381).
inline bool budgetsPerSite(const ir::Fabric &F) { return F.sites.size() >= 2; }

// A site's facility power budget against the design (issue 26, decision 0381): the
// headroom, and how many whole units of the design fit in the budget built as designed,
// all pluggable and all CPO. Each unit brings its share of the whole fabric (spines and
// cores included), so the count is linear in the units: an estimate that ignores the top
// tier's port limit; `fabc sweep` builds each size exactly.
struct SiteEnvelope {
  struct Build {
    double facility = 0; // W, IT x PUE
    uint64_t units = 0;  // whole units that fit in the budget
    uint64_t gpus = 0;   // their GPUs
    bool complete = true; // false: the catalog lacks a part the build needs (energy's what-if missing_parts)
  };
  bool applies = false; // a site budget is stated and the design has units with power
  double budget = 0;    // W of facility power
  RepeatUnit unit;
  Build asBuilt, pluggable, cpo;
  // A design of several sites: each site's IT power against the budget on its own, and
  // the headroom is the tightest site's. The units that fit are those of one budget.
  bool perSite = false;
  SitePower sites;
  double pue = 1;
  double siteFacility(size_t k) const { return sites.it[k] * pue; }
  double headroom() const {
    if (!perSite)
      return budget - asBuilt.facility;
    double h = budget;
    for (size_t k = 0; k < sites.it.size(); ++k)
      h = std::min(h, budget - siteFacility(k));
    return h;
  }
  // How many more units fit built all CPO than all pluggable (negative: fewer).
  int64_t moreUnitsWithCpo() const { return int64_t(cpo.units) - int64_t(pluggable.units); }
  // The same at the CPO comparison's bounds (decision 0501): the least saving builds the
  // switch ports' pluggable optics at their low bound and the CPO engines at their high,
  // the most the other way round (CpoSavings::least/most); every other figure as built.
  struct Case {
    Build pluggable, cpo;
    int64_t moreUnitsWithCpo() const { return int64_t(cpo.units) - int64_t(pluggable.units); }
    int64_t moreGpusWithCpo() const { return int64_t(cpo.gpus) - int64_t(pluggable.gpus); }
  };
  bool ranged = false; // the design has optical switch ports to compare
  Case leastSaving, mostSaving;
};

// What CpoSavings' range covers, in every output that gives it: the same words.
inline constexpr const char *kCpoRangeCovers =
    "the switch ports' transceivers and CPO engines at their catalog bounds (power and lasers): the least saving "
    "takes pluggable parts at their low bound and CPO engines at their high bound, the most the other way round; "
    "every other figure at its value; estimates without bounds as exact (unbounded_estimates)";

struct EnergyModel {
  static constexpr unsigned Untiered = 5;
  PowerBucket tiers[6]; // 0 systems, 1..4 switch tiers, 5 untiered
  PowerBucket all, unplaced;
  std::vector<PowerBucket> racks, buildings;
  WhatIf toCpo, toPluggable; // every switch cage to CPO, every CPO port to pluggable
  // (model, property) of every figure behind the budget that is an estimate or missing.
  std::set<std::pair<uint32_t, std::string>> estimates;
  double it = 0;           // W, IT power
  double interconnect = 0; // W: switches, NVLink switches, NICs, optics
  double pue = 1;
  double facility() const { return it * pue; }
  double annualMWh() const { return annualMWh(it); }
  // Facility energy over a year for `watts` of IT power, at the design's PUE.
  double annualMWh(double watts) const { return watts * pue * 8760 / 1e6; }
  // Percent of the interconnect and IT power a what-if saves (0 when there is none).
  double savedPercentOfInterconnect(const WhatIf &w) const { return interconnect > 0 ? 100 * w.saved() / interconnect : 0.0; }
  double savedPercentOfIt(const WhatIf &w) const { return it > 0 ? 100 * w.saved() / it : 0.0; }
  // Percent of the design's optics power (all transceivers and CPO engines) a what-if saves.
  double savedPercentOfOptics(const WhatIf &w) const {
    double o = all[PowerCategory::Optics];
    return o > 0 ? 100 * w.saved() / o : 0.0;
  }
  CpoSavings cpo;
  SiteEnvelope site;
  // The parts the IT power sums (devices by category; transceivers and CPO engines as
  // optics) and those without a power figure, counted as 0 W (issue 26).
  Coverage coverage;
};

EnergyModel computeEnergy(const ir::Fabric &F);

// The catalog's CPO engine for a port speed, and the single-mode transceiver a pluggable
// build would put in a cage of `cagePorts` such ports (the engine's interface preferred,
// then the shortest reach); None when the catalog has none. Both what-ifs use them.
uint32_t cpoEngine(const ir::Fabric &F, double speed);
uint32_t pluggableFor(const ir::Fabric &F, double speed, uint32_t cagePorts, uint32_t engine);
// cpoEngine once per port speed: the what-ifs ask per cage or port, the catalog scan is not.
class CpoEngineCache {
public:
  explicit CpoEngineCache(const ir::Fabric &F) : F_(F) {}
  uint32_t operator()(double speed) {
    auto it = engines_.find(speed);
    return it != engines_.end() ? it->second : engines_[speed] = cpoEngine(F_, speed);
  }

private:
  const ir::Fabric &F_;
  std::map<double, uint32_t> engines_;
};

// A switch cage's use, for the what-ifs: how many of its ports are linked, and the
// transceiver of the first linked port that has one (None: copper, CPO or unused).
struct CageUse {
  uint32_t used = 0;
  uint32_t optic = UINT32_MAX;
};
CageUse cageUse(const ir::Fabric &F, uint32_t firstPort, uint32_t portsPerCage);

// The estimate behind an entry of EnergyModel::estimates.
const ir::Figure &estimatedFigure(const ir::Fabric &F, const std::pair<uint32_t, std::string> &e);

} // namespace fabc
