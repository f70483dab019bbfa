// Validation checks of issue 18: each compares what analysis/Resilience.h measured (in
// F.metrics.resilience) with the policies. They fill nothing.
#include "diag/DiagCodes.h"
#include "analysis/Resilience.h"
#include "diag/Diag.h"
#include "passes/Passes.h"

#include <cmath>

namespace fabc::passes {
using ir::None;

namespace {
const ir::Policy *railPolicy(const ir::Fabric &F) {
  for (const ir::Policy &p : F.policies)
    if (p.kind == ir::PolicyKind::RailOptimized)
      return &p;
  return nullptr;
}
std::string percent(double share) { return fmt::format("{:.1f}%", 100 * share); }
} // namespace

void checkResilience(ir::Fabric &F, DiagEngine &diags) {
  const ir::ResilienceStats &R = F.metrics.resilience;
  size_t i = 0;
  for (const ir::PolicyBlock &p : F.extraPolicies) {
    if (F.strings.str(p.kind) != "resilience")
      continue;
    const ir::TierLoss &r = R.asked[i++];
    ir::Tier t = analysis::resilienceTier(F, p);
    const ir::Setting *tierSet = p.get(F.strings, "tier");
    if (t == ir::Tier::Unknown || !F.metrics.tiers[ir::tierIndex(t)].switches) {
      Diagnostic *d = diags.report(DiagCode::E0034, tierSet ? tierSet->loc : p.loc,
                                   "policy resilience names no switch tier of the design");
      DiagEngine::note(d, {}, "tier is \"leaf\", \"spine\", \"core\" or \"super\", a tier the design has switches in "
                              "(left out: the top tier)");
      continue;
    }
    std::string_view tier = ir::tierName(t);
    const ir::Setting *minBis = p.get(F.strings, "min_bisection"), *minUp = p.get(F.strings, "min_uplink");
    double intact = F.metrics.bisection;
    if (minBis && minBis->type == ir::Setting::Number && intact > 0 && r.bisection < minBis->number * intact - 1e-6) {
      Diagnostic *d = diags.report(DiagCode::E0300, p.loc,
                                   "losing {} {} switch{} keeps {} of the bisection ({} of {}), below the {} required",
                                   r.lose, tier, r.lose == 1 ? "" : "es", percent(r.bisection / intact),
                                   formatQuantity(r.bisection, dims::Bandwidth), formatQuantity(intact, dims::Bandwidth),
                                   percent(minBis->number));
      if (r.worstSwitch != None)
        DiagEngine::note(d, {F.devLoc[r.worstSwitch], 1},
                         fmt::format("losing '{}' alone keeps {}; more {} switches (or more links to them) spread the loss",
                                     F.deviceName(r.worstSwitch), percent(r.worstSwitchBisection / intact), tier));
    }
    if (minUp && minUp->type == ir::Setting::Number && r.worstPod != None && r.podUplinkShare < minUp->number - 1e-9) {
      Diagnostic *d = diags.report(DiagCode::E0300, p.loc,
                                   "losing {} {} switch{} keeps {} of a {}'s uplink capacity, below the {} required",
                                   r.lose, tier, r.lose == 1 ? "" : "es", percent(r.podUplinkShare),
                                   ir::groupKindName(F.metrics.podKind), percent(minUp->number));
      DiagEngine::note(d, {}, fmt::format("the worst is {} {} (in declaration order); spread its uplinks over more {} switches",
                                          ir::groupKindName(F.metrics.podKind), r.worstPod, tier));
    }
  }
}

void checkReachability(ir::Fabric &F, DiagEngine &diags) {
  const ir::Reachability &R = F.metrics.resilience.reach;
  const ir::Policy *rail = railPolicy(F);
  bool intended = rail && rail->railOnly;
  SourceRange at = rail ? rail->loc : F.loc;
  if (R.railOnly && !intended) {
    Diagnostic *d = diags.report(DiagCode::W0301, at,
                                 "the network is {} islands: {:.1f}% of GPU endpoint pairs reach each other only "
                                 "through an NVLink domain (rail-only)",
                                 R.islands, R.pairs > 0 ? 100 * R.nvlinkOnlyPairs / R.pairs : 0.0);
    if (R.island0 != None)
      DiagEngine::note(d, {}, fmt::format("'{}' and '{}' share no switch path", F.portName(R.island0), F.portName(R.island1)));
    DiagEngine::note(d, {}, "if rails are meant to be isolated, say so: policy rail_optimized { rail_only = true; }; "
                            "otherwise join the rails with a spine tier");
  }
  if (intended && !R.railOnly && R.endpoints)
    DiagEngine::note(diags.report(DiagCode::W0303, rail->loc,
                                  "rail_only = true, but one network joins every GPU endpoint (a full Clos)"),
                     {}, "drop rail_only, or remove the tier that joins the rails");
  if (R.joined > 1)
    DiagEngine::note(diags.report(DiagCode::W0302, F.loc,
                                  "{:.1f}% of GPU endpoint pairs cannot reach each other: the fabric is {} separate parts",
                                  R.pairs > 0 ? 100 * R.unreachablePairs / R.pairs : 0.0, R.joined),
                     {}, "link the parts (a spine or core joining them), or build them as separate designs");
}

void checkUnratedOversubscription(ir::Fabric &F, DiagEngine &diags) {
  const ir::Metrics &M = F.metrics;
  for (const ir::Policy &p : F.policies) {
    if (p.kind != ir::PolicyKind::Oversubscription || p.per != ir::None)
      continue; // a scoped policy's unrated elements are FAB-W0370's
    ir::Tier t = ir::tierFromName(F.strings.str(p.scope));
    t = t == ir::Tier::Leaf || t == ir::Tier::Spine ? t : ir::Tier::Core;
    const ir::TierStats &ts = M.tiers[ir::tierIndex(t)];
    if (!ts.switches || ts.upBandwidth > 0)
      continue; // rated (checkOversubscription), or no such switches
    bool railLeaf = t == ir::Tier::Leaf && M.resilience.reach.railOnly;
    Diagnostic *d = diags.report(DiagCode::W0304, p.loc, "{} switches have no uplinks: the oversubscription policy rates nothing",
                                 ir::tierName(t));
    DiagEngine::note(d, {}, railLeaf ? "a rail-only leaf carries one rail's traffic, non-blocking by design when its "
                                       "downlinks are the rail's GPUs; cross-rail traffic goes through NVLink"
                                     : "it is the top tier: rate the tier below it, whose uplinks carry the top tier's load");
  }
}

} // namespace fabc::passes

namespace fabc::passes {

// A plane is a network of its own in which every GPU has a port (analysis::measureGroups
// counted the GPU endpoints missing from each).
void checkPlanes(ir::Fabric &F, DiagEngine &diags) {
  for (const ir::GroupStats &s : F.metrics.groupStats) {
    const ir::Group &g = F.groups[s.group];
    if (g.kind != ir::GroupKind::Plane || !s.missingGpus)
      continue;
    Diagnostic *d = diags.report(DiagCode::E0306, g.loc, "{} GPU{} {} no port in plane '{}'", s.missingGpus,
                                 s.missingGpus == 1 ? "" : "s", s.missingGpus == 1 ? "has" : "have", F.nodeName(g.node));
    const ir::GroupLayout &lay = F.layoutOf(s.missingDevice).groups[0];
    uint32_t per = std::max<uint32_t>(1, F.modelOf(s.missingDevice).portsPerGpu);
    uint32_t p0 = F.devPortBase[s.missingDevice] + lay.offset + s.missingGpu * per;
    DiagEngine::note(d, {}, per == 1 ? fmt::format("the first: '{}' (GPU {})", F.portName(p0), s.missingGpu)
                                     : fmt::format("the first: GPU {} of '{}' (ports '{}' and on)", s.missingGpu,
                                                   F.deviceName(s.missingDevice), F.portName(p0)));
    DiagEngine::note(d, {}, "every GPU has a port in every plane: cable one of each GPU's ports to the plane's switches "
                            "(ports_per_gpu on the system model gives a GPU several), or add the switches they reach "
                            "to the plane");
  }
}

// A multi-chassis bond (MC-LAG, EVPN multihoming) spans two or more switches.
void checkBonds(ir::Fabric &F, DiagEngine &diags) {
  unsigned reported = 0;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::System || !m.multiChassis() || F.layoutOf(d).groups.empty())
      continue;
    const ir::GroupLayout &g = F.layoutOf(d).groups[0];
    uint32_t per = std::max<uint32_t>(1, m.portsPerGpu), base = F.devPortBase[d] + g.offset;
    for (uint32_t e = 0; e * per < g.count; ++e) {
      uint32_t sw = None, members = 0, firstLink = None;
      bool apart = false;
      for (uint32_t port = base + e * per; port < base + std::min(g.count, (e + 1) * per); ++port) {
        uint32_t l = F.portLink[port];
        if (l == None)
          continue;
        uint32_t other = F.portDevice[F.otherEnd(l, port)];
        ++members;
        if (firstLink == None)
          firstLink = l;
        apart |= sw != None && other != sw;
        sw = other;
      }
      if (members < 2 || apart)
        continue;
      if (reported++ < 20) {
        Diagnostic *dg = diags.report(DiagCode::E0307, linkRange(F, firstLink),
                                      "the {} members of GPU {}'s bond on '{}' all land on '{}'", members, e,
                                      F.deviceName(d), F.deviceName(sw));
        noteLinkInstances(dg, F, firstLink);
        DiagEngine::note(dg, {}, "a multi-chassis bond (bond = \"mc-lag\" or \"evpn-mh\") spans two ToRs: cable the members "
                                 "to two switches, or declare bond = \"lacp\" for a single-switch bond");
      } else {
        diags.tally(DiagCode::E0307, linkRange(F, firstLink));
      }
    }
  }
}

} // namespace fabc::passes
