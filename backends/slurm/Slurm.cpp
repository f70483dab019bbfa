// Slurm's view of the fabric:
//   slurm/topology.conf        TopologyPlugin=topology/tree: leaf switches with their
//                              nodes, and the switches above them with their children
//   slurm/topology-block.conf  TopologyPlugin=topology/block (Slurm 23.11+): one block
//                              per NVLink domain, and BlockSizes
//   slurm/topology.yaml        both, as two topologies of one file (Slurm 25.05+), the
//                              tree the cluster default
// The tree, the blocks and the host names are built and checked by the output check
// (compiler/checks/Slurm.cpp); this file writes them.
#include "backends/slurm/Slurm.h"

#include "backends/Common.h"
#include "backends/Hostnames.h"

#include <algorithm>

namespace fabc {
namespace {
using Tree = SlurmPlan; // built and checked by checks/Slurm.cpp

bool isLeafEntry(const Tree::Entry &e) { return !e.nodes.empty(); }

// "unit0-dgx[0-31]" for a leaf entry's nodes, "unit[0-3]" for an upper entry's children.
std::string members(const Tree &t, const Tree::Entry &e) {
  std::vector<std::string> list;
  if (isLeafEntry(e))
    for (uint32_t d : e.nodes)
      list.push_back(t.host[d]);
  else
    for (uint32_t c : e.children)
      list.push_back(t.entries[c].name);
  return names::hostlist(std::move(list));
}

// The comment above a leaf group of several physical leaves.
std::string leavesComment(const Tree &t, const Tree::Entry &e) {
  std::vector<std::string> sw;
  for (uint32_t s : e.switches)
    sw.push_back(t.host[s]);
  return fmt::format("# {}: leaves {}, every node on each\n", e.name, names::hostlist(sw));
}

std::string blockNodes(const Tree &t, const Tree::Block &b) {
  std::vector<std::string> list;
  for (uint32_t d : b.nodes)
    list.push_back(t.host[d]);
  return names::hostlist(std::move(list));
}

// BlockSizes: the base block size and its doublings up to the number of blocks (at most
// 2^15 of them).
std::vector<size_t> blockSizes(const Tree &t) {
  std::vector<size_t> sizes;
  for (size_t k = 1; k <= t.blocks.size() && k <= (size_t(1) << 15); k *= 2)
    sizes.push_back(t.baseBlock * k);
  return sizes;
}

void emitTree(BackendContext &ctx, const Tree &t, OutFile &o) {
  const ir::Fabric &F = ctx.F;
  size_t nodes = 0, leaves = 0;
  for (const Tree::Entry &e : t.entries) {
    nodes += e.nodes.size();
    if (!e.nodes.empty())
      leaves += e.switches.size();
  }
  o.print("# fabc {}: Slurm topology of '{}' for TopologyPlugin=topology/tree\n", ctx.info.version, F.name);
  o.print("# {} nodes (compute systems, named as in docs/backends.md#host-names; slurm.conf's NodeName\n"
          "# must match), {} leaf switches, {} switches above them.\n",
          nodes, leaves, t.entries.size() - std::count_if(t.entries.begin(), t.entries.end(),
                                                           [](const Tree::Entry &e) { return !e.nodes.empty(); }));
  for (const Tree::Entry &e : t.entries) {
    if (isLeafEntry(e) && e.switches.size() > 1)
      o.write(leavesComment(t, e));
    o.print("SwitchName={} {}={}\n", e.name, isLeafEntry(e) ? "Nodes" : "Switches", members(t, e));
  }
}

// One block per NVLink group (its compute systems); without any, one per compute system
// (NVLink stays inside the box).
void emitBlocks(BackendContext &ctx, const Tree &t, OutFile &o) {
  const ir::Fabric &F = ctx.F;
  std::string sizes;
  for (size_t n : blockSizes(t))
    sizes += (sizes.empty() ? "" : ",") + std::to_string(n);
  o.print("# fabc {}: Slurm block topology of '{}' for TopologyPlugin=topology/block (Slurm 23.11+);\n"
          "# install it as topology.conf. {}\n"
          "# in declaration order: Slurm aggregates consecutive blocks into the larger BlockSizes.\n",
          ctx.info.version, F.name,
          t.blocksFromGroups ? "One block per NVLink group (its compute systems),"
                             : "The design has no NVLink group: one block per system,");
  o.print("BlockSizes={}\n", sizes);
  for (const Tree::Block &b : t.blocks)
    o.print("BlockName={} Nodes={}  # {} GPUs\n", b.name, blockNodes(t, b), b.gpus);
}

// topology.yaml (Slurm 25.05+, topology.yaml(5)): the tree and the blocks above as two
// topologies of one file, the tree the cluster default. Slurm's parser takes every name
// and list as a string (a hostlist expression) and block_sizes as integers; names are
// quoted, so a host name of digits stays a string.
void emitYaml(BackendContext &ctx, const Tree &t, OutFile &o) {
  const ir::Fabric &F = ctx.F;
  o.print("# fabc {}: Slurm topologies of '{}' for topology.yaml (Slurm 25.05 and later; it replaces\n"
          "# topology.conf when both exist). 'tree' (topology/tree) is the cluster default; a partition\n"
          "# takes 'block' (topology/block, one block per NVLink group) with Topology=block in slurm.conf.\n",
          ctx.info.version, F.name);
  o.write("- topology: tree\n  cluster_default: true\n  tree:\n    switches:\n");
  for (const Tree::Entry &e : t.entries) {
    if (isLeafEntry(e) && e.switches.size() > 1)
      o.write("      " + leavesComment(t, e));
    o.print("      - switch: \"{}\"\n        {}: \"{}\"\n", e.name, isLeafEntry(e) ? "nodes" : "children",
            members(t, e));
  }
  o.write("- topology: block\n  cluster_default: false\n  block:\n    block_sizes:\n");
  for (size_t n : blockSizes(t))
    o.print("      - {}\n", n);
  o.write("    blocks:\n");
  for (const Tree::Block &b : t.blocks)
    o.print("      - block: \"{}\"  # {} GPUs\n        nodes: \"{}\"\n", b.name, b.gpus, blockNodes(t, b));
}

} // namespace

bool runSlurm(BackendContext &ctx) {
  const Tree &t = ctx.an.slurm;
  if (t.entries.empty()) // nothing for Slurm (W0158): nothing to write
    return true;
  OutFile *tree = ctx.out.open("slurm/topology.conf");
  OutFile *block = ctx.out.open("slurm/topology-block.conf");
  OutFile *yaml = ctx.out.open("slurm/topology.yaml");
  if (!tree || !block || !yaml)
    return failOpen(ctx);
  emitTree(ctx, t, *tree);
  emitBlocks(ctx, t, *block);
  emitYaml(ctx, t, *yaml);
  return true;
}

} // namespace fabc
