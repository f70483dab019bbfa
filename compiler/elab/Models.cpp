// Catalog models into ir::Model: properties, figures with their provenance, port groups.
#include "elab/ElabState.h"

#include <cstring>

namespace fabc::elab {

bool Elab::figure(const ast::Prop &p, const Dim &want, ir::Figure &out) {
  double v;
  if (!propQty(p, want, v))
    return false;
  out.value = v;
  out.known = true;
  out.estimate = p.annot == ast::Prop::Estimate;
  out.source = p.annot == ast::Prop::None ? 0 : F.strings.intern(p.annotText);
  return true;
}

namespace {
struct Range {
  const char *where, *key;
  double lo;
  bool loOpen;
  double hi;
  bool whole;
  DiagCode code;
  const char *why;
};
const Range kRanges[] = {
#define RANGE(WHERE, KEY, LO, LO_OPEN, HI, WHOLE, CODE, WHY) {WHERE, KEY, LO, LO_OPEN, HI, WHOLE, DiagCode::CODE, WHY},
#include "elab/Ranges.def"
#undef RANGE
};

const Range *findRange(const char *where, std::string_view key) {
  for (const Range &r : kRanges)
    if (std::strcmp(r.where, where) == 0 && key == r.key)
      return &r;
  return nullptr;
}
} // namespace

bool Elab::inRange(const char *where, const ast::Prop &p, double v, const Dim &d) {
  if (const Range *found = findRange(where, p.key)) {
    const Range &r = *found;
    bool ok = std::isfinite(v) && (r.loOpen ? v > r.lo : v >= r.lo) && v <= r.hi && (!r.whole || v == std::floor(v));
    if (ok)
      return true;
    Diagnostic *dg = error(r.code, p.value->range, "'{}' is {}, outside {}{}, {}]{}", p.key, formatQuantity(v, d),
                           r.loOpen ? "(" : "[", r.lo == 0 ? std::string("0") : formatQuantity(r.lo, d), formatQuantity(r.hi, d),
                           r.whole && std::isfinite(v) && v != std::floor(v) ? " (a whole number)" : "");
    DiagEngine::note(dg, {}, r.why);
    return false;
  }
  return true;
}

// A Settings.def option with a row in Ranges.def (today the two device counts,
// report_collapse and dot_max_nodes) takes a plain number in its range, whatever outputs
// are built: its meaning belongs to an output, its validity to the design.
bool Elab::optionValue(const ast::Prop &p, const ir::Setting &st) {
  const Range *r = findRange("option", p.key);
  if (!r)
    return true;
  if (st.type != ir::Setting::Number || !st.dim.none()) {
    // A property with its own code keeps it for every fault; others: a type mismatch.
    Diagnostic *d = error(r->code == DiagCode::E0034 ? DiagCode::E0026 : r->code, p.value->range,
                          "option {} takes a number of devices", p.key);
    DiagEngine::note(d, {}, "for example: option " + p.key + " = 1000;");
    return false;
  }
  return inRange("option", p, st.number, Dim());
}

bool Elab::propQty(const char *where, const ast::Prop &p, const Dim &want, double &out) {
  double v;
  if (!propQty(p, want, v) || !inRange(where, p, v, want))
    return false;
  out = v;
  return true;
}

bool Elab::figure(const char *where, const ast::Prop &p, const Dim &want, ir::Figure &out) {
  ir::Figure f;
  if (!figure(p, want, f) || !inRange(where, p, f.value, want))
    return false;
  out = f;
  return true;
}

bool Elab::propQty(const ast::Prop &p, const Dim &want, double &out) {
  Value v = eval(p.value);
  if (!v.ok())
    return false;
  if (!v.numeric()) {
    error(DiagCode::E0026, p.value->range, "'{}' must be {}, not {}", p.key,
          want.none() ? "a number" : "a " + dimName(want), elab::typeName(v));
    return false;
  }
  if (v.dimension() != want) {
    Diagnostic *d = error(DiagCode::E0025, p.value->range, "'{}' must be {}, but this is {}", p.key,
                          want.none() ? std::string("a plain number") : dimName(want), dimName(v.dimension()));
    if (!want.none() && v.dimension().none())
      DiagEngine::note(d, {}, "add a unit, for example " + formatQuantity(v.asDouble() * (want == dims::Bandwidth ? 1e9 : 1), want));
    return false;
  }
  out = v.asDouble();
  return true;
}

bool Elab::propInt(const ast::Prop &p, int64_t lo, int64_t hi, int64_t &out) {
  Value v = eval(p.value);
  if (!v.ok() || !toInt(v, p.value, out, p.key.c_str()))
    return false;
  if (out < lo || out > hi) {
    error(DiagCode::E0034, p.value->range, "'{}' is {}, outside {}..{}", p.key, out, lo, hi);
    return false;
  }
  return true;
}

bool Elab::propStr(const ast::Prop &p, uint32_t &out) {
  Value v = eval(p.value);
  if (!v.ok())
    return false;
  if (v.type == Value::ModelRef) {
    out = F.models[v.s].name;
    return true;
  }
  if (v.type != Value::Str) {
    error(DiagCode::E0026, p.value->range, "'{}' must be a string, not {}", p.key, elab::typeName(v));
    return false;
  }
  out = v.s;
  return true;
}

bool Elab::propBool(const ast::Prop &p, bool &out) {
  Value v = eval(p.value);
  return v.ok() && toBool(v, p.value, out);
}

static bool modelKind(const std::string &k, ir::ModelKind &out) {
  static const std::pair<const char *, ir::ModelKind> kinds[] = {
      {"gpu", ir::ModelKind::Gpu},       {"system", ir::ModelKind::System}, {"nic", ir::ModelKind::Nic},
      {"switch", ir::ModelKind::Switch}, {"nvswitch", ir::ModelKind::NvSwitch},
      {"optic", ir::ModelKind::Optic},   {"cable", ir::ModelKind::Cable}};
  for (auto &kv : kinds)
    if (k == kv.first) {
      out = kv.second;
      return true;
    }
  return false;
}

void Elab::declareModels() {
  for (const ast::File *f : prog_.files) {
    for (const ast::Model *m : f->models) {
      uint32_t name = F.strings.intern(m->name);
      if (modelAst_.count(name) || templates_.count(name)) {
        Diagnostic *d = error(DiagCode::E0021, m->range, "redefinition of '{}'", m->name);
        auto it = modelAst_.find(name);
        if (it != modelAst_.end())
          DiagEngine::note(d, it->second->range, "previous definition is here");
        continue;
      }
      ir::ModelKind kind;
      if (!modelKind(m->kind, kind)) {
        Diagnostic *d = error(DiagCode::E0034, m->kindRange, "unknown model kind '{}'", m->kind);
        DiagEngine::note(d, {}, "kinds: gpu, system, nic, switch, nvswitch, optic, cable");
        continue;
      }
      modelAst_[name] = m;
      modelIndex_[name] = uint32_t(F.models.size());
      F.models.emplace_back();
      F.models.back().name = name;
      F.models.back().kind = kind;
      F.models.back().loc = m->range;
    }
    for (const ast::Template *t : f->templates) {
      uint32_t name = F.strings.intern(t->name);
      if (modelAst_.count(name) || templates_.count(name)) {
        error(DiagCode::E0021, t->range, "redefinition of '{}'", t->name);
        continue;
      }
      templates_[name] = t;
    }
  }
  // Properties after all names exist, so models may refer to each other (gpu = B200).
  for (auto &kv : modelAst_)
    convertModel(*kv.second, F.models[modelIndex_[kv.first]]);
}

void Elab::convertModel(const ast::Model &m, ir::Model &out) {
  using K = ir::ModelKind;
  bool device = out.kind == K::System || out.kind == K::Switch || out.kind == K::Nic || out.kind == K::NvSwitch;
  bool media = out.kind == K::Optic || out.kind == K::Cable;
  duplicateProps(m.props, ("model '" + m.name + "'").c_str());
  for (const ast::Prop &p : m.props) {
    const std::string &k = p.key;
    int64_t iv;
    if (k == "vendor") propStr(p, out.vendor);
    else if (k == "sku") propStr(p, out.sku);
    else if (k == "description") propStr(p, out.description);
    else if (k == "power") figure("model", p, dims::Power, out.power);
    else if (k == "price") figure("model", p, dims::Money, out.price);
    else if (k == "rack_units" && device) { if (propInt(p, 0, 64, iv)) out.rackUnits = uint32_t(iv); }
    else if (k == "latency" && (device || out.kind == K::Gpu)) figure("model", p, dims::Time, out.latency);
    else if (k == "gpus" && out.kind == K::System) { if (propInt(p, 0, 1 << 20, iv)) out.gpus = uint32_t(iv); }
    else if (k == "nvlink_domain" && out.kind == K::System) { if (propInt(p, 0, 1 << 20, iv)) out.nvlinkDomain = uint32_t(iv); }
    else if (k == "hosts" && out.kind == K::System) { if (propInt(p, 1, 1 << 20, iv)) out.hosts = uint32_t(iv); }
    else if (k == "gpu" && out.kind == K::System) {
      Value v = eval(p.value);
      if (v.type == Value::ModelRef && F.models[v.s].kind == K::Gpu)
        out.gpuModel = v.s;
      else if (v.ok())
        error(DiagCode::E0026, p.value->range, "'gpu' must name a model of kind gpu");
    }
    else if (media && k == "media") {
      uint32_t s;
      if (propStr(p, s)) {
        std::string_view name = F.strings.str(s);
        if (name == "CPO") {
          out.cpoEngine = true;
        } else {
          out.media = ir::mediaFromName(name);
          if (out.media == ir::Media::None) {
            Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown media '{}'", name);
            DiagEngine::note(d, {}, "media: DAC, ACC, AOC, MMF, SMF, DCI, CPO");
          }
        }
      }
    }
    else if (media && k == "speed") propQty("model", p, dims::Bandwidth, out.speed);
    else if (media && k == "form") propStr(p, out.form);
    else if (media && k == "reach") figure("model", p, dims::Length, out.reach);
    else if (media && k == "ports") { if (propInt(p, 1, 8, iv)) out.portsPerUnit = uint32_t(iv); }
    else if (out.kind == K::Optic && k == "lasers") figure("model", p, dims::None, out.lasers);
    else if (out.kind == K::Optic && k == "interface") propStr(p, out.interface);
    else if (out.kind == K::Switch && k == "sonic_platform") propStr(p, out.sonicPlatform);
    else if (out.kind == K::Switch && k == "sonic_hwsku") propStr(p, out.sonicHwsku);
    else if (out.kind == K::Switch && k == "sonic_egress_lossless_pool") propQty("model", p, dims::Data, out.sonicEgressLosslessPool);
    else if (k == "protocol" && (out.kind == K::Switch || out.kind == K::Nic)) {
      uint32_t s;
      if (propStr(p, s)) {
        std::string_view v = F.strings.str(s);
        if (v == "ethernet") out.protocol = ir::Protocol::Ethernet;
        else if (v == "infiniband") out.protocol = ir::Protocol::InfiniBand;
        else {
          Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown protocol '{}'", v);
          DiagEngine::note(d, {}, "protocol is \"ethernet\" or \"infiniband\"");
        }
      }
    }
    else if (out.kind == K::Gpu && (k == "memory" || k == "nvlink_bandwidth")) {
      double unused;
      propQty(p, k == "memory" ? dims::Data : dims::Bandwidth, unused);
    }
    else
      unknownProp(p, (std::string("a model of kind ") + ir::modelKindName(out.kind)).c_str(),
                  device ? "vendor sku description power price rack_units latency; switches and NICs: protocol; switches: sonic_platform sonic_hwsku sonic_egress_lossless_pool; systems: gpus gpu nvlink_domain hosts"
                  : media ? "vendor sku description power price media speed form reach ports lasers interface"
                          : "vendor sku description power price latency memory nvlink_bandwidth");
  }
  if (!m.ports.empty() && !device)
    error(DiagCode::E0033, m.ports[0].range, "a model of kind {} has no ports", ir::modelKindName(out.kind));
  for (const ast::PortDecl &pd : m.ports) {
    ir::PortGroup g;
    g.name = F.strings.intern(pd.name);
    g.loc = pd.range;
    Value c = eval(pd.count);
    int64_t n;
    if (!c.ok() || !toInt(c, pd.count, n, "port count"))
      continue;
    if (n < 1 || n > 65536) {
      error(DiagCode::E0034, pd.count->range, "a port group has 1 to 65536 ports, not {}", n);
      continue;
    }
    g.count = uint32_t(n);
    bool haveSpeed = false;
    duplicateProps(pd.props, ("port group '" + pd.name + "' of model '" + m.name + "'").c_str());
    for (const ast::Prop &p : pd.props) {
      int64_t iv;
      if (p.key == "speed") haveSpeed = propQty("port", p, dims::Bandwidth, g.speed);
      else if (p.key == "lanes") { if (propInt(p, 1, 64, iv)) g.lanes = uint32_t(iv); }
      else if (p.key == "form") propStr(p, g.form);
      else if (p.key == "ports_per_cage") { if (propInt(p, 1, 8, iv)) g.portsPerCage = uint32_t(iv); }
      else if (p.key == "cpo") propBool(p, g.cpo);
      else if (p.key == "breakouts") {
        Value v = eval(p.value);
        if (v.type != Value::List) {
          if (v.ok())
            error(DiagCode::E0026, p.value->range, "'breakouts' is a list of factors, for example [2, 4]");
          continue;
        }
        for (size_t i = 0; i < v.list->size(); ++i) {
          int64_t f;
          if (!toInt((*v.list)[i], p.value, f, "breakout factor"))
            continue;
          if (f < 1 || f > 8 || (f & (f - 1))) {
            error(DiagCode::E0034, p.value->range, "breakout factors are 1, 2, 4 or 8, not {}", f);
            continue;
          }
          g.breakoutMask |= 1u << __builtin_ctzll(uint64_t(f));
        }
      } else if (p.key == "sonic_breakout_modes") {
        // Checked against the layout by the sonic output check (compiler/checks/Sonic.cpp).
        Value v = eval(p.value);
        bool ok = v.type == Value::List && !v.list->empty();
        for (size_t i = 0; ok && i < v.list->size(); ++i)
          ok = (*v.list)[i].type == Value::Str;
        if (!ok) {
          if (v.ok())
            error(DiagCode::E0026, p.value->range, "'sonic_breakout_modes' is a list of platform.json mode names, for "
                                                   "example [\"1x800G[400G]\", \"2x400G[200G]\"]");
          continue;
        }
        for (const Value &x : *v.list)
          g.sonicBreakoutModes.push_back(x.s);
      } else
        unknownProp(p, "a port group", "speed lanes form ports_per_cage cpo breakouts sonic_breakout_modes");
    }
    if (!haveSpeed) {
      error(DiagCode::E0037, pd.range, "port group '{}' has no speed", pd.name);
      continue;
    }
    if (g.count % g.portsPerCage) {
      error(DiagCode::E0034, pd.count->range, "{} ports do not fill cages of {} ports", g.count, g.portsPerCage);
      continue;
    }
    out.ports.push_back(g);
  }
  if (out.kind == K::System && out.nvlinkDomain > out.gpus)
    error(DiagCode::E0034, m.range, "nvlink_domain ({}) is larger than gpus ({})", out.nvlinkDomain, out.gpus);
}

} // namespace fabc::elab
