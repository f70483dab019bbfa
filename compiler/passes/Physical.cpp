// Physical passes: tiers, route lengths, media choice, transceivers, power.
#include "diag/DiagCodes.h"
#include "diag/Diag.h"
#include "ir/CpoModels.h"
#include "passes/Passes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
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

namespace {
// The route length of every link not given one, handed to set(link, length, flags) with
// the flags the route adds (LinkLengthAssumed, LinkInterBuilding), which returns whether
// to go on; `o` the options read. Reads placement only, which no pass writes.
template <class Set> void routeLengths(const ir::Fabric &F, const ir::Options &o, DiagEngine &diags, Set set) {
  // The fibre route between two buildings (Fabric::routeBetween: their own span, else
  // their sites'), once per pair of buildings; negative when no span gives it.
  std::map<std::pair<uint32_t, uint32_t>, double> routes;
  std::map<std::pair<uint32_t, uint32_t>, bool> missingReported;
  size_t assumed = 0;
  SourceLoc firstAssumed;
  for (size_t l = 0; l < F.numLinks(); ++l) {
    if (F.linkFlags[l] & ir::LinkLengthExplicit)
      continue;
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    uint32_t ra = F.devRack[a], rb = F.devRack[b];
    if (ra == None || rb == None) {
      if (!set(l, float(o.defaultCableLength), uint8_t(ir::LinkLengthAssumed)))
        return;
      if (!assumed++)
        firstAssumed = F.linkLoc(l);
      continue;
    }
    const ir::Rack &A = F.racks[ra], &B = F.racks[rb];
    const ir::Hall &ha = F.halls[A.hall], &hb = F.halls[B.hall];
    double len;
    uint8_t flags = 0;
    if (ra == rb) {
      len = 0.5 + std::fabs(double(F.devU[a]) - double(F.devU[b])) * 0.04445;
    } else if (A.hall == B.hall) {
      len = std::fabs(double(A.row - B.row)) * ha.rowPitch + std::fabs(double(A.pos - B.pos)) * ha.rackWidth +
            2 * ha.trayDrop;
    } else if (ha.building == hb.building) {
      len = toEntry(F, A) + toEntry(F, B) + F.buildings[ha.building].hallDistance + ha.trayDrop + hb.trayDrop;
    } else {
      auto [it, fresh] = routes.try_emplace({ha.building, hb.building}, 0.0);
      if (fresh)
        it->second = F.routeBetween(ha.building, hb.building);
      const double *route = it->second >= 0 ? &it->second : nullptr;
      uint32_t sa = F.buildings[ha.building].site, sb = F.buildings[hb.building].site;
      if (!route) {
        auto key = std::minmax(ha.building, hb.building);
        if (!missingReported[{key.first, key.second}]) {
          missingReported[{key.first, key.second}] = true;
          Diagnostic *d = diags.report(DiagCode::E0052, linkRange(F, l),
                                       "link '{}' -- '{}' joins buildings '{}' and '{}', but no span gives their distance",
                                       F.portName(F.linkA[l]), F.portName(F.linkB[l]),
                                       F.strings.str(F.buildings[ha.building].name),
                                       F.strings.str(F.buildings[hb.building].name));
          noteLinkInstances(d, F, l);
          DiagEngine::note(d, {}, fmt::format("declare it: span {} -- {} {{ length = 1.2 km; }}",
                                              F.strings.str(F.buildings[ha.building].name),
                                              F.strings.str(F.buildings[hb.building].name)));
          if (sa != None && sb != None && sa != sb)
            DiagEngine::note(d, {}, fmt::format("or the route between their sites: span {} -- {} {{ length = 40 km; }}",
                                                F.strings.str(F.sites[sa].name), F.strings.str(F.sites[sb].name)));
        }
        continue;
      }
      len = toEntry(F, A) + toEntry(F, B) + F.buildings[ha.building].hallDistance / 2 +
            F.buildings[hb.building].hallDistance / 2 + *route + ha.trayDrop + hb.trayDrop;
      flags = ir::LinkInterBuilding;
    }
    if (!set(l, float(len + o.cableSlack), flags))
      return;
  }
  if (assumed && !o.defaultCableLengthLoc.begin.valid()) { // an explicit option is the designer's choice
    Diagnostic *d = diags.report(DiagCode::W0101, {firstAssumed, 4},
                                 "{} link{} without placement or length; assumed {} each", assumed,
                                 assumed == 1 ? "" : "s", formatQuantity(o.defaultCableLength, dims::Length));
    DiagEngine::note(d, {}, "place both ends in racks, give the link a length, or set option default_cable_length");
  }
}
} // namespace

void computeLengths(ir::Fabric &F, DiagEngine &diags) {
  routeLengths(F, F.options, diags, [&](size_t l, float len, uint8_t flags) {
    F.linkLength[l] = len;
    F.linkFlags[l] |= flags;
    return true;
  });
}

bool sameLengths(const ir::Fabric &F, const ir::Options &o, DiagEngine &diags) {
  // The slack as before: only the links that took the default length can change, and
  // the warning about them. Without such a link (a placed design) nothing is computed.
  const ir::Options &was = F.options;
  if (o.cableSlack == was.cableSlack &&
      std::none_of(F.linkFlags.begin(), F.linkFlags.end(), [](uint8_t f) { return f & ir::LinkLengthAssumed; }))
    return true;
  bool same = true;
  routeLengths(F, o, diags, [&](size_t l, float len, uint8_t flags) {
    same = std::memcmp(&F.linkLength[l], &len, sizeof len) == 0 && (F.linkFlags[l] & flags) == flags;
    return same; // the first difference answers
  });
  return same;
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
  // Only a cage whose transceiver has fewer connectors than ports fans out: when no link
  // has one, the walk over every cage (most of them empty or single-port) is skipped.
  std::vector<uint8_t> shares(F.models.size(), 0);
  for (uint32_t i = 0; i < F.models.size(); ++i)
    shares[i] = F.models[i].connectors && F.models[i].connectors < F.models[i].portsPerUnit;
  bool any = false;
  for (size_t l = 0; l < F.numLinks() && !any; ++l)
    any = (F.linkOpticA[l] != None && shares[F.linkOpticA[l]]) || (F.linkOpticB[l] != None && shares[F.linkOpticB[l]]);
  if (!any)
    return;
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
          Diagnostic *dg = diags.report(DiagCode::E0053, linkRange(F, l),
                                        "'{}' and '{}' share a cage but need different transceivers ({} and {})",
                                        F.portName(owner), F.portName(port), F.strings.str(F.models[optic].name),
                                        F.strings.str(F.models[o].name));
          noteLinkInstances(dg, F, l);
          DiagEngine::note(dg, linkRange(F, F.portLink[owner]), "the cage's first link is here");
          DiagEngine::note(dg, {}, "give both links the same media and similar lengths");
        } else if (o != optic) {
          diags.tally(DiagCode::E0053, linkRange(F, l));
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
  // The walk below sets a unit only on a link whose cable has several ports: without one
  // (most designs: one cable or fibre per link) it would visit every cage for nothing.
  bool anyMulti = false;
  for (size_t l = 0; l < n && !anyMulti; ++l)
    anyMulti = F.linkCable[l] != None && F.models[F.linkCable[l]].portsPerUnit > 1;
  for (uint32_t d = 0; anyMulti && d < F.numDevices(); ++d)
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
  const ir::CpoPorts isCpo(F);
  for (size_t l = 0; isCpo.any() && l < F.numLinks(); ++l) {
    for (int side = 0; side < 2; ++side) {
      uint32_t port = side ? F.linkB[l] : F.linkA[l], dev = F.portDevice[port];
      if (!isCpo(port))
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
