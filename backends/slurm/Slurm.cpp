// Slurm's view of the fabric:
//   slurm/topology.conf        TopologyPlugin=topology/tree: leaf switches with their
//                              nodes, and the switches above them with their children
//   slurm/topology-block.conf  TopologyPlugin=topology/block (Slurm 23.11+): one block
//                              per NVLink domain, and BlockSizes
// The tree, the blocks and the host names are built and checked by the output check
// (compiler/checks/Slurm.cpp); this file writes them.
#include "backends/slurm/Slurm.h"

#include "backends/Common.h"
#include "backends/Hostnames.h"

#include <algorithm>

namespace fabc {
namespace {
using Tree = SlurmPlan; // built and checked by checks/Slurm.cpp

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
    std::vector<std::string> list;
    if (!e.nodes.empty()) {
      if (e.switches.size() > 1) {
        std::vector<std::string> sw;
        for (uint32_t s : e.switches)
          sw.push_back(t.host[s]);
        o.print("# {}: leaves {}, every node on each\n", e.name, names::hostlist(sw));
      }
      for (uint32_t d : e.nodes)
        list.push_back(t.host[d]);
      o.print("SwitchName={} Nodes={}\n", e.name, names::hostlist(std::move(list)));
    } else {
      for (uint32_t c : e.children)
        list.push_back(t.entries[c].name);
      o.print("SwitchName={} Switches={}\n", e.name, names::hostlist(std::move(list)));
    }
  }
}

// One block per NVLink group (its compute systems); without any, one per compute system
// (NVLink stays inside the box).
void emitBlocks(BackendContext &ctx, const Tree &t, OutFile &o) {
  const ir::Fabric &F = ctx.F;
  const std::vector<Tree::Block> &blocks = t.blocks;
  const size_t base = t.baseBlock;
  const bool fromGroups = t.blocksFromGroups;
  std::string sizes;
  for (size_t k = 1; k <= blocks.size() && k <= (size_t(1) << 15); k *= 2)
    sizes += (sizes.empty() ? "" : ",") + std::to_string(base * k);
  o.print("# fabc {}: Slurm block topology of '{}' for TopologyPlugin=topology/block (Slurm 23.11+);\n"
          "# install it as topology.conf. {}\n"
          "# in declaration order: Slurm aggregates consecutive blocks into the larger BlockSizes.\n",
          ctx.info.version, F.name,
          fromGroups ? "One block per NVLink group (its compute systems),"
                     : "The design has no NVLink group: one block per system,");
  o.print("BlockSizes={}\n", sizes);
  for (const Tree::Block &b : blocks) {
    std::vector<std::string> list;
    for (uint32_t d : b.nodes)
      list.push_back(t.host[d]);
    o.print("BlockName={} Nodes={}  # {} GPUs\n", b.name, names::hostlist(std::move(list)), b.gpus);
  }
}

} // namespace

bool runSlurm(BackendContext &ctx) {
  const Tree &t = ctx.an.slurm;
  if (t.entries.empty()) // nothing for Slurm (W0158): nothing to write
    return true;
  OutFile *tree = ctx.out.open("slurm/topology.conf");
  OutFile *block = ctx.out.open("slurm/topology-block.conf");
  if (!tree || !block)
    return failOpen(ctx);
  emitTree(ctx, t, *tree);
  emitBlocks(ctx, t, *block);
  return true;
}

} // namespace fabc
