// Physical passes: tiers, route lengths, media choice, transceivers, power.
#include "diag/Diag.h"
#include "passes/Passes.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace fabc::passes {
using ir::None;

void inferTiers(ir::Fabric &F) {
  // Sweep k = 1..4: an untiered switch next to a device of tier k-1 gets tier k. A
  // sweep may assign nothing (the leaves' tier was given) and the next still can.
  for (unsigned k = ir::tierIndex(ir::Tier::Leaf); k <= ir::tierIndex(ir::Tier::Super); ++k) {
    if (std::find(F.devTier.begin(), F.devTier.end(), ir::Tier::Unknown) == F.devTier.end())
      break;
    for (size_t l = 0; l < F.numLinks(); ++l) {
      uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
      for (int side = 0; side < 2; ++side) {
        uint32_t s = side ? b : a, o = side ? a : b;
        if (F.devTier[s] == ir::Tier::Unknown && F.devTier[o] == ir::Tier(k - 1))
          F.devTier[s] = ir::Tier(k);
      }
    }
  }
}

namespace {
// Horizontal distance from a rack to its hall's entry (row 0, rack 0).
double toEntry(const ir::Fabric &F, const ir::Rack &r) {
  const ir::Hall &h = F.halls[r.hall];
  return double(r.row) * h.rowPitch + double(r.pos) * h.rackWidth;
}
} // namespace

void computeLengths(ir::Fabric &F, DiagEngine &diags) {
  std::map<std::pair<uint32_t, uint32_t>, double> span;
  for (const ir::Span &s : F.spans) {
    span[{s.a, s.b}] = s.length;
    span[{s.b, s.a}] = s.length;
  }
  std::map<std::pair<uint32_t, uint32_t>, bool> missingReported;
  size_t assumed = 0;
  SourceLoc firstAssumed;
  for (size_t l = 0; l < F.numLinks(); ++l) {
    if (F.linkFlags[l] & ir::LinkLengthExplicit)
      continue;
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    uint32_t ra = F.devRack[a], rb = F.devRack[b];
    if (ra == None || rb == None) {
      F.linkLength[l] = float(F.options.defaultCableLength);
      F.linkFlags[l] |= ir::LinkLengthAssumed;
      if (!assumed++)
        firstAssumed = F.linkLoc[l];
      continue;
    }
    const ir::Rack &A = F.racks[ra], &B = F.racks[rb];
    const ir::Hall &ha = F.halls[A.hall], &hb = F.halls[B.hall];
    double len;
    if (ra == rb) {
      len = 0.5 + std::fabs(double(F.devU[a]) - double(F.devU[b])) * 0.04445;
    } else if (A.hall == B.hall) {
      len = std::fabs(double(A.row - B.row)) * ha.rowPitch + std::fabs(double(A.pos - B.pos)) * ha.rackWidth +
            2 * ha.trayDrop;
    } else if (ha.building == hb.building) {
      len = toEntry(F, A) + toEntry(F, B) + F.buildings[ha.building].hallDistance + ha.trayDrop + hb.trayDrop;
    } else {
      auto it = span.find({ha.building, hb.building});
      if (it == span.end()) {
        auto key = std::minmax(ha.building, hb.building);
        if (!missingReported[{key.first, key.second}]) {
          missingReported[{key.first, key.second}] = true;
          Diagnostic *d = diags.report(DiagCode::E0052, {F.linkLoc[l], 4},
                                       "link '{}' -- '{}' joins buildings '{}' and '{}', but no span gives their distance",
                                       F.portName(F.linkA[l]), F.portName(F.linkB[l]),
                                       F.strings.str(F.buildings[ha.building].name),
                                       F.strings.str(F.buildings[hb.building].name));
          DiagEngine::note(d, {}, fmt::format("declare it: span {} -- {} {{ length = 1.2 km; }}",
                                              F.strings.str(F.buildings[ha.building].name),
                                              F.strings.str(F.buildings[hb.building].name)));
        }
        continue;
      }
      len = toEntry(F, A) + toEntry(F, B) + F.buildings[ha.building].hallDistance / 2 +
            F.buildings[hb.building].hallDistance / 2 + it->second + ha.trayDrop + hb.trayDrop;
      F.linkFlags[l] |= ir::LinkInterBuilding;
    }
    F.linkLength[l] = float(len + F.options.cableSlack);
  }
  if (assumed && !F.options.defaultCableLengthLoc.begin.valid()) { // an explicit option is the designer's choice
    Diagnostic *d = diags.report(DiagCode::W0101, {firstAssumed, 4},
                                 "{} link{} without placement or length; assumed {} each", assumed,
                                 assumed == 1 ? "" : "s", formatQuantity(F.options.defaultCableLength, dims::Length));
    DiagEngine::note(d, {}, "place both ends in racks, give the link a length, or set option default_cable_length");
  }
}

namespace {
struct MediaKey {
  double speed;
  uint32_t formA, formB, cageA, cageB;
  bool cpoA, cpoB;
  ir::Media req;
  bool operator<(const MediaKey &o) const {
    return std::tie(speed, formA, formB, cageA, cageB, cpoA, cpoB, req) <
           std::tie(o.speed, o.formA, o.formB, o.cageA, o.cageB, o.cpoA, o.cpoB, o.req);
  }
};
// One way to build a link: a cable assembly, or fibre with a transceiver per pluggable end.
struct Option {
  ir::Media media;
  double reach;
  uint32_t cable, opticA, opticB;
};

// The catalog's ways to build a link of this kind, by media class then reach.
std::vector<Option> options(const ir::Fabric &F, const MediaKey &k) {
  std::vector<Option> out;
  for (size_t mi = 1; mi < size_t(ir::Media::Count); ++mi) {
    ir::Media m = ir::Media(mi);
    if (k.req != ir::Media::None && k.req != m)
      continue;
    bool copper = m == ir::Media::DAC || m == ir::Media::ACC || m == ir::Media::AOC;
    if (copper) {
      if (k.cpoA || k.cpoB)
        continue;
      for (uint32_t i = 0; i < F.models.size(); ++i) {
        const ir::Model &c = F.models[i];
        // A copper assembly plugs into whole cages: a twin-port cable needs twin-port cages.
        if (c.kind != ir::ModelKind::Cable || c.media != m || c.speed != k.speed ||
            (c.form && (c.form != k.formA || c.form != k.formB)) || c.portsPerUnit != k.cageA ||
            c.portsPerUnit != k.cageB)
          continue;
        out.push_back({m, c.reach.known ? c.reach.value : 0, i, None, None});
      }
      continue;
    }
    if ((k.cpoA || k.cpoB) && m == ir::Media::MMF)
      continue; // CPO engines drive single-mode fibre
    // Fibre: every pluggable end needs a transceiver of this class; the optics set the reach.
    uint32_t fibre = None;
    for (uint32_t i = 0; i < F.models.size(); ++i)
      if (F.models[i].kind == ir::ModelKind::Cable && F.models[i].media == m && F.models[i].speed == 0 &&
          F.models[i].legs == 1) // a splitter fibre is chosen per connector (countTransceivers), not per link
        fibre = i;
    std::vector<std::pair<uint32_t, double>> candA, candB;
    // A CPO end has no transceiver to pick, but its engine speaks an interface: the far
    // end's optic must speak it too (an XDR engine, 4 x 200G, talks to a DR4 of 200G lanes).
    uint32_t engineA = None, engineB = None;
    for (int side = 0; side < 2; ++side) {
      bool cpo = side ? k.cpoB : k.cpoA;
      auto &cand = side ? candB : candA;
      if (cpo) {
        double reach = 0;
        for (uint32_t i = 0; i < F.models.size(); ++i) {
          const ir::Model &o = F.models[i];
          if (o.kind == ir::ModelKind::Optic && o.cpoEngine && o.speed == k.speed && o.reach.known &&
              o.reach.value > reach) {
            reach = o.reach.value;
            (side ? engineB : engineA) = i;
          }
        }
        cand.push_back({None, reach ? reach : 500.0});
        continue;
      }
      for (uint32_t i = 0; i < F.models.size(); ++i) {
        const ir::Model &o = F.models[i];
        uint32_t form = side ? k.formB : k.formA, cage = side ? k.cageB : k.cageA;
        if (o.kind == ir::ModelKind::Optic && !o.cpoEngine && o.media == m && o.speed == k.speed &&
            (!o.form || !form || o.form == form) && o.portsPerUnit == cage)
          cand.push_back({i, o.reach.known ? o.reach.value : 0});
      }
    }
    // The two ends must speak the same optical interface (an FR4 cannot talk to a DR4):
    // the same `interface` where the catalog gives one, else the same reach class.
    auto compatible = [&](uint32_t x, uint32_t y) {
      if (x == None && y == None)
        return true; // CPO to CPO
      if (x == None || y == None) { // a CPO engine end: its interface, where the catalog gives one
        uint32_t engine = x == None ? engineA : engineB, optic = x == None ? y : x;
        return engine == None || !F.models[engine].interface || !F.models[optic].interface ||
               F.models[engine].interface == F.models[optic].interface;
      }
      const ir::Model &a = F.models[x], &b = F.models[y];
      if (a.interface && b.interface)
        return a.interface == b.interface;
      return a.reach.value == b.reach.value;
    };
    for (auto &a : candA)
      for (auto &b : candB)
        if (compatible(a.first, b.first))
          out.push_back({m, std::min(a.second, b.second), fibre, a.first, b.first});
  }
  // Within a class, shorter reach first: the cheapest part that does the job.
  std::stable_sort(out.begin(), out.end(), [](const Option &x, const Option &y) {
    return x.media != y.media ? x.media < y.media : x.reach < y.reach;
  });
  return out;
}
} // namespace

// The ports of one cage share one plug: a DAC and a transceiver cannot sit in the same
// twin-port cage, a twin-port transceiver is one model for both ports, and a twin-port
// copper assembly joins two whole cages. Links chosen per length are raised to what
// the cage's most demanding link needs, until every cage agrees. Requirements only
// rise, so this ends; each round is linear in ports.
namespace {
bool isAssembly(ir::Media m) { return m == ir::Media::DAC || m == ir::Media::ACC || m == ir::Media::AOC; }

// The first port of the cage that holds `port`.
uint32_t cageOf(const ir::Fabric &F, uint32_t port) {
  uint32_t idx = 0;
  uint32_t g = F.portGroup(port, &idx);
  return port - idx % F.layoutOf(F.portDevice[port]).groups[g].portsPerCage;
}
} // namespace

static void harmonizeCages(ir::Fabric &F, DiagEngine &diags, const std::vector<const std::vector<Option> *> &linkOpts) {
  unsigned reported = 0;
  auto endOptic = [&](uint32_t l, uint32_t port) { return F.linkA[l] == port ? F.linkOpticA[l] : F.linkOpticB[l]; };
  auto reachOf = [&](uint32_t optic) { return optic == None ? 0.0 : F.models[optic].reach.value; };
  for (int iter = 0; iter < 2 * int(ir::Media::Count); ++iter) {
    bool changed = false;
    for (uint32_t d = 0; d < F.numDevices(); ++d)
      F.forEachCage(d, [&](uint32_t, const ir::GroupLayout &gl, uint32_t first) {
        if (gl.portsPerCage < 2)
          return;
        // The cage's requirement: the highest media class, and at that class the
        // transceiver (at this end) of longest reach.
        ir::Media top = ir::Media::None;
        uint32_t topLink = None, topOptic = None, remoteCage = None;
        bool oneRemoteCage = true;
        for (uint32_t k = 0; k < gl.portsPerCage; ++k) {
          uint32_t port = first + k, l = F.portLink[port];
          if (l == None || F.linkMedia[l] == ir::Media::None)
            continue;
          uint32_t rc = cageOf(F, F.otherEnd(l, port));
          if (remoteCage != None && rc != remoteCage)
            oneRemoteCage = false;
          remoteCage = rc;
          uint32_t o = endOptic(l, port);
          if (F.linkMedia[l] > top || (F.linkMedia[l] == top && reachOf(o) > reachOf(topOptic))) {
            top = F.linkMedia[l];
            topLink = l;
            topOptic = o;
          }
        }
        if (top == ir::Media::None)
          return;
        bool splitAssembly = isAssembly(top) && !oneRemoteCage;
        ir::Media need = splitAssembly ? ir::Media::MMF : top; // a copper assembly cannot fan out
        for (uint32_t k = 0; k < gl.portsPerCage; ++k) {
          uint32_t port = first + k, l = F.portLink[port];
          if (l == None || F.linkMedia[l] == ir::Media::None)
            continue;
          bool ok = F.linkMedia[l] == need && !(topOptic != None && F.linkMedia[l] == top && endOptic(l, port) != topOptic);
          if (ok && !splitAssembly)
            continue;
          if (ok && splitAssembly && !isAssembly(F.linkMedia[l]))
            continue;
          bool isA = F.linkA[l] == port;
          const Option *pick = nullptr;
          for (const Option &o : *linkOpts[l]) {
            if (o.media < need || o.reach < F.linkLength[l] || (splitAssembly && isAssembly(o.media)))
              continue;
            if (o.media == top && topOptic != None && (isA ? o.opticA : o.opticB) != topOptic)
              continue;
            pick = &o;
            break;
          }
          if (!pick) {
            if (reported++ < 20) {
              Diagnostic *dg = diags.report(DiagCode::E0053, {F.linkLoc[l], 4},
                                            "'{}' shares a cage with a {} link{}, but has no such media of its own",
                                            F.portName(port), ir::mediaName(need),
                                            topOptic != None && need == top
                                                ? " on " + std::string(F.strings.str(F.models[topOptic].name))
                                                : std::string());
              DiagEngine::note(dg, {F.linkLoc[topLink], 4}, "the cage's most demanding link is here");
              if (splitAssembly)
                DiagEngine::note(dg, {}, "a twin-port copper cable joins two whole cages; these ports go to different cages");
            }
            F.linkMedia[l] = ir::Media::None; // reported: no plug, no transceivers
            F.linkCable[l] = F.linkOpticA[l] = F.linkOpticB[l] = None;
            continue;
          }
          if (pick->media == F.linkMedia[l] && pick->cable == F.linkCable[l] && pick->opticA == F.linkOpticA[l] &&
              pick->opticB == F.linkOpticB[l])
            continue;
          F.linkMedia[l] = pick->media;
          F.linkCable[l] = pick->cable;
          F.linkOpticA[l] = pick->opticA;
          F.linkOpticB[l] = pick->opticB;
          changed = true;
        }
      });
    if (!changed)
      break;
  }
}

void chooseMedia(ir::Fabric &F, DiagEngine &diags) {
  size_t n = F.numLinks();
  F.linkMedia.assign(n, ir::Media::None);
  F.linkCable.assign(n, None);
  F.linkOpticA.assign(n, None);
  F.linkOpticB.assign(n, None);
  std::map<MediaKey, std::vector<Option>> cache; // node-based: the vectors never move
  std::vector<const std::vector<Option> *> linkOpts(n, nullptr);
  unsigned reported = 0;
  for (size_t l = 0; l < n; ++l) {
    uint32_t pa = F.linkA[l], pb = F.linkB[l];
    uint32_t da = F.portDevice[pa], db = F.portDevice[pb];
    uint32_t ga = F.portGroup(pa), gb = F.portGroup(pb);
    const ir::PortGroup &pga = F.modelOf(da).ports[ga], &pgb = F.modelOf(db).ports[gb];
    const ir::GroupLayout &la = F.layoutOf(da).groups[ga], &lb = F.layoutOf(db).groups[gb];
    MediaKey key{la.speed, pga.form, pgb.form, la.portsPerCage, lb.portsPerCage, pga.cpo, pgb.cpo, F.linkMediaReq[l]};
    auto it = cache.find(key);
    if (it == cache.end())
      it = cache.emplace(key, options(F, key)).first;
    const std::vector<Option> &opts = it->second;
    linkOpts[l] = &opts;
    double len = F.linkLength[l];
    const Option *pick = nullptr;
    for (const Option &o : opts)
      if (o.reach >= len) {
        pick = &o;
        break;
      }
    if (!pick) {
      if (reported++ < 20) {
        Diagnostic *d = diags.report(DiagCode::E0044, {F.linkLoc[l], 4}, "no {}media reaches {} at {} for '{}' -- '{}'",
                                     F.linkMediaReq[l] == ir::Media::None ? "" : std::string(ir::mediaName(F.linkMediaReq[l])) + " ",
                                     formatQuantity(len, dims::Length), formatQuantity(la.speed, dims::Bandwidth),
                                     F.portName(pa), F.portName(pb));
        double best = 0;
        for (const Option &o : opts)
          best = std::max(best, o.reach);
        if (opts.empty())
          DiagEngine::note(d, {}, fmt::format("the catalog has no cable or transceiver for {}{} ports{}",
                                              formatQuantity(la.speed, dims::Bandwidth),
                                              pga.form ? " " + std::string(F.strings.str(pga.form)) : std::string(),
                                              F.linkMediaReq[l] == ir::Media::None ? "" : " of that media"));
        else
          DiagEngine::note(d, {}, fmt::format("the longest reach available is {}", formatQuantity(best, dims::Length)));
        if (F.linkFlags[l] & ir::LinkLengthAssumed)
          DiagEngine::note(d, F.options.defaultCableLengthLoc, "the length is the assumed default_cable_length");
      }
      continue;
    }
    F.linkMedia[l] = pick->media;
    F.linkCable[l] = pick->cable;
    F.linkOpticA[l] = pick->opticA;
    F.linkOpticB[l] = pick->opticB;
  }
  harmonizeCages(F, diags, linkOpts);
}

// A transceiver with fewer fibre connectors than logical ports (`connectors` < `ports`)
// carries several ports on one connector: a twin-port 2 x DR4 running 4 x 200G has two
// MPO connectors of two ports each. When a connector's links end in more than one far
// connector, it takes one splitter fibre (a `cable` of the link's media with `legs` equal
// to the ports per connector) instead of one fibre per link: the splitter is counted on
// the connector's longest link (its order length covers every leg) and the other links
// count none. When they all end in one far connector, one straight fibre serves them.
// Without a splitter in the catalog the links keep one fibre each. Linear in ports.
static void fanOutConnectors(ir::Fabric &F) {
  std::map<std::pair<ir::Media, uint32_t>, uint32_t> splitter; // (media, legs) -> model
  for (uint32_t i = 0; i < F.models.size(); ++i) {
    const ir::Model &c = F.models[i];
    if (c.kind == ir::ModelKind::Cable && c.legs > 1 && c.speed == 0)
      splitter.emplace(std::make_pair(c.media, c.legs), i);
  }
  // The far connector of a port: its cage's first port and the connector index there.
  auto farConnector = [&](uint32_t l, uint32_t port) -> uint64_t {
    uint32_t far = F.otherEnd(l, port);
    uint32_t optic = F.linkA[l] == far ? F.linkOpticA[l] : F.linkOpticB[l];
    uint32_t idx = 0;
    uint32_t g = F.portGroup(far, &idx);
    uint32_t cage = F.layoutOf(F.portDevice[far]).groups[g].portsPerCage;
    uint32_t inCage = idx % cage, per = 1;
    if (optic != None && F.models[optic].connectors && F.models[optic].connectors < F.models[optic].portsPerUnit)
      per = F.models[optic].portsPerUnit / F.models[optic].connectors;
    return (uint64_t(far - inCage) << 8) | (inCage / per);
  };
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    F.forEachCage(d, [&](uint32_t, const ir::GroupLayout &gl, uint32_t first) {
      uint32_t optic = None;
      for (uint32_t k = 0; k < gl.portsPerCage && optic == None; ++k) {
        uint32_t port = first + k, l = F.portLink[port];
        if (l != None)
          optic = F.linkA[l] == port ? F.linkOpticA[l] : F.linkOpticB[l];
      }
      if (optic == None)
        return;
      const ir::Model &o = F.models[optic];
      if (!o.connectors || o.connectors >= o.portsPerUnit || o.portsPerUnit != gl.portsPerCage)
        return;
      uint32_t per = o.portsPerUnit / o.connectors;
      for (uint32_t c = 0; c < o.connectors; ++c) {
        uint32_t owner = None, used = 0;
        uint64_t farOne = UINT64_MAX;
        bool oneFar = true, claimed = false;
        for (uint32_t k = c * per; k < (c + 1) * per; ++k) {
          uint32_t port = first + k, l = F.portLink[port];
          if (l == None || F.linkMedia[l] == ir::Media::None)
            continue;
          if (F.linkCable[l] != None && F.models[F.linkCable[l]].legs > 1)
            claimed = true; // the far end's connector already fans out over this link
          uint64_t fc = farConnector(l, port);
          if (farOne != UINT64_MAX && fc != farOne)
            oneFar = false;
          farOne = fc;
          ++used;
          if (owner == None || F.linkLength[l] > F.linkLength[owner])
            owner = l;
        }
        if (used < 2 || claimed)
          continue; // one link: its own fibre; or counted from the other end
        uint32_t model = F.linkCable[owner];
        if (!oneFar) {
          auto it = splitter.find({F.linkMedia[owner], per});
          if (it == splitter.end())
            continue; // no splitter in the catalog: a fibre per link
          model = it->second;
        }
        for (uint32_t k = c * per; k < (c + 1) * per; ++k) {
          uint32_t l = F.portLink[first + k];
          if (l == None || F.linkMedia[l] == ir::Media::None)
            continue;
          F.linkCable[l] = model;
          F.linkCableUnits[l] = l == owner;
        }
      }
    });
}

void countTransceivers(ir::Fabric &F, DiagEngine &diags) {
  size_t n = F.numLinks();
  F.linkXcvrA.assign(n, 0);
  F.linkXcvrB.assign(n, 0);
  uint64_t total = 0, cpo = 0;
  unsigned reported = 0;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    F.forEachCage(d, [&](uint32_t g, const ir::GroupLayout &gl, uint32_t first) {
      bool isCpo = m.ports[g].cpo;
      uint32_t owner = None, optic = None;
      for (uint32_t k = 0; k < gl.portsPerCage; ++k) {
        uint32_t port = first + k;
        uint32_t l = F.portLink[port];
        if (l == None)
          continue;
        if (isCpo) {
          ++cpo;
          continue;
        }
        uint32_t o = F.linkA[l] == port ? F.linkOpticA[l] : F.linkOpticB[l];
        if (o == None)
          continue;
        if (owner == None) {
          owner = port;
          optic = o;
        } else if (o != optic && reported++ < 20) {
          Diagnostic *dg = diags.report(DiagCode::E0053, {F.linkLoc[l], 4},
                                        "'{}' and '{}' share a cage but need different transceivers ({} and {})",
                                        F.portName(owner), F.portName(port), F.strings.str(F.models[optic].name),
                                        F.strings.str(F.models[o].name));
          DiagEngine::note(dg, {F.linkLoc[F.portLink[owner]], 4}, "the cage's first link is here");
          DiagEngine::note(dg, {}, "give both links the same media and similar lengths");
        }
      }
      if (owner == None)
        return;
      uint32_t l = F.portLink[owner];
      (F.linkA[l] == owner ? F.linkXcvrA : F.linkXcvrB)[l] = 1;
      ++total;
    });
  }
  F.metrics.transceivers = total;
  F.metrics.cpoPorts = cpo;
  // Cables: one per link, except a multi-port copper assembly, counted once per cage
  // at its A end.
  F.linkCableUnits.assign(n, 0);
  for (size_t l = 0; l < n; ++l) {
    uint32_t c = F.linkCable[l];
    bool multi = c != None && F.models[c].portsPerUnit > 1 &&
                 (F.linkMedia[l] == ir::Media::DAC || F.linkMedia[l] == ir::Media::ACC || F.linkMedia[l] == ir::Media::AOC);
    F.linkCableUnits[l] = F.linkMedia[l] != ir::Media::None && !multi;
  }
  fanOutConnectors(F);
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    F.forEachCage(d, [&](uint32_t, const ir::GroupLayout &gl, uint32_t first) {
      bool counted = false;
      for (uint32_t k = 0; k < gl.portsPerCage; ++k) {
        uint32_t port = first + k, l = F.portLink[port];
        if (l == None || F.linkA[l] != port || F.linkCableUnits[l] || F.linkCable[l] == None ||
            F.models[F.linkCable[l]].portsPerUnit <= 1)
          continue;
        if (!counted)
          F.linkCableUnits[l] = 1;
        counted = true;
      }
    });
}

void computePower(ir::Fabric &F) {
  size_t nd = F.numDevices();
  F.devPower.assign(nd, 0);
  F.devOpticPower.assign(nd, 0);
  bool estimates = false;
  for (uint32_t d = 0; d < nd; ++d) {
    const ir::Model &m = F.modelOf(d);
    F.devPower[d] = float(m.power.value);
    estimates |= m.power.estimate;
  }
  for (size_t l = 0; l < F.numLinks(); ++l) {
    for (int side = 0; side < 2; ++side) {
      uint8_t x = side ? F.linkXcvrB[l] : F.linkXcvrA[l];
      uint32_t o = side ? F.linkOpticB[l] : F.linkOpticA[l];
      if (!x || o == None)
        continue;
      const ir::Model &om = F.models[o];
      F.devOpticPower[F.portDevice[side ? F.linkB[l] : F.linkA[l]]] += float(om.power.value);
      estimates |= om.power.estimate || !om.power.known;
    }
  }
  // A CPO switch's power figure excludes its optical engines (the catalog's convention):
  // each used CPO port adds its speed's engine, as the transceiver of a pluggable cage does.
  std::map<double, uint32_t> engines;
  for (size_t l = 0; l < F.numLinks(); ++l) {
    for (int side = 0; side < 2; ++side) {
      uint32_t port = side ? F.linkB[l] : F.linkA[l], dev = F.portDevice[port];
      if (!F.modelOf(dev).ports[F.portGroup(port)].cpo)
        continue;
      double speed = F.portSpeed(port);
      auto it = engines.find(speed);
      if (it == engines.end()) {
        uint32_t found = None;
        for (uint32_t i = 0; i < F.models.size() && found == None; ++i)
          if (F.models[i].kind == ir::ModelKind::Optic && F.models[i].cpoEngine && F.models[i].speed == speed)
            found = i;
        it = engines.emplace(speed, found).first;
      }
      if (it->second == None)
        continue; // no engine in the catalog: the energy what-if names the missing part
      const ir::Model &e = F.models[it->second];
      F.devOpticPower[dev] += float(e.power.value);
      estimates |= e.power.estimate || !e.power.known;
    }
  }
  F.metrics.usesEstimates = estimates;
}

} // namespace fabc::passes
