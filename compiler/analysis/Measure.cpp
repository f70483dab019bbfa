// The measuring steps (analysis/Measure.h); docs/decisions/0011-analyses-are-computed-once-in-the-compiler.md describes the
// latency model, oversubscription and bisection.
#include "analysis/Measure.h"
#include "support/Concurrent.h"

#include "analysis/Groups.h"
#include "analysis/Resilience.h"
#include "analysis/Scopes.h"

#include <algorithm>

namespace fabc::analysis {
using ir::None;

namespace {
constexpr double kFibreDelay = ir::FibreDelayPerMetre;
} // namespace

Climbs findClimbs(const ir::Fabric &F) {
  Climbs c;
  c.into.resize(F.numLinks());
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    unsigned a = ir::tierIndex(F.devTier[F.portDevice[F.linkA[l]]]);
    unsigned b = ir::tierIndex(F.devTier[F.portDevice[F.linkB[l]]]);
    if (a >= ir::NumTiers || b >= ir::NumTiers || (a + 1 != b && b + 1 != a))
      continue;
    c.into[l] = uint8_t(std::max(a, b));
    c.present |= 1u << std::max(a, b);
  }
  return c;
}

void countSystems(ir::Fabric &F) {
  uint64_t systems = 0, gpus = 0;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::System)
      continue;
    ++systems;
    gpus += m.gpus;
  }
  F.metrics.systems = systems;
  F.metrics.gpus = gpus;
}

void measureNvLink(ir::Fabric &F) {
  std::vector<uint8_t> grouped(F.numDevices(), 0);
  uint32_t domains = 0, largest = 0;
  for (const ir::Group &g : F.groups) {
    if (g.kind != ir::GroupKind::NvLink)
      continue;
    uint64_t n = 0;
    auto add = [&](uint32_t d) {
      n += F.gpusOf(d);
      grouped[d] = 1;
    };
    for (uint32_t d : g.devices())
      add(d);
    ++domains;
    largest = std::max<uint32_t>(largest, uint32_t(n));
  }
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    if (!grouped[d] && m.kind == ir::ModelKind::System && m.nvlinkDomain) {
      domains += m.gpus / m.nvlinkDomain;
      largest = std::max(largest, m.nvlinkDomain);
    }
  }
  F.metrics.nvlinkDomains = domains;
  F.metrics.largestNvlinkDomain = largest;
}

void measureTiers(ir::Fabric &F) {
  TierLoads unused;
  measureTiers(F, unused);
}

void measureTiers(ir::Fabric &F, TierLoads &keep) {
  size_t nd = F.numDevices();
  std::vector<double> &down = keep.down, &up = keep.up;
  down.assign(nd, 0);
  up.assign(nd, 0);
  for (size_t l = 0; l < F.numLinks(); ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    ir::Tier ta = F.devTier[a], tb = F.devTier[b];
    if (ta == ir::Tier::Unknown || tb == ir::Tier::Unknown || ta == tb)
      continue;
    double bw = F.portSpeed(F.linkA[l]);
    uint32_t lo = ta < tb ? a : b, hi = ta < tb ? b : a;
    up[lo] += bw;
    down[hi] += bw;
  }
  ir::Metrics &M = F.metrics;
  for (auto &t : M.tiers)
    t = {};
  M.topTier = 0;
  for (uint32_t d = 0; d < nd; ++d) {
    ir::Tier t = F.devTier[d];
    if (!ir::isSwitchTier(t))
      continue;
    ir::TierStats &ts = M.tiers[ir::tierIndex(t)];
    ++ts.switches;
    ts.downBandwidth += down[d];
    ts.upBandwidth += up[d];
    M.topTier = std::max(M.topTier, ir::tierIndex(t));
    if (up[d] > 0) {
      double r = down[d] / up[d];
      if (r > ts.maxOversubscription) {
        ts.maxOversubscription = r;
        ts.worstSwitch = d;
        ts.worstDown = down[d];
        ts.worstUp = up[d];
      }
    }
  }
  // Bisection: half the narrowest tier's uplink capacity (or the leaves' downlinks
  // in a single-tier fabric).
  double bis = M.topTier >= 1 ? M.tiers[1].downBandwidth : 0;
  for (uint32_t t = 1; t < M.topTier; ++t)
    bis = std::min(bis, M.tiers[t].upBandwidth);
  M.bisection = bis / 2;
}

namespace {
// The worst climb into a device from the GPUs of one building.
struct Climb {
  double lat = -1; // s, -1: none
  double len = 0;  // m
  uint32_t hops = 0, building = None;
};
// The worst climbs from the two worst buildings: enough for the worst path between GPUs
// of different buildings turning here (merging keeps the top two of the union).
struct TwoBuildings {
  Climb a, b; // a.lat >= b.lat, a.building != b.building
  void add(const Climb &c) {
    if (c.building == None || c.lat < 0)
      return;
    if (c.building == a.building) {
      if (c.lat > a.lat)
        a = c;
    } else if (c.building == b.building) {
      if (c.lat > b.lat)
        b = c;
      if (b.lat > a.lat)
        std::swap(a, b);
    } else if (c.lat > a.lat) {
      b = a;
      a = c;
    } else if (c.lat > b.lat) {
      b = c;
    }
  }
};
constexpr uint32_t kMixed = None - 1; // a switch serving GPUs of several pods (or of none)
} // namespace

ir::GroupKind podKindOf(const ir::Fabric &F) {
  ir::GroupKind k = ir::GroupKind::Other;
  for (const ir::Group &g : F.groups)
    if (g.kind == ir::GroupKind::Pod || (g.kind == ir::GroupKind::Su && k != ir::GroupKind::Pod))
      k = g.kind;
  return k;
}

void measureLatency(ir::Fabric &F, const Climbs &climbs) {
  // Worst up-path latency into each device, tier by tier; the worst GPU-to-GPU path
  // climbs to a top switch and comes down the worst way again.
  size_t nd = F.numDevices();
  std::vector<double> upLat(nd, -1), upLen(nd, 0);
  std::vector<uint32_t> upHops(nd, 0);
  ir::Metrics &M = F.metrics;
  // Pods: pod groups, else su groups; the first (innermost) group of a GPU system wins.
  M.podKind = podKindOf(F);
  M.pods = 0;
  std::vector<uint32_t> pod(nd, M.podKind == ir::GroupKind::Other ? 0 : kMixed);
  if (M.podKind != ir::GroupKind::Other) {
    std::vector<uint8_t> assigned(nd, 0);
    for (const ir::Group &g : F.groups) {
      if (g.kind != M.podKind)
        continue;
      uint32_t id = M.pods++;
      auto set = [&](uint32_t d) {
        if (!assigned[d]) {
          assigned[d] = 1;
          pod[d] = id;
        }
      };
      for (uint32_t d : g.devices())
        set(d);
    }
  }
  std::vector<uint32_t> tag(nd, None); // pod of every GPU below a switch, or kMixed
  // The climbs per building are kept only when GPUs sit in two buildings or more: with
  // one, no switch sees a second building and the cross-building path stays empty
  // (48 bytes a device otherwise; decision 0541).
  uint32_t firstBuilding = None;
  bool cross = false;
  for (uint32_t d = 0; d < nd && !cross; ++d)
    if (F.devTier[d] == ir::Tier::EndSystem && F.modelOf(d).gpus) {
      uint32_t b = F.buildingOf(d);
      if (b != None && firstBuilding != None && b != firstBuilding)
        cross = true;
      else if (b != None)
        firstBuilding = b;
    }
  std::vector<TwoBuildings> byBuilding(cross ? nd : 0);
  for (uint32_t d = 0; d < nd; ++d)
    if (F.devTier[d] == ir::Tier::EndSystem && F.modelOf(d).gpus) {
      const ir::Model &m = F.modelOf(d);
      upLat[d] = m.latency.known ? m.latency.value : F.options.gpuNicLatency;
      tag[d] = pod[d];
      if (cross)
        byBuilding[d].add({upLat[d], 0, 0, F.buildingOf(d)});
    }
  climbs.forEach(F, [&](uint32_t l, uint32_t lo, uint32_t hi) {
    if (upLat[lo] < 0)
      return;
    const ir::Model &m = F.modelOf(hi);
    double sw = m.latency.known ? m.latency.value : 0;
    double step = F.linkLength[l] * kFibreDelay + sw;
    double lat = upLat[lo] + step;
    if (lat > upLat[hi]) {
      upLat[hi] = lat;
      upLen[hi] = upLen[lo] + F.linkLength[l];
      upHops[hi] = upHops[lo] + 1;
    }
    tag[hi] = tag[hi] == None || tag[hi] == tag[lo] ? tag[lo] : kMixed;
    if (cross)
      for (const Climb *c : {&byBuilding[lo].a, &byBuilding[lo].b})
        if (c->lat >= 0)
          byBuilding[hi].add({c->lat + step, c->len + F.linkLength[l], c->hops + 1, c->building});
  });
  M.worstLatency = 0;
  M.worstVia = None;
  M.podPath = {};
  M.crossBuildingPath = {};
  uint32_t worst = None;
  for (uint32_t d = 0; d < nd; ++d) {
    if (!ir::isSwitchTier(F.devTier[d]) || upLat[d] < 0)
      continue;
    const ir::Model &m = F.modelOf(d);
    double sw = m.latency.known ? m.latency.value : 0;
    double path = 2 * upLat[d] - sw; // the turning switch is crossed once
    if (tag[d] != kMixed && path > M.podPath.latency)
      M.podPath = {path, 2 * upHops[d] - 1, 2 * upLen[d], d};
    if (cross && byBuilding[d].b.lat >= 0) {
      const TwoBuildings &tb = byBuilding[d];
      double both = tb.a.lat + tb.b.lat - sw;
      if (both > M.crossBuildingPath.latency)
        M.crossBuildingPath = {both, tb.a.hops + tb.b.hops - 1, tb.a.len + tb.b.len, d};
    }
    if (ir::tierIndex(F.devTier[d]) != M.topTier)
      continue;
    if (path > M.worstLatency) {
      M.worstLatency = path;
      M.worstHops = 2 * upHops[d] - 1;
      M.worstFibre = 2 * upLen[d];
      M.worstVia = worst = d;
    }
  }
}

void measureRest(ir::Fabric &F) {
  countSystems(F);
  measureNvLink(F);
  TierLoads loads;
  measureTiers(F, loads);
  Climbs climbs = findClimbs(F);
  measureLatency(F, climbs); // the pods, which the resilience measures read
  measureResilience(F, std::move(loads));
  measureLatencyMatrix(F, climbs);
  measureScopes(F);
}

void measureBeside(ir::Fabric &F) {
  measureReachability(F);
  measureSinglePoints(F);
  measureGroups(F);
}

void measure(ir::Fabric &F) {
  // Two halves at once (decision 0601, amendment; the groups moved to the second in
  // decision 0661, amendment).
  runConcurrently([&] { measureRest(F); }, [&] { measureBeside(F); });
}

void measureLatencies(ir::Fabric &F) {
  Climbs climbs = findClimbs(F);
  measureLatency(F, climbs);
  measureLatencyMatrix(F, climbs);
}

void measurePhysical(ir::Fabric &F) {
  // measure()'s own order: the latency measures before the scopes. The rest of the
  // metrics are the checked IR's, which nothing here changes.
  measureLatencies(F);
  measureScopes(F);
}

} // namespace fabc::analysis
