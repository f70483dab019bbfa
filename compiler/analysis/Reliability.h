#pragma once
// Expected failures per year (issue 18), an analysis computed once from the IR
// (Analyses::reliability()): failed parts, field replacements ("touches") and links taken
// down, per category, tier and building, from the catalog's failure rates; and the
// pluggable-vs-CPO what-if with the same figures. summary.json and the report read this
// one result. The model and its assumptions: docs/decisions/0054-expected-failures-per-year.md, "Expected failures
// per year".
#include "analysis/Coverage.h"
#include "ir/Fabric.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace fabc {

enum class FailCategory : uint8_t { Switches, Nics, Transceivers, Cables, CpoEngines, Lasers, Count };
const char *failCategoryKey(FailCategory c);   // "switches", "nics", ...
const char *failCategoryLabel(FailCategory c); // "Switches", "NICs", ...

struct FailureBucket {
  double failures[size_t(FailCategory::Count)] = {}; // expected failures per year
  uint64_t parts[size_t(FailCategory::Count)] = {};  // units counted
  uint64_t unrated[size_t(FailCategory::Count)] = {}; // units whose part states no failure rate
  double touches = 0;   // field replacements per year
  double linksDown = 0; // links taken down per year (while the part is out)
  // total() with every failure rate at its catalog bounds (ir::Figure::lo/hi, decision 0421).
  double lo = 0, hi = 0;
  double total() const {
    double s = 0;
    for (double f : failures)
      s += f;
    return s;
  }
  double operator[](FailCategory c) const { return failures[size_t(c)]; }
};

// The switch-side optics built all pluggable against all CPO (every switch cage), the
// rest of the design as it is.
struct FailureWhatIf {
  bool applies = false;
  bool estimate = false;           // rests on an estimate, or a part is missing
  std::set<std::string> missing;   // speeds without a catalog part (or without a rate)
  double pluggable = 0, cpo = 0;   // failures per year of the switch-side optics
  double pluggableTouches = 0, cpoTouches = 0;
  double pluggableLinksDown = 0, cpoLinksDown = 0;
  double pluggableTotal = 0, cpoTotal = 0; // failures per year of the whole design built each way
};

// A model whose parts count in the figures without a failure rate (counted as 0): one
// entry per model and property, with the parts it leaves out (Coverage::Left::models names it).
struct UnratedModel {
  uint32_t model = 0;
  FailCategory cat = FailCategory::Switches;
  const char *property = "afr"; // the property that would rate it: afr, nic_afr, laser_afr
  uint64_t parts = 0;
};

// A fibre route between two buildings (decision 0501): the links that cross it fail
// together when it is cut, so a cut is one failure (one repair) taking them all down, at
// `afr_per_km` of their cable model times the route's length. Counted as cables.
struct FibreRoute {
  uint32_t a = 0, b = 0;  // buildings, a < b
  double km = 0;          // the route (a span's length x route factor)
  uint32_t links = 0;     // links over it
  uint32_t model = ir::None; // the cable model that rates it (the highest afr_per_km among its links'); None: unrated
  uint32_t cable = ir::None; // its first link's cable model (what FAB-W0440 names when unrated)
  double cuts = 0, lo = 0, hi = 0; // per year, and at the rate's bounds
};

struct ReliabilityModel {
  static constexpr unsigned Untiered = 5;
  FailureBucket all, unplaced;
  FailureBucket tiers[6]; // 0 systems, 1..4 switch tiers, 5 untiered
  std::vector<FailureBucket> buildings;
  FailureWhatIf cpo;
  std::vector<UnratedModel> unratedModels; // by model index
  std::vector<FibreRoute> routes;          // by (a, b): every pair of buildings links join
  Coverage coverage() const;               // of `all`
  // (model, property) of every failure rate behind the figures that is an estimate
  // ("afr", "nic_afr", "laser_afr"), or missing.
  std::set<std::pair<uint32_t, std::string>> estimates;
  // "MODEL's afr" for each estimated rate without bounds: all.lo/hi take it as exact.
  std::set<std::string> unbounded;
  bool usesEstimates() const { return !estimates.empty(); }
};

// countsOnly: only what the coverage rule reads (all.parts, all.unrated, unratedModels,
// routes, estimates), by the same walk; the failure sums, the tiers, buildings and the
// CPO what-if stay empty. `fabc check` needs no more (decision 0531).
ReliabilityModel computeReliability(const ir::Fabric &F, bool countsOnly = false);

// What `fabc diff` shows of a revision's reliability: each figure old and new.
struct ReliabilityFigures {
  double failuresPerYear = 0, touchesPerYear = 0, linksDownPerYear = 0;
  double costliestShare = 1;   // bisection left after losing the costliest switch (share)
  uint32_t singlePoints = 0, islands = 0;
  uint64_t unrated = 0;        // parts whose model states no failure rate (counted as 0)
  bool railOnly = false, estimate = false;
};
ReliabilityFigures reliabilityFigures(const ir::Fabric &F, const ReliabilityModel &R);

} // namespace fabc
