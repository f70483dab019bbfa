// The media pass: a cable, or fibre with a transceiver per pluggable end, for every link.
// A part is chosen only when it fits both ends: speed, form, logical ports per cage, the
// port's lanes (lanes x lane rate, the host side of a gearbox optic), and, between the
// two ends' optics (or a CPO engine), the same interface and line lanes. A part the
// design chooses (optic = M / cable = M) is taken as it is, or reported (FAB-E0058).
#include "diag/DiagCodes.h"
#include "diag/Diag.h"
#include "passes/Media.h"
#include "passes/Passes.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace fabc::passes {
using ir::None;
using namespace media;

namespace {
// The design's choices for one link: the link's own, else each end's instance or port
// group, else each end's tier policy.
struct Chosen {
  uint32_t optic[2] = {None, None}, cable = None;
  SourceRange opticAt[2], cableAt;
  bool conflict = false;           // the two ends choose different cables
  SourceRange conflictAt[2];
  bool cpoOptic[2] = {false, false}; // an optic chosen for a CPO port by the link or instance
};

class Choices {
public:
  explicit Choices(const ir::Fabric &F) : F(F) {
    for (uint32_t t : F.tierChoice)
      any_ |= t != 0;
    any_ |= !F.linkChoice.empty() || !F.devChoice.empty();
  }
  bool any() const { return any_; }

  Chosen of(uint32_t l) const {
    Chosen c;
    const ir::PartChoice *link = F.linkChoice.empty() ? nullptr : &F.partChoices[F.linkChoice[l]];
    const ir::PartChoice *dev[2], *tier[2];
    for (int side = 0; side < 2; ++side) {
      uint32_t port = side ? F.linkB[l] : F.linkA[l], d = F.portDevice[port];
      dev[side] = tier[side] = nullptr;
      if (!F.devChoice.empty() && F.devChoice[d])
        dev[side] = &F.partChoices[F.devChoiceSets[F.devChoice[d]][F.portGroup(port)]];
      if (ir::isSwitchTier(F.devTier[d]) || F.devTier[d] == ir::Tier::EndSystem)
        tier[side] = F.tierChoice[ir::tierIndex(F.devTier[d])] ? &F.partChoices[F.tierChoice[ir::tierIndex(F.devTier[d])]] : nullptr;
      bool cpo = F.modelOf(d).ports[F.portGroup(port)].cpo;
      const ir::PartChoice *levels[3] = {link, dev[side], tier[side]};
      for (int lv = 0; lv < 3 && c.optic[side] == None; ++lv) {
        const ir::PartChoice *p = levels[lv];
        if (!p || p->optic == None)
          continue;
        if (cpo) {
          // A tier's optic is for the pluggable ports of the tier; a link or an instance
          // that names an optic for a CPO port is told.
          if (lv < 2) {
            c.cpoOptic[side] = true;
            c.opticAt[side] = p->opticLoc;
          }
          break;
        }
        c.optic[side] = p->optic;
        c.opticAt[side] = p->opticLoc;
      }
    }
    if (link && link->cable != None) {
      c.cable = link->cable;
      c.cableAt = link->cableLoc;
      return c;
    }
    for (const auto &lvl : {dev, tier}) {
      const ir::PartChoice *x = lvl[0], *y = lvl[1];
      uint32_t cx = x ? x->cable : None, cy = y ? y->cable : None;
      if (cx == None && cy == None)
        continue;
      if (cx != None && cy != None && cx != cy) {
        c.conflict = true;
        c.conflictAt[0] = x->cableLoc;
        c.conflictAt[1] = y->cableLoc;
      }
      c.cable = cx != None ? cx : cy;
      c.cableAt = cx != None ? x->cableLoc : y->cableLoc;
      break;
    }
    return c;
  }

private:
  const ir::Fabric &F;
  bool any_ = false;
};

// One end of a link as read once per link (decision 0541): its device, model and port
// group, for the protocol rule and for the End the options depend on.
struct PortAt {
  uint32_t port, dev, group;
  const ir::Model *model;
  const ir::Layout *layout;
};
PortAt portAt(const ir::Fabric &F, uint32_t port) {
  uint32_t d = F.portDevice[port];
  return {port, d, F.portGroup(port), &F.modelOf(d), &F.layoutOf(d)};
}

End endOf(const PortAt &at) {
  const ir::PortGroup &pg = at.model->ports[at.group];
  const ir::GroupLayout &gl = at.layout->groups[at.group];
  End e;
  e.speed = gl.speed;
  e.lanes = gl.lanes;
  e.laneRate = pg.laneRate;
  e.form = pg.form;
  e.cage = gl.portsPerCage;
  e.cpo = pg.cpo;
  return e;
}

std::string endText(const ir::Fabric &F, uint32_t port, const End &e) {
  std::string s = fmt::format("'{}' ({}", F.portName(port), formatQuantity(e.speed, dims::Bandwidth));
  if (e.lanes)
    s += ", " + lanesText(e.lanes, e.laneRate);
  if (e.cpo)
    s += ", CPO";
  else if (e.form)
    s += fmt::format(", {}", F.strings.str(e.form));
  if (e.cage > 1)
    s += fmt::format(", {} ports per cage", e.cage);
  return s + ")";
}

std::string partText(const ir::Fabric &F, uint32_t model) {
  const ir::Model &m = F.models[model];
  std::string s = name(F, model);
  std::string what;
  if (m.interface)
    what = std::string(F.strings.str(m.interface));
  if (m.lanes)
    what += (what.empty() ? "" : " ") + lanesText(m.lanes, m.laneRate);
  return what.empty() ? s : s + " (" + what + ")";
}

// The part that would join the two ends: at the end whose part does not fit its port,
// an optic of the port's lanes that speaks the other end's line side (a gearbox when the
// lanes differ). From the options the catalog would have without lanes and interfaces.
std::string wouldFit(const ir::Fabric &F, const std::vector<Option> &relaxed, uint32_t pa, const End &a, uint32_t pb,
                     const End &b) {
  auto fits = [&](uint32_t optic, const End &e) {
    return optic == None || opticMisfit(F, F.models[optic], e, false).empty();
  };
  for (const Option &o : relaxed) {
    if (o.opticA == None && o.opticB == None)
      continue;
    bool fitA = fits(o.opticA, a), fitB = fits(o.opticB, b);
    if (fitA == fitB)
      continue;
    int side = fitA ? 1 : 0; // bridge here
    const End &here = side ? b : a, &there = side ? a : b;
    uint32_t facing = side ? o.opticA : o.opticB, port = side ? pb : pa;
    if (facing == None)
      facing = engineFor(F, there);
    if (facing == None || !here.lanes || !F.models[facing].lanes)
      continue;
    const ir::Model &f = F.models[facing];
    bool gearbox = f.lanes != here.lanes || f.laneRate != here.laneRate;
    return fmt::format("would fit: at '{}' an optic with {} lanes toward the port and {}{} on the line, to face {}{}",
                       F.portName(port), lanesText(here.lanes, here.laneRate),
                       f.interface ? std::string(F.strings.str(f.interface)) + " " : std::string(),
                       lanesText(f.lanes, f.laneRate), partText(F, facing),
                       gearbox ? fmt::format(" (a gearbox: lanes = {}; lane_rate = {}; host_lanes = {}; host_lane_rate = {};)",
                                             f.lanes, formatQuantity(f.laneRate, dims::Bandwidth), here.lanes,
                                             formatQuantity(here.laneRate, dims::Bandwidth))
                               : std::string());
  }
  if (!relaxed.empty())
    return "would fit: a copper cable of both ports' lanes, or optics at both ends of one interface and line lanes";
  return {};
}

// Parts that fit one end on their own (the E0059 note), up to three.
std::string partsFor(const ir::Fabric &F, const End &e) {
  if (e.cpo) {
    uint32_t engine = engineFor(F, e);
    return engine == None ? "a CPO engine (none in the catalog)" : "its CPO engine " + partText(F, engine);
  }
  std::string s;
  int n = 0;
  for (uint32_t i = 0; i < F.models.size(); ++i) {
    const ir::Model &o = F.models[i];
    if (o.kind != ir::ModelKind::Optic || o.cpoEngine || !opticMisfit(F, o, e, false).empty())
      continue;
    if (n++ < 3)
      s += (s.empty() ? "" : ", ") + partText(F, i);
  }
  if (n > 3)
    s += fmt::format(" and {} more", n - 3);
  return s.empty() ? "no optic" : s;
}
} // namespace

// The link's protocol is its switches' (or NICs'); a port group that lists the protocols
// its shape runs must list that one (FAB-E0360). A ConnectX-8 cage at 1 x 800G is XDR on
// InfiniBand only, and its lane rate (200G) is not an SN5600's (100G): without this rule a
// gearbox optic would paper over a link no vendor lists.
static bool runsProtocol(const ir::Fabric &F, uint32_t l, const PortAt (&at)[2], DiagEngine &diags,
                         unsigned &reported) {
  ir::Protocol proto = ir::Protocol::Unspecified;
  uint32_t from = ir::None;
  for (const PortAt &e : at)
    if (e.model->protocol != ir::Protocol::Unspecified && proto == ir::Protocol::Unspecified)
      proto = e.model->protocol, from = e.dev;
  if (proto == ir::Protocol::Unspecified)
    return true;
  for (const PortAt &e : at) {
    uint32_t p = e.port, d = e.dev;
    const ir::PortGroup &pg = e.model->ports[e.group];
    if (!pg.protocols || (pg.protocols >> unsigned(proto) & 1))
      continue;
    if (reported++ >= 20) {
      diags.tally(DiagCode::E0360, linkRange(F, l));
      return false;
    }
    const char *name = proto == ir::Protocol::Ethernet ? "ethernet" : "infiniband";
    const char *other = proto == ir::Protocol::Ethernet ? "infiniband" : "ethernet";
    Diagnostic *dg = diags.report(DiagCode::E0360, linkRange(F, l),
                                  "'{}' runs {} only, but this link is {} ('{}' is an {} {})", F.portName(p), other, name,
                                  F.deviceName(from), name,
                                  F.modelOf(from).kind == ir::ModelKind::Switch ? "switch" : "NIC");
    noteLinkInstances(dg, F, l);
    DiagEngine::note(dg, pg.loc, fmt::format("port group '{}' of '{}' lists the protocols its shape runs",
                                             F.strings.str(pg.name), F.strings.str(F.modelOf(d).name)));
    DiagEngine::note(dg, {}, fmt::format("use a model whose port group runs {} (nvidia/systems.fab: DGX_B300_Ethernet, "
                                         "2 x 400GbE per ConnectX-8), or link the port to a switch of the protocol it runs",
                                         name));
    return false;
  }
  return true;
}

void chooseMedia(ir::Fabric &F, DiagEngine &diags) {
  size_t n = F.numLinks();
  F.linkMedia.assign(n, ir::Media::None);
  F.linkCable.assign(n, None);
  F.linkOpticA.assign(n, None);
  F.linkOpticB.assign(n, None);
  // A key's options, and the ones a length can pick: those of longer reach than every
  // option before them (the first option that reaches a length is one of them, and their
  // reaches rise), so that a pick scans a few instead of the whole list.
  struct Options {
    std::vector<Option> all;
    std::vector<uint32_t> reachSteps;
  };
  std::map<Key, Options> cache; // node-based: the vectors never move
  unsigned reachReported = 0, fitReported = 0, joinReported = 0;
  std::set<Key> explained; // a key's misfit or missing join is reported once
  Choices choices(F);
  auto cachedFor = [&](const Key &k) -> const Options & {
    auto it = cache.find(k);
    if (it == cache.end()) {
      Options o{options(F, k), {}};
      double longest = -1;
      for (uint32_t i = 0; i < o.all.size(); ++i)
        if (o.all[i].reach > longest) {
          o.reachSteps.push_back(i);
          longest = o.all[i].reach;
        }
      it = cache.emplace(k, std::move(o)).first;
    }
    return it->second;
  };
  auto optionsFor = [&](const Key &k) -> const std::vector<Option> & { return cachedFor(k).all; };
  // A link's key: its ends and what the design chose for it. The cage step (Cages.cpp)
  // asks again for the few links it raises, rather than this pass keeping a pointer per
  // link (25 MB at a million GPUs; decision 0541).
  auto keyOf = [&](uint32_t l, const PortAt (&at)[2], Chosen &chosen) {
    Key key;
    key.a = endOf(at[0]);
    key.b = endOf(at[1]);
    key.req = F.linkMediaReq[l];
    if (choices.any()) {
      chosen = choices.of(l);
      key.a.optic = chosen.optic[0];
      key.b.optic = chosen.optic[1];
      key.cable = chosen.cable;
    }
    return key;
  };
  // A link of a stamped template instance joins ports of the same models, groups and
  // layouts, with the same request, as the link it was copied from (decision 0341). Where
  // its length and chosen parts are also the same, and the earlier link got its parts
  // without a diagnostic, it gets the same parts without the search. Exact; at a million
  // GPUs three of the four planes' links.
  const std::vector<ir::InstanceTree::LinkCopy> copies = F.instances.linkCopies();
  size_t copy = 0;
  auto sameAs = [&](uint32_t l, uint32_t o) {
    if (F.linkMedia[o] == ir::Media::None || F.linkLength[l] != F.linkLength[o] ||
        F.linkMediaReq[l] != F.linkMediaReq[o])
      return false;
    if (!choices.any())
      return true;
    Chosen a = choices.of(l), b = choices.of(o);
    return !a.conflict && !a.cpoOptic[0] && !a.cpoOptic[1] && !b.conflict && !b.cpoOptic[0] && !b.cpoOptic[1] &&
           a.optic[0] == b.optic[0] && a.optic[1] == b.optic[1] && a.cable == b.cable;
  };
  Key last;
  const Options *lastOpts = nullptr;
  unsigned shapeReported = 0;
  auto pickFrom = [](const Options &o, double len) -> const Option * {
    for (uint32_t i : o.reachSteps)
      if (o.all[i].reach >= len)
        return &o.all[i];
    return nullptr;
  };
  // The ends of the last link that picked its part by the rule from lastOpts, in a design
  // that chooses no part: a link whose ends are ports of the same models, layouts and port
  // groups, asking for the same media, has its key (endOf reads nothing else), and runs
  // the protocol as that one did, so it picks from the same options without finding its
  // port groups again (the consecutive links of a loop; a third of the pass before).
  struct EndShape {
    uint32_t model = None, layout = None, group = 0;
  };
  EndShape lastEnds[2];
  bool lastPicked = false; // and `last` that link's key
  auto sameEnd = [&](uint32_t port, const EndShape &e) {
    uint32_t d = F.portDevice[port];
    if (F.devModel[d] != e.model || F.devLayout[d] != e.layout)
      return false;
    const ir::GroupLayout &gl = F.layouts[e.layout].groups[e.group];
    uint32_t rel = port - F.devPortBase[d];
    return rel >= gl.offset && rel < gl.offset + gl.count;
  };
  auto take = [&](size_t l, const Option &pick) {
    F.linkMedia[l] = pick.media;
    F.linkCable[l] = pick.cable;
    F.linkOpticA[l] = pick.opticA;
    F.linkOpticB[l] = pick.opticB;
  };
  for (size_t l = 0; l < n; ++l) {
    while (copy < copies.size() && copies[copy].end <= l)
      ++copy;
    if (copy < copies.size() && l >= copies[copy].begin) {
      uint32_t o = uint32_t(l) - copies[copy].delta;
      if (sameAs(uint32_t(l), o)) {
        F.linkMedia[l] = F.linkMedia[o];
        F.linkCable[l] = F.linkCable[o];
        F.linkOpticA[l] = F.linkOpticA[o];
        F.linkOpticB[l] = F.linkOpticB[o];
        continue;
      }
    }
    uint32_t pa = F.linkA[l], pb = F.linkB[l];
    if (lastPicked && F.linkMediaReq[l] == last.req && sameEnd(pa, lastEnds[0]) && sameEnd(pb, lastEnds[1]))
      if (const Option *pick = pickFrom(*lastOpts, F.linkLength[l])) {
        take(l, *pick);
        continue;
      }
    lastPicked = false;
    PortAt at[2] = {portAt(F, pa), portAt(F, pb)};
    if (!runsProtocol(F, uint32_t(l), at, diags, shapeReported))
      continue; // no part is chosen for a shape the port does not run
    Chosen chosen;
    Key key = keyOf(uint32_t(l), at, chosen);
    if (choices.any()) {
      for (int side = 0; side < 2; ++side)
        if (chosen.cpoOptic[side] && fitReported++ < 20) {
          Diagnostic *d = diags.report(DiagCode::E0058, chosen.opticAt[side], "'{}' is a CPO port: it takes no optic",
                                       F.portName(side ? pb : pa));
          DiagEngine::note(d, linkRange(F, l), "for this link");
        } else if (chosen.cpoOptic[side]) {
          diags.tally(DiagCode::E0058, chosen.opticAt[side]);
        }
      if (chosen.conflict && fitReported++ >= 20) {
        diags.tally(DiagCode::E0058, chosen.conflictAt[1]);
        continue;
      }
      if (chosen.conflict) {
        Diagnostic *d = diags.report(DiagCode::E0058, chosen.conflictAt[1], "the two ends of '{}' -- '{}' choose different cables",
                                     F.portName(pa), F.portName(pb));
        DiagEngine::note(d, chosen.conflictAt[0], "the other end's choice");
        DiagEngine::note(d, linkRange(F, l), "choose the cable on the link to settle it");
        continue;
      }
    }
    if (!lastOpts || !(key == last)) {
      lastOpts = &cachedFor(key);
      last = key;
    }
    const std::vector<Option> &opts = lastOpts->all;
    double len = F.linkLength[l];
    if (const Option *pick = pickFrom(*lastOpts, len)) {
      take(l, *pick);
      if (!choices.any()) {
        for (int side = 0; side < 2; ++side)
          lastEnds[side] = {F.devModel[at[side].dev], F.devLayout[at[side].dev], at[side].group};
        lastPicked = true;
      }
      continue;
    }
    bool forced = key.a.optic != None || key.b.optic != None || key.cable != None;
    if (opts.empty() && forced) {
      // The chosen part does not fit: say why, once per kind of link; the others are counted.
      if (!explained.insert(key).second || fitReported++ >= 20) {
        diags.tally(DiagCode::E0058,
                    key.a.optic != None ? chosen.opticAt[0] : key.b.optic != None ? chosen.opticAt[1] : chosen.cableAt);
        continue;
      }
      std::string why;
      SourceRange at;
      std::string part;
      for (int side = 0; side < 2 && why.empty(); ++side) {
        const End &e = side ? key.b : key.a;
        if (e.optic == None)
          continue;
        const ir::Model &o = F.models[e.optic];
        part = name(F, e.optic);
        at = chosen.opticAt[side];
        if (key.req != ir::Media::None && o.media != key.req)
          why = fmt::format("it is {}, the link asks for media = \"{}\"", ir::mediaName(o.media), ir::mediaName(key.req));
        else
          why = opticMisfit(F, o, e, false);
        if (!why.empty()) {
          why = fmt::format("'{}' does not fit '{}': {}", part, F.portName(side ? pb : pa), why);
        } else {
          const End &far = side ? key.a : key.b;
          Key alone = key;
          (side ? alone.a : alone.b).optic = None;
          alone.cable = None;
          if (far.optic == None && optionsFor(alone).empty())
            why = fmt::format("'{}' at '{}' speaks {}, and no part at '{}' speaks it", part, F.portName(side ? pb : pa),
                              partText(F, e.optic), F.portName(side ? pa : pb));
        }
      }
      if (why.empty() && key.cable != None) {
        const ir::Model &c = F.models[key.cable];
        part = name(F, key.cable);
        at = chosen.cableAt;
        if (key.req != ir::Media::None && c.media != key.req)
          why = fmt::format("'{}' is {}, the link asks for media = \"{}\"", part, ir::mediaName(c.media), ir::mediaName(key.req));
        else if (c.speed == 0 && (c.media == ir::Media::DAC || c.media == ir::Media::ACC || c.media == ir::Media::AOC))
          why = fmt::format("'{}' has no speed", part);
        else if (c.speed != 0)
          why = fmt::format("'{}' does not join '{}' and '{}': {}", part, F.portName(pa), F.portName(pb),
                            cableMisfit(F, c, key.a, key.b, false).empty() ? std::string("a chosen optic needs fibre")
                                                                           : cableMisfit(F, c, key.a, key.b, false));
        else
          why = fmt::format("'{}' is {} fibre, and the ends have no {} optics that agree", part, ir::mediaName(c.media),
                            ir::mediaName(c.media));
      }
      if (why.empty()) {
        why = fmt::format("the chosen parts cannot be joined between '{}' and '{}'", F.portName(pa), F.portName(pb));
        at = key.a.optic != None ? chosen.opticAt[0] : key.b.optic != None ? chosen.opticAt[1] : chosen.cableAt;
      }
      Diagnostic *d = diags.report(DiagCode::E0058, at, "{}", why);
      DiagEngine::note(d, linkRange(F, l), "for this link");
      continue;
    }
    if (opts.empty()) {
      Key relaxedKey = key;
      relaxedKey.ignoreLanes = true;
      const std::vector<Option> &relaxed = optionsFor(relaxedKey);
      if (!relaxed.empty()) {
        if (!explained.insert(key).second || joinReported++ >= 20) {
          diags.tally(DiagCode::E0059, linkRange(F, l));
          continue;
        }
        Diagnostic *d = diags.report(DiagCode::E0059, linkRange(F, l),
                                     "no part joins {} and {}: their lanes or interfaces disagree",
                                     endText(F, pa, key.a), endText(F, pb, key.b));
        noteLinkInstances(d, F, l);
        DiagEngine::note(d, {}, fmt::format("parts for '{}': {}; for '{}': {}", F.portName(pa), partsFor(F, key.a),
                                            F.portName(pb), partsFor(F, key.b)));
        std::string fit = wouldFit(F, relaxed, pa, key.a, pb, key.b);
        if (!fit.empty())
          DiagEngine::note(d, {}, fit);
        continue;
      }
    }
    if (reachReported++ >= 20) {
      if (forced && !opts.empty())
        diags.tally(DiagCode::E0058, key.a.optic != None   ? chosen.opticAt[0]
                                     : key.b.optic != None ? chosen.opticAt[1]
                                                           : chosen.cableAt);
      else
        diags.tally(DiagCode::E0044, linkRange(F, l));
      continue;
    }
    double best = 0;
    for (const Option &o : opts)
      best = std::max(best, o.reach);
    if (forced && !opts.empty()) {
      uint32_t part = key.a.optic != None ? key.a.optic : key.b.optic != None ? key.b.optic : key.cable;
      SourceRange at = key.a.optic != None ? chosen.opticAt[0] : key.b.optic != None ? chosen.opticAt[1] : chosen.cableAt;
      Diagnostic *d = diags.report(DiagCode::E0058, at, "'{}' reaches {}, but '{}' -- '{}' is {} long", name(F, part),
                                   formatQuantity(best, dims::Length), F.portName(pa), F.portName(pb),
                                   formatQuantity(len, dims::Length));
      DiagEngine::note(d, linkRange(F, l), "for this link");
      if (F.linkFlags[l] & ir::LinkLengthAssumed)
        DiagEngine::note(d, F.options.defaultCableLengthLoc, "the length is the assumed default_cable_length");
      continue;
    }
    const ir::PortGroup &pga = F.modelOf(F.portDevice[pa]).ports[F.portGroup(pa)];
    Diagnostic *d = diags.report(DiagCode::E0044, linkRange(F, l), "no {}media reaches {} at {} for '{}' -- '{}'",
                                 key.req == ir::Media::None ? "" : std::string(ir::mediaName(key.req)) + " ",
                                 formatQuantity(len, dims::Length), formatQuantity(key.a.speed, dims::Bandwidth),
                                 F.portName(pa), F.portName(pb));
    noteLinkInstances(d, F, l);
    if (opts.empty())
      DiagEngine::note(d, {}, fmt::format("the catalog has no cable or transceiver for {}{} ports{}",
                                          formatQuantity(key.a.speed, dims::Bandwidth),
                                          pga.form ? " " + std::string(F.strings.str(pga.form)) : std::string(),
                                          key.req == ir::Media::None ? "" : " of that media"));
    else
      DiagEngine::note(d, {}, fmt::format("the longest reach available is {}", formatQuantity(best, dims::Length)));
    if (F.linkFlags[l] & ir::LinkLengthAssumed)
      DiagEngine::note(d, F.options.defaultCableLengthLoc, "the length is the assumed default_cable_length");
  }
  // A link the cage step reads has a part, so it passed the protocol rule and had no
  // conflicting cables above: its key is the one its part was chosen from, in the cache.
  harmonizeCages(F, diags, [&](uint32_t l) -> const std::vector<Option> & {
    PortAt at[2] = {portAt(F, F.linkA[l]), portAt(F, F.linkB[l])};
    Chosen chosen;
    return optionsFor(keyOf(l, at, chosen));
  });
}

} // namespace fabc::passes
