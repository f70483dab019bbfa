// Hover: what the compiler knows about the name under the cursor. A model shows its
// figures with their source or estimate marker, an instance the devices it created
// (model, tier, placement, port use), a binding the value the elaborator gave it.
#include "lsp/Queries.h"

#include "diag/Diag.h"
#include "elab/Elaborator.h"
#include "ir/Fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace fabc::lsp {
namespace {

// An expression's text. A call's and a name's ranges are their identifier's: the extent
// is the union of the node's and its operands', closed over the brackets left open.
void extent(const ast::Expr *e, uint32_t file, uint32_t &b, uint32_t &end) {
  if (!e || e->range.begin.file != file)
    return;
  b = std::min(b, e->range.begin.offset);
  end = std::max(end, e->range.begin.offset + e->range.length);
  for (const ast::Expr *k : e->kids)
    extent(k, file, b, end);
}
std::string exprText(const SourceManager &sm, const ast::Expr *e) {
  if (!e || !e->range.begin.valid() || e->range.begin.file >= sm.size())
    return {};
  uint32_t b = UINT32_MAX, end = 0;
  extent(e, e->range.begin.file, b, end);
  std::string_view t = sm.text(e->range.begin.file);
  if (b >= t.size())
    return {};
  end = std::min<uint32_t>(end, uint32_t(t.size()));
  int open = 0;
  bool str = false;
  for (uint32_t i = b; i < end; ++i) {
    if (t[i] == '"' && (i == b || t[i - 1] != '\\'))
      str = !str;
    else if (!str)
      open += (t[i] == '(' || t[i] == '[') - (t[i] == ')' || t[i] == ']');
  }
  while (open > 0 && end < t.size() && (t[end] == ')' || t[end] == ']' || t[end] == ' ')) {
    open -= t[end] != ' ';
    ++end;
  }
  std::string r(t.substr(b, std::min<uint32_t>(end - b, 300)));
  return end - b > 300 ? r + "..." : r;
}

const ir::Model *irModel(const ir::Fabric *F, std::string_view name) {
  if (!F)
    return nullptr;
  uint32_t s = F->strings.lookup(name);
  if (s == ir::None)
    return nullptr;
  for (const ir::Model &m : F->models)
    if (m.name == s)
      return &m;
  return nullptr;
}

std::string figure(const ir::Fabric &F, const char *what, const ir::Figure &f, const Dim &d) {
  if (!f.known)
    return {};
  std::string r = fmt::format("- {}: {}", what, formatQuantity(f.value, d));
  if (f.source)
    r += fmt::format(" ({} \"{}\")", f.estimate ? "estimate" : "source", F.strings.str(f.source));
  else if (f.estimate)
    r += " (estimate)";
  return r + "\n";
}

std::string portGroupLine(const ir::Fabric &F, const ir::PortGroup &g) {
  std::string r = fmt::format("- `{}[{}]`: {}", F.strings.str(g.name), g.count, formatQuantity(g.speed, dims::Bandwidth));
  if (g.lanes)
    r += fmt::format(", {} x {} lanes", g.lanes, formatQuantity(g.laneRate, dims::Bandwidth));
  if (g.form)
    r += fmt::format(", {}", F.strings.str(g.form));
  if (g.portsPerCage > 1)
    r += fmt::format(", {} ports per cage", g.portsPerCage);
  if (g.cpo)
    r += ", co-packaged optics";
  if (g.breakoutMask > 1) {
    std::string b;
    for (unsigned k = 1; k < 8; ++k)
      if (g.breakoutMask & (1u << k))
        b += fmt::format("{}1:{}", b.empty() ? "" : ", ", 1u << k);
    r += ", breakouts " + b;
  }
  return r + "\n";
}

std::string modelHover(const QueryContext &q, const ast::Model &m) {
  std::string r = fmt::format("**model {}** : {}\n\n", m.name, m.kind);
  const ir::Model *im = irModel(q.fabric, m.name);
  if (!im) {
    // Not elaborated (an error before the models were read): the properties as written.
    for (const ast::Prop &p : m.props) {
      r += fmt::format("- {} = {}", p.key, exprText(q.sm, p.value));
      if (p.annot != ast::Prop::None)
        r += fmt::format(" ({} \"{}\")", p.annot == ast::Prop::Source ? "source" : "estimate", p.annotText);
      r += "\n";
    }
    for (const ast::PortDecl &pd : m.ports)
      r += fmt::format("- port `{}[{}]`\n", pd.name, exprText(q.sm, pd.count));
    return r;
  }
  const ir::Fabric &F = *q.fabric;
  if (im->vendor || im->sku)
    r += fmt::format("{} {}\n\n", F.strings.str(im->vendor), F.strings.str(im->sku));
  if (im->description)
    r += fmt::format("{}\n\n", F.strings.str(im->description));
  r += figure(F, "power", im->power, dims::Power);
  r += figure(F, "latency", im->latency, dims::Time);
  r += figure(F, "reach", im->reach, dims::Length);
  r += figure(F, "price", im->price, dims::Money);
  if (im->gpus)
    r += fmt::format("- GPUs: {}{}{}\n", im->gpus,
                     im->nvlinkDomain ? fmt::format(", NVLink domain {}", im->nvlinkDomain) : std::string(),
                     im->portsPerGpu > 1 ? fmt::format(", {} NIC ports per GPU", im->portsPerGpu) : std::string());
  if (im->rackUnits)
    r += fmt::format("- rack units: {}\n", im->rackUnits);
  if (im->speed > 0)
    r += fmt::format("- speed: {}{}\n", formatQuantity(im->speed, dims::Bandwidth),
                     im->lanes ? fmt::format(" ({} x {} lanes)", im->lanes, formatQuantity(im->laneRate, dims::Bandwidth))
                               : std::string());
  if (im->media != ir::Media::None)
    r += fmt::format("- media: {}\n", ir::mediaName(im->media));
  if (im->protocol != ir::Protocol::Unspecified)
    r += fmt::format("- protocol: {}\n", im->protocol == ir::Protocol::Ethernet ? "ethernet" : "infiniband");
  if (!im->ports.empty()) {
    r += "\nports:\n";
    for (const ir::PortGroup &g : im->ports)
      r += portGroupLine(F, g);
  }
  return r;
}

// What a set of devices is: count, names, models, tiers, placement, port use.
template <typename Pred> std::string devicesSummary(const ir::Fabric &F, Pred member) {
  uint64_t n = 0, placed = 0, ports = 0, used = 0;
  uint32_t first = ir::None, last = ir::None;
  std::map<std::string, uint64_t> models;
  std::set<std::string> tiers, where;
  bool tiersKnown = F.devTier.size() == F.numDevices();
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    if (!member(d))
      continue;
    ++n;
    if (first == ir::None)
      first = d;
    last = d;
    ++models[std::string(F.strings.str(F.modelOf(d).name))];
    if (tiersKnown)
      tiers.insert(ir::tierName(F.devTier[d]));
    if (d < F.devRack.size() && F.devRack[d] != ir::None) {
      ++placed;
      const ir::Hall &h = F.halls[F.racks[F.devRack[d]].hall];
      if (where.size() < 4)
        where.insert(fmt::format("{}.{}", F.strings.str(F.buildings[h.building].name), F.strings.str(h.name)));
    }
    uint32_t np = F.layoutOf(d).ports, base = F.devPortBase[d];
    ports += np;
    for (uint32_t p = base; p < base + np && p < F.portLink.size(); ++p)
      used += F.portLink[p] != ir::None;
  }
  if (n == 0)
    return "no devices (a branch not taken, or elaboration stopped before it)\n";
  auto join = [](const auto &xs) {
    std::string j;
    for (const auto &x : xs)
      j += (j.empty() ? "" : ", ") + x;
    return j;
  };
  std::vector<std::string> m;
  for (auto &kv : models)
    m.push_back(models.size() > 1 ? fmt::format("{} x {}", kv.second, kv.first) : kv.first);
  std::string r = fmt::format("- devices: {} ({}{})\n", n, F.deviceName(first), n > 1 ? " ... " + F.deviceName(last) : "");
  r += fmt::format("- model: {}\n", join(m));
  if (!tiers.empty())
    r += fmt::format("- tier: {}\n", join(tiers));
  r += placed ? fmt::format("- placement: {} of {} in racks ({})\n", placed, n, join(where))
              : std::string("- placement: not placed\n");
  r += fmt::format("- ports used: {} of {} ({:.0f}%)\n", used, ports, ports ? 100.0 * double(used) / double(ports) : 0.0);
  return r;
}

std::string instanceHover(const QueryContext &q, const Symbol &sym) {
  const auto &s = *static_cast<const ast::Stmt *>(sym.node);
  const Index &ix = q.index;
  uint32_t target = ix.targetOf(uint32_t(&sym - ix.symbols().data()));
  bool tmpl = target != NoSymbol && ix.symbol(target).kind == SymbolKind::Template;
  std::string r = fmt::format("**instance {}** : {}{}\n\n", s.name(), tmpl ? "template " : "", s.name2());
  const ir::Fabric *F = q.fabric;
  if (!F || F->numDevices() == 0)
    return r;
  SourceLoc at = s.nameRange().begin; // in the IR's text (a reused check's is its base's)
  if (!tmpl) // the devices this statement created: elaboration stamps each with its name's place
    return !q.shift.toOld(at) ? r : r + devicesSummary(*F, [&](uint32_t d) {
             return F->devLoc[d] == at;
           });
  // A template instance in the fabric's body: the devices below the top-level name.
  bool top = sym.container != NoSymbol && ix.symbol(sym.container).kind == SymbolKind::Fabric &&
             ix.symbol(sym.container).name == F->name;
  uint32_t name = F->strings.lookup(s.name());
  if (!top || name == ir::None)
    return r + "devices: those of the template's body (hover its instances)\n";
  return r + devicesSummary(*F, [&](uint32_t d) {
           uint32_t n = F->devNode[d];
           for (int depth = 0; depth < 256 && F->nodes[n].parent != ir::None &&
                               F->nodes[F->nodes[n].parent].parent != ir::None;
                ++depth)
             n = F->nodes[n].parent;
           return F->nodes[n].parent != ir::None && F->nodes[n].name == name;
         });
}

std::string bindingHover(const QueryContext &q, const Symbol &sym) {
  const auto &s = *static_cast<const ast::Stmt *>(sym.node);
  std::string r = fmt::format("**{} {}** = `{}`\n\n", sym.kind == SymbolKind::Param ? "param" : "let", s.name(),
                              exprText(q.sm, s.e1));
  if (!q.values)
    return r;
  auto it = q.values->values.find(&s);
  if (it == q.values->values.end())
    return r + "not evaluated (a branch not taken, or elaboration stopped before it)\n";
  const BindingValues::Seen &v = it->second;
  r += fmt::format("value: **{}** ({})", v.text, v.type);
  if (v.times > 1)
    r += fmt::format("; evaluated {} times{}", v.times, v.varies ? ", with different values (the first shown)" : "");
  return r + "\n";
}

} // namespace

std::optional<Hover> hoverAt(const QueryContext &q, SourceLoc loc) {
  const Occurrence *o = q.index.at(loc);
  if (!o)
    return std::nullopt;
  const Symbol &sym = q.index.symbol(o->symbol);
  std::string md;
  switch (sym.kind) {
  case SymbolKind::Model: md = modelHover(q, *static_cast<const ast::Model *>(sym.node)); break;
  case SymbolKind::PortGroup: {
    const Symbol &m = q.index.symbol(sym.container);
    md = fmt::format("**port group {}** of model {}\n\n", sym.name, m.name);
    if (const ir::Model *im = irModel(q.fabric, m.name))
      for (const ir::PortGroup &g : im->ports)
        if (q.fabric->strings.str(g.name) == sym.name)
          md += portGroupLine(*q.fabric, g);
    break;
  }
  case SymbolKind::Template: {
    const auto &t = *static_cast<const ast::Template *>(sym.node);
    md = fmt::format("**template {}**(", t.name);
    for (size_t i = 0; i < t.params.size(); ++i)
      md += fmt::format("{}{}{}{}", i ? ", " : "", t.params[i].name, t.params[i].deflt ? " = " : "",
                        exprText(q.sm, t.params[i].deflt));
    md += ")" + (t.kind.empty() ? std::string() : " : " + std::string(t.kind)) + "\n";
    break;
  }
  case SymbolKind::TemplateParam: {
    const auto &p = *static_cast<const ast::Param *>(sym.node);
    md = fmt::format("**parameter {}** of template {}", p.name, q.index.symbol(sym.container).name);
    if (p.deflt)
      md += fmt::format("\n\ndefault: `{}`", exprText(q.sm, p.deflt));
    md += "\n";
    break;
  }
  case SymbolKind::Fabric:
    md = fmt::format("**fabric {}**\n", sym.name);
    if (q.fabric && q.fabric->name == sym.name)
      md += fmt::format("\n{} GPUs, {} devices, {} links\n", q.fabric->metrics.gpus, q.fabric->numDevices(),
                        q.fabric->numLinks());
    break;
  case SymbolKind::Param:
  case SymbolKind::Let: md = bindingHover(q, sym); break;
  case SymbolKind::LoopVar: md = fmt::format("**loop variable {}**\n", sym.name); break;
  case SymbolKind::Function: {
    const auto &fn = *static_cast<const ast::Function *>(sym.node);
    md = fmt::format("**fn {}**(", fn.name);
    for (size_t i = 0; i < fn.params.size(); ++i)
      md += (i ? ", " : "") + std::string(fn.params[i].name);
    md += fmt::format(") = `{}`\n", exprText(q.sm, fn.body));
    break;
  }
  case SymbolKind::FunctionParam:
    md = fmt::format("**parameter {}** of fn {}\n", sym.name, q.index.symbol(sym.container).name);
    break;
  case SymbolKind::Instance: md = instanceHover(q, sym); break;
  case SymbolKind::Building: md = fmt::format("**building {}**\n", sym.name); break;
  case SymbolKind::File: md = fmt::format("**import** `{}`\n", sym.name); break;
  }
  return Hover{std::move(md), o->range};
}

std::optional<std::string> hoverDiagnosticCode(std::string_view word) {
  if (word.size() < 5 || word.size() > 9)
    return std::nullopt;
  const DiagInfo *d = findDiag(word);
  if (!d)
    return std::nullopt;
  return explainText(*d);
}

} // namespace fabc::lsp
