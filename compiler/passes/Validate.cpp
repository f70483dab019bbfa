// Validation checks: each reads the IR and what analysis::measure put in F.metrics, and
// reports what breaks a rule or a policy. They fill nothing.
#include "diag/DiagCodes.h"
#include "diag/Diag.h"
#include "passes/Passes.h"
#include "analysis/Energy.h"
#include "analysis/Scopes.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace fabc::passes {
using ir::None;

namespace {
const ir::Policy *findPolicy(const ir::Fabric &F, ir::PolicyKind k) {
  for (const ir::Policy &p : F.policies)
    if (p.kind == k)
      return &p;
  return nullptr;
}

} // namespace

void reportUnknownScope(const ir::Fabric &F, std::string_view per, SourceRange at, const char *kind,
                        const std::vector<std::string> &extra, DiagEngine &diags) {
  std::vector<std::string> names = analysis::scopeNames(F);
  names.insert(names.end(), extra.begin(), extra.end());
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string best;
  unsigned bestDist = std::max<unsigned>(2, unsigned(per.size() / 3)) + 1;
  for (const std::string &n : names) {
    unsigned d = llvm::StringRef(per).edit_distance(n, true, bestDist);
    if (d < bestDist) {
      bestDist = d;
      best = n;
    }
  }
  Diagnostic *dg = diags.report(DiagCode::E0370, at, "unknown scope '{}' for the {} policy{}", per, kind,
                                best.empty() ? std::string() : fmt::format("; did you mean '{}'?", best));
  std::string list;
  for (size_t i = 0; i < names.size() && i < 12; ++i)
    list += (i ? ", " : "") + names[i];
  if (names.size() > 12)
    list += ", ...";
  DiagEngine::note(dg, {}, "a scope is a group kind the design declares, \"pod\", \"rack\", \"hall\", \"building\" or an "
                           "instance array; this design has: " + list);
}

namespace {
// The scope a policy's `per` names, measured (analysis::measureScopes); nullptr after
// reporting FAB-E0370 (with the nearest scope name the design offers) when it names none.
const ir::ScopeStats *scopeOrReport(ir::Fabric &F, const ir::Policy &p, const char *kind, DiagEngine &diags) {
  const ir::ScopeStats *S = analysis::scopeOf(F, p);
  if (S && S->known)
    return S;
  reportUnknownScope(F, F.strings.str(p.per), p.perLoc, kind, {}, diags);
  return nullptr;
}

// `policy power { per = KIND; }` over groups or instance arrays: each element's devices and
// their transceivers, placed or not.
void checkScopedPower(ir::Fabric &F, const ir::Policy &p, DiagEngine &diags) {
  const ir::ScopeStats *S = scopeOrReport(F, p, "power", diags);
  if (!S)
    return;
  std::string_view per = F.strings.str(p.per);
  unsigned reported = 0;
  for (const ir::ScopeElement &e : S->elements) {
    if (e.power <= p.max)
      continue;
    SourceRange at = e.loc.begin.valid() ? e.loc : p.perLoc;
    if (reported++ >= 20) {
      diags.tally(DiagCode::E0047, at);
      continue;
    }
    Diagnostic *dg = diags.report(DiagCode::E0047, at, "{} {} draws {}, over its budget of {}", per, e.name,
                                  formatQuantity(e.power, dims::Power), formatQuantity(p.max, dims::Power));
    DiagEngine::note(dg, p.loc, "the power policy sets the budget");
  }
}

// `policy oversubscription { per = KIND; max = R; }`: each element rated on its boundary
// (bandwidth entering from below over bandwidth leaving upwards); with `tier`, the worst
// switch of that tier inside each element.
void checkScopedOversubscription(ir::Fabric &F, const ir::Policy &p, DiagEngine &diags) {
  const ir::ScopeStats *S = scopeOrReport(F, p, "oversubscription", diags);
  if (!S)
    return;
  std::string_view per = F.strings.str(p.per);
  bool tier = S->tier != ir::Tier::Unknown;
  size_t unrated = 0;
  const ir::ScopeElement *firstUnrated = nullptr;
  unsigned reported = 0;
  for (const ir::ScopeElement &e : S->elements) {
    double down = tier ? e.worstDown : e.down, up = tier ? e.worstUp : e.up;
    if (tier ? e.worstSwitch == None : up <= 0) {
      if (!unrated++)
        firstUnrated = &e;
      continue;
    }
    double r = down / up;
    if (r <= p.max + 1e-9)
      continue;
    SourceRange at = tier ? devRange(F, e.worstSwitch) : e.loc.begin.valid() ? e.loc : p.perLoc;
    if (reported++ >= 20) {
      diags.tally(DiagCode::E0048, at);
      continue;
    }
    Diagnostic *dg =
        tier ? diags.report(DiagCode::E0048, at, "{} '{}' in {} '{}' is oversubscribed {:.2f}:1 ({} down, {} up), above {:g}:1",
                            ir::tierName(S->tier), F.deviceName(e.worstSwitch), per, e.name, r,
                            formatQuantity(down, dims::Bandwidth), formatQuantity(up, dims::Bandwidth), p.max)
             : diags.report(DiagCode::E0048, at, "{} '{}' is oversubscribed {:.2f}:1 at its boundary ({} in from below, {} out "
                                                 "upwards), above {:g}:1",
                            per, e.name, r, formatQuantity(down, dims::Bandwidth), formatQuantity(up, dims::Bandwidth), p.max);
    DiagEngine::note(dg, p.loc, fmt::format("the oversubscription policy per \"{}\" sets the limit", per));
    DiagEngine::note(dg, {}, fmt::format("{} down:up {} is {} up:down at the layer above, as papers write it",
                                         ir::downUpText(r), tier ? "at the switch" : "leaving the " + std::string(per),
                                         ir::upDownText(r)));
  }
  if (!unrated)
    return;
  std::string what = tier ? fmt::format("no {} switch with uplinks", ir::tierName(S->tier)) : "no links leaving upwards";
  Diagnostic *dg = diags.report(DiagCode::W0370, p.perLoc,
                                "{} of {} {} element{} {} {}: the oversubscription policy rates nothing there (first: '{}')",
                                unrated, S->elements.size(), per, S->elements.size() == 1 ? "" : "s",
                                unrated == 1 ? "has" : "have", what, firstUnrated->name);
  DiagEngine::note(dg, {}, tier ? std::string("rate a tier whose switches have uplinks")
                                : "scope the policy to a smaller group, or give the scope uplinks; a scope that is the "
                                  "whole fabric has none");
}
} // namespace

void checkPorts(ir::Fabric &F, DiagEngine &diags) {
  // A GPU system's first port group carries its GPUs' fabric ports.
  unsigned reported = 0;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::System)
      continue;
    if (!m.gpus || F.devRole[d] != ir::Role::Compute || F.layoutOf(d).groups.empty())
      continue;
    const ir::GroupLayout &g = F.layoutOf(d).groups[0];
    uint32_t free = 0, first = None;
    for (uint32_t p = 0; p < g.count; ++p)
      if (F.portLink[F.devPortBase[d] + g.offset + p] == None) {
        if (!free++)
          first = F.devPortBase[d] + g.offset + p;
      }
    // At most 20 shown; the systems of one instance statement fold into one of them.
    if (free && reported < 20) {
      Diagnostic *dg = diags.report(DiagCode::W0100, devRange(F, d), "'{}' has {} unconnected GPU port{} (first: {})",
                                    F.deviceName(d), free, free == 1 ? "" : "s", F.portName(first));
      noteInstances(dg, F, d);
      DiagEngine::note(dg, {}, "connect every port of the system's first port group to the fabric");
      reported += !DiagEngine::isFolded(dg);
    } else if (free) {
      diags.tally(DiagCode::W0100, devRange(F, d));
    }
  }
}

void checkNvLink(ir::Fabric &F, DiagEngine &diags) {
  const ir::Policy *pol = findPolicy(F, ir::PolicyKind::NvLink);
  double max = pol ? pol->max : 576;
  for (const ir::Group &g : F.groups) {
    if (g.kind != ir::GroupKind::NvLink)
      continue;
    uint64_t n = 0;
    for (uint32_t d : g.devices())
      n += F.gpusOf(d);
    if (double(n) > max) {
      Diagnostic *dg = diags.report(DiagCode::E0046, g.loc, "NVLink domain '{}' has {} GPUs, more than {}",
                                    F.nodeName(g.node), n, max);
      if (pol)
        DiagEngine::note(dg, pol->loc, "the nvlink policy sets the limit");
      else
        DiagEngine::note(dg, {}, "NVLink switches join at most 576 GPUs in one domain");
    }
  }
}

// `policy power { per = "site"; }`: the whole design's facility power (IT power, every
// device and its optics, times the design's PUE), against the site's envelope. The note
// says how many of the units the design repeats would have to go.
// A design of several sites: each site's facility power against the budget on its own.
static void checkEachSitePower(const ir::Fabric &F, const ir::Policy &p, DiagEngine &diags) {
  SitePower S = sitePower(F);
  for (uint32_t s = 0; s < F.sites.size(); ++s) {
    double facility = S.it[s] * F.options.pue;
    if (facility <= p.max * (1 + 1e-12))
      continue;
    Diagnostic *dg = diags.report(DiagCode::E0047, F.sites[s].loc,
                                  "site '{}' draws {} of facility power ({} IT at PUE {:g}), {} over its budget of {}",
                                  F.strings.str(F.sites[s].name), formatQuantity(facility, dims::Power),
                                  formatQuantity(S.it[s], dims::Power), F.options.pue,
                                  formatQuantity(facility - p.max, dims::Power), formatQuantity(p.max, dims::Power));
    DiagEngine::note(dg, p.loc, "the power policy per \"site\" sets each site's budget (facility power: the IT power "
                                "of the devices placed in the site's buildings x the pue option)");
  }
  if (S.unsitedDevices) {
    Diagnostic *dg = diags.report(DiagCode::W0381, p.loc,
                                  "{} {} drawing {} of IT power {} in no site: no site's budget counts {}",
                                  formatCount(S.unsitedDevices), S.unsitedDevices == 1 ? "device" : "devices",
                                  formatQuantity(S.unsited, dims::Power), S.unsitedDevices == 1 ? "is" : "are",
                                  S.unsitedDevices == 1 ? "it" : "them");
    DiagEngine::note(dg, {}, "place every device in a building that names its site (site = \"NAME\"), or give "
                             "the building a site");
  }
}

static void checkSitePower(const ir::Fabric &F, const ir::Policy &p, DiagEngine &diags) {
  if (budgetsPerSite(F))
    return checkEachSitePower(F, p, diags);
  double it = itPower(F);
  double facility = it * F.options.pue;
  if (facility <= p.max * (1 + 1e-12))
    return;
  Diagnostic *dg = diags.report(DiagCode::E0047, F.loc,
                                "the site draws {} of facility power ({} IT at PUE {:g}), {} over its budget of {}",
                                formatQuantity(facility, dims::Power), formatQuantity(it, dims::Power), F.options.pue,
                                formatQuantity(facility - p.max, dims::Power), formatQuantity(p.max, dims::Power));
  DiagEngine::note(dg, p.loc, "the power policy per \"site\" sets the budget (facility power: IT power x the pue option)");
  RepeatUnit u = repeatUnit(F);
  if (u.count) {
    double perUnit = facility / double(u.count);
    uint64_t fit = unitsThatFit(u, p.max, facility);
    DiagEngine::note(dg, {}, fmt::format("each {} ({} GPUs) draws about {} with its share of the fabric: {} of the {} "
                                         "fit (about {} GPUs); energy/energy.json's site_envelope says how many fit "
                                         "with CPO and with pluggable optics",
                                         u.name, formatCount(uint64_t(std::llround(u.gpus))),
                                         formatQuantity(perUnit, dims::Power), formatCount(fit), formatCount(u.count),
                                         formatCount(uint64_t(std::llround(double(fit) * u.gpus)))));
  }
}

void checkPowerBudgets(ir::Fabric &F, DiagEngine &diags) {
  for (const ir::Policy &p : F.policies) {
    if (p.kind != ir::PolicyKind::Power)
      continue;
    if (p.per != None) {
      checkScopedPower(F, p, diags);
      continue;
    }
    std::string_view per = F.strings.str(p.scope);
    if (per == "site") {
      checkSitePower(F, p, diags);
      continue;
    }
    size_t n = per == "rack" ? F.racks.size() : per == "hall" ? F.halls.size() : F.buildings.size();
    if (!n) {
      Diagnostic *dg = diags.report(DiagCode::W0105, p.loc, "the power policy checks nothing: no device is placed "
                                    "in a {}", per);
      DiagEngine::note(dg, {}, "place the devices with 'place ... in BUILDING.HALL { row = R; rack = K; }'");
      continue;
    }
    std::vector<double> sum(n, 0);
    for (uint32_t d = 0; d < F.numDevices(); ++d) {
      uint32_t r = F.devRack[d];
      if (r == None)
        continue;
      size_t k = per == "rack" ? r : per == "hall" ? F.racks[r].hall : F.halls[F.racks[r].hall].building;
      sum[k] += double(F.devPower[d]) + double(F.devOpticPower[d]);
    }
    // Every rack over budget is reported: the racks one place statement fills fold into
    // one diagnostic that counts them and names the worst (DiagEngine folding).
    for (size_t k = 0; k < n; ++k) {
      if (sum[k] <= p.max)
        continue;
      std::string name = per == "rack" ? F.rackName(uint32_t(k))
                         : per == "hall" ? std::string(F.strings.str(F.buildings[F.halls[k].building].name)) + "." +
                                               std::string(F.strings.str(F.halls[k].name))
                                         : std::string(F.strings.str(F.buildings[k].name));
      SourceRange at = per == "rack" ? F.racks[k].loc : per == "hall" ? F.halls[k].loc : F.buildings[k].loc;
      Diagnostic *dg = diags.report(DiagCode::E0047, at, "{} {} draws {}, over its budget of {}", per, name,
                                    formatQuantity(sum[k], dims::Power), formatQuantity(p.max, dims::Power));
      DiagEngine::note(dg, p.loc, "the power policy sets the budget");
      diags.worst(dg, sum[k], fmt::format("{} {} at {}", per, name, formatQuantity(sum[k], dims::Power)));
    }
  }
}

void checkOversubscription(ir::Fabric &F, DiagEngine &diags) {
  const ir::Metrics &M = F.metrics; // analysis::measureTiers
  for (const ir::Policy &p : F.policies) {
    if (p.kind != ir::PolicyKind::Oversubscription)
      continue;
    if (p.per != None) {
      checkScopedOversubscription(F, p, diags);
      continue;
    }
    std::string_view tier = F.strings.str(p.scope);
    ir::Tier t = ir::tierFromName(tier); // leaf, spine or core: the elaborator checked
    t = t == ir::Tier::Leaf || t == ir::Tier::Spine ? t : ir::Tier::Core;
    const ir::TierStats &ts = M.tiers[ir::tierIndex(t)];
    if (ts.worstSwitch == None) {
      // A tier with switches but no uplinks (the top tier, a rail-only leaf) is W0304's
      // (ValidateResilience.cpp, which knows which of the two it is); a tier the design
      // lacks would pass silently otherwise (W0105).
      if (ts.switches)
        continue;
      Diagnostic *dg = diags.report(DiagCode::W0105, p.loc,
                                    "the oversubscription policy checks nothing: the design has no switch of tier '{}'", tier);
      DiagEngine::note(dg, {}, M.topTier > ir::tierIndex(ir::Tier::Leaf)
                                   ? fmt::format("the design's tiers with uplinks are \"leaf\"{}",
                                                 M.topTier > 2 ? ", \"spine\"" : "")
                                   : std::string("with one switch tier there is nothing to oversubscribe"));
      continue;
    }
    if (ts.maxOversubscription <= p.max + 1e-9)
      continue;
    uint32_t d = ts.worstSwitch;
    Diagnostic *dg = diags.report(DiagCode::E0048, devRange(F, d), "{} '{}' is oversubscribed {:.2f}:1 ({} down, {} up), above {:g}:1",
                                  tier, F.deviceName(d), ts.maxOversubscription,
                                  formatQuantity(ts.worstDown, dims::Bandwidth), formatQuantity(ts.worstUp, dims::Bandwidth), p.max);
    noteInstances(dg, F, d);
    DiagEngine::note(dg, p.loc, "the oversubscription policy sets the limit");
    DiagEngine::note(dg, {}, fmt::format("{} down:up at the {} is {} up:down at the layer above, as papers write it",
                                         ir::downUpText(ts.maxOversubscription), tier,
                                         ir::upDownText(ts.maxOversubscription)));
  }
}

void checkLatency(ir::Fabric &F, DiagEngine &diags) {
  const ir::Metrics &M = F.metrics; // analysis::measureLatency
  uint32_t worst = M.worstVia;
  const ir::Policy *pol = nullptr; // the first of the plain form (`max`) counts
  for (const ir::Policy &p : F.policies)
    if (!pol && p.kind == ir::PolicyKind::Latency && !p.roundTrips)
      pol = &p;
  checkRoundTrips(F, diags);
  if (pol && worst != None && M.worstLatency > pol->max) {
    Diagnostic *dg = diags.report(DiagCode::E0049, pol->loc, "worst-case GPU-to-GPU latency is {}, above the SLO of {}",
                                  formatQuantity(M.worstLatency, dims::Time), formatQuantity(pol->max, dims::Time));
    DiagEngine::note(dg, devRange(F, worst),
                     fmt::format("the path crosses {} switch{} and {} of cable, through '{}'", M.worstHops,
                                 M.worstHops == 1 ? "" : "es", formatQuantity(M.worstFibre, dims::Length),
                                 F.deviceName(worst)));
    const ir::Reachability &r = M.resilience.reach;
    if (r.pairs > 0 && r.networkPairs < r.pairs)
      DiagEngine::note(dg, {}, fmt::format("the SLO covers the {:.1f}% of GPU endpoint pairs with a network path; the "
                                           "other pairs meet only through an NVLink domain or not at all",
                                           100 * r.networkPairs / r.pairs));
  }
}

void checkRails(ir::Fabric &F, DiagEngine &diags) {
  if (!findPolicy(F, ir::PolicyKind::RailOptimized))
    return;
  // Rail r is port r of a system's first port group. A leaf may serve a rail group
  // (rails 0-7, say), but then every system on that leaf must bring all of those rails
  // to it: otherwise same-rail traffic between two systems crosses the spine.
  // Pass 1: the rails each leaf serves, as a sorted list. Pass 2: per (system, leaf),
  // the number of rails the system brings must equal the leaf's rail count.
  size_t nd = F.numDevices();
  // A rail list only for the devices GPU ports reach (the leaves), not one per device
  // (24 bytes a device, mostly empty; decision 0541).
  std::vector<uint32_t> leafSlot(nd, None);
  std::vector<std::vector<uint32_t>> leafRails;
  auto forEachRail = [&](uint32_t d, auto &&fn) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::System || !m.gpus || F.devRole[d] != ir::Role::Compute || F.layoutOf(d).groups.empty())
      return;
    // Rail g is GPU g: with ports_per_gpu = n, ports g x n .. g x n + n - 1 (one per plane).
    const ir::GroupLayout &g = F.layoutOf(d).groups[0];
    uint32_t per = std::max<uint32_t>(1, m.portsPerGpu);
    for (uint32_t p = 0; p < g.count; ++p) {
      uint32_t port = F.devPortBase[d] + g.offset + p, l = F.portLink[port];
      if (l != None)
        fn(p / per, F.portDevice[F.otherEnd(l, port)], l);
    }
  };
  for (uint32_t d = 0; d < nd; ++d)
    forEachRail(d, [&](uint32_t rail, uint32_t leaf, uint32_t) {
      if (leafSlot[leaf] == None) {
        leafSlot[leaf] = uint32_t(leafRails.size());
        leafRails.emplace_back();
      }
      std::vector<uint32_t> &r = leafRails[leafSlot[leaf]];
      auto it = std::lower_bound(r.begin(), r.end(), rail);
      if (it == r.end() || *it != rail)
        r.insert(it, rail);
    });
  unsigned reported = 0;
  struct End {
    uint32_t leaf, rail, link;
    bool operator<(const End &o) const { return leaf != o.leaf ? leaf < o.leaf : rail != o.rail ? rail < o.rail : link < o.link; }
  };
  std::vector<End> mine; // (leaf, rail, link) per linked GPU port of one system
  for (uint32_t d = 0; d < nd; ++d) {
    mine.clear();
    forEachRail(d, [&](uint32_t rail, uint32_t leaf, uint32_t l) { mine.push_back({leaf, rail, l}); });
    std::sort(mine.begin(), mine.end());
    for (size_t i = 0; i < mine.size();) {
      size_t j = i, rails = 0; // rails: distinct (two ports of one GPU on one leaf bring one rail)
      for (; j < mine.size() && mine[j].leaf == mine[i].leaf; ++j)
        rails += j == i || mine[j].rail != mine[j - 1].rail;
      uint32_t leaf = mine[i].leaf;
      size_t served = leafRails[leafSlot[leaf]].size(); // every leaf in `mine` got a slot above
      uint32_t first = mine[i].link;
      for (size_t k = i; k < j; ++k)
        first = std::min(first, mine[k].link);
      if (rails != served && reported++ < 20) {
        Diagnostic *dg = diags.report(DiagCode::W0102, linkRange(F, first),
                                      "'{}' brings {} of the {} rails leaf '{}' serves", F.deviceName(d), rails,
                                      served, F.deviceName(leaf));
        noteLinkInstances(dg, F, first);
        DiagEngine::note(dg, {}, "wire port r of every system to the leaf (or leaf group) of rail r, so each leaf serves "
                                 "the same rails for all its systems");
      } else if (rails != served) {
        diags.tally(DiagCode::W0102, linkRange(F, first));
      }
      i = j;
    }
  }
}

void checkRedundancy(ir::Fabric &F, DiagEngine &diags) {
  if (F.metrics.topTier < 2)
    return;
  std::vector<uint32_t> ups(F.numDevices(), 0);
  for (size_t l = 0; l < F.numLinks(); ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    if (F.devTier[a] == ir::Tier::Unknown || F.devTier[b] == ir::Tier::Unknown || F.devTier[a] == F.devTier[b])
      continue;
    ++ups[F.devTier[a] < F.devTier[b] ? a : b];
  }
  unsigned reported = 0;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    ir::Tier t = F.devTier[d];
    if (!ir::isSwitchTier(t) || ir::tierIndex(t) >= F.metrics.topTier || ups[d] != 1)
      continue;
    if (reported++ < 20) {
      Diagnostic *dg = diags.report(DiagCode::W0103, devRange(F, d), "'{}' has a single uplink", F.deviceName(d));
      noteInstances(dg, F, d);
      DiagEngine::note(dg, {}, "a second uplink removes the single point of failure");
    } else {
      diags.tally(DiagCode::W0103, devRange(F, d));
    }
  }
}

} // namespace fabc::passes

