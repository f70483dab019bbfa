// The media pass's options (Media.h): the catalog's ways to build a link of a kind, a
// cable assembly or fibre with a transceiver per pluggable end, in the order of the
// choice rule, and why a part does not fit an end (Media.cpp chooses and reports).
#include "passes/Media.h"

#include "diag/Diag.h"

#include <algorithm>
#include <map>
#include <set>

namespace fabc::passes::media {
using ir::None;

std::string lanesText(uint32_t lanes, double rate) {
  return fmt::format("{} x {}", lanes, formatQuantity(rate, dims::Bandwidth));
}
std::string name(const ir::Fabric &F, uint32_t model) { return std::string(F.strings.str(F.models[model].name)); }

// Why an optic cannot sit in this end's cage; empty when it can.
std::string opticMisfit(const ir::Fabric &F, const ir::Model &o, const End &e, bool ignoreLanes) {
  if (o.speed != e.speed)
    return fmt::format("it serves {} per port, the port runs at {}", formatQuantity(o.speed, dims::Bandwidth),
                       formatQuantity(e.speed, dims::Bandwidth));
  if (o.form && e.form && o.form != e.form)
    return fmt::format("it is {}, the port's cage {}", F.strings.str(o.form), F.strings.str(e.form));
  if (o.portsPerUnit != e.cage)
    return fmt::format("it serves {} logical port{} per unit, the cage holds {}", o.portsPerUnit,
                       o.portsPerUnit == 1 ? "" : "s", e.cage);
  uint32_t lanes = o.electricalLanes();
  if (!ignoreLanes && e.lanes && lanes && (lanes != e.lanes || o.electricalLaneRate() != e.laneRate))
    return fmt::format("its {}side has {} lanes, the port {}", o.hostLanes ? "host " : "electrical ",
                       lanesText(lanes, o.electricalLaneRate()), lanesText(e.lanes, e.laneRate));
  return {};
}

// Why a copper assembly cannot join these two ends; empty when it can. It plugs into
// whole cages: a twin-port cable needs twin-port cages, and copper carries the lanes as
// they are, so both ports must have its lanes.
std::string cableMisfit(const ir::Fabric &F, const ir::Model &c, const End &a, const End &b, bool ignoreLanes) {
  for (const End *e : {&a, &b}) {
    if (c.speed != e->speed)
      return fmt::format("it carries {} per port, the ports run at {}", formatQuantity(c.speed, dims::Bandwidth),
                         formatQuantity(e->speed, dims::Bandwidth));
    if (c.form && c.form != e->form)
      return fmt::format("it is {}, a port's cage {}", F.strings.str(c.form),
                         e->form ? F.strings.str(e->form) : std::string_view("of no stated form"));
    if (c.portsPerUnit != e->cage)
      return fmt::format("it serves {} logical port{} per end, a cage holds {}", c.portsPerUnit,
                         c.portsPerUnit == 1 ? "" : "s", e->cage);
    if (!ignoreLanes && e->lanes && c.lanes && (c.lanes != e->lanes || c.laneRate != e->laneRate))
      return fmt::format("it has {} lanes, a port {}", lanesText(c.lanes, c.laneRate), lanesText(e->lanes, e->laneRate));
  }
  return {};
}

namespace {
// The two ends' line sides agree: the same interface where both say one (else the same
// reach class, as before interfaces), and the same lanes where both say them.
bool lineCompatible(const ir::Fabric &F, uint32_t x, uint32_t y, bool ignoreLanes) {
  if (x == None || y == None || ignoreLanes)
    return true;
  const ir::Model &a = F.models[x], &b = F.models[y];
  if (a.lanes && b.lanes && (a.lanes != b.lanes || a.laneRate != b.laneRate))
    return false;
  if (a.interface && b.interface)
    return a.interface == b.interface;
  return a.reach.value == b.reach.value;
}

// The tie rule among parts that are otherwise equal: lower power, then the user's part
// before the stdlib's, then the name.
bool better(const ir::Fabric &F, uint32_t x, uint32_t y) {
  const ir::Model &a = F.models[x], &b = F.models[y];
  if (a.power.known != b.power.known)
    return a.power.known;
  if (a.power.value != b.power.value)
    return a.power.value < b.power.value;
  if (a.catalog != b.catalog)
    return !a.catalog;
  return F.strings.str(a.name) < F.strings.str(b.name);
}

} // namespace

// The CPO engine behind a CPO port: its speed and, where both say them, its lanes.
uint32_t engineFor(const ir::Fabric &F, const End &e) {
  uint32_t found = None;
  for (uint32_t i = 0; i < F.models.size(); ++i) {
    const ir::Model &o = F.models[i];
    if (o.kind != ir::ModelKind::Optic || !o.cpoEngine || o.speed != e.speed)
      continue;
    if (e.lanes && o.lanes && (o.lanes != e.lanes || o.laneRate != e.laneRate))
      continue;
    if (found == None || better(F, i, found))
      found = i;
  }
  return found;
}

std::vector<Option> options(const ir::Fabric &F, const Key &k) {
  std::vector<Option> out;
  bool chosenOptic = k.a.optic != None || k.b.optic != None;
  for (size_t mi = 1; mi < size_t(ir::Media::Count); ++mi) {
    ir::Media m = ir::Media(mi);
    if (k.req != ir::Media::None && k.req != m)
      continue;
    bool copper = m == ir::Media::DAC || m == ir::Media::ACC || m == ir::Media::AOC;
    if (copper) {
      if (k.a.cpo || k.b.cpo || chosenOptic)
        continue; // a CPO port takes fibre; a chosen optic is not a copper plug
      for (uint32_t i = 0; i < F.models.size(); ++i) {
        const ir::Model &c = F.models[i];
        if (c.kind != ir::ModelKind::Cable || c.media != m || (k.cable != None && k.cable != i) ||
            !cableMisfit(F, c, k.a, k.b, k.ignoreLanes).empty())
          continue;
        out.push_back({m, c.reach.known ? c.reach.value : 0, i, None, None});
      }
      continue;
    }
    if ((k.a.cpo || k.b.cpo) && m == ir::Media::MMF)
      continue; // CPO engines drive single-mode fibre
    // Fibre: the chosen fibre cable, else the catalog's by the tie rule; the optics set the reach.
    uint32_t fibre = None;
    if (k.cable != None) {
      if (F.models[k.cable].media != m || F.models[k.cable].speed != 0)
        continue;
      fibre = k.cable;
    } else {
      for (uint32_t i = 0; i < F.models.size(); ++i)
        if (F.models[i].kind == ir::ModelKind::Cable && F.models[i].media == m && F.models[i].speed == 0 &&
            F.models[i].legs == 1 && // a splitter fibre is put on a connector (fanOutConnectors), never per link
            (fibre == None || better(F, i, fibre)))
          fibre = i;
    }
    struct Cand {
      uint32_t optic; // None at a CPO port
      double reach;
      uint32_t line;  // the model whose line side this end speaks: the optic, or the CPO engine
    };
    std::vector<Cand> cand[2];
    for (int side = 0; side < 2; ++side) {
      const End &e = side ? k.b : k.a;
      if (e.cpo) {
        uint32_t engine = engineFor(F, e);
        double reach = engine != None && F.models[engine].reach.known ? F.models[engine].reach.value : 500.0;
        cand[side].push_back({None, reach, engine});
        continue;
      }
      for (uint32_t i = 0; i < F.models.size(); ++i) {
        const ir::Model &o = F.models[i];
        if (o.kind != ir::ModelKind::Optic || o.cpoEngine || o.media != m || (e.optic != None && e.optic != i) ||
            !opticMisfit(F, o, e, k.ignoreLanes).empty())
          continue;
        cand[side].push_back({i, o.reach.known ? o.reach.value : 0, i});
      }
    }
    for (const Cand &a : cand[0])
      for (const Cand &b : cand[1])
        if (lineCompatible(F, a.line, b.line, k.ignoreLanes))
          out.push_back({m, std::min(a.reach, b.reach), fibre, a.optic, b.optic});
  }
  // The choice rule (docs/decisions/0005-media-choice.md): media class in the order
  // above, then the shortest reach that covers the link (the cheapest part that does
  // the job), then the lowest power, then the user's parts before the stdlib's, then
  // the part names: never the catalog's order.
  // An optic without a power figure sorts after those with one (it is not free).
  auto power = [&](const Option &o) {
    double w = 0;
    for (uint32_t m : {o.cable, o.opticA, o.opticB})
      if (m != None)
        w += F.models[m].power.value;
    for (uint32_t m : {o.opticA, o.opticB})
      if (m != None && !F.models[m].power.known)
        w += 1e12;
    return w;
  };
  auto catalogParts = [&](const Option &o) {
    int n = 0;
    for (uint32_t m : {o.cable, o.opticA, o.opticB})
      n += m != None && F.models[m].catalog;
    return n;
  };
  auto names = [&](const Option &o) {
    std::array<std::string_view, 3> n;
    uint32_t parts[3] = {o.opticA, o.opticB, o.cable};
    for (int i = 0; i < 3; ++i)
      n[i] = parts[i] == None ? std::string_view() : F.strings.str(F.models[parts[i]].name);
    return n;
  };
  std::sort(out.begin(), out.end(), [&](const Option &x, const Option &y) {
    if (x.media != y.media)
      return x.media < y.media;
    if (x.reach != y.reach)
      return x.reach < y.reach;
    double px = power(x), py = power(y);
    if (px != py)
      return px < py;
    int cx = catalogParts(x), cy = catalogParts(y);
    if (cx != cy)
      return cx < cy;
    return names(x) < names(y);
  });
  return out;
}

} // namespace fabc::passes::media
