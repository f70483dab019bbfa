// Failure what-if and reachability (analysis/Resilience.h). The model, its assumptions
// and why it is closed-form: docs/decisions/0055-failure-what-if-in-closed-form.md, "Failure what-if in closed form".
#include "analysis/Resilience.h"

#include "analysis/Groups.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace fabc::analysis {
using ir::None;

namespace {

// The bisection estimate of measureTiers is half the smallest of these terms: the
// leaves' downlinks (term 0) and each tier's uplinks below the top (term t). Losing a
// switch of tier t lowers term t-1 (t >= 2) or term 0 (t = 1) by its downlinks and term
// t by its uplinks.
struct Terms {
  double v[ir::NumTiers] = {};
  unsigned top = 0;
  double bisection() const {
    if (top < 1)
      return 0;
    double b = v[0];
    for (unsigned t = 1; t < top; ++t)
      b = std::min(b, v[t]);
    return std::max(0.0, b) / 2;
  }
};
Terms intactTerms(const ir::Metrics &M) {
  Terms T;
  T.top = M.topTier;
  T.v[0] = M.topTier >= 1 ? M.tiers[1].downBandwidth : 0;
  for (unsigned t = 1; t < M.topTier; ++t)
    T.v[t] = M.tiers[t].upBandwidth;
  return T;
}
// The terms a loss of `down` and `up` b/s at tier t lowers.
Terms without(Terms T, unsigned t, double down, double up) {
  T.v[t >= 2 ? t - 1 : 0] -= down;
  if (t < T.top)
    T.v[t] -= up;
  return T;
}
// The worst case over every set of k switches: each term loses its own k largest
// contributions (the smallest term after the loss is the minimum over terms of each
// term's worst), so the k largest downlinks and the k largest uplinks, chosen apart.
double worstBisection(const Terms &T, unsigned t, double topDown, double topUp) {
  Terms a = T;
  a.v[t >= 2 ? t - 1 : 0] -= topDown;
  double first = a.bisection();
  Terms b = T;
  if (t < T.top)
    b.v[t] -= topUp;
  return std::min(first, b.bisection());
}
double sumLargest(std::vector<double> &v, uint32_t k) {
  k = std::min<uint32_t>(k, uint32_t(v.size()));
  std::nth_element(v.begin(), v.begin() + k, v.end(), std::greater<double>());
  return std::accumulate(v.begin(), v.begin() + k, 0.0);
}

// Pods as measureLatency draws them: pod groups, else su groups, the first group of a
// device wins; None: in no pod.
std::vector<uint32_t> podOfDevices(const ir::Fabric &F) {
  std::vector<uint32_t> pod(F.numDevices(), None);
  if (F.metrics.podKind == ir::GroupKind::Other)
    return pod;
  uint32_t id = 0;
  for (const ir::Group &g : F.groups) {
    if (g.kind != F.metrics.podKind)
      continue;
    for (uint32_t d : g.devices())
      if (pod[d] == None)
        pod[d] = id;
    ++id;
  }
  return pod;
}

// What one pass over the links gathers for every loss.
struct Loads {
  std::vector<double> down, up;  // b/s per device, as measureTiers counts them
  std::vector<uint32_t> pod;
  std::vector<double> podUplink; // b/s across each pod's boundary
  // (pod, switch, b/s) of every switch on a pod's boundary, sorted by pod, tier, b/s down.
  struct Edge {
    uint32_t pod, sw;
    double bw;
  };
  std::vector<Edge> podEdges;
};

// The per-device sums are measureTiers' (the same links, tests and order), taken over
// rather than summed again; the links are walked for the pods' boundaries only, and not
// at all without pods (decision 0541).
Loads gather(const ir::Fabric &F, TierLoads &&tiers) {
  Loads L;
  L.down = std::move(tiers.down);
  L.up = std::move(tiers.up);
  L.pod = podOfDevices(F);
  L.podUplink.assign(F.metrics.pods, 0);
  size_t links = F.metrics.podKind == ir::GroupKind::Other ? 0 : F.numLinks(); // no pods: every pod is None
  for (size_t l = 0; l < links; ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    uint32_t pa = L.pod[a], pb = L.pod[b];
    if (pa == pb)
      continue;
    double bw = F.portSpeed(F.linkA[l]);
    for (uint32_t p : {pa, pb}) {
      if (p == None)
        continue;
      L.podUplink[p] += bw;
      for (uint32_t s : {a, b})
        if (ir::isSwitchTier(F.devTier[s]))
          L.podEdges.push_back({p, s, bw});
    }
  }
  // One entry per (pod, switch).
  std::sort(L.podEdges.begin(), L.podEdges.end(),
            [](const Loads::Edge &x, const Loads::Edge &y) { return x.pod != y.pod ? x.pod < y.pod : x.sw < y.sw; });
  size_t w = 0;
  for (size_t i = 0; i < L.podEdges.size(); ++i) {
    if (w && L.podEdges[w - 1].pod == L.podEdges[i].pod && L.podEdges[w - 1].sw == L.podEdges[i].sw)
      L.podEdges[w - 1].bw += L.podEdges[i].bw;
    else
      L.podEdges[w++] = L.podEdges[i];
  }
  L.podEdges.resize(w);
  return L;
}

ir::TierLoss tierLoss(const ir::Fabric &F, const Loads &L, const Terms &T, unsigned t, uint32_t k) {
  ir::TierLoss r;
  r.tier = uint8_t(t);
  std::vector<double> downs, ups;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    if (ir::tierIndex(F.devTier[d]) != t || !ir::isSwitchTier(F.devTier[d]))
      continue;
    downs.push_back(L.down[d]);
    ups.push_back(L.up[d]);
    double b = without(T, t, L.down[d], L.up[d]).bisection();
    if (r.worstSwitch == None || b < r.worstSwitchBisection) {
      r.worstSwitch = d;
      r.worstSwitchBisection = b;
    }
  }
  r.lose = std::min<uint32_t>(k, uint32_t(downs.size()));
  r.bisection = worstBisection(T, t, sumLargest(downs, r.lose), sumLargest(ups, r.lose));
  // Each pod loses its k largest boundary switches of the tier.
  std::vector<double> mine;
  for (size_t i = 0; i < L.podEdges.size();) {
    uint32_t p = L.podEdges[i].pod;
    mine.clear();
    for (; i < L.podEdges.size() && L.podEdges[i].pod == p; ++i)
      if (ir::tierIndex(F.devTier[L.podEdges[i].sw]) == t)
        mine.push_back(L.podEdges[i].bw);
    if (mine.empty() || L.podUplink[p] <= 0)
      continue;
    double share = std::max(0.0, L.podUplink[p] - sumLargest(mine, k)) / L.podUplink[p];
    if (share < r.podUplinkShare) {
      r.podUplinkShare = share;
      r.worstPod = p;
    }
  }
  return r;
}

void spanLosses(ir::Fabric &F, const Terms &T) {
  struct Acc {
    uint32_t links = 0;
    double bw = 0;
    double cut[ir::NumTiers] = {};
  };
  std::map<std::pair<uint32_t, uint32_t>, Acc> pairs;
  // A span joins two buildings: with fewer, no link crosses one (decision 0541).
  size_t links = F.buildings.size() < 2 ? 0 : F.numLinks();
  for (size_t l = 0; l < links; ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    uint32_t ba = F.buildingOf(a), bb = F.buildingOf(b);
    if (ba == None || bb == None || ba == bb)
      continue;
    Acc &acc = pairs[{std::min(ba, bb), std::max(ba, bb)}];
    double bw = F.portSpeed(F.linkA[l]);
    ++acc.links;
    acc.bw += bw;
    ir::Tier ta = F.devTier[a], tb = F.devTier[b];
    if (ta == ir::Tier::Unknown || tb == ir::Tier::Unknown || ta == tb)
      continue;
    unsigned lo = std::min(ir::tierIndex(ta), ir::tierIndex(tb));
    acc.cut[lo] += bw; // the leaves' downlinks (0) or tier lo's uplinks
  }
  auto &out = F.metrics.resilience.spans;
  out.clear();
  for (const auto &kv : pairs) {
    Terms t = T;
    for (unsigned i = 0; i < ir::NumTiers; ++i)
      t.v[i] -= kv.second.cut[i];
    out.push_back({kv.first.first, kv.first.second, kv.second.links, kv.second.bw, t.bisection()});
  }
}

// Articulation points of the device graph (links, and NVLink groups as chains) whose loss
// leaves GPUs outside the largest piece: an iterative Tarjan DFS, linear in links.
// Memory (decision 0541): a device's link neighbours are read from its own ports (each
// port is the end of at most one link, ir::verify), so only the NVLink chains get an
// adjacency list of their own. The DFS skips the first neighbour entry that leads back
// to a vertex's parent (the tree edge or a parallel copy of it): the other copies count
// as back edges to the parent either way. The visiting order is the ports' rather than
// the links', which changes no figure: a vertex's separated pieces are the pieces of the
// graph without it that do not hold the component's root (its lowest device), whatever
// the order.
void singlePoints(ir::Fabric &F) {
  size_t nd = F.numDevices();
  std::vector<uint32_t> cdeg(nd + 1, 0);
  auto forEachChainEdge = [&](auto &&fn) {
    for (const ir::Group &g : F.groups) {
      if (g.kind != ir::GroupKind::NvLink)
        continue;
      uint32_t prev = None;
      for (uint32_t d : g.devices()) {
        if (prev != None && prev != d)
          fn(prev, d);
        prev = d;
      }
    }
  };
  forEachChainEdge([&](uint32_t a, uint32_t b) {
    ++cdeg[a + 1];
    ++cdeg[b + 1];
  });
  std::partial_sum(cdeg.begin(), cdeg.end(), cdeg.begin());
  std::vector<uint32_t> cadj(cdeg[nd]);
  {
    std::vector<uint32_t> fill(cdeg.begin(), cdeg.end() - 1);
    forEachChainEdge([&](uint32_t a, uint32_t b) {
      cadj[fill[a]++] = b;
      cadj[fill[b]++] = a;
    });
  }
  auto gpus = [&](uint32_t d) -> uint64_t {
    return F.devRole[d] == ir::Role::Compute && F.modelOf(d).kind == ir::ModelKind::System ? F.gpusOf(d) : 0;
  };
  // A vertex's DFS state in one record: the walk reaches vertices in no order the arrays
  // have, and each array apart was a cache miss of its own at discovery and at return.
  // `sub` starts as the vertex's own GPUs, filled in one pass in device order. `it` is the
  // next neighbour: k < ports is port k of the device, then chain entry k - ports.
  struct Vertex {
    uint32_t disc = 0, low = 0, parent = None, it = 0;
    uint32_t comp = None;
    uint32_t skippedParent = 0;
    uint64_t sub = 0;
  };
  std::vector<Vertex> V(nd);
  for (uint32_t d = 0; d < nd; ++d)
    V[d].sub = gpus(d);
  std::vector<uint64_t> sepSum(nd, 0), sepMax(nd, 0);
  std::vector<uint64_t> compTotal;
  std::vector<uint32_t> stack;
  uint32_t timer = 0;
  for (uint32_t r = 0; r < nd; ++r) {
    if (V[r].disc)
      continue;
    uint32_t c = uint32_t(compTotal.size());
    stack.push_back(r);
    V[r].disc = V[r].low = ++timer;
    V[r].comp = c;
    while (!stack.empty()) {
      uint32_t v = stack.back();
      Vertex &x = V[v];
      uint32_t ports = F.layoutOf(v).ports;
      if (x.it < ports + (cdeg[v + 1] - cdeg[v])) {
        uint32_t k = x.it++, w;
        if (k < ports) {
          uint32_t p = F.devPortBase[v] + k, l = F.portLink[p];
          if (l == None || (w = F.portDevice[F.otherEnd(l, p)]) == v)
            continue; // no link, or one between two ports of this device
        } else {
          w = cadj[cdeg[v] + k - ports];
        }
        if (w == x.parent && !x.skippedParent) {
          x.skippedParent = 1;
          continue;
        }
        Vertex &y = V[w];
        if (y.disc) {
          x.low = std::min(x.low, y.disc);
          continue;
        }
        y.disc = y.low = ++timer;
        y.parent = v;
        y.comp = c;
        stack.push_back(w);
        continue;
      }
      stack.pop_back();
      if (x.parent == None)
        continue;
      Vertex &px = V[x.parent];
      px.low = std::min(px.low, x.low);
      px.sub += x.sub;
      if (x.low >= px.disc) { // v's subtree hangs on its parent alone
        sepSum[x.parent] += x.sub;
        sepMax[x.parent] = std::max(sepMax[x.parent], x.sub);
      }
    }
    compTotal.push_back(V[r].sub);
  }
  ir::ResilienceStats &R = F.metrics.resilience;
  static_cast<ir::SinglePointStats &>(R) = {}; // only this step's part, as measureResilience
  for (uint32_t v = 0; v < nd; ++v) {
    if (!ir::isSwitchTier(F.devTier[v]) && F.modelOf(v).kind != ir::ModelKind::Switch)
      continue;
    if (!sepSum[v])
      continue;
    uint64_t rest = compTotal[V[v].comp] - gpus(v) - sepSum[v]; // the piece holding the parent (0 at a root)
    uint64_t largest = std::max(sepMax[v], rest);
    uint64_t cut = compTotal[V[v].comp] - gpus(v) - largest;
    if (!cut)
      continue;
    ++R.singlePointCount;
    R.gpusBehindSinglePoints += cut;
    R.singlePoints.push_back({v, cut});
  }
  std::stable_sort(R.singlePoints.begin(), R.singlePoints.end(),
                   [](const ir::SinglePoint &a, const ir::SinglePoint &b) { return a.gpus > b.gpus; });
  if (R.singlePoints.size() > 100)
    R.singlePoints.resize(100);
}

struct Dsu {
  std::vector<uint32_t> p;
  explicit Dsu(size_t n) : p(n) { std::iota(p.begin(), p.end(), 0); }
  uint32_t find(uint32_t x) {
    while (p[x] != x)
      x = p[x] = p[p[x]];
    return x;
  }
  void join(uint32_t a, uint32_t b) {
    a = find(a), b = find(b);
    if (a != b)
      p[std::max(a, b)] = std::min(a, b);
  }
};

} // namespace

ir::Tier resilienceTier(const ir::Fabric &F, const ir::PolicyBlock &p) {
  const ir::Setting *s = p.get(F.strings, "tier");
  if (!s)
    return F.metrics.topTier ? ir::Tier(F.metrics.topTier) : ir::Tier::Unknown;
  if (s->type != ir::Setting::String)
    return ir::Tier::Unknown;
  ir::Tier t = ir::tierFromName(F.strings.str(s->str));
  return ir::isSwitchTier(t) ? t : ir::Tier::Unknown;
}

void measureResilience(ir::Fabric &F, TierLoads &&loads) {
  ir::ResilienceStats &R = F.metrics.resilience;
  // Only this step's part: the reach and the single points are written at the same time
  // on the other half of analysis::measure.
  static_cast<ir::ResilienceLosses &>(R) = {};
  Loads L = gather(F, std::move(loads));
  Terms T = intactTerms(F.metrics);
  for (unsigned t = 1; t < ir::NumTiers; ++t) {
    if (!F.metrics.tiers[t].switches)
      continue;
    R.tiers[t] = tierLoss(F, L, T, t, 1);
    if (R.tiers[t].worstSwitch != None &&
        (R.worstSwitch == None || R.tiers[t].worstSwitchBisection < R.worstSwitchBisection)) {
      R.worstSwitch = R.tiers[t].worstSwitch;
      R.worstSwitchBisection = R.tiers[t].worstSwitchBisection;
    }
  }
  for (const ir::PolicyBlock &p : F.extraPolicies) {
    if (F.strings.str(p.kind) != "resilience")
      continue;
    ir::Tier t = resilienceTier(F, p);
    const ir::Setting *lose = p.get(F.strings, "lose");
    uint32_t k = lose && lose->type == ir::Setting::Number ? uint32_t(std::max(1.0, lose->number)) : 1;
    ir::TierLoss r;
    if (t != ir::Tier::Unknown && F.metrics.tiers[ir::tierIndex(t)].switches)
      r = tierLoss(F, L, T, ir::tierIndex(t), k);
    else
      r.tier = uint8_t(ir::tierIndex(t) < ir::NumTiers ? ir::tierIndex(t) : 0);
    R.asked.push_back(r);
  }
  spanLosses(F, T);
}

void measureSinglePoints(ir::Fabric &F) { singlePoints(F); }

void measureReachability(ir::Fabric &F) {
  size_t nd = F.numDevices();
  Dsu net(nd), all(nd);
  for (size_t l = 0; l < F.numLinks(); ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    all.join(a, b);
    if (isSwitch(F, a) && isSwitch(F, b))
      net.join(a, b);
  }
  for (const ir::Group &g : F.groups) {
    if (g.kind != ir::GroupKind::NvLink || g.devices().empty())
      continue;
    uint32_t first = g.devices().front();
    for (uint32_t d : g.devices())
      all.join(first, d);
  }
  // Endpoints: the GPUs of compute systems, each owning `ports_per_gpu` ports of its
  // system's first port group (one port, one GPU endpoint, by default). A GPU is an
  // endpoint when a port of it is cabled to a switch; its islands are the network islands
  // of those switches (one per plane in a multi-plane design), and two GPUs reach each
  // other over the network when they share an island. GPUs are tallied by their set of
  // islands (a signature): a handful of signatures even for a million GPUs.
  struct Sig {
    uint64_t n = 0;
    uint32_t comp = None, example = None; // component of the whole; an endpoint port
  };
  std::vector<Sig> sigs;
  std::vector<uint32_t> singleSig(nd, None);         // island -> its one-island signature
  std::map<std::vector<uint32_t>, uint32_t> multiSig; // several islands -> signature
  std::vector<std::vector<uint32_t>> sigIslands;
  std::vector<uint8_t> islandSeen(nd, 0);
  std::vector<uint64_t> perAll(nd, 0);
  ir::Reachability &R = F.metrics.resilience.reach;
  R = {};
  std::vector<uint32_t> mine;
  uint32_t firstPort = None;
  for (uint32_t d = 0; d < nd; ++d) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::System || !m.gpus || F.devRole[d] != ir::Role::Compute || F.layoutOf(d).groups.empty())
      continue;
    const ir::GroupLayout &g = F.layoutOf(d).groups[0];
    uint32_t per = std::max<uint32_t>(1, m.portsPerGpu);
    for (uint32_t e = 0; e * per < g.count; ++e) {
      mine.clear();
      firstPort = None;
      uint32_t comp = None;
      for (uint32_t p = e * per; p < (e + 1) * per && p < g.count; ++p) {
        uint32_t port = F.devPortBase[d] + g.offset + p, l = F.portLink[port];
        if (l == None)
          continue;
        uint32_t sw = F.portDevice[F.otherEnd(l, port)];
        if (!isSwitch(F, sw))
          continue;
        mine.push_back(net.find(sw));
        comp = all.find(sw);
        if (firstPort == None)
          firstPort = port;
      }
      if (mine.empty())
        continue;
      std::sort(mine.begin(), mine.end());
      mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
      uint32_t s;
      if (mine.size() == 1) {
        uint32_t &slot = singleSig[mine[0]];
        if (slot == None) {
          slot = uint32_t(sigs.size());
          sigs.push_back({0, comp, firstPort});
          sigIslands.push_back(mine);
        }
        s = slot;
      } else {
        auto it = multiSig.find(mine);
        if (it == multiSig.end()) {
          it = multiSig.emplace(mine, uint32_t(sigs.size())).first;
          sigs.push_back({0, comp, firstPort});
          sigIslands.push_back(mine);
        }
        s = it->second;
      }
      ++sigs[s].n;
      ++perAll[comp];
      ++R.endpoints;
      for (uint32_t i : mine)
        islandSeen[i] = 1;
    }
  }
  auto pairs = [](double n) { return n * (n - 1) / 2; };
  for (uint32_t d = 0; d < nd; ++d) {
    R.islands += islandSeen[d];
    if (perAll[d]) {
      ++R.joined;
      R.nvlinkOnlyPairs += pairs(double(perAll[d]));
    }
  }
  // Pairs over the network: within a signature all of them; between two signatures all
  // of them when they share an island. Signatures meet through the islands they hold.
  // A list per island that holds a signature, not per device (24 bytes a device, mostly
  // empty; decision 0541).
  std::vector<uint32_t> islandSlot(nd, None);
  std::vector<std::vector<uint32_t>> sigsOfIsland;
  for (uint32_t s = 0; s < sigs.size(); ++s)
    for (uint32_t i : sigIslands[s]) {
      if (islandSlot[i] == None) {
        islandSlot[i] = uint32_t(sigsOfIsland.size());
        sigsOfIsland.emplace_back();
      }
      sigsOfIsland[islandSlot[i]].push_back(s);
    }
  std::vector<uint32_t> metBy(sigs.size(), None);
  for (uint32_t s = 0; s < sigs.size(); ++s) {
    R.networkPairs += pairs(double(sigs[s].n));
    for (uint32_t i : sigIslands[s])
      for (uint32_t t : sigsOfIsland[islandSlot[i]])
        if (t > s && metBy[t] != s) {
          metBy[t] = s;
          R.networkPairs += double(sigs[s].n) * double(sigs[t].n);
        }
  }
  // An example pair for the diagnostic: a signature sharing no island with the first
  // signature of its component, the earliest in device order; else any such pair among
  // the first few hundred signatures (a multi-island design).
  auto disjoint = [&](uint32_t s, uint32_t t) {
    for (uint32_t i : sigIslands[s])
      if (std::binary_search(sigIslands[t].begin(), sigIslands[t].end(), i))
        return false;
    return true;
  };
  std::vector<uint32_t> firstOfComp(nd, None);
  for (uint32_t t = 0; t < sigs.size() && R.island0 == None; ++t) {
    uint32_t &s = firstOfComp[sigs[t].comp];
    if (s == None)
      s = t;
    else if (disjoint(s, t)) {
      R.island0 = sigs[s].example;
      R.island1 = sigs[t].example;
    }
  }
  for (uint32_t t = 1; t < sigs.size() && t < 512 && R.island0 == None; ++t)
    for (uint32_t s = 0; s < t && R.island0 == None; ++s)
      if (sigs[s].comp == sigs[t].comp && disjoint(s, t)) {
        R.island0 = sigs[s].example;
        R.island1 = sigs[t].example;
      }
  R.pairs = pairs(double(R.endpoints));
  R.unreachablePairs = R.pairs - R.nvlinkOnlyPairs;
  R.nvlinkOnlyPairs -= R.networkPairs;
  R.railOnly = R.nvlinkOnlyPairs > 0.5;
}

} // namespace fabc::analysis
