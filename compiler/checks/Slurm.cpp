// The checks of the Slurm output, and the topology they hold for (docs/backends.md#slurm):
// nodes are the compute systems (role compute), named by the host-name rule; the tree
// follows their first port group, the GPU ports, as checkPorts does.
//
// Leaves that share nodes (a rail-optimized SU: every node on each of the SU's rail
// leaves) are one Slurm leaf switch, since Slurm expects a node under one leaf
// ("Multiple leaf switches contain nodes") and places jobs by the switch they share.
#include "diag/DiagCodes.h"
#include "checks/OutputChecks.h"

#include "checks/HostNames.h"
#include "diag/Diag.h"
#include "passes/Passes.h"

#include <llvm/ADT/StringSet.h>

#include <algorithm>
#include <numeric>

namespace fabc::checks {
namespace {
using ir::None;

bool isNode(const ir::Fabric &F, uint32_t d) {
  return F.modelOf(d).kind == ir::ModelKind::System && F.devRole[d] == ir::Role::Compute;
}
bool isSwitch(const ir::Fabric &F, uint32_t d) { return F.modelOf(d).kind == ir::ModelKind::Switch; }

uint32_t find(std::vector<uint32_t> &p, uint32_t x) {
  while (p[x] != x)
    x = p[x] = p[p[x]];
  return x;
}

// The smallest su/pod/other group that holds every device of `devs` and no other leaf
// (`leavesIn` counts each group's leaves); None if none. A group holding other leaves too
// (a pod of several leaf groups, as in a multi-plane pod) names none of them.
uint32_t enclosingGroup(const ir::Fabric &F, const std::vector<std::vector<uint32_t>> &groupsOf,
                        const std::vector<uint32_t> &leavesIn, const std::vector<uint32_t> &devs) {
  uint32_t best = None;
  uint64_t bestSize = UINT64_MAX;
  for (uint32_t g : groupsOf[devs[0]]) {
    bool all = true;
    for (uint32_t d : devs)
      if (std::find(groupsOf[d].begin(), groupsOf[d].end(), g) == groupsOf[d].end()) {
        all = false;
        break;
      }
    const ir::Group &G = F.groups[g];
    uint64_t size = G.devices().size();
    if (all && leavesIn[g] == devs.size() && size < bestSize) {
      best = g;
      bestSize = size;
    }
  }
  return best;
}

bool buildTree(const ir::Fabric &F, DiagEngine &diags, SlurmPlan &t) {
  const size_t n = F.numDevices();
  // Node -> the switches its GPU ports reach; leaves sharing a node are united.
  std::vector<uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<uint8_t> isLeaf(n, 0);
  std::vector<uint32_t> firstLeaf(n, None); // node -> one of its leaves
  for (uint32_t d = 0; d < n; ++d) {
    if (!isNode(F, d) || F.layoutOf(d).groups.empty())
      continue;
    const ir::GroupLayout &g = F.layoutOf(d).groups[0];
    for (uint32_t i = 0; i < g.count; ++i) {
      uint32_t p = F.devPortBase[d] + g.offset + i, l = F.portLink[p];
      if (l == None)
        continue;
      uint32_t s = F.portDevice[F.otherEnd(l, p)];
      if (!isSwitch(F, s))
        continue;
      isLeaf[s] = 1;
      if (firstLeaf[d] == None)
        firstLeaf[d] = s;
      else
        parent[find(parent, s)] = find(parent, firstLeaf[d]);
    }
  }
  t.entryOf.assign(n, None);
  // Leaf entries, in the order of their first switch.
  std::vector<uint32_t> entryOfRoot(n, None);
  for (uint32_t s = 0; s < n; ++s) {
    if (!isLeaf[s])
      continue;
    uint32_t r = find(parent, s);
    if (entryOfRoot[r] == None) {
      entryOfRoot[r] = uint32_t(t.entries.size());
      t.entries.emplace_back();
    }
    t.entryOf[s] = entryOfRoot[r];
    t.entries[entryOfRoot[r]].switches.push_back(s);
  }
  if (t.entries.empty()) {
    Diagnostic *d = diags.report(DiagCode::W0158, F.loc, "fabric '{}' has no compute system linked to a switch: no "
                                 "Slurm file written", F.name);
    DiagEngine::note(d, {}, "the Slurm topology follows the first port group (the GPU ports) of compute systems");
    return false;
  }
  for (uint32_t d = 0; d < n; ++d)
    if (firstLeaf[d] != None)
      t.entries[t.entryOf[firstLeaf[d]]].nodes.push_back(d);
  // The switches above, tier by tier: children are the entries of lower-tier neighbours.
  std::vector<std::vector<uint32_t>> upperByTier(ir::Metrics::MaxTier);
  for (uint32_t s = 0; s < n; ++s)
    if (isSwitch(F, s) && !isLeaf[s] && F.devTier[s] >= ir::Tier::Spine && ir::isSwitchTier(F.devTier[s]))
      upperByTier[ir::tierIndex(F.devTier[s])].push_back(s);
  std::vector<std::vector<uint32_t>> neighbours(n);
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    if (isSwitch(F, a) && isSwitch(F, b)) {
      neighbours[a].push_back(b);
      neighbours[b].push_back(a);
    }
  }
  unsigned mixed = 0;
  for (uint32_t s = 0; s < n; ++s) {
    if (!isLeaf[s] || F.devTier[s] == ir::Tier::Unknown)
      continue;
    for (uint32_t w : neighbours[s])
      if (isLeaf[w] && F.devTier[w] < F.devTier[s]) {
        if (mixed++ < 20) {
          Diagnostic *dg = diags.report(DiagCode::W0156, {F.devLoc[s], 1},
                                        "switch '{}' has compute systems and lower-tier switch '{}' below it; "
                                        "topology.conf lists it as a leaf only",
                                        F.deviceName(s), F.deviceName(w));
          passes::noteInstances(dg, F, s);
          DiagEngine::note(dg, {}, "Slurm's tree topology gives a switch either nodes or switches");
        } else {
          diags.tally(DiagCode::W0156, {F.devLoc[s], 1});
        }
        break;
      }
  }
  for (uint32_t tier = 2; tier < ir::Metrics::MaxTier; ++tier)
    for (uint32_t s : upperByTier[tier]) {
      std::vector<uint32_t> kids;
      for (uint32_t w : neighbours[s])
        if (t.entryOf[w] != None && ir::tierIndex(F.devTier[w]) < tier)
          kids.push_back(t.entryOf[w]);
      std::sort(kids.begin(), kids.end());
      kids.erase(std::unique(kids.begin(), kids.end()), kids.end());
      if (kids.empty())
        continue;
      t.entryOf[s] = uint32_t(t.entries.size());
      SlurmPlan::Entry e;
      e.switches = {s};
      e.children = std::move(kids);
      e.tier = uint8_t(tier);
      t.entries.push_back(std::move(e));
    }

  // Host names of every switch and node in the tree, checked; then entry names.
  std::vector<uint32_t> named;
  for (uint32_t d = 0; d < n; ++d)
    if (t.entryOf[d] != None || firstLeaf[d] != None)
      named.push_back(d);
  std::vector<std::string> names;
  if (!checkHostNames(F, diags, named, &names))
    return false;
  t.host.assign(n, "");
  llvm::StringSet<> taken;
  for (size_t i = 0; i < named.size(); ++i) {
    t.host[named[i]] = names[i];
    taken.insert(names[i]);
  }
  // A leaf group is named after the smallest su, pod or other group holding its leaves
  // and no other.
  std::vector<std::vector<uint32_t>> groupsOf(n);
  std::vector<uint32_t> leavesIn(F.groups.size(), 0);
  for (uint32_t g = 0; g < F.groups.size(); ++g) {
    const ir::Group &G = F.groups[g];
    if (G.kind == ir::GroupKind::NvLink || G.kind == ir::GroupKind::Rail || G.kind == ir::GroupKind::Plane)
      continue;
    for (uint32_t d : G.devices())
      if (isLeaf[d]) {
        groupsOf[d].push_back(g);
        ++leavesIn[g];
      }
  }
  unsigned anonymous = 0;
  for (SlurmPlan::Entry &e : t.entries) {
    if (e.switches.size() == 1) {
      e.name = t.host[e.switches[0]];
      continue;
    }
    uint32_t g = enclosingGroup(F, groupsOf, leavesIn, e.switches);
    std::string name = g == None ? "" : names::label(F.nodeName(F.groups[g].node));
    while (name.empty() || taken.count(name))
      name = "leafgroup" + std::to_string(anonymous++);
    taken.insert(name);
    e.name = name;
  }
  return true;
}

// One block per NVLink group (its compute systems); without any, one per compute system
// (NVLink stays inside the box).
void buildBlocks(const ir::Fabric &F, DiagEngine &diags, SlurmPlan &t) {
  using Block = SlurmPlan::Block;
  std::vector<Block> &blocks = t.blocks;
  std::vector<uint8_t> inBlock(F.numDevices(), 0);
  for (const ir::Group &G : F.groups) {
    if (G.kind != ir::GroupKind::NvLink)
      continue;
    Block b;
    b.name = names::label(F.nodeName(G.node));
    auto add = [&](uint32_t d) {
      if (isNode(F, d) && !t.host[d].empty()) {
        b.nodes.push_back(d);
        b.gpus += F.gpusOf(d);
        inBlock[d] = 1;
      }
    };
    for (uint32_t d : G.devices())
      add(d);
    if (!b.nodes.empty())
      blocks.push_back(std::move(b));
  }
  bool fromGroups = !blocks.empty();
  uint32_t outside = 0, firstOutside = None;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    if (!isNode(F, d) || t.host[d].empty() || inBlock[d])
      continue;
    if (fromGroups) {
      if (!outside++)
        firstOutside = d;
      continue;
    }
    blocks.push_back({t.host[d], {d}, F.gpusOf(d)});
  }
  // Consecutive blocks aggregate into the larger sizes: keep the design's order.
  std::stable_sort(blocks.begin(), blocks.end(),
                   [](const Block &a, const Block &b) { return a.nodes[0] < b.nodes[0]; });
  size_t base = SIZE_MAX, largest = 0;
  for (const Block &b : blocks) {
    base = std::min(base, b.nodes.size());
    largest = std::max(largest, b.nodes.size());
  }
  if (outside) {
    Diagnostic *d = diags.report(DiagCode::W0155, {F.devLoc[firstOutside], 1},
                                 "{} compute system{} in no NVLink group, left out of the block topology "
                                 "(first: '{}')",
                                 outside, outside == 1 ? " is" : "s are", F.deviceName(firstOutside));
    passes::noteInstances(d, F, firstOutside);
    DiagEngine::note(d, {}, "add it to a 'group nvlink', or schedule it with the tree topology");
  }
  if (base != largest) {
    Diagnostic *d = diags.report(DiagCode::W0154, F.loc,
                                 "NVLink blocks have {} to {} nodes; Slurm's base block size is the smallest, {}",
                                 base, largest, base);
    DiagEngine::note(d, {}, "make the NVLink groups the same size to use every node of the larger ones as a block");
  }
  t.blocksFromGroups = fromGroups;
  t.baseBlock = base;
}

// A compute system whose model holds several hosts (a rack-scale GB200_NVL72: 18 compute
// trays, each its own OS) is one Slurm node here, where slurmd runs per host. The model's
// `hosts` says so (the catalog's figure, not a GPU count): one warning per model.
void warnRackScale(const ir::Fabric &F, DiagEngine &diags, const SlurmPlan &t) {
  std::vector<uint32_t> count(F.models.size(), 0), first(F.models.size(), None);
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    if (isNode(F, d) && !t.host[d].empty() && F.modelOf(d).hosts > 1 && !count[F.devModel[d]]++)
      first[F.devModel[d]] = d;
  for (uint32_t m = 0; m < F.models.size(); ++m) {
    if (!count[m])
      continue;
    const ir::Model &M = F.models[m];
    uint32_t d = first[m];
    Diagnostic *dg = diags.report(DiagCode::W0159, {F.devLoc[d], 1},
                                  "{} compute system{} of model '{}' hold{} {} hosts each, but Slurm gets each as one "
                                  "node of {} GPUs (first: '{}')",
                                  count[m], count[m] == 1 ? "" : "s", F.strings.str(M.name), count[m] == 1 ? "s" : "",
                                  M.hosts, F.gpusOf(d), F.deviceName(d));
    passes::noteInstances(dg, F, d);
    DiagEngine::note(dg, M.loc, fmt::format("model '{}' says hosts = {}", F.strings.str(M.name), M.hosts));
    DiagEngine::note(dg, {}, "model each host (compute tray) as a system of its own, in a 'group nvlink' for the rack: "
                             "examples/gb200/nvl72_pod.fab does so with GB200_ComputeTray");
  }
}

} // namespace

bool checkSlurm(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  SlurmPlan &t = an.slurm;
  t = SlurmPlan();
  t.checked = true;
  if (!buildTree(F, diags, t))
    return t.entries.empty(); // nothing to write (W0158) is a warning, not a failure
  warnRackScale(F, diags, t);
  buildBlocks(F, diags, t);
  return true;
}

} // namespace fabc::checks
