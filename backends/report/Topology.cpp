// The topology drawing: one row per tier (the top tier at the top, end systems at the
// bottom), pods (else buildings) as columns, links aggregated between drawn nodes and
// coloured by media. Its size is bounded whatever the fabric's: columns, nodes per cell
// and edges are capped, and what is collapsed or left out is said under the drawing.
#include "backends/report/ReportKit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace fabc::report {
namespace {
using ir::None;

struct Col {
  std::string label;
  bool pod = false, aggregate = false;
  uint64_t devices = 0;
};
struct Node {
  double x = 0, y = 0, w = 0, h = 0;
  std::string label, sub, tip, index; // index: "[3]", shown when the label does not fit
  std::string shortSub;                // shown when sub does not fit
  bool block = false, system = false;
};
struct Edge {
  uint64_t links = 0;
  double bandwidth = 0;
  uint64_t media[size_t(ir::Media::Count)] = {};
  ir::Media dominant() const {
    size_t best = 0;
    for (size_t m = 1; m < size_t(ir::Media::Count); ++m)
      if (media[m] > media[best])
        best = m;
    return ir::Media(best);
  }
};

std::string n1(double v) { return fmt::format("{:.1f}", v); }

// The last segment of a device's name ("leaf[3]" of "unit[1].leaf[3]").
std::string shortName(const ir::Fabric &F, uint32_t d) {
  const ir::NameNode &n = F.nodes[F.devNode[d]];
  std::string s(F.strings.str(n.name));
  if (n.index >= 0)
    s += "[" + std::to_string(n.index) + "]";
  return s;
}
std::string modelLabel(const ir::Fabric &F, uint32_t m) {
  const ir::Model &x = F.models[m];
  return std::string(F.strings.str(x.sku ? x.sku : x.name));
}
// Cuts a label to about `width` px of text `charW` px a character wide (11 px bold: 7).
std::string fit(const std::string &s, double width, double charW = 7.0) {
  size_t max = size_t(std::max(2.0, width / charW)), chars = 0, cut = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
      continue; // a UTF-8 continuation byte: same character
    if (++chars == max)
      cut = i; // where the ellipsis goes if the label is too long
  }
  if (chars <= max)
    return s;
  return s.substr(0, cut) + "\xE2\x80\xA6";
}
} // namespace

void topology(std::string &out, const ir::Fabric &F, uint32_t collapse) {
  const size_t nd = F.numDevices();
  const ir::Metrics &M = F.metrics;
  // Columns: the pods the latency pass used, else the buildings.
  std::vector<Col> cols;
  std::vector<uint32_t> colOf(nd, None);
  if (M.podKind != ir::GroupKind::Other) {
    for (const ir::Group &g : F.groups) {
      if (g.kind != M.podKind)
        continue;
      uint32_t id = uint32_t(cols.size());
      cols.push_back({std::string(ir::groupKindName(g.kind)) + " " + F.nodeName(g.node), true});
      auto set = [&](uint32_t d) {
        if (colOf[d] == None)
          colOf[d] = id;
      };
      for (uint32_t d : g.devices())
        set(d);
    }
  } else if (F.buildings.size() > 1) {
    for (const ir::Building &b : F.buildings)
      cols.push_back({"building " + std::string(F.strings.str(b.name))});
    for (uint32_t d = 0; d < nd; ++d)
      colOf[d] = F.buildingOf(d);
  }
  const size_t MaxCols = 6;
  if (cols.size() > MaxCols) {
    size_t hidden = cols.size() - (MaxCols - 1);
    Col agg;
    agg.aggregate = true;
    agg.pod = cols.back().pod;
    auto bare = [](const std::string &l) { return l.substr(l.find(' ') + 1); }; // "pod p[5]" -> "p[5]"
    agg.label = fmt::format("{} \xE2\x80\xA6 {}: {} {}s", bare(cols[MaxCols - 1].label), bare(cols.back().label), hidden,
                            cols.back().label.substr(0, cols.back().label.find(' ')));
    cols.resize(MaxCols - 1);
    cols.push_back(agg);
    for (uint32_t &c : colOf)
      if (c != None && c >= MaxCols - 1)
        c = MaxCols - 1;
  }
  for (uint32_t d = 0; d < nd; ++d)
    if (colOf[d] != None)
      ++cols[colOf[d]].devices;
  const uint32_t ncols = uint32_t(cols.size());

  // Rows: per tier from the top, a full-width row for devices outside the columns, then
  // the columns' row.
  uint32_t top = 0;
  uint64_t untiered = 0;
  for (uint32_t d = 0; d < nd; ++d) {
    if (ir::tierIndex(F.devTier[d]) >= ir::NumTiers)
      ++untiered;
    else
      top = std::max(top, ir::tierIndex(F.devTier[d]));
  }
  bool sharedAt[ir::Metrics::MaxTier] = {}, colAt[ir::Metrics::MaxTier] = {};
  uint64_t perTier[ir::Metrics::MaxTier] = {}, gpusAt0 = 0;
  for (uint32_t d = 0; d < nd; ++d) {
    unsigned t = ir::tierIndex(F.devTier[d]);
    if (t >= ir::NumTiers)
      continue;
    (colOf[d] == None ? sharedAt : colAt)[t] = true;
    ++perTier[t];
    if (t == 0)
      gpusAt0 += F.gpusOf(d);
  }
  struct Row {
    uint32_t tier;
    bool columns;
  };
  std::vector<Row> rows;
  int rowIndex[ir::Metrics::MaxTier][2];
  for (int t = int(top); t >= 0; --t)
    for (int c = 0; c < 2; ++c) {
      rowIndex[t][c] = -1;
      if (c ? colAt[t] : sharedAt[t]) {
        rowIndex[t][c] = int(rows.size());
        rows.push_back({uint32_t(t), c == 1});
      }
    }
  if (rows.empty()) {
    out += "<p class=\"note\">The fabric has no devices to draw.</p>\n";
    return;
  }

  const double W = 1200, L = 150, X1 = W - 16, rowPitch = 104, Y0 = 34, nodeH = 32;
  const double areaW = X1 - L, colW = ncols ? areaW / ncols : areaW;
  const uint32_t cellsPerRow = ncols + 1; // the last: the shared, full-width cell
  auto cellOf = [&](uint32_t d) -> uint32_t {
    unsigned t = ir::tierIndex(F.devTier[d]);
    if (t >= ir::NumTiers)
      return None;
    bool c = colOf[d] != None;
    return uint32_t(rowIndex[t][c]) * cellsPerRow + (c ? colOf[d] : ncols);
  };
  size_t ncells = rows.size() * cellsPerRow;
  std::vector<uint64_t> cellCount(ncells, 0);
  // End systems in blocks are grouped by NVLink domain (a rack of GB200 trays, say) where
  // those blocks fit in their cell, else by model alone: key = (domain + 1) << 32 | model
  // (no domain: (None + 1) << 32 wraps to 0, the model's own key).
  std::vector<uint32_t> domainOf(nd, None);
  std::vector<std::string> domainName;
  for (const ir::Group &g : F.groups) {
    if (g.kind != ir::GroupKind::NvLink)
      continue;
    uint32_t id = uint32_t(domainName.size());
    domainName.push_back(F.nodeName(g.node));
    auto set = [&](uint32_t d) {
      if (domainOf[d] == None)
        domainOf[d] = id;
    };
    for (uint32_t d : g.devices())
      set(d);
  }
  std::vector<std::map<uint64_t, uint64_t>> cellModels(ncells), cellDomains(ncells);
  for (uint32_t d = 0; d < nd; ++d) {
    uint32_t c = cellOf(d);
    if (c == None)
      continue;
    ++cellCount[c];
    ++cellModels[c][F.devModel[d]];
    if (F.devTier[d] == ir::Tier::EndSystem)
      ++cellDomains[c][(uint64_t(domainOf[d]) + 1) << 32 | F.devModel[d]];
  }
  for (size_t c = 0; c < ncells; ++c) {
    double w = c % cellsPerRow == ncols ? areaW : colW;
    if (cellDomains[c].size() > 1 && cellDomains[c].size() <= uint64_t((w - 8) / 70))
      cellModels[c].swap(cellDomains[c]);
  }
  auto cellX = [&](uint32_t c, double &x0, double &w) {
    uint32_t k = c % cellsPerRow;
    x0 = k == ncols ? L : L + k * colW;
    w = k == ncols ? areaW : colW;
  };

  // Nodes: a device each in a cell that fits, else a block per model.
  std::vector<Node> nodes;
  std::vector<uint32_t> nodeOf(nd, None);
  std::vector<uint8_t> expanded(ncells, 0);
  bool podBlocks = false, fitBlocks = false;
  std::vector<std::vector<uint32_t>> cellDevices(ncells);
  auto layout = [&](bool forceBlocks) {
    nodes.clear();
    std::fill(nodeOf.begin(), nodeOf.end(), None);
    for (auto &v : cellDevices)
      v.clear();
    for (size_t c = 0; c < ncells; ++c) {
      if (!cellCount[c])
        continue;
      uint32_t k = uint32_t(c % cellsPerRow);
      const Row &r = rows[c / cellsPerRow];
      double x0, w;
      cellX(uint32_t(c), x0, w);
      uint64_t fits = uint64_t((w - 8) / 30);
      bool bigPod = k < ncols && (cols[k].aggregate || (cols[k].pod && cols[k].devices > collapse));
      expanded[c] = !forceBlocks && !bigPod && cellCount[c] <= fits && (r.tier != 0 || cellCount[c] <= 8);
      podBlocks |= bigPod && k < ncols && !cols[k].aggregate;
      fitBlocks |= !forceBlocks && !bigPod && !expanded[c] && r.tier != 0;
    }
    for (uint32_t d = 0; d < nd; ++d) {
      uint32_t c = cellOf(d);
      if (c != None && expanded[c])
        cellDevices[c].push_back(d);
    }
    for (size_t c = 0; c < ncells; ++c) {
      if (!cellCount[c])
        continue;
      const Row &r = rows[c / cellsPerRow];
      double x0, w;
      cellX(uint32_t(c), x0, w);
      double y = Y0 + (c / cellsPerRow) * rowPitch;
      size_t n = expanded[c] ? cellDevices[c].size() : cellModels[c].size();
      double gap = 6, maxW = expanded[c] ? 76 : 168;
      double nw = std::min(maxW, (w - 12 - gap * double(n - 1)) / double(n));
      double x = x0 + (w - (nw * n + gap * (n - 1))) / 2;
      uint32_t first = uint32_t(nodes.size());
      if (expanded[c]) {
        for (uint32_t d : cellDevices[c]) {
          Node nd_;
          nd_.label = shortName(F, d);
          int64_t ix = F.nodes[F.devNode[d]].index;
          nd_.index = ix >= 0 ? "[" + std::to_string(ix) + "]" : "";
          nd_.tip = F.deviceName(d) + " (" + modelLabel(F, F.devModel[d]) + ")";
          nd_.system = r.tier == 0;
          nodeOf[d] = uint32_t(nodes.size());
          nodes.push_back(nd_);
        }
      } else {
        for (const auto &kv : cellModels[c]) {
          Node b;
          b.block = true;
          b.system = r.tier == 0;
          uint32_t model = uint32_t(kv.first), domain = uint32_t(kv.first >> 32);
          b.label = count(kv.second) + " \xC3\x97 " + modelLabel(F, model);
          const ir::Model &m = F.models[model];
          b.sub = b.system && m.gpus ? count(kv.second * m.gpus) + " GPUs" : "";
          b.tip = b.label + (b.sub.empty() ? "" : " \xC2\xB7 " + b.sub);
          if (domain) { // the NVLink domain names the block
            b.tip = "NVLink domain " + domainName[domain - 1] + ": " + b.tip;
            b.label = domainName[domain - 1];
            b.sub = count(kv.second) + " systems" + (m.gpus ? " \xC2\xB7 " + count(kv.second * m.gpus) + " GPUs" : "");
            b.shortSub = m.gpus ? count(kv.second * m.gpus) + " GPUs" : count(kv.second) + " systems";
          }
          nodes.push_back(b);
        }
      }
      bool allFit = true;
      for (uint32_t i = first; i < nodes.size(); ++i) {
        nodes[i].x = x + (i - first) * (nw + gap);
        nodes[i].y = y;
        nodes[i].w = nw;
        nodes[i].h = nodeH;
        allFit &= fit(nodes[i].label, nw - 6) == nodes[i].label;
      }
      // One style per cell: full names where they all fit, else indices only.
      bool brackets = true;
      for (uint32_t i = first; i < nodes.size() && !allFit; ++i)
        brackets &= fit(nodes[i].index, nw - 6) == nodes[i].index;
      for (uint32_t i = first; i < nodes.size() && !allFit; ++i)
        if (!nodes[i].index.empty())
          nodes[i].label = brackets ? nodes[i].index : nodes[i].index.substr(1, nodes[i].index.size() - 2);
    }
    if (std::any_of(expanded.begin(), expanded.end(), [](uint8_t e) { return e == 0; })) {
      // Blocks: map every device of a collapsed cell to its model's node.
      std::vector<std::map<uint64_t, uint32_t>> blockNode(ncells);
      for (uint32_t i = 0, c = 0; c < ncells; ++c) {
        if (!cellCount[c])
          continue;
        if (expanded[c]) {
          i += uint32_t(cellDevices[c].size());
          continue;
        }
        for (const auto &kv : cellModels[c])
          blockNode[c][kv.first] = i++;
      }
      for (uint32_t d = 0; d < nd; ++d) {
        uint32_t c = cellOf(d);
        if (c == None || expanded[c])
          continue;
        auto &bn = blockNode[c];
        auto it = bn.find((uint64_t(domainOf[d]) + 1) << 32 | F.devModel[d]);
        nodeOf[d] = it != bn.end() ? it->second : bn[F.devModel[d]];
      }
    }
  };
  std::map<std::pair<uint32_t, uint32_t>, Edge> edges;
  uint64_t inside = 0, undrawn = 0;
  auto connect = [&] {
    edges.clear();
    inside = undrawn = 0;
    for (size_t l = 0; l < F.numLinks(); ++l) {
      uint32_t a = nodeOf[F.portDevice[F.linkA[l]]], b = nodeOf[F.portDevice[F.linkB[l]]];
      if (a == None || b == None) {
        ++undrawn;
        continue;
      }
      if (a == b) {
        ++inside;
        continue;
      }
      Edge &e = edges[{std::min(a, b), std::max(a, b)}];
      ++e.links;
      e.bandwidth += F.portSpeed(F.linkA[l]);
      ++e.media[size_t(F.linkMedia[l])];
    }
  };
  layout(false);
  connect();
  bool forced = false;
  if (edges.size() > 1500) { // past what a reader can follow: blocks only
    layout(true);
    connect();
    forced = true;
  }

  double H = Y0 + rows.size() * rowPitch - 20;
  out += fmt::format("<svg class=\"topology\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"fabric topology by tier\" "
                     "xmlns=\"http://www.w3.org/2000/svg\">",
                     n1(W), n1(H));
  // Column enclosures; their labels go on top of the links.
  std::string podLabels;
  for (uint32_t k = 0; k < ncols; ++k) {
    int lo = -1, hi = -1;
    for (size_t r = 0; r < rows.size(); ++r)
      if (cellCount[r * cellsPerRow + k]) {
        if (lo < 0)
          lo = int(r);
        hi = int(r);
      }
    if (lo < 0)
      continue;
    double x = L + k * colW + 3, y = Y0 + lo * rowPitch - 12, h = (hi - lo) * rowPitch + nodeH + 36;
    out += fmt::format("<rect class=\"pod\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\"/>", n1(x), n1(y),
                       n1(colW - 6), n1(h));
    podLabels += fmt::format("<text class=\"pod-label\" x=\"{}\" y=\"{}\">{}</text>", n1(x + 8), n1(y + h - 7),
                             esc(fit(cols[k].aggregate ? cols[k].label : cols[k].label + " \xC2\xB7 " + count(cols[k].devices) + " devices",
                               colW - 16)));
  }
  // Tier labels.
  for (size_t r = 0; r < rows.size(); ++r) {
    uint32_t t = rows[r].tier;
    if (r && rows[r - 1].tier == t)
      continue;
    double y = Y0 + r * rowPitch + nodeH / 2;
    // The drawing's labels: tier names, but for the two ends of the stack.
    std::string name = t == ir::tierIndex(ir::Tier::EndSystem) ? "end systems"
                       : t == ir::tierIndex(ir::Tier::Super)   ? "super-spine"
                                                               : ir::tierName(t);
    std::string sub = count(perTier[t]) + (t == 0 ? " systems" : " switches");
    out += fmt::format("<text class=\"tier\" x=\"12\" y=\"{}\">{}</text><text class=\"tier-sub\" x=\"12\" y=\"{}\">{}</text>",
                       n1(y - 4), esc(name), n1(y + 11), esc(sub));
    if (t == 0 && gpusAt0)
      out += fmt::format("<text class=\"tier-sub\" x=\"12\" y=\"{}\">{} GPUs</text>", n1(y + 25), esc(count(gpusAt0)));
  }
  // Links.
  bool labels = edges.size() <= 60;
  out += "<g class=\"links\">";
  for (const auto &kv : edges) {
    const Node &a = nodes[kv.first.first], &b = nodes[kv.first.second];
    const Edge &e = kv.second;
    double sw = 0.8 + std::min(4.5, std::log2(double(e.links)) * 0.7);
    std::string tip = fmt::format("{} \xE2\x80\x94 {}: {} link{}, {}, {}", a.tip, b.tip,
                                  count(e.links), e.links == 1 ? "" : "s", bandwidth(e.bandwidth),
                                  ir::mediaName(e.dominant()));
    double ax = a.x + a.w / 2, bx = b.x + b.w / 2, ay, by;
    std::string d;
    if (a.y == b.y) {
      ay = by = a.y;
      d = fmt::format("M{} {} Q{} {} {} {}", n1(ax), n1(ay), n1((ax + bx) / 2), n1(ay - 40), n1(bx), n1(by));
    } else {
      const Node &up = a.y < b.y ? a : b, &dn = a.y < b.y ? b : a;
      ax = up.x + up.w / 2;
      ay = up.y + up.h;
      bx = dn.x + dn.w / 2;
      by = dn.y;
      d = fmt::format("M{} {} L{} {}", n1(ax), n1(ay), n1(bx), n1(by));
    }
    out += fmt::format("<path d=\"{}\" stroke=\"{}\" stroke-width=\"{:.2f}\" data-links=\"{}\"><title>{}</title></path>", d,
                       mediaColor(e.dominant()), sw, e.links, esc(tip));
    if (labels && e.links > 1)
      out += fmt::format("<text class=\"link-count\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                         n1((ax + bx) / 2), n1((ay + by) / 2 + 4), esc(count(e.links)));
  }
  out += "</g>" + podLabels;
  // Nodes.
  for (const Node &n : nodes) {
    const char *cls = n.system ? (n.block ? "node system block" : "node system") : (n.block ? "node switch block" : "node switch");
    out += fmt::format("<g class=\"{}\"><title>{}</title>", cls, esc(n.tip));
    if (n.block) // a second outline behind the box: many devices
      out += fmt::format("<rect class=\"stack\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\"/>", n1(n.x + 3),
                         n1(n.y - 3), n1(n.w), n1(n.h));
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\"/>", n1(n.x), n1(n.y), n1(n.w), n1(n.h));
    bool two = !n.sub.empty();
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", n1(n.x + n.w / 2),
                       n1(n.y + (two ? 13 : 20)), esc(fit(n.label, n.w - 6)));
    if (two)
      out += fmt::format("<text class=\"sub\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", n1(n.x + n.w / 2),
                         n1(n.y + 26),
                         esc(fit(fit(n.sub, n.w - 6, 5.6) == n.sub || n.shortSub.empty() ? n.sub : n.shortSub, n.w - 6, 5.6)));
    out += "</g>";
  }
  out += "</svg>\n";

  // Legend and what the drawing leaves out.
  bool present[size_t(ir::Media::Count)] = {};
  for (const auto &kv : edges)
    for (size_t m = 0; m < size_t(ir::Media::Count); ++m)
      present[m] |= kv.second.media[m] > 0;
  out += "<ul class=\"legend\">";
  for (size_t m = 0; m < size_t(ir::Media::Count); ++m)
    if (present[m])
      out += fmt::format("<li><span class=\"swatch line\" style=\"background:{}\"></span>{} links</li>",
                         mediaColor(ir::Media(m)), m ? ir::mediaName(ir::Media(m)) : "unresolved");
  out += "<li><span class=\"swatch node-switch\"></span>switch</li><li><span class=\"swatch node-system\"></span>end "
         "system</li><li><span class=\"swatch node-block\"></span>block: N devices of one model</li></ul>\n";
  std::vector<std::string> notes;
  if (forced)
    notes.push_back("every cell is drawn as blocks: device by device there would be more than 1,500 link bundles");
  if (ncols && cols.back().aggregate)
    notes.push_back(fmt::format("the last column gathers {} into one", esc(cols.back().label)));
  if (podBlocks)
    notes.push_back(fmt::format("a {} of more than {} devices is drawn as blocks (option report_collapse)",
                                esc(ir::groupKindName(M.podKind)), collapse));
  if (fitBlocks)
    notes.push_back("switches too many to draw one by one in their cell are drawn as blocks");
  if (inside)
    notes.push_back(fmt::format("{} link{} inside one block not drawn", count(inside), inside == 1 ? "" : "s"));
  if (untiered)
    notes.push_back(fmt::format("{} device{} without a tier (not linked to the tiers) not drawn", count(untiered),
                                untiered == 1 ? "" : "s"));
  if (undrawn)
    notes.push_back(fmt::format("{} link{} to undrawn devices", count(undrawn), undrawn == 1 ? "" : "s"));
  if (!notes.empty()) {
    out += "<p class=\"note\">";
    for (size_t i = 0; i < notes.size(); ++i)
      out += (i ? "; " : "") + notes[i];
    out += ".</p>\n";
  }
}

} // namespace fabc::report
