// summary.json: what the validation passes measured, for CI dashboards and reviews:
// counts, oversubscription per tier, bisection, worst-case latency, NVLink domains.
#include "backends/Common.h"
#include "analysis/Measure.h"
#include "ir/Address.h"

#include <algorithm>

namespace fabc {

void writeCoverage(JsonWriter &j, const ir::Fabric &F, const Coverage &c, const char *why) {
  j.key("coverage").beginObject();
  j.key("parts").integer(c.parts);
  j.key("parts_counted").integer(c.counted);
  j.key("parts_not_counted").integer(c.parts - c.counted);
  j.key("covers").beginArray(JsonLayout::Inline);
  for (const auto &cv : c.covers)
    j.string(cv.first);
  j.endArray();
  j.key("not_counted").beginArray();
  for (const Coverage::Left &l : c.notCounted) {
    j.beginObject(JsonLayout::Inline);
    j.key("category").string(l.key);
    j.key("parts").integer(l.parts);
    j.key("reason").string(why);
    j.key("models").beginArray(JsonLayout::Inline);
    for (uint32_t m : l.models)
      j.string(F.strings.str(F.models[m].name));
    j.endArray();
    j.endObject();
  }
  j.endArray();
  j.key("headline").string(c.headline(why));
  j.endObject();
}

namespace {
// The `reliability` section (issue 18): expected failures per year from the catalog's
// failure rates (Analyses::reliability()), the failure what-if and reachability measured on
// the topology (metrics.resilience). docs/backends.md lists the keys.
void writeBucket(JsonWriter &j, const FailureBucket &b) {
  j.key("failures_per_year").fixed(b.total(), 3);
  j.key("touches_per_year").fixed(b.touches, 3);
  j.key("links_down_per_year").fixed(b.linksDown, 3);
}

// The `power` section (issue 26): the energy analysis' headline figures with what they
// cover, and what CPO saves at equal bandwidth; energy.json has the rest.
void writePower(JsonWriter &j, const BackendContext &ctx) {
  const EnergyModel &E = ctx.an.energy();
  const CpoSavings &c = E.cpo;
  j.key("power").beginObject();
  j.key("it_power_w").fixed(E.it, 1);
  j.key("facility_power_w").fixed(E.facility(), 1);
  j.key("interconnect_power_w").fixed(E.interconnect, 1);
  j.key("interconnect_definition").string(kInterconnectDefinition);
  writeCoverage(j, ctx.F, E.coverage, "no power figure");
  j.key("cpo_savings").beginObject();
  j.key("applies").boolean(c.applies);
  j.key("saved_w").fixed(c.saved(), 1);
  j.key("percent_of_optics").fixed(c.percentOfOptics(), 2);
  j.key("percent_of_interconnect").fixed(c.percentOfInterconnect(), 2);
  j.key("pluggable_w_per_800g").fixed(c.per800G(c.plug), 2);
  j.key("cpo_w_per_800g").fixed(c.per800G(c.cpo), 2);
  j.key("transceivers_removed").integer(c.transceiversRemoved);
  j.key("lasers_removed");
  c.lasersKnown ? j.integer(c.lasersRemoved) : j.null();
  j.key("estimate").boolean(c.estimate);
  writeCpoRange(j, c);
  j.endObject();
  writeSiteEnvelope(j, ctx.F, E.site);
  j.endObject();
}

// `latency_matrix` (issue 26, decision 0411): the round trip between every two buildings
// holding GPUs, and every two sites, with its parts (they add up to it).
void writeLatencyMatrix(JsonWriter &j, const ir::Fabric &F) {
  const ir::Metrics &M = F.metrics;
  j.key("latency_matrix").beginObject();
  j.key("covers").string(analysis::kLatencyMatrixCovers);
  auto pairs = [&](const char *key, const std::vector<ir::PlacePath> &v, bool sites) {
    j.key(key).beginArray();
    for (const ir::PlacePath &pp : v) {
      const ir::PathStats &p = pp.path;
      auto name = [&](uint32_t i) { return F.strings.str(sites ? F.sites[i].name : F.buildings[i].name); };
      double fibre = p.fibre * ir::FibreDelayPerMetre;
      j.beginObject(JsonLayout::Inline);
      j.key("a").string(name(pp.a));
      j.key("b").string(name(pp.b));
      j.key("round_trip_us").fixed(2 * p.latency * 1e6, 3);
      j.key("fibre_us").fixed(2 * fibre * 1e6, 3);
      j.key("switches_us").fixed(2 * (p.latency - fibre - p.nic) * 1e6, 3);
      j.key("nics_us").fixed(2 * p.nic * 1e6, 3);
      j.key("fibre_m").fixed(p.fibre, 1);
      j.key("switch_hops").integer(p.hops);
      j.key("turns_at").string(F.deviceName(p.via));
      j.endObject();
    }
    j.endArray();
  };
  pairs("buildings", M.buildingPaths, false);
  pairs("sites", M.sitePaths, true);
  j.endObject();
}

void writeReliability(JsonWriter &j, const BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const ReliabilityModel &R = ctx.an.reliability();
  const ir::ResilienceStats &S = F.metrics.resilience;
  j.key("reliability").beginObject();
  writeBucket(j, R.all);
  // The same with every failure rate at its catalog bounds (decision 0421).
  j.key("failures_per_year_range").beginArray(JsonLayout::Inline);
  j.fixed(R.all.lo, 3);
  j.fixed(R.all.hi, 3);
  j.endArray();
  j.key("range_unbounded_estimates").beginArray(JsonLayout::Inline);
  for (const std::string &u : R.unbounded)
    j.string(u);
  j.endArray();
  j.key("failures_per_day").fixed(R.all.total() / 365, 4);
  writeCoverage(j, F, R.coverage(), "no failure rate");
  // Fibre routes between buildings, each cut as one (decision 0501; in by_category.cables).
  j.key("fibre_routes").beginArray();
  for (const FibreRoute &r : R.routes) {
    j.beginObject(JsonLayout::Inline);
    j.key("a").string(F.strings.str(F.buildings[r.a].name));
    j.key("b").string(F.strings.str(F.buildings[r.b].name));
    j.key("route_km").fixed(std::max(r.km, 0.0), 3);
    j.key("links").integer(r.links);
    j.key("rated_by");
    r.model == ir::None ? j.null() : j.string(F.strings.str(F.models[r.model].name));
    j.key("cuts_per_year").fixed(r.cuts, 4);
    j.key("cuts_per_year_range").beginArray(JsonLayout::Inline);
    j.fixed(r.lo, 4);
    j.fixed(r.hi, 4);
    j.endArray();
    j.key("links_down_per_year").fixed(r.cuts * r.links, 4);
    j.endObject();
  }
  j.endArray();
  j.key("by_category").beginObject();
  for (size_t c = 0; c < size_t(FailCategory::Count); ++c) {
    j.key(failCategoryKey(FailCategory(c))).beginObject(JsonLayout::Inline);
    j.key("parts").integer(R.all.parts[c]);
    j.key("failures_per_year").fixed(R.all.failures[c], 3);
    j.key("unrated_parts").integer(R.all.unrated[c]);
    j.endObject();
  }
  j.endObject();
  j.key("by_tier").beginArray();
  for (unsigned t = 0; t <= ReliabilityModel::Untiered; ++t) {
    const FailureBucket &b = R.tiers[t];
    if (b.total() <= 0)
      continue;
    j.beginObject(JsonLayout::Inline);
    j.key("tier").string(t == ReliabilityModel::Untiered ? "untiered" : ir::tierName(t));
    writeBucket(j, b);
    j.endObject();
  }
  j.endArray();
  if (!F.buildings.empty()) {
    j.key("by_building").beginArray();
    for (size_t b = 0; b < F.buildings.size(); ++b) {
      j.beginObject(JsonLayout::Inline);
      j.key("building").string(F.strings.str(F.buildings[b].name));
      writeBucket(j, R.buildings[b]);
      j.endObject();
    }
    j.endArray();
  }
  const FailureWhatIf &w = R.cpo;
  j.key("cpo_what_if").beginObject();
  j.key("applies").boolean(w.applies);
  j.key("pluggable_failures_per_year").fixed(w.pluggable, 3);
  j.key("cpo_failures_per_year").fixed(w.cpo, 3);
  j.key("pluggable_failures_per_day").fixed(w.pluggable / 365, 4);
  j.key("cpo_failures_per_day").fixed(w.cpo / 365, 4);
  j.key("pluggable_touches_per_year").fixed(w.pluggableTouches, 3);
  j.key("cpo_touches_per_year").fixed(w.cpoTouches, 3);
  j.key("pluggable_links_down_per_year").fixed(w.pluggableLinksDown, 3);
  j.key("cpo_links_down_per_year").fixed(w.cpoLinksDown, 3);
  j.key("design_pluggable_failures_per_year").fixed(w.pluggableTotal, 3);
  j.key("design_cpo_failures_per_year").fixed(w.cpoTotal, 3);
  j.key("estimate").boolean(w.estimate);
  j.key("missing").beginArray(JsonLayout::Inline);
  for (const std::string &m : w.missing)
    j.string(m);
  j.endArray();
  j.endObject();
  double intact = F.metrics.bisection;
  auto share = [&](double v) { return intact > 0 ? v / intact : 0.0; };
  j.key("failure_what_if").beginObject();
  j.key("bisection_gbps").fixed(intact / 1e9, 0);
  j.key("lose_one").beginArray();
  for (unsigned t = 1; t < ir::NumTiers; ++t) {
    const ir::TierLoss &r = S.tiers[t];
    if (!F.metrics.tiers[t].switches)
      continue;
    j.beginObject(JsonLayout::Inline);
    j.key("tier").string(ir::tierName(t));
    j.key("bisection_gbps").fixed(r.bisection / 1e9, 0);
    j.key("bisection_share").fixed(share(r.bisection), 4);
    j.key("worst_pod_uplink_share").fixed(r.podUplinkShare, 4);
    j.key("worst_switch");
    r.worstSwitch == ir::None ? j.null() : j.string(F.deviceName(r.worstSwitch));
    j.key("oversubscription_rating").string(F.metrics.tiers[t].upBandwidth > 0 ? "rated"
                                            : S.reach.railOnly && t == 1 ? "rail-only leaf: no uplinks"
                                                                         : "top tier: no uplinks");
    j.endObject();
  }
  j.endArray();
  if (!S.asked.empty()) {
    j.key("policies").beginArray();
    for (const ir::TierLoss &r : S.asked) {
      j.beginObject(JsonLayout::Inline);
      j.key("tier").string(ir::tierName(unsigned(r.tier)));
      j.key("lose").integer(r.lose);
      j.key("bisection_gbps").fixed(r.bisection / 1e9, 0);
      j.key("bisection_share").fixed(share(r.bisection), 4);
      j.key("worst_pod_uplink_share").fixed(r.podUplinkShare, 4);
      j.endObject();
    }
    j.endArray();
  }
  j.key("costliest_switch");
  S.worstSwitch == ir::None ? j.null() : j.string(F.deviceName(S.worstSwitch));
  j.key("costliest_switch_bisection_share").fixed(share(S.worstSwitchBisection), 4);
  j.key("spans").beginArray();
  for (const ir::SpanLoss &sp : S.spans) {
    j.beginObject(JsonLayout::Inline);
    j.key("a").string(F.strings.str(F.buildings[sp.a].name));
    j.key("b").string(F.strings.str(F.buildings[sp.b].name));
    j.key("links").integer(sp.links);
    j.key("gbps").fixed(sp.bandwidth / 1e9, 0);
    j.key("bisection_share_left").fixed(share(sp.bisection), 4);
    j.endObject();
  }
  j.endArray();
  j.key("single_points_of_failure").integer(S.singlePointCount);
  j.key("gpus_behind_single_points").integer(S.gpusBehindSinglePoints);
  j.key("single_point_examples").beginArray();
  for (size_t i = 0; i < S.singlePoints.size() && i < 10; ++i) {
    j.beginObject(JsonLayout::Inline);
    j.key("device").string(F.deviceName(S.singlePoints[i].device));
    j.key("gpus_cut_off").integer(S.singlePoints[i].gpus);
    j.endObject();
  }
  j.endArray();
  j.endObject();
  const ir::Reachability &r = S.reach;
  j.key("reachability").beginObject();
  j.key("gpu_endpoints").integer(r.endpoints);
  j.key("network_islands").integer(r.islands);
  j.key("separate_parts").integer(r.joined);
  auto pairShare = [&](double v) { return r.pairs > 0 ? v / r.pairs : 0.0; };
  j.key("pairs_over_network").fixed(pairShare(r.networkPairs), 4);
  j.key("pairs_through_nvlink_only").fixed(pairShare(r.nvlinkOnlyPairs), 4);
  j.key("pairs_unreachable").fixed(pairShare(r.unreachablePairs), 4);
  j.key("rail_only").boolean(r.railOnly);
  bool intended = false;
  for (const ir::Policy &p : F.policies)
    intended |= p.kind == ir::PolicyKind::RailOptimized && p.railOnly;
  j.key("rail_only_intended").boolean(intended);
  j.endObject();
  j.key("uses_estimates").boolean(R.usesEstimates());
  j.endObject();
}
// Counts per group (analysis::measureGroups): what a pod is, every named group but the
// NVLink domains with its GPUs, switches and links, a plane's bisection, and the racks.
void writeGroups(JsonWriter &j, const ir::Fabric &F) {
  const ir::Metrics &M = F.metrics;
  j.key("pods").beginObject(JsonLayout::Inline);
  j.key("kind");
  M.podKind == ir::GroupKind::Other ? j.null() : j.string(ir::groupKindName(M.podKind));
  j.key("count").integer(M.pods);
  j.endObject();
  j.key("groups").beginArray();
  for (const ir::GroupStats &s : M.groupStats) {
    const ir::Group &g = F.groups[s.group];
    j.beginObject(JsonLayout::Inline);
    j.key("kind").string(F.strings.str(g.kindName));
    j.key("name").string(F.nodeName(g.node));
    j.key("gpus").integer(s.gpus);
    j.key("switches").integer(s.switches);
    j.key("links").integer(s.links);
    j.key("boundary_links").integer(s.boundaryLinks);
    if (g.kind == ir::GroupKind::Plane)
      j.key("bisection_gbps").fixed(s.bisection / 1e9, 0);
    j.endObject();
  }
  j.endArray();
  // The scopes the scoped policies name (`per`), each element rated as the check rates it:
  // on its boundary, or (with a tier) at its worst switch of that tier.
  j.key("scopes").beginArray();
  for (const ir::ScopeStats &S : M.scopes) {
    if (!S.known)
      continue;
    bool tier = S.tier != ir::Tier::Unknown;
    j.beginObject();
    j.key("per").string(F.strings.str(S.name));
    j.key("kind").string(S.kind);
    j.key("tier");
    tier ? j.string(ir::tierName(S.tier)) : j.null();
    j.key("elements").beginArray();
    for (const ir::ScopeElement &e : S.elements) {
      double down = tier ? e.worstDown : e.down, up = tier ? e.worstUp : e.up;
      bool rated = tier ? e.worstSwitch != ir::None : up > 0;
      j.beginObject(JsonLayout::Inline);
      j.key("name").string(e.name);
      j.key("gpus").integer(e.gpus);
      j.key("switches").integer(e.switches);
      j.key("links").integer(e.links);
      j.key("boundary_links").integer(e.boundaryLinks);
      j.key("power_w").fixed(e.power, 0);
      j.key("down_gbps").fixed(down / 1e9, 0);
      j.key("up_gbps").fixed(up / 1e9, 0);
      j.key("oversubscription");
      rated ? j.fixed(down / up, 3) : j.null();
      j.key("oversubscription_down_up");
      rated ? j.string(ir::downUpText(down / up)) : j.null();
      j.key("oversubscription_up_down");
      rated ? j.string(ir::upDownText(down / up)) : j.null();
      if (tier) {
        j.key("worst_switch");
        e.worstSwitch == ir::None ? j.null() : j.string(F.deviceName(e.worstSwitch));
      }
      j.endObject();
    }
    j.endArray();
    j.endObject();
  }
  j.endArray();
  // Addressing domains (policy addressing's per, decision 0481): absent for the shared plan.
  if (!F.addressDomains.empty()) {
    j.key("addressing_domains").beginObject();
    j.key("per").string(F.addressPer);
    j.key("domains").beginArray();
    for (const ir::Fabric::AddressDomain &a : F.addressDomains) {
      j.beginObject(JsonLayout::Inline);
      j.key("name").string(a.name);
      j.key("switches").integer(a.switches);
      j.key("asn_first").integer(a.asnFirst);
      j.key("asn_last").integer(a.asnLast);
      j.key("loopback_pool").string(ir::ipv4String(a.lbBase) + "/" + std::to_string(a.lbLen));
      j.key("p2p_pool");
      a.p2pLen ? j.string(ir::ipv4String(a.p2pBase) + "/" + std::to_string(a.p2pLen)) : j.null();
      j.key("host_pool"); // 1.9, decision 0521
      a.hostLen ? j.string(ir::ipv4String(a.hostBase) + "/" + std::to_string(a.hostLen)) : j.null();
      j.endObject();
    }
    j.endArray();
    j.endObject();
  }
  j.key("racks").beginObject(JsonLayout::Inline);
  j.key("count").integer(M.racks.racks);
  j.key("gpus_placed").integer(M.racks.gpusPlaced);
  j.key("switches_placed").integer(M.racks.switchesPlaced);
  j.key("max_gpus").integer(M.racks.maxGpus);
  j.key("max_switches").integer(M.racks.maxSwitches);
  j.key("links_inside").integer(M.racks.linksInside);
  j.endObject();
}

} // namespace

bool runSummary(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const ir::Metrics &M = F.metrics;
  OutFile *out = ctx.out.open("summary.json");
  if (!out)
    return failOpen(ctx);
  JsonWriter j(sinkTo(*out));
  j.beginObject();
  j.key("format_version").string(formats::Summary);
  j.key("fabric").string(F.name);
  j.key("generator").string("fabc " + ctx.info.version);
  j.key("gpus").integer(M.gpus);
  j.key("systems").integer(M.systems);
  j.key("devices").integer(F.numDevices());
  j.key("links").integer(F.numLinks());
  j.key("nvlink_domains").integer(M.nvlinkDomains);
  j.key("largest_nvlink_domain").integer(M.largestNvlinkDomain);
  j.key("tiers").beginArray();
  for (uint32_t t = 1; t < ir::Metrics::MaxTier; ++t) {
    const ir::TierStats &ts = M.tiers[t];
    if (!ts.switches)
      continue;
    j.beginObject(JsonLayout::Inline);
    j.key("tier").string(tierName(t));
    j.key("switches").integer(ts.switches);
    j.key("down_gbps").fixed(ts.downBandwidth / 1e9, 0);
    j.key("up_gbps").fixed(ts.upBandwidth / 1e9, 0);
    j.key("max_oversubscription");
    ts.upBandwidth > 0 ? j.fixed(ts.maxOversubscription, 3) : j.null();
    j.key("worst_switch");
    ts.worstSwitch == ir::None ? j.null() : j.string(F.deviceName(ts.worstSwitch));
    // The same ratio both ways: down:up at this tier, up:down as papers write it at the
    // layer above ("1:7 at the aggregation layer").
    j.key("oversubscription_down_up");
    ts.upBandwidth > 0 ? j.string(ir::downUpText(ts.maxOversubscription)) : j.null();
    j.key("oversubscription_up_down");
    ts.upBandwidth > 0 ? j.string(ir::upDownText(ts.maxOversubscription)) : j.null();
    j.endObject();
  }
  j.endArray();
  j.key("bisection_gbps").fixed(M.bisection / 1e9, 0);
  j.key("worst_latency_ns").fixed(M.worstLatency * 1e9, 1);
  j.key("worst_latency_switch_hops").integer(M.worstHops);
  j.key("worst_latency_cable_m").fixed(M.worstFibre, 1);
  // The GPU endpoint pairs the latency paths speak for: those with a network path (in a
  // rail-only design, same-island pairs; the others forward through an NVLink domain).
  j.key("worst_latency_covers_pairs").fixed(M.resilience.reach.pairs > 0 ? M.resilience.reach.networkPairs / M.resilience.reach.pairs : 1, 4);
  writeLatencyMatrix(j, F);
  j.key("transceivers").integer(M.transceivers);
  j.key("cpo_ports").integer(M.cpoPorts);
  j.key("uses_estimates").boolean(M.usesEstimates);
  writePower(j, ctx);
  writeGroups(j, F);
  writeReliability(j, ctx);
  j.endObject();
  return true;
}

} // namespace fabc
