// fabc import (Import.h), second half: the undeclared models, the port speeds that make
// every link's ends agree, the hosts' GUIDs, and the design's text in fabc fmt's layout
// (a brace list on one line when it fits in 100 columns, else one item a line).
#include "diag/DiagCodes.h"
#include "import/ImportState.h"

#include "Compilation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace fabc::import {
namespace {

constexpr size_t Width = 100;

std::string speedText(double bps) { return fmt::format("{:g} Gb/s", bps / 1e9); }

// "{ a; b; }" on the head's line when it fits, else one item a line.
void block(std::string &out, const std::string &indent, const std::string &head,
           const std::vector<std::string> &items, bool alwaysLines = false) {
  std::string one = indent + head + " {";
  for (const std::string &i : items)
    one += " " + i;
  one += items.empty() ? "}" : " }";
  if (!alwaysLines && one.size() <= Width) {
    out += one + "\n";
    return;
  }
  out += indent + head + " {\n";
  for (const std::string &i : items)
    out += indent + "  " + i + "\n";
  out += indent + "}\n";
}

std::string cableName(double bps) {
  double g = bps / 1e9;
  if (g == std::floor(g))
    return fmt::format("ImportedCable{}G", uint64_t(g));
  return fmt::format("ImportedCable{}M", uint64_t(std::llround(bps / 1e6)));
}

// Text from outside (a file name, a discovered name) inside a `//` comment: a control
// character (a newline would end the comment) or a byte of invalid UTF-8 is written \xNN.
std::string commentText(std::string_view s) {
  std::string r;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = (unsigned char)s[i];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool valid = n && i + n <= s.size() && (n == 1 || c >= 0xC2) && c >= 0x20 && c != 0x7f;
    for (size_t k = 1; valid && k < n; ++k)
      valid = ((unsigned char)s[i + k] & 0xC0) == 0x80;
    if (!valid) {
      r += fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    r.append(s.substr(i, n));
    i += n;
  }
  return r;
}

} // namespace

double Importer::speedOf(const End &e) const {
  const Dev &d = devs[e.dev];
  const Port &p = d.ports[e.port];
  if (d.catalogModel != None)
    return p.speed;
  return models[d.model].groups[p.group].speed;
}

void Importer::buildModels() {
  std::map<std::string, uint32_t> bySignature;
  llvm::StringMap<bool> names;
  if (cat.F)
    for (const ir::Model &m : cat.F->models)
      names[cat.F->strings.str(m.name)] = true;
  for (uint32_t i = 0; i < devs.size(); ++i) {
    Dev &d = devs[i];
    if (recognize(d))
      continue;
    layOut(d);
    std::string sig = fmt::format("{}|{}|{}", d.isSwitch, d.ib, d.part);
    for (const Group &g : d.groups)
      sig += "|" + g.name;
    auto ins = bySignature.try_emplace(sig, uint32_t(models.size()));
    if (ins.second) {
      Model m;
      m.isSwitch = d.isSwitch;
      m.ib = d.ib;
      m.part = d.part;
      m.groups = d.groups;
      models.push_back(std::move(m));
    }
    Model &m = models[ins.first->second];
    for (size_t g = 0; g < d.groups.size(); ++g)
      m.groups[g].count = std::max(m.groups[g].count, d.groups[g].count);
    m.devs.push_back(i);
    d.model = ins.first->second;
  }
  for (Model &m : models) {
    uint32_t ports = 0;
    for (const Group &g : m.groups)
      ports += g.count;
    std::string base = !m.part.empty() ? identifier(m.part)
                       : m.isSwitch    ? fmt::format("{}{}", m.ib ? "Switch" : "EthSwitch", ports)
                                       : fmt::format("Host{}", ports);
    std::string name = base;
    for (unsigned k = 2; names.count(name); ++k)
      name = fmt::format("{}_{}", base, k);
    names[name] = true;
    m.name = name;
  }
}

// The speed of each undeclared model's port group: what its links say, best evidence
// first: a catalog (or settled) peer's speed, a stated rate, an SDR rate (the rate before
// negotiation, and ibsim's), else the default with a TODO.
void Importer::settleSpeeds() {
  for (int round = 0; round < 3; ++round) {
    // votes[(model, group)][priority][speed]
    std::map<std::pair<uint32_t, uint32_t>, std::map<int, std::map<double, uint64_t>>> votes;
    for (uint32_t k = 0; k < obs.links.size(); ++k) {
      const discovery::Link &L = obs.links[k];
      for (int s = 0; s < 2; ++s) {
        const End &me = linkEnds[k][s], &peer = linkEnds[k][1 - s];
        const Dev &d = devs[me.dev];
        if (d.catalogModel != None)
          continue;
        std::pair<uint32_t, uint32_t> key{d.model, d.ports[me.port].group};
        const Dev &pd = devs[peer.dev];
        if (pd.catalogModel != None) {
          votes[key][3][pd.ports[peer.port].speed]++;
          continue;
        }
        const Group &pg = models[pd.model].groups[pd.ports[peer.port].group];
        if (round > 0 && pg.evidence >= 2 && key != std::make_pair(pd.model, pd.ports[peer.port].group))
          votes[key][3][pg.speed]++;
        if (L.laneRate) {
          double speed = (L.width ? L.width : 4) * nominalLaneRate(L.laneRate);
          votes[key][L.sdr ? 1 : 2][speed]++;
        }
      }
    }
    for (auto &v : votes) {
      Group &g = models[v.first.first].groups[v.first.second];
      auto &best = *v.second.rbegin();
      if (best.first < g.evidence)
        continue;
      double speed = 0;
      uint64_t n = 0;
      for (auto &s : best.second)
        if (s.second >= n)
          speed = s.first, n = s.second;
      g.speed = speed;
      g.evidence = best.first;
    }
  }
  for (Model &m : models)
    for (Group &g : m.groups)
      if (g.evidence < 0) {
        g.speed = opts.defaultSpeed;
        g.evidence = 0;
      }
}

// A host whose HCAs' node GUIDs follow fabc's layout (the HCA behind port index i has
// the base + 2i, ir/InfiniBand.h) gets the base pinned as its `guid`.
void Importer::pinHostGuids() {
  for (Dev &d : devs) {
    if (!d.ib || d.isSwitch)
      continue;
    std::vector<uint32_t> before; // ports of the groups before each group
    if (d.catalogModel != None) {
      uint32_t n = 0;
      for (const ir::PortGroup &g : cat.F->models[d.catalogModel].ports) {
        before.push_back(n);
        n += g.count;
      }
    } else {
      uint32_t n = 0;
      for (const Group &g : models[d.model].groups) {
        before.push_back(n);
        n += g.count;
      }
    }
    uint64_t base = 0;
    bool ok = true, any = false;
    for (const Port &p : d.ports) {
      if (!p.guid)
        continue;
      uint64_t idx = before[p.group] + p.index;
      if (p.guid < 2 * idx) {
        ok = false;
        break;
      }
      uint64_t b = p.guid - 2 * idx;
      ok &= !any || b == base;
      base = b;
      any = true;
    }
    if (ok && any && base)
      d.hostGuid = base;
  }
}

void Importer::write(std::string &out, Summary &sum) {
  out.reserve(64 * (obs.links.size() + devs.size()) + 4096);
  // The text's line count, kept up to date by counting what was added since (linear).
  uint32_t lines = 0;
  size_t counted = 0;
  auto mark = [&](discovery::Where w) {
    lines += uint32_t(std::count(out.begin() + long(counted), out.end(), '\n'));
    counted = out.size();
    origins.push_back({lines + 1, w});
  };
  // What every link gets written as, and the speeds that need a placeholder cable.
  auto portText = [&](const End &e) {
    const Dev &d = devs[e.dev];
    const Port &p = d.ports[e.port];
    std::string_view g = d.catalogModel != None
                             ? cat.F->strings.str(cat.F->models[d.catalogModel].ports[p.group].name)
                             : std::string_view(models[d.model].groups[p.group].name);
    return fmt::format("{}.{}[{}]", d.ident, g, p.index);
  };
  std::set<double> placeholder;
  std::vector<uint8_t> omit(obs.links.size(), 0);
  for (uint32_t k = 0; k < obs.links.size(); ++k) {
    const End &a = linkEnds[k][0], &b = linkEnds[k][1];
    double sa = speedOf(a), sb = speedOf(b);
    const discovery::Link &L = obs.links[k];
    if (a.dev == b.dev || sa != sb) {
      omit[k] = 1;
      ++sum.omittedLinks;
      if (sum.omittedLinks <= 20) {
        Diagnostic *dg = diags.report(
            DiagCode::W0186, obs.atLine(sm, diags, L.at),
            a.dev == b.dev ? "the link {} -- {} joins a device to itself: left out of the design (as a TODO comment)"
                           : "the link {} -- {} joins ports of {} and {}: left out of the design (as a TODO comment)",
            portText(a), portText(b), speedText(sa), speedText(sb));
        DiagEngine::note(dg, {}, "a link's ends run at one speed in a design: set the models' port speeds (or "
                                 "breakouts) and write the link");
      }
      continue;
    }
    if (devs[a.dev].catalogModel == None || devs[b.dev].catalogModel == None)
      placeholder.insert(sa);
  }

  std::set<std::string> files;
  for (const Dev &d : devs) {
    if (d.catalogModel != None)
      files.insert(cat.fileOf[d.catalogModel]);
    (d.isSwitch ? sum.switches : sum.hosts)++;
  }
  if (!files.empty())
    files.insert("nvidia/optics.fab"); // the transceivers and cables of the catalog's ports

  std::set<std::string> formats;
  for (discovery::Format f : obs.formats)
    formats.insert(discovery::formatName(f));
  std::string inputs, fmts;
  for (const std::string &f : opts.inputs)
    inputs += (inputs.empty() ? "" : ", ") + commentText(f.substr(f.rfind('/') + 1));
  for (const std::string &f : formats)
    fmts += (fmts.empty() ? "" : ", ") + f;
  sum.links = obs.links.size() - sum.omittedLinks;
  out += fmt::format("// Imported by fabc import from {} ({}): {} switches, {} hosts, {} links.\n", inputs, fmts,
                     sum.switches, sum.hosts, sum.links);
  out += "// Each TODO marks what the discovery does not say (models fabc's catalog does not know, port\n"
         "// speeds, cable types): review them before relying on the BOM and the energy budget.\n";
  for (const std::string &f : files)
    out += fmt::format("import \"{}\";\n", f);

  for (const Model &m : models) {
    ++sum.unknownModels;
    const Dev &first = devs[m.devs.front()];
    out += "\n";
    mark(first.at);
    out += fmt::format("// TODO: a {} fabc's catalog does not know{} ('{}'{}): add its power, latency and rack_units{}.\n",
                       m.isSwitch ? "switch" : "host", m.part.empty() ? "" : fmt::format(", part '{}'", commentText(m.part)),
                       commentText(first.raw), m.devs.size() > 1 ? fmt::format(" and {} more", m.devs.size() - 1) : "",
                       m.isSwitch ? "" : ", and its gpus");
    out += fmt::format("model {} : {} {{\n", m.name, m.isSwitch ? "switch" : "system");
    if (m.isSwitch)
      out += fmt::format("  protocol = \"{}\";\n", m.ib ? "infiniband" : "ethernet");
    int said = -1; // one TODO per kind of evidence a model
    for (const Group &g : m.groups) {
      if (g.evidence == said) {
      } else if (said = g.evidence, g.evidence == 1)
        out += "  // TODO: the discovery states SDR only, the rate a port reports before it negotiates (and\n"
               "  // ibsim's): set the real speed.\n";
      else if (g.evidence == 0)
        out += fmt::format("  // TODO: the discovery does not state the port speeds: {} assumed (fabc import --speed).\n",
                           speedText(g.speed));
      block(out, "  ", fmt::format("port {}[{}]", g.name, g.count), {fmt::format("speed = {};", speedText(g.speed))});
    }
    out += "}\n";
  }
  for (double s : placeholder) {
    out += "\n";
    out += fmt::format("// TODO: cables are not discovered: a placeholder part for the {} links.\n", speedText(s));
    block(out, "", fmt::format("model {} : cable", cableName(s)),
          {"media = \"AOC\";", fmt::format("speed = {};", speedText(s)),
           "reach = 100 m estimate \"placeholder: fabc import does not discover cables\";"});
  }

  out += "\n";
  out += fmt::format("fabric {} {{\n", opts.fabricName.empty() ? std::string("imported") : identifier(opts.fabricName));
  // Switches first, then hosts, each in the order of the discovery.
  std::vector<const Dev *> order;
  for (int hosts = 0; hosts < 2; ++hosts)
    for (const Dev &d : devs)
      if (d.isSwitch != bool(hosts))
        order.push_back(&d);
  for (const Dev *dp : order) {
    const Dev &d = *dp;
    mark(d.at);
    if (!d.comment.empty())
      out += fmt::format("  // discovered as \"{}\"\n", commentText(d.comment));
    std::string model = d.catalogModel != None ? std::string(cat.F->strings.str(cat.F->models[d.catalogModel].name))
                                               : models[d.model].name;
    uint64_t guid = d.isSwitch ? d.guid : d.hostGuid;
    if (d.ib && !d.isSwitch && !guid) {
      std::string list;
      for (const Port &p : d.ports)
        if (p.guid)
          list += fmt::format("{}{} 0x{:016x}", list.empty() ? "" : ", ", commentText(p.name), p.guid);
      if (!list.empty())
        out += fmt::format("  // TODO: its HCAs' GUIDs do not follow fabc's layout (base + 2 per port), none is "
                           "pinned: {}\n",
                           list);
    }
    if (guid)
      block(out, "  ", fmt::format("{} : {}", d.ident, model), {fmt::format("guid = \"0x{:016x}\";", guid)});
    else
      out += fmt::format("  {} : {};\n", d.ident, model);
  }
  if (!obs.links.empty())
    out += "\n";
  std::vector<uint32_t> rank(devs.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    rank[order[i] - devs.data()] = i;
  for (uint32_t k = 0; k < obs.links.size(); ++k) {
    // The end of the device written first, first: a switch's before a host's.
    bool flip = rank[linkEnds[k][1].dev] < rank[linkEnds[k][0].dev];
    const End &a = linkEnds[k][flip], &b = linkEnds[k][!flip];
    mark(obs.links[k].at);
    if (omit[k])
      out += fmt::format("  // TODO: link {} -- {}; ({} and {})\n", portText(a), portText(b), speedText(speedOf(a)),
                         speedText(speedOf(b)));
    else
      out += fmt::format("  link {} -- {};\n", portText(a), portText(b));
  }
  out += "}\n";
}

bool importFabric(const discovery::Observed &obs, const Catalog &cat, const Options &opts, SourceManager &sm,
                  DiagEngine &diags, std::string &out, Summary &sum) {
  if (obs.nodes.empty()) {
    diags.report(DiagCode::E0180, {}, "the discovery holds no node to import");
    return false;
  }
  Importer imp(obs, cat, opts, sm, diags);
  imp.collectDevices();
  imp.nameDevices();
  imp.buildModels();
  imp.settleSpeeds();
  imp.pinHostGuids();
  imp.write(out, sum);
  if (opts.check && !checkImported(imp, *opts.check, out))
    return false;
  return true;
}

// The importer's own output, compiled in memory before anything is written: a design
// that does not compile is a bug of fabc import, reported (FAB-E0191) at the discovery
// record the failing text came from, and nothing is written.
bool checkImported(const Importer &imp, const CompileOptions &co, std::string &out) {
  CompileOptions c = co;
  c.outputs.clear();
  c.allowLibrary = false;
  c.stopAfter.clear();
  c.guidsFrom.clear();
  c.top.clear();
  c.parseOnly = false;
  c.values = nullptr;
  c.overlay = nullptr;
  // The design is as large as its discovery: the size and token limits (one token per
  // 16 bytes of the size limit; an imported design has one per ~3.5 bytes) are not the
  // point here (docs/bring-up.md: build it with --max-file-size=1G).
  c.maxFileSize = std::max<uint64_t>(c.maxFileSize, 8 * uint64_t(out.size()));
  SourceManager sm;
  DiagEngine diags(sm);
  diags.setFormat(DiagFormat::Json); // kept, never printed: finish() is not called
  diags.setErrorLimit(1);
  Compilation comp(c, sm, diags);
  static const char *const Name = "<fabc import output>";
  if (comp.run(CompileInput::source(Name, out)) && !diags.hasErrors())
    return true;
  const Diagnostic *first = nullptr;
  for (const Diagnostic &d : diags.all())
    if (d.severity == Severity::Error) {
      first = &d;
      break;
    }
  std::string what = first ? first->message : "the compilation failed without a diagnostic";
  uint32_t line = 0;
  std::string where;
  if (first && first->range.begin.valid()) {
    line = sm.lineCol(first->range.begin).line;
    if (sm.path(first->range.begin.file) != Name) {
      where = fmt::format(" (in {}:{})", sm.path(first->range.begin.file), line);
      line = 0;
    } else {
      where = fmt::format(" (line {} of the design)", line);
    }
  }
  discovery::Where at;
  auto it = std::upper_bound(imp.origins.begin(), imp.origins.end(), line,
                             [](uint32_t l, const std::pair<uint32_t, discovery::Where> &o) { return l < o.first; });
  if (line && it != imp.origins.begin())
    at = std::prev(it)->second;
  Diagnostic *d = imp.diags.report(DiagCode::E0191, imp.obs.atLine(imp.sm, imp.diags, at),
                                   "fabc import wrote a design that does not compile: {}{}", what, where);
  DiagEngine::note(d, {}, "this is a bug in fabc import: nothing was written. Please report it with this "
                          "discovery record");
  out.clear();
  return false;
}

} // namespace fabc::import
