// dot/fabric.dot: the fabric for Graphviz. Tiers are ranks (the top tier at the top,
// `rank=same` per tier), su and pod groups are clusters (nested as the groups nest),
// parallel links are one edge labelled with their count.
//
// A fabric of more than `option dot_max_nodes` devices (default 1000) is drawn
// collapsed: one node per (group, tier, model) with its device count, one edge per pair
// of such nodes with its link count. The groups used are the deepest level of su/pod
// nesting that stays under the limit, so a 100,000-GPU design still renders.
#include "backends/dot/Dot.h"

#include "backends/Common.h"
#include "backends/Hostnames.h"
#include "diag/Diag.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

namespace fabc {
namespace {
using ir::None;

bool clusterKind(ir::GroupKind k) { return k == ir::GroupKind::Su || k == ir::GroupKind::Pod; }

// su/pod groups as a forest: each device in its innermost group, each group in the
// smallest one around it (groups nest in designs; overlapping ones are not nested).
struct Clusters {
  std::vector<uint32_t> innermost; // device -> group, None
  std::vector<uint32_t> parent;    // group -> group, None
  std::vector<uint32_t> depth;     // group -> 0 for the outermost
  uint32_t maxDepth = 0;
  bool any = false;
};

Clusters buildClusters(const ir::Fabric &F) {
  Clusters c;
  c.innermost.assign(F.numDevices(), None);
  c.parent.assign(F.groups.size(), None);
  c.depth.assign(F.groups.size(), 0);
  auto size = [&](uint32_t g) {
    const ir::Group &G = F.groups[g];
    return G.contiguous ? uint64_t(G.end - G.begin) : uint64_t(G.members.size());
  };
  std::vector<uint32_t> order;
  for (uint32_t g = 0; g < F.groups.size(); ++g)
    if (clusterKind(F.groups[g].kind) && size(g))
      order.push_back(g);
  // Outer groups first, so that inner ones overwrite them; ties keep declaration order.
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return size(a) > size(b); });
  for (uint32_t g : order) {
    const ir::Group &G = F.groups[g];
    uint32_t first = G.contiguous ? G.begin : G.members[0];
    c.parent[g] = c.innermost[first];
    c.depth[g] = c.parent[g] == None ? 0 : c.depth[c.parent[g]] + 1;
    c.maxDepth = std::max(c.maxDepth, c.depth[g]);
    c.any = true;
    if (G.contiguous)
      for (uint32_t d = G.begin; d < G.end; ++d)
        c.innermost[d] = g;
    else
      for (uint32_t d : G.members)
        c.innermost[d] = g;
  }
  return c;
}

// The group of `dev` at nesting depth `level` or less; None past the outermost (-1).
uint32_t groupAt(const Clusters &c, uint32_t dev, int level) {
  uint32_t g = c.innermost[dev];
  while (g != None && int(c.depth[g]) > level)
    g = c.parent[g];
  return g;
}

struct Node {
  std::string id, label;
  uint8_t tier;
  bool isSwitch;
  uint32_t group; // cluster, None
  uint64_t count = 0;
};

const char *tierColor(uint8_t tier) {
  static const char *colors[] = {"#e8e8e8", "#c6dbef", "#fdd49e", "#fcbba1", "#dadaeb"};
  return tier < 5 ? colors[tier] : "#ffffff";
}

std::string quote(std::string_view s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '\n') {
      r += "\\n"; // a centred line break
      continue;
    }
    if (c == '"' || c == '\\')
      r += '\\';
    r += c;
  }
  return r + "\"";
}

std::string modelName(const ir::Fabric &F, uint32_t dev) { return std::string(F.strings.str(F.modelOf(dev).name)); }

void emitNode(OutFile &o, const Node &n, const std::string &indent) {
  o.print("{}{} [label={}, shape={}, style=filled, fillcolor=\"{}\"];\n", indent, quote(n.id), quote(n.label),
          n.isSwitch ? "box" : "ellipse", tierColor(n.tier));
}

// A cluster's nodes, tier by tier (top tier first, one rank each), then its clusters.
void emitCluster(const ir::Fabric &F, OutFile &o, uint32_t g, const std::vector<std::vector<uint32_t>> &nodesOf,
                 const std::vector<std::vector<uint32_t>> &childrenOf, const std::vector<Node> &nodes, int depth) {
  std::string indent(size_t(2 * depth + 2), ' ');
  bool top = g == None;
  uint32_t slot = top ? uint32_t(F.groups.size()) : g;
  if (!top) {
    const ir::Group &G = F.groups[g];
    std::string name = F.nodeName(G.node);
    o.print("{}subgraph {} {{\n{}  label={}; style=rounded; color=\"#808080\";\n", indent,
            quote("cluster_" + names::label(name)), indent,
            quote(name + " (" + std::string(F.strings.str(G.kindName)) + ")"));
    indent += "  ";
  }
  std::map<uint8_t, std::vector<uint32_t>, std::greater<uint8_t>> byTier;
  for (uint32_t n : nodesOf[slot])
    byTier[nodes[n].tier].push_back(n);
  for (const auto &kv : byTier) {
    o.print("{}{{ rank=same;\n", indent);
    for (uint32_t n : kv.second)
      emitNode(o, nodes[n], indent + "  ");
    o.print("{}}}\n", indent);
  }
  for (uint32_t c : childrenOf[slot])
    emitCluster(F, o, c, nodesOf, childrenOf, nodes, depth + (top ? 0 : 1));
  if (!top)
    o.print("{}}}\n", std::string(size_t(2 * depth + 2), ' '));
}

} // namespace

bool runDot(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const DotPlan &plan = ctx.an.dot; // dot_max_nodes and the host names, checked by checks::checkDot
  uint32_t maxNodes = plan.maxNodes;
  Clusters C = buildClusters(F);
  const size_t n = F.numDevices();
  std::vector<Node> nodes;
  std::vector<uint32_t> nodeOf(n, None);
  bool collapsed = plan.collapsed;
  int level = -1; // collapsed: the su/pod nesting depth the drawing keeps
  if (!collapsed) {
    const std::vector<std::string> &hosts = plan.hosts;
    for (uint32_t d = 0; d < n; ++d) {
      nodeOf[d] = uint32_t(nodes.size());
      bool sw = F.modelOf(d).kind == ir::ModelKind::Switch;
      nodes.push_back({hosts[d], hosts[d] + "\n" + modelName(F, d), F.devTier[d], sw, C.innermost[d], 1});
    }
  } else {
    // The deepest nesting level whose (group, tier, model) nodes stay under the limit.
    using Key = std::tuple<uint32_t, uint8_t, uint32_t>; // group, tier, model
    for (level = int(C.any ? C.maxDepth : 0); level >= -1; --level) {
      std::map<Key, uint32_t> keys;
      for (uint32_t d = 0; d < n && keys.size() <= maxNodes; ++d)
        keys.emplace(Key{groupAt(C, d, level), F.devTier[d], F.devModel[d]}, 0);
      if (keys.size() <= maxNodes || level == -1)
        break;
    }
    std::map<Key, uint32_t> index;
    for (uint32_t d = 0; d < n; ++d) {
      uint32_t g = groupAt(C, d, level);
      auto ins = index.emplace(Key{g, F.devTier[d], F.devModel[d]}, uint32_t(nodes.size()));
      if (ins.second) {
        bool sw = F.modelOf(d).kind == ir::ModelKind::Switch;
        std::string where = g == None ? "" : names::label(F.nodeName(F.groups[g].node)) + "/";
        std::string what = sw ? std::string(tierName(F.devTier[d])) : std::string("systems");
        nodes.push_back({where + what + "/" + modelName(F, d), "", F.devTier[d], sw, g, 0});
      }
      nodeOf[d] = ins.first->second;
      ++nodes[nodeOf[d]].count;
    }
    for (Node &nd : nodes) {
      std::string model = nd.id.substr(nd.id.rfind('/') + 1);
      nd.label = fmt::format("{} x {}\n{}", nd.count, model, nd.id.substr(0, nd.id.rfind('/')));
    }
  }

  // Edges between drawn nodes, the upper tier first (the tail ranks above the head).
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> edges;
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    uint32_t a = nodeOf[F.portDevice[F.linkA[l]]], b = nodeOf[F.portDevice[F.linkB[l]]];
    auto up = [&](uint32_t x) { return nodes[x].tier == 255 ? -1 : int(nodes[x].tier); };
    if (up(b) > up(a) || (up(b) == up(a) && b < a))
      std::swap(a, b);
    ++edges[{a, b}];
  }

  // Nodes by cluster; clusters that hold something (or hold clusters that do).
  std::vector<std::vector<uint32_t>> nodesOf(F.groups.size() + 1), childrenOf(F.groups.size() + 1);
  std::vector<uint8_t> used(F.groups.size(), 0);
  const uint32_t topSlot = uint32_t(F.groups.size());
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    uint32_t g = nodes[i].group;
    nodesOf[g == None ? topSlot : g].push_back(i);
    for (; g != None && !used[g]; g = C.parent[g])
      used[g] = 1;
  }
  for (uint32_t g = 0; g < F.groups.size(); ++g)
    if (used[g])
      childrenOf[C.parent[g] == None ? topSlot : C.parent[g]].push_back(g);

  OutFile *o = ctx.out.open("dot/fabric.dot");
  if (!o)
    return failOpen(ctx);
  o->print("// fabc {}: fabric '{}' for Graphviz (dot -Tsvg dot/fabric.dot > fabric.svg)\n", ctx.info.version, F.name);
  if (collapsed)
    o->print("// {} devices and {} links, over dot_max_nodes ({}): one node per {}tier and model, edges labelled with "
             "their link count\n",
             n, F.numLinks(), maxNodes, level >= 0 ? "group, " : "");
  std::string title = collapsed ? fmt::format("{} ({} devices, {} links; collapsed)", F.name, n, F.numLinks())
                                : fmt::format("{} ({} devices, {} links)", F.name, n, F.numLinks());
  o->print("graph {} {{\n  graph [label={}, labelloc=t, fontname=\"Helvetica\", rankdir=TB, ranksep=1.0, "
           "nodesep=0.15, newrank=true];\n  node [fontname=\"Helvetica\", fontsize=10];\n  edge [color=\"#00000080\"];\n",
           quote(F.name), quote(title));
  emitCluster(F, *o, None, nodesOf, childrenOf, nodes, 0);
  for (const auto &kv : edges) {
    o->print("  {} -- {}", quote(nodes[kv.first.first].id), quote(nodes[kv.first.second].id));
    if (kv.second > 1)
      o->print(" [label=\"{}{}\", penwidth={:.1f}]", collapsed ? "" : "x", kv.second,
               std::min(1.0 + std::log2(double(kv.second)) / 2, 6.0));
    o->write(";\n");
  }
  o->write("}\n");
  return true;
}

} // namespace fabc
