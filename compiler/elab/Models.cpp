// Catalog models into ir::Model: properties, figures with their provenance, port groups.
#include "diag/DiagCodes.h"
#include "elab/ElabState.h"
#include "elab/PropertyKeys.h"

#include <algorithm>
#include <cstring>

namespace fabc::elab {

bool Elab::figure(const ast::Prop &p, const Dim &want, ir::Figure &out) {
  if (p.low)
    boundsRead_ = &p;
  double v;
  if (!propQty(p, want, v))
    return false;
  out.value = v;
  out.known = true;
  out.estimate = p.annot == ast::Prop::Estimate;
  out.source = p.annot == ast::Prop::None ? 0 : F.strings.intern(p.annotText);
  out.bounded = false;
  return !p.low || figureBounds(p, want, out);
}

// `LOW..HIGH` in a property's annotation: where the bounds' diagnostics point.
static SourceRange boundsRange(const ast::Prop &p) {
  SourceRange at = p.low->range;
  at.length = p.high->range.begin.offset + p.high->range.length - at.begin.offset;
  return at;
}

bool Elab::figureBounds(const ast::Prop &p, const Dim &want, ir::Figure &out) {
  double lo, hi;
  if (!exprQty(p.low, p.key, want, lo) || !exprQty(p.high, p.key, want, hi))
    return false;
  if (lo >= 0 && lo <= out.value && out.value <= hi) {
    out.low = lo;
    out.high = hi;
    out.bounded = true;
    return true;
  }
  Diagnostic *d = error(DiagCode::E0390, boundsRange(p), "the bounds {} .. {} of '{}' do not hold its value, {}", formatQuantity(lo, want),
                        formatQuantity(hi, want), p.key, formatQuantity(out.value, want));
  DiagEngine::note(d, {}, "write LOW..HIGH with 0 <= LOW <= value <= HIGH: the lowest and the highest the figure could "
                          "be, for example power = 25 W estimate 20 W .. 30 W \"...\"");
  return false;
}

void Elab::boundsWithoutFigure(const ast::Prop &p, const char *block) {
  Diagnostic *d = error(DiagCode::E0391, boundsRange(p), "'{}' in {} is not a catalog figure: it has no bounds", p.key, block);
  DiagEngine::note(d, {}, "bounds (estimate LOW..HIGH) belong to a model's power, price, latency, reach, lasers, "
                          "max_mtu and failure rates (afr, mtbf, their nic_ and laser_ forms, afr_per_km); remove LOW..HIGH");
}

// A failure rate: `afr` (failures per unit-year, 0.5% or 0.005) or `mtbf` (a time:
// failures per unit-year = 8,760 h / MTBF), with its provenance.
bool Elab::failureRate(const ast::Prop &p, ir::Figure &out) {
  bool mtbf = p.key.size() >= 4 && p.key.compare(p.key.size() - 4, 4, "mtbf") == 0;
  ir::Figure f;
  if (!figure("model", p, mtbf ? dims::Time : dims::None, f))
    return false;
  if (mtbf) {
    if (f.bounded && f.low <= 0) {
      error(DiagCode::E0390, p.low->range, "the low bound of '{}' must be above 0: an MTBF of 0 fails at once", p.key);
      return false;
    }
    f.value = 8760.0 * 3600 / f.value;
    // A longer MTBF is a lower rate: the bounds swap.
    double low = f.bounded ? 8760.0 * 3600 / f.high : 0, high = f.bounded ? 8760.0 * 3600 / f.low : 0;
    f.low = low;
    f.high = high;
  }
  out = f;
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

bool Elab::findRangeRow(const char *where, std::string_view key) { return findRange(where, key) != nullptr; }

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
    DiagEngine::note(d, {}, "for example: option " + std::string(p.key) + " = 1000;");
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

bool Elab::propQty(const ast::Prop &p, const Dim &want, double &out) { return exprQty(p.value, p.key, want, out); }

bool Elab::exprQty(const ast::Expr *e, std::string_view key, const Dim &want, double &out) {
  Value v = eval(e);
  if (!v.ok())
    return false;
  if (!v.numeric()) {
    error(DiagCode::E0026, e->range, "'{}' must be {}, not {}", key,
          want.none() ? "a number" : "a " + dimName(want), elab::typeName(v));
    return false;
  }
  if (v.dimension() != want) {
    Diagnostic *d = error(DiagCode::E0025, e->range, "'{}' must be {}, but this is {}", key,
                          want.none() ? std::string("a plain number") : dimName(want), dimName(v.dimension()));
    if (!want.none() && v.dimension().none())
      DiagEngine::note(d, {}, "add a unit, for example " + formatQuantity(v.asDouble() * (want == dims::Bandwidth ? 1e9 : 1), want));
    return false;
  }
  out = v.asDouble();
  return true;
}

// order_lengths = [0.5 m, 1 m, ...] source "...": the lengths a cable or fibre is sold in.
void Elab::orderLengths(const ast::Prop &p, ir::Model &out) {
  Value v = eval(p.value);
  if (v.type != Value::List) {
    if (v.ok())
      error(DiagCode::E0026, p.value->range, "'order_lengths' is a list of lengths, for example [1 m, 2 m, 3 m]");
    return;
  }
  std::vector<double> lens;
  for (const Value &x : *v.list) {
    if (!x.numeric() || x.dimension() != dims::Length) {
      Diagnostic *d = error(DiagCode::E0025, p.value->range, "'order_lengths' must be lengths, but an item is {}",
                            x.numeric() ? dimName(x.dimension()) : elab::typeName(x));
      DiagEngine::note(d, {}, "for example: order_lengths = [1 m, 2 m, 3 m];");
      return;
    }
    double len = x.asDouble();
    if (!(len > 0 && len <= 2e7) || (!lens.empty() && len <= lens.back())) {
      Diagnostic *d = error(DiagCode::E0034, p.value->range, "'order_lengths' must rise, each more than 0 and at most 20,000 km");
      DiagEngine::note(d, {}, "list the lengths the vendor sells, shortest first");
      return;
    }
    lens.push_back(len);
  }
  out.orderLengths = std::move(lens);
  out.orderLengthsNote.known = true;
  out.orderLengthsNote.estimate = p.annot == ast::Prop::Estimate;
  out.orderLengthsNote.source = p.annot == ast::Prop::None ? 0 : F.strings.intern(p.annotText);
}

bool Elab::propInt(const ast::Prop &p, int64_t lo, int64_t hi, int64_t &out) {
  Value v = eval(p.value);
  if (!v.ok() || !toInt(v, p.value, out, std::string(p.key).c_str()))
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

// A port's lane structure: `lanes` and `lane_rate`, either one implying the other from
// the speed (a rate alone must divide it); both must give the speed (FAB-E0056). Every
// listed breakout must divide the lanes (FAB-E0043), or a broken-out port would have
// part of a lane.
void Elab::portLanes(const ast::Model &m, const ast::PortDecl &pd, ir::PortGroup &g) {
  auto at = [&](const char *key) {
    for (const ast::Prop &p : pd.props)
      if (p.key == key)
        return propRange(p);
    return pd.range;
  };
  if (g.laneRate && !g.lanes) {
    double n = g.speed / g.laneRate;
    if (std::fabs(n - std::round(n)) > 1e-9 * n || n < 1 || n > 64) {
      Diagnostic *d = error(DiagCode::E0056, at("lane_rate"), "port group '{}' of '{}': lanes of {} do not make up its speed of {}",
                            pd.name, m.name, formatQuantity(g.laneRate, dims::Bandwidth), formatQuantity(g.speed, dims::Bandwidth));
      DiagEngine::note(d, {}, "give lanes = N with lane_rate = speed / N");
      g.laneRate = 0;
      return;
    }
    g.lanes = uint32_t(std::lround(n));
  } else if (g.lanes && g.laneRate && std::fabs(g.lanes * g.laneRate - g.speed) > 1e-9 * g.speed) {
    Diagnostic *d = error(DiagCode::E0056, at("lane_rate"), "port group '{}' of '{}': {} lanes of {} make {}, not its speed of {}",
                          pd.name, m.name, g.lanes, formatQuantity(g.laneRate, dims::Bandwidth),
                          formatQuantity(g.lanes * g.laneRate, dims::Bandwidth), formatQuantity(g.speed, dims::Bandwidth));
    DiagEngine::note(d, {}, "lanes x lane_rate is the port's speed");
    g.laneRate = 0;
    return;
  } else if (g.lanes && !g.laneRate) {
    g.laneRate = g.speed / g.lanes;
  }
  for (int k = 1; k < 4 && g.lanes; ++k)
    if ((g.breakoutMask & (1u << k)) && g.lanes % (1u << k)) {
      Diagnostic *d = error(DiagCode::E0043, at("breakouts"), "port group '{}' of '{}' lists a 1:{} breakout, which does not divide its {} lanes",
                            pd.name, m.name, 1u << k, g.lanes);
      DiagEngine::note(d, at("lanes"), "a broken-out port takes whole lanes: list only factors that divide lanes");
      g.breakoutMask &= ~(1u << k);
    }
}

// An optic, cable or CPO engine with lanes states their rate, and lanes x lane_rate is
// its speed per logical port; the same for a gearbox's host side (FAB-E0056). The
// diagnostic points at the property as the model (or its override) sets it.
void Elab::checkLanes(const ast::Model &m, const ir::Model &out) {
  if (out.kind != ir::ModelKind::Optic && out.kind != ir::ModelKind::Cable)
    return;
  auto loc = [&](const char *key) { return out.propLoc(F.strings.intern(key)); };
  const char *name = F.strings.str(out.name).data();
  struct Side { const char *lanesKey, *rateKey; uint32_t lanes; double rate; };
  const Side sides[] = {{"lanes", "lane_rate", out.lanes, out.laneRate},
                        {"host_lanes", "host_lane_rate", out.hostLanes, out.hostLaneRate}};
  auto own = [&](const char *key) {
    return std::any_of(m.props.begin(), m.props.end(), [&](const ast::Prop &p) { return p.key == key; });
  };
  auto written = [&](const char *key) {
    uint32_t k = F.strings.intern(key);
    return std::any_of(out.propLocs.begin(), out.propLocs.end(), [&](const auto &kv) { return kv.first == k; });
  };
  for (const Side &s : sides) {
    if ((s.lanes && !s.rate && written(s.rateKey)) || (s.rate && !s.lanes && written(s.lanesKey)))
      continue; // the value itself was wrong, and reported
    if (s.lanes && !s.rate) {
      Diagnostic *d = error(DiagCode::E0056, loc(s.lanesKey), "model '{}' has {} = {} but no {}", name, s.lanesKey, s.lanes, s.rateKey);
      DiagEngine::note(d, {}, fmt::format("say the rate of one lane, for example {} = {}", s.rateKey,
                                          out.speed ? formatQuantity(out.speed / s.lanes, dims::Bandwidth) : std::string("100 Gb/s")));
    } else if (s.rate && !s.lanes) {
      Diagnostic *d = error(DiagCode::E0056, loc(s.rateKey), "model '{}' has {} but no {}", name, s.rateKey, s.lanesKey);
      DiagEngine::note(d, {}, fmt::format("say how many lanes, for example {} = 4", s.lanesKey));
    } else if (s.lanes && out.speed && std::fabs(s.lanes * s.rate - out.speed) > 1e-9 * out.speed) {
      // At this model's own property: in a derived model that overrides the speed but
      // not the lanes, the override is the caret and the base's lanes the note.
      bool atSpeed = own("speed") && !own(s.lanesKey) && !own(s.rateKey);
      Diagnostic *d = error(DiagCode::E0056, atSpeed ? loc("speed") : loc(s.rateKey),
                            "model '{}': {} lanes of {} make {}, not its speed of {}", name, s.lanes,
                            formatQuantity(s.rate, dims::Bandwidth), formatQuantity(s.lanes * s.rate, dims::Bandwidth),
                            formatQuantity(out.speed, dims::Bandwidth));
      if (atSpeed)
        DiagEngine::note(d, loc(s.rateKey), "the lanes are set here, in the base model");
      else
        DiagEngine::note(d, loc("speed"), "the speed per logical port is set here");
    }
  }
}

bool Elab::propBool(const ast::Prop &p, bool &out) {
  Value v = eval(p.value);
  return v.ok() && toBool(v, p.value, out);
}

void Elab::convertModel(const ast::Model &m, ir::Model &out) {
  using K = ir::ModelKind;
  bool device = out.kind == K::System || out.kind == K::Switch || out.kind == K::Nic || out.kind == K::NvSwitch;
  bool media = out.kind == K::Optic || out.kind == K::Cable;
  std::string what = "model '" + std::string(m.name) + "'";
  duplicateProps(m.props, [&] { return what; }, true);
  for (const ast::Prop &p : m.props) {
    std::string_view k = p.key;
    boundsRead_ = nullptr;
    bool unknown = false;
    // Where the property is set: a derived model's override replaces its base's place.
    uint32_t key = F.strings.intern(k);
    auto at = std::find_if(out.propLocs.begin(), out.propLocs.end(), [&](const auto &kv) { return kv.first == key; });
    if (at != out.propLocs.end())
      at->second = propRange(p);
    else
      out.propLocs.push_back({key, propRange(p)});
    int64_t iv;
    if (k == "vendor") propStr(p, out.vendor);
    else if (k == "sku" && p.value->kind == ast::Expr::Name && p.value->text == "none" && p.value->kids.empty()) {
      if (p.annot == ast::Prop::None || p.annotText.empty()) {
        Diagnostic *d = error(DiagCode::E0037, p.value->range, "'sku = none' needs the reason the part has no SKU");
        DiagEngine::note(d, {}, "for example: sku = none source \"generic LR4 class, any vendor's part\";");
      } else {
        out.skuNoneReason = F.strings.intern(p.annotText);
      }
    }
    else if (k == "sku") propStr(p, out.sku);
    else if (k == "description") propStr(p, out.description);
    else if (k == "power") figure("model", p, dims::Power, out.power);
    else if (k == "price") figure("model", p, dims::Money, out.price);
    else if (k == "rack_units" && device) { if (propInt(p, 0, 64, iv)) out.rackUnits = uint32_t(iv); }
    else if (k == "latency" && (device || out.kind == K::Gpu)) figure("model", p, dims::Time, out.latency);
    else if (k == "gpus" && out.kind == K::System) { if (propInt(p, 0, 1 << 20, iv)) out.gpus = uint32_t(iv); }
    else if (k == "nvlink_domain" && out.kind == K::System) { if (propInt(p, 0, 1 << 20, iv)) out.nvlinkDomain = uint32_t(iv); }
    else if (k == "hosts" && out.kind == K::System) { if (propInt(p, 1, 1 << 20, iv)) out.hosts = uint32_t(iv); }
    else if (k == "ports_per_gpu" && out.kind == K::System) { if (propInt(p, 1, 64, iv)) out.portsPerGpu = uint32_t(iv); }
    else if (k == "bond" && out.kind == K::System) {
      uint32_t s;
      if (propStr(p, s)) {
        std::string_view v = F.strings.str(s);
        if (v == "none") out.bond = ir::Model::Bond::None;
        else if (v == "lacp") out.bond = ir::Model::Bond::Lacp;
        else if (v == "mc-lag") out.bond = ir::Model::Bond::McLag;
        else if (v == "evpn-mh") out.bond = ir::Model::Bond::EvpnMh;
        else {
          Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown bond '{}'", v);
          diags_.suggest(d, p.value->range, v, "none lacp mc-lag evpn-mh");
          DiagEngine::note(d, {}, "bond is \"none\" (independent ports), \"lacp\" (one switch), \"mc-lag\" or \"evpn-mh\" "
                                  "(one bond across two switches)");
        }
      }
    }
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
            diags_.suggest(d, p.value->range, name, "DAC ACC AOC MMF SMF DCI CPO");
            DiagEngine::note(d, {}, "media: DAC, ACC, AOC, MMF, SMF, DCI, CPO");
          }
        }
      }
    }
    else if (media && k == "speed") propQty("model", p, dims::Bandwidth, out.speed);
    else if (media && k == "form") propStr(p, out.form);
    else if (media && k == "reach") figure("model", p, dims::Length, out.reach);
    else if (media && k == "order_lengths") orderLengths(p, out);
    else if (media && k == "ports") { if (propInt(p, 1, 8, iv)) out.portsPerUnit = uint32_t(iv); }
    else if (out.kind == K::Optic && k == "connectors") { if (propInt(p, 1, 8, iv)) out.connectors = uint32_t(iv); }
    else if (out.kind == K::Cable && k == "legs") { if (propInt(p, 1, 8, iv)) out.legs = uint32_t(iv); }
    else if (out.kind == K::Optic && k == "lasers") figure("model", p, dims::None, out.lasers);
    else if ((k == "mtbf" || k == "afr") && out.kind != K::Gpu) failureRate(p, out.afr);
    else if ((k == "nic_mtbf" || k == "nic_afr") && out.kind == K::System) failureRate(p, out.nicAfr);
    else if ((k == "laser_mtbf" || k == "laser_afr") && out.kind == K::Optic) failureRate(p, out.laserAfr);
    else if (k == "afr_per_km" && out.kind == K::Cable) figure("model", p, dims::None, out.afrPerKm);
    else if (out.kind == K::Optic && k == "interface") propStr(p, out.interface);
    else if (out.kind == K::Switch && k == "sonic_platform") propStr(p, out.sonicPlatform);
    else if (out.kind == K::Switch && k == "sonic_hwsku") propStr(p, out.sonicHwsku);
    else if (out.kind == K::Switch && k == "sonic_egress_lossless_pool") propQty("model", p, dims::Data, out.sonicEgressLosslessPool);
    else if (k == "max_mtu" && (out.kind == K::Switch || out.kind == K::Nic || out.kind == K::System)) figure("model", p, dims::Data, out.maxMtu);
    else if ((media && k == "lanes") || (out.kind == K::Optic && k == "host_lanes")) {
      if (propInt(p, 1, 64, iv))
        (k == "lanes" ? out.lanes : out.hostLanes) = uint32_t(iv);
    }
    else if (media && k == "lane_rate") propQty("model", p, dims::Bandwidth, out.laneRate);
    else if (out.kind == K::Optic && k == "host_lane_rate") propQty("model", p, dims::Bandwidth, out.hostLaneRate);
    else if (k == "protocol" && (out.kind == K::Switch || out.kind == K::Nic)) {
      uint32_t s;
      if (propStr(p, s)) {
        std::string_view v = F.strings.str(s);
        if (v == "ethernet") out.protocol = ir::Protocol::Ethernet;
        else if (v == "infiniband") out.protocol = ir::Protocol::InfiniBand;
        else {
          Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown protocol '{}'", v);
          diags_.suggest(d, p.value->range, v, "ethernet infiniband");
          DiagEngine::note(d, {}, "protocol is \"ethernet\" or \"infiniband\"");
        }
      }
    }
    else if (out.kind == K::Gpu && (k == "memory" || k == "nvlink_bandwidth")) {
      double unused;
      propQty(p, k == "memory" ? dims::Data : dims::Bandwidth, unused);
    }
    else {
      unknownProp(p, (std::string("a model of kind ") + ir::modelKindName(out.kind)).c_str(),
                  device ? keys::kDeviceModel : media ? keys::kMediaModel : keys::kGpuModel);
      unknown = true;
    }
    if (p.low && boundsRead_ != &p && !unknown)
      boundsWithoutFigure(p, what.c_str());
  }
  if (out.connectors && out.portsPerUnit % out.connectors) {
    Diagnostic *d = error(DiagCode::E0034, m.range, "{} connectors do not divide the {} ports of '{}'", out.connectors,
                          out.portsPerUnit, m.name);
    DiagEngine::note(d, {}, "each connector carries the same number of ports: connectors divides ports");
    out.connectors = 0;
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
    duplicateProps(pd.props, [&] { return "port group '" + std::string(pd.name) + "' of model '" + std::string(m.name) + "'"; });
    for (const ast::Prop &p : pd.props) {
      int64_t iv;
      if (p.key == "speed") haveSpeed = propQty("port", p, dims::Bandwidth, g.speed);
      else if (p.key == "lanes") { if (propInt(p, 1, 64, iv)) g.lanes = uint32_t(iv); }
      else if (p.key == "lane_rate") propQty("port", p, dims::Bandwidth, g.laneRate);
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
      } else if (p.key == "protocols") {
        Value v = eval(p.value);
        bool ok = v.type == Value::List && !v.list->empty();
        for (size_t i = 0; ok && i < v.list->size(); ++i) {
          const Value &x = (*v.list)[i];
          std::string_view name = x.type == Value::Str ? F.strings.str(x.s) : std::string_view();
          if (name == "ethernet")
            g.protocols |= 1u << unsigned(ir::Protocol::Ethernet);
          else if (name == "infiniband")
            g.protocols |= 1u << unsigned(ir::Protocol::InfiniBand);
          else
            ok = false;
        }
        if (!ok && v.ok()) {
          Diagnostic *d = error(DiagCode::E0026, p.value->range, "'protocols' is a list of link layers this port shape runs");
          DiagEngine::note(d, {}, "write [\"ethernet\"], [\"infiniband\"] or both");
          g.protocols = 0;
        }
      } else
        unknownProp(p, "a port group", keys::kPortGroup);
    }
    if (!haveSpeed) {
      error(DiagCode::E0037, pd.range, "port group '{}' has no speed", pd.name);
      continue;
    }
    if (g.count % g.portsPerCage) {
      error(DiagCode::E0034, pd.count->range, "{} ports do not fill cages of {} ports", g.count, g.portsPerCage);
      continue;
    }
    portLanes(m, pd, g);
    // A derived model's port group replaces its base's group of the same name.
    auto same = std::find_if(out.ports.begin(), out.ports.end(), [&](const ir::PortGroup &x) { return x.name == g.name; });
    if (same != out.ports.end())
      *same = g;
    else
      out.ports.push_back(g);
  }
  checkLanes(m, out);
  if (out.kind == K::System && out.nvlinkDomain > out.gpus)
    error(DiagCode::E0034, m.range, "nvlink_domain ({}) is larger than gpus ({})", out.nvlinkDomain, out.gpus);
  // Several ports per GPU: the first port group is divided among the GPUs, n each, so it
  // must hold exactly gpus x n ports (fewer: a port would serve two GPUs; more: a port none).
  if (out.kind == K::System && out.gpus && (out.portsPerGpu > 1 || out.bond != ir::Model::Bond::None)) {
    uint32_t have = out.ports.empty() ? 0 : out.ports[0].count;
    uint64_t want = uint64_t(out.gpus) * out.portsPerGpu;
    if (have != want) {
      Diagnostic *d = error(DiagCode::E0305, m.range, "'{}' has {} GPU port{} for {} GPUs x {} port{} each", m.name, have,
                            have == 1 ? "" : "s", out.gpus, out.portsPerGpu, out.portsPerGpu == 1 ? "" : "s");
      DiagEngine::note(d, {}, have < want ? "a port would belong to two GPUs: give the first port group gpus x ports_per_gpu ports"
                                          : "a port would belong to no GPU: give the first port group gpus x ports_per_gpu ports, "
                                            "or move the other ports to a port group of their own");
    }
  }
}

} // namespace fabc::elab
