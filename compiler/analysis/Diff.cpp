// fabc diff's comparison: the records the plan prints, the small sections (settings,
// bill of materials, switches) and the order of the sections. The joins are in
// DiffJoin.cpp. tools/fabc prints the result as a plan in working order.
#include "analysis/Diff.h"
#include "ir/Address.h"
#include "support/TextBuffer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace fabc::analysis {
namespace {
using ir::None;

std::string ipv4(uint32_t a) { return a ? ir::ipv4String(a) : ""; }

// ---- settings: options and policies, by name ----
std::string settingText(const ir::Fabric &F, const ir::Setting &s) {
  switch (s.type) {
  case ir::Setting::Number: return s.dim.none() ? fmt::format("{:g}", s.number) : formatQuantity(s.number, s.dim);
  case ir::Setting::String: return "\"" + std::string(F.strings.str(s.str)) + "\"";
  case ir::Setting::Bool: return s.boolean ? "true" : "false";
  case ir::Setting::List: {
    std::string r = "[";
    for (size_t i = 0; i < s.list.size(); ++i)
      r += fmt::format("{}{:g}", i ? ", " : "", s.list[i]);
    return r + "]";
  }
  case ir::Setting::StringList: {
    std::string r = "[";
    for (size_t i = 0; i < s.strs.size(); ++i)
      r += fmt::format("{}\"{}\"", i ? ", " : "", F.strings.str(s.strs[i]));
    return r + "]";
  }
  }
  return "";
}

std::map<std::string, std::string> settingsOf(const ir::Fabric &F) {
  std::map<std::string, std::string> r;
  const ir::Options &o = F.options;
  r["option default_cable_length"] = formatQuantity(o.defaultCableLength, dims::Length);
  r["option cable_slack"] = formatQuantity(o.cableSlack, dims::Length);
  r["option pue"] = fmt::format("{:g}", o.pue);
  r["option nic_latency"] = formatQuantity(o.gpuNicLatency, dims::Time);
  for (const ir::Setting &s : F.extraOptions)
    r["option " + std::string(F.strings.str(s.name))] = settingText(F, s);
  static const char *kinds[] = {"power", "oversubscription", "latency", "nvlink", "rail_optimized"};
  for (const ir::Policy &p : F.policies) {
    std::string key = std::string("policy ") + kinds[size_t(p.kind)];
    if (p.per != ir::None) // scoped (decision 0321): the scope, and the tier it rates inside when written
      key += (p.tierGiven ? " " + std::string(F.strings.str(p.scope)) : std::string()) + " per " +
             std::string(F.strings.str(p.per));
    else if (p.scope)
      key += " " + std::string(F.strings.str(p.scope));
    if (p.roundTrips) { // between two places (decision 0411): one key per pair and form
      key += " between " + std::string(F.strings.str(p.placeA)) + " and " + std::string(F.strings.str(p.placeB));
      if (p.workflow)
        r[key + " round_trips"] = std::to_string(p.roundTrips);
      r[key + (p.workflow ? " workflow" : " round_trip")] = formatQuantity(p.max, dims::Time);
      continue;
    }
    Dim d = p.kind == ir::PolicyKind::Power ? dims::Power : p.kind == ir::PolicyKind::Latency ? dims::Time : dims::None;
    r[key + " max"] = d.none() ? fmt::format("{:g}", p.max) : formatQuantity(p.max, d);
    if (p.railOnly)
      r[key + " rail_only"] = "true";
  }
  for (const ir::PolicyBlock &b : F.extraPolicies)
    for (const ir::Setting &s : b.props)
      r["policy " + std::string(F.strings.str(b.kind)) + " " + std::string(F.strings.str(s.name))] = settingText(F, s);
  return r;
}


// A cable's ends in the plan's orientation: a's full port name ("device/port") sorts
// first, compared as the joined text without composing it.
bool fullNameLess(const DiffEnd &x, const DiffEnd &y) {
  // Most pairs differ within the device names, or have names of one length (then the
  // '/' is at one place and the ports decide): compared whole, as bytes.
  size_t m = std::min(x.device.size(), y.device.size());
  if (int c = m ? std::memcmp(x.device.data(), y.device.data(), m) : 0)
    return c < 0;
  if (x.device.size() == y.device.size())
    return x.port < y.port;
  auto at = [](const DiffEnd &e, size_t i) -> int {
    if (i < e.device.size())
      return (unsigned char)e.device[i];
    if (i == e.device.size())
      return '/';
    i -= e.device.size() + 1;
    return i < e.port.size() ? (unsigned char)e.port[i] : -1;
  };
  size_t nx = x.device.size() + 1 + x.port.size(), ny = y.device.size() + 1 + y.port.size();
  for (size_t i = 0; i < std::min(nx, ny); ++i)
    if (int c = at(x, i) - at(y, i))
      return c < 0;
  return nx < ny;
}

} // namespace

DiffCable diffCable(const DiffNames &N, uint32_t l) {
  const ir::Fabric &F = N.fabric();
  DiffCable c;
  auto end = [&](DiffEnd &e, uint32_t port, bool sideA) {
    uint32_t d = F.portDevice[port];
    e.device = N.device(d);
    N.appendPort(port, e.port);
    e.rack = N.rack(d);
    e.u = F.devU[d];
    // The part in the cage, whichever link of a twin-port cage its count went to.
    e.xcvr = N.sku(sideA ? F.linkOpticA[l] : F.linkOpticB[l]);
  };
  end(c.a, F.linkA[l], true);
  end(c.b, F.linkB[l], false);
  if (fullNameLess(c.b, c.a))
    std::swap(c.a, c.b);
  c.media = ir::mediaName(F.linkMedia[l]);
  c.sku = N.cableSku(l);
  TextBuffer length; // "{:.2f}", without fmt's format-string parsing per cable
  appendFixed(length, F.linkLength[l], 2);
  c.length.assign(length.data(), length.size());
  c.gbps = F.portSpeed(F.linkA[l]) / 1e9;
  return c;
}

DiffChanges cableChanges(const DiffCable &o, const DiffCable &n, bool sameEnds) {
  DiffChanges r;
  auto cmp = [&](const char *what, std::string_view a, std::string_view b) {
    if (a != b)
      r.emplace_back(what, std::string(a), std::string(b));
  };
  cmp("media", o.media, n.media);
  cmp("length_m", o.length, n.length);
  cmp("cable_sku", o.sku, n.sku);
  cmp("speed_gbps", fmt::format("{:g}", o.gbps), fmt::format("{:g}", n.gbps));
  if (sameEnds) {
    cmp("a_transceiver", o.a.xcvr, n.a.xcvr);
    cmp("b_transceiver", o.b.xcvr, n.b.xcvr);
  }
  return r;
}

DiffDevice diffDevice(const DiffNames &N, uint32_t d) {
  const ir::Fabric &F = N.fabric();
  DiffDevice r;
  r.name = N.device(d);
  r.model = N.sku(F.devModel[d]);
  r.tier = ir::tierName(F.devTier[d]);
  r.role = ir::roleName(F.devRole[d]);
  r.rack = N.rack(d);
  r.u = F.devU[d];
  r.asn = d < F.devAsn.size() && F.devAsn[d] ? std::to_string(F.devAsn[d]) : "";
  r.loopback = d < F.devLoopback.size() ? ipv4(F.devLoopback[d]) : "";
  ir::ModelKind k = F.modelOf(d).kind;
  r.isSwitch = k == ir::ModelKind::Switch || k == ir::ModelKind::NvSwitch;
  return r;
}

DiffChanges deviceChanges(const DiffDevice &o, const DiffDevice &n) {
  DiffChanges r;
  auto cmp = [&](const char *what, std::string_view a, std::string_view b) {
    if (a != b)
      r.emplace_back(what, std::string(a), std::string(b));
  };
  cmp("model", o.model, n.model);
  cmp("tier", o.tier, n.tier);
  cmp("role", o.role, n.role);
  cmp("rack", o.rack, n.rack);
  if (o.u != n.u)
    r.emplace_back("u", o.u ? std::to_string(o.u) : "", n.u ? std::to_string(n.u) : "");
  cmp("asn", o.asn, n.asn);
  cmp("loopback", o.loopback, n.loopback);
  return r;
}

BomLines bomLines(const Analyses &an) {
  const ir::Fabric &F = an.fabric();
  const BomSummary &s = an.bom();
  auto sku = [&](uint32_t m) {
    const ir::Model &x = F.models[m];
    return std::string(F.strings.str(x.sku ? x.sku : x.name));
  };
  BomLines r;
  for (auto &kv : s.devices)
    r.push_back({{"device", sku(kv.first), "", -1}, kv.second});
  for (auto &kv : s.transceivers)
    r.push_back({{"transceiver", sku(kv.first), ir::mediaName(F.models[kv.first].media), -1}, kv.second.total});
  for (auto &kv : s.cables)
    r.push_back({{"cable", kv.first.sku, ir::mediaName(kv.first.media), kv.first.length}, kv.second});
  return r;
}

// ---- the small sections ----
void diffSettings(FabricDiff &D) {
  auto setA = settingsOf(D.oldNames.fabric()), setB = settingsOf(D.newNames.fabric());
  auto &settings = D.settings;
  for (auto &kv : setA) {
    auto it = setB.find(kv.first);
    if (it == setB.end())
      settings.emplace_back(kv.first, kv.second, "");
    else if (it->second != kv.second)
      settings.emplace_back(kv.first, kv.second, it->second);
  }
  for (auto &kv : setB)
    if (!setA.count(kv.first))
      settings.emplace_back(kv.first, "", kv.second);
  std::sort(settings.begin(), settings.end());
  D.stats.settingsChanged = settings.size();
}

void diffBom(FabricDiff &D, const Analyses &anA, const Analyses &anB) {
  BomLines bomA = bomLines(anA), bomB = bomLines(anB);
  for (int side = 0; side < 2; ++side)
    for (auto &line : side ? bomB : bomA)
      (side ? D.bom[line.first].second : D.bom[line.first].first) += line.second;
  for (auto it = D.bom.begin(); it != D.bom.end();)
    it = it->second.first == it->second.second ? D.bom.erase(it) : std::next(it);
  D.stats.bomLines = D.bom.size();
}

// Switches whose configuration changes: re-cabled ports or a changed identity.
void diffSwitches(FabricDiff &D) {
  const ir::Fabric &A = D.oldNames.fabric(), &B = D.newNames.fabric();
  std::vector<SwitchTouch> &touch = D.touch;
  touch.assign(B.numDevices(), {});
  auto endsNew = [&](uint32_t l, auto fn) {
    fn(B.portDevice[B.linkA[l]]);
    if (B.portDevice[B.linkB[l]] != B.portDevice[B.linkA[l]])
      fn(B.portDevice[B.linkB[l]]);
  };
  for (uint32_t l : D.cabRemoved)
    for (uint32_t p : {A.linkA[l], A.linkB[l]})
      if (D.devOldToNew[A.portDevice[p]] != None)
        ++touch[D.devOldToNew[A.portDevice[p]]].unplugged;
  for (uint32_t l : D.cabAdded)
    endsNew(l, [&](uint32_t d) { ++touch[d].plugged; });
  for (auto &m : D.cabMoved)
    endsNew(m.second, [&](uint32_t d) { ++touch[d].moved; });
  for (uint32_t l : D.cabChanged)
    endsNew(l, [&](uint32_t d) { ++touch[d].replaced; });
  D.changedDev.assign(B.numDevices(), false);
  for (uint32_t d : D.devChanged)
    D.changedDev[d] = true;
  for (uint32_t d = 0; d < B.numDevices(); ++d) {
    ir::ModelKind kind = B.modelOf(d).kind;
    if (kind != ir::ModelKind::Switch && kind != ir::ModelKind::NvSwitch)
      continue;
    const SwitchTouch &t = touch[d];
    if (t.unplugged || t.plugged || t.moved || t.replaced || D.changedDev[d])
      D.switches.push_back(d);
  }
}

// The groups are few (declared ones: pods, planes, sus), so a map on (kind, name) joins
// them.
void diffGroups(FabricDiff &D) {
  struct Row {
    std::string_view kind;
    std::string name;
    GroupSide side;
  };
  auto rows = [](const ir::Fabric &F) {
    std::vector<Row> r;
    for (const ir::GroupStats &s : F.metrics.groupStats) {
      const ir::Group &g = F.groups[s.group];
      GroupSide x;
      x.present = true;
      x.gpus = s.gpus;
      x.switches = s.switches;
      x.links = s.links;
      x.boundaryLinks = s.boundaryLinks;
      if (g.kind == ir::GroupKind::Plane)
        x.bisectionGbps = std::round(s.bisection / 1e9); // as summary.json prints it
      r.push_back({F.strings.str(g.kindName), F.nodeName(g.node), x});
    }
    return r;
  };
  std::vector<Row> a = rows(D.oldNames.fabric()), b = rows(D.newNames.fabric());
  std::map<std::pair<std::string_view, std::string_view>, size_t> oldAt;
  for (size_t i = 0; i < a.size(); ++i)
    oldAt.emplace(std::make_pair(a[i].kind, std::string_view(a[i].name)), i);
  std::vector<bool> matched(a.size(), false);
  for (const Row &n : b) {
    GroupSide o;
    auto it = oldAt.find({n.kind, n.name});
    if (it != oldAt.end()) {
      matched[it->second] = true;
      o = a[it->second].side;
    }
    if (!(o == n.side))
      D.groups.push_back({n.kind, n.name, o, n.side});
  }
  for (size_t i = 0; i < a.size(); ++i)
    if (!matched[i])
      D.groups.push_back({a[i].kind, a[i].name, a[i].side, GroupSide{}});
}

FabricDiff compareFabrics(const Analyses &anA, const Analyses &anB, const DiffStageFn &stage) {
  auto next = [&](const char *name) {
    if (stage)
      stage(name);
  };
  next("diff names");
  FabricDiff D(anA.fabric(), anB.fabric());
  next("diff devices");
  diffDevices(D);
  next("diff cables");
  diffCables(D);
  next("diff moved");
  diffMoved(D);
  next("diff settings");
  diffSettings(D);
  next("diff bom");
  diffBom(D, anA, anB);
  next("diff switches");
  diffSwitches(D);
  next("diff groups");
  diffGroups(D);
  next("diff power");
  D.powerOld = anA.energy().it;
  D.powerNew = anB.energy().it;
  D.powerEstimate = anA.fabric().metrics.usesEstimates || anB.fabric().metrics.usesEstimates;
  next("diff reliability");
  D.reliabilityOld = reliabilityFigures(anA.fabric(), anA.reliability());
  D.reliabilityNew = reliabilityFigures(anB.fabric(), anB.reliability());
  return D;
}

} // namespace fabc::analysis
