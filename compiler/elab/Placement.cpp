// Buildings, halls, spans between buildings, and placing devices in racks.
#include "diag/DiagCodes.h"
#include "elab/ElabState.h"
#include "elab/PropertyKeys.h"

namespace fabc::elab {

void Elab::execBuilding(const ast::Stmt *s) {
  uint32_t name = sym(s->name(), s->sym());
  if (buildingIndex_.count(name)) {
    Diagnostic *d = error(DiagCode::E0021, s->nameRange(), "redefinition of building '{}'", s->name());
    DiagEngine::note(d, F.buildings[buildingIndex_[name]].loc, "previous definition is here");
    return;
  }
  auto site = siteIndex_.find(name);
  if (site != siteIndex_.end()) {
    Diagnostic *d = error(DiagCode::E0384, s->nameRange(), "building '{}' takes the name of a site", s->name());
    DiagEngine::note(d, F.sites[site->second].loc, "the site is named here");
    return;
  }
  uint32_t bi = uint32_t(F.buildings.size());
  buildingIndex_[name] = bi;
  ir::Building b;
  b.name = name;
  b.loc = s->nameRange();
  for (const ast::Prop &p : s->props) {
    if (p.key == "hall_distance")
      propQty("building", p, dims::Length, b.hallDistance);
    else if (p.key == "site")
      b.site = siteOf(p);
    else
      unknownProp(p, "a building", keys::kBuilding);
  }
  F.buildings.push_back(b);
  for (const ast::Hall &h : s->halls()) {
    uint32_t hn = F.strings.intern(h.name);
    if (hallIndex_.count(EntryKey{bi, hn})) {
      error(DiagCode::E0021, h.range, "redefinition of hall '{}'", h.name);
      continue;
    }
    ir::Hall hall;
    hall.name = hn;
    hall.building = bi;
    hall.loc = h.range;
    for (const ast::Prop &p : h.props) {
      int64_t iv;
      if (p.key == "row_pitch") propQty("hall", p, dims::Length, hall.rowPitch);
      else if (p.key == "rack_width") propQty("hall", p, dims::Length, hall.rackWidth);
      else if (p.key == "tray_drop") propQty("hall", p, dims::Length, hall.trayDrop);
      else if (p.key == "rack_units") { if (propInt(p, 1, 100, iv)) hall.rackUnits = uint32_t(iv); }
      else unknownProp(p, "a hall", keys::kHall);
    }
    hallIndex_[EntryKey{bi, hn}] = uint32_t(F.halls.size());
    F.halls.push_back(hall);
  }
}

void Elab::suggestBuilding(Diagnostic *d, SourceRange at, std::string_view name, bool sites) {
  std::vector<std::string_view> names;
  for (const auto &b : buildingIndex_)
    names.push_back(F.strings.str(b.first));
  if (sites)
    for (const auto &st : siteIndex_)
      names.push_back(F.strings.str(st.first));
  diags_.suggest(d, at, name, names);
}

// `site = "NAME"` on a building: the site, created by the first building that names it.
uint32_t Elab::siteOf(const ast::Prop &p) {
  uint32_t v;
  if (!propStr(p, v))
    return None;
  if (auto b = buildingIndex_.find(v); b != buildingIndex_.end()) {
    Diagnostic *d = error(DiagCode::E0384, p.value->range, "site '{}' takes the name of a building", F.strings.str(v));
    DiagEngine::note(d, F.buildings[b->second].loc, "the building is declared here");
    return None;
  }
  auto [it, fresh] = siteIndex_.try_emplace(v, uint32_t(F.sites.size()));
  if (fresh)
    F.sites.push_back({v, p.value->range});
  return it->second;
}

void Elab::execSpan(const ast::Stmt *s) {
  // Two buildings, or two sites: a span never joins one of each.
  uint32_t na = sym(s->name(), s->sym()), nb = sym(s->name2(), s->sym2());
  auto a = buildingIndex_.find(na), b = buildingIndex_.find(nb);
  auto sa = siteIndex_.find(na), sb = siteIndex_.find(nb);
  bool knownA = a != buildingIndex_.end() || sa != siteIndex_.end();
  bool knownB = b != buildingIndex_.end() || sb != siteIndex_.end();
  if (!knownA || !knownB) {
    SourceRange at = !knownA ? s->nameRange() : s->name2Range();
    std::string_view name = !knownA ? s->name() : s->name2();
    Diagnostic *d = F.sites.empty() ? error(DiagCode::E0050, at, "unknown building '{}'", name)
                                     : error(DiagCode::E0050, at, "unknown building or site '{}'", name);
    suggestBuilding(d, at, name, /*sites=*/true);
    return;
  }
  ir::Span sp;
  sp.sites = sa != siteIndex_.end() && sb != siteIndex_.end();
  if (!sp.sites && (a == buildingIndex_.end() || b == buildingIndex_.end())) {
    bool siteFirst = a == buildingIndex_.end();
    Diagnostic *d = error(DiagCode::E0385, siteFirst ? s->nameRange() : s->name2Range(),
                          "span joins site '{}' and building '{}'", siteFirst ? s->name() : s->name2(),
                          siteFirst ? s->name2() : s->name());
    DiagEngine::note(d, {}, "a span joins two buildings, or two sites (the route between any building of one and "
                            "any building of the other)");
    return;
  }
  if (sp.sites && sa->second == sb->second) {
    Diagnostic *d = error(DiagCode::E0385, s->name2Range(), "span joins site '{}' to itself", s->name());
    DiagEngine::note(d, {}, "the buildings of one site are joined by building spans: span B1 -- B2 { length = 500 m; }");
    return;
  }
  sp.a = sp.sites ? sa->second : a->second;
  sp.b = sp.sites ? sb->second : b->second;
  sp.loc = s->range;
  bool haveLength = false;
  for (const ast::Prop &p : s->props) {
    if (p.key == "length")
      haveLength = propQty("span", p, dims::Length, sp.length);
    else if (p.key == "route_factor")
      propQty("span", p, dims::None, sp.routeFactor);
    else
      unknownProp(p, "a span", keys::kSpan);
  }
  if (!haveLength) {
    error(DiagCode::E0037, s->range, "span needs a length");
    return;
  }
  F.spans.push_back(sp);
}

void Elab::execPlace(const ast::Stmt *s) {
  auto b = buildingIndex_.find(sym(s->name2(), s->sym2()));
  if (b == buildingIndex_.end()) {
    Diagnostic *d = error(DiagCode::E0050, s->name2Range(), "unknown building '{}'", s->name2());
    suggestBuilding(d, s->name2Range(), s->name2());
    DiagEngine::note(d, {}, "declare it first: building NAME { hall NAME { } }");
    return;
  }
  uint32_t hall = None;
  if (s->name3().empty()) {
    for (uint32_t h = 0; h < F.halls.size(); ++h)
      if (F.halls[h].building == b->second) {
        hall = h;
        break;
      }
  } else {
    auto h = hallIndex_.find(EntryKey{b->second, sym(s->name3(), s->sym3())});
    if (h != hallIndex_.end())
      hall = h->second;
  }
  if (hall == None) {
    error(DiagCode::E0050, s->name3().empty() ? s->name2Range() : s->name3Range(), "building '{}' has no hall{}{}", s->name2(),
          s->name3().empty() ? "" : " named ", s->name3());
    return;
  }
  int64_t row = 0, pos = 0, u = 0;
  for (const ast::Prop &p : s->props) {
    if (p.key == "row") { if (!propInt(p, 0, 1 << 20, row)) return; }
    else if (p.key == "rack") { if (!propInt(p, 0, 1 << 20, pos)) return; }
    else if (p.key == "u") { if (!propInt(p, 1, 100, u)) return; }
    else unknownProp(p, "a place statement", keys::kPlace);
  }
  auto ins = rackIndex_.try_emplace(RackKey{hall, row, pos}, uint32_t(F.racks.size()));
  if (ins.second) {
    ir::Rack r;
    r.hall = hall;
    r.row = row;
    r.pos = pos;
    r.loc = s->range;
    F.racks.push_back(r);
    rackFullReported_.push_back(false);
    rackOccupant_.emplace_back(F.halls[hall].rackUnits + 1, None);
  }
  uint32_t rack = ins.first->second;
  llvm::SmallVector<Endpoint, 4> eps;
  resolvePath(s->paths[0], false, true, eps);
  auto put = [&](uint32_t dev) {
    ir::Rack &r = F.racks[rack];
    uint32_t units = std::max(1u, F.modelOf(dev).rackUnits);
    uint32_t at = u ? uint32_t(u) : r.usedU + 1;
    if (devPlaceLoc_.size() < F.numDevices())
      devPlaceLoc_.resize(F.numDevices());
    if (F.devRack[dev] != None) {
      Diagnostic *d = error(DiagCode::E0055, s->range, "'{}' is already placed, in rack {}", F.deviceName(dev),
                            F.rackName(F.devRack[dev]));
      DiagEngine::note(d, {devPlaceLoc_[dev], 5}, "placed here first");
      return;
    }
    std::vector<uint32_t> &occ = rackOccupant_[rack];
    for (uint32_t k = at; k < at + units && k < occ.size(); ++k)
      if (occ[k] != None) {
        Diagnostic *d = error(DiagCode::E0054, s->range, "'{}' at U{}-U{} overlaps '{}' at U{} of rack {}",
                              F.deviceName(dev), at, at + units - 1, F.deviceName(occ[k]), k, F.rackName(rack));
        DiagEngine::note(d, {devPlaceLoc_[occ[k]], 5}, "placed here");
        return;
      }
    for (uint32_t k = at; k < at + units && k < occ.size(); ++k)
      occ[k] = dev;
    devPlaceLoc_[dev] = s->range.begin;
    F.devRack[dev] = rack;
    F.devU[dev] = uint16_t(at);
    r.usedU = std::max(r.usedU, at + units - 1);
    if (u)
      u += units;
    if (r.usedU > F.halls[hall].rackUnits && !rackFullReported_[rack]) {
      rackFullReported_[rack] = true;
      Diagnostic *d = error(DiagCode::E0051, s->range, "rack {} needs {} U, more than its {} U", F.rackName(rack),
                            r.usedU, F.halls[hall].rackUnits);
      DiagEngine::note(d, {}, "placing '" + F.deviceName(dev) + "' overflowed it");
    }
  };
  for (const Endpoint &e : eps) {
    if (e.device != None)
      put(e.device);
    else
      for (uint32_t d = nodeDevBegin_[e.node]; d < nodeDevEnd_[e.node]; ++d)
        put(d);
  }
}

} // namespace fabc::elab
