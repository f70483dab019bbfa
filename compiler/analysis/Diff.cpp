// fabc diff's comparison: hash joins between two IRs, then what changed, as data
// (tools/fabc prints it as a plan in working order).
#include "analysis/Diff.h"
#include "ir/Address.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Support/xxhash.h>

#include <fmt/format.h>

#include <algorithm>

namespace fabc::analysis {
namespace {
using ir::None;

uint64_t hashOf(const std::string &s) {
  uint64_t h = llvm::xxHash64(llvm::StringRef(s));
  return h >= ~0ull - 1 ? h - 2 : h; // DenseMap reserves the two largest keys
}

// A hash join index over ids [0, n): ids whose keys hash alike are chained in id order.
// Only hashes are stored (16 bytes an id, not the names); the caller compares the
// candidate's real key, so a hash collision costs a comparison, never a wrong match.
class HashIndex {
public:
  template <typename KeyFn> void build(size_t n, KeyFn key) {
    next_.assign(n, None);
    head_.reserve(unsigned(std::min<size_t>(n, 1u << 30)));
    std::string k;
    for (size_t i = n; i-- > 0;) {
      k.clear();
      key(uint32_t(i), k);
      auto it = head_.try_emplace(hashOf(k), uint32_t(i));
      if (!it.second) {
        next_[i] = it.first->second;
        it.first->second = uint32_t(i);
      }
    }
  }
  // The first id with this key for which `ok` holds (and, with `consumed`, not taken
  // before; it is then taken). Consumed ids at the head of a chain are unlinked, so
  // taking k parallel cables of one device pair costs O(k), not O(k^2).
  template <typename Match> uint32_t find(const std::string &key, Match match, std::vector<bool> *consumed = nullptr) {
    auto it = head_.find(hashOf(key));
    if (it == head_.end())
      return None;
    if (consumed)
      while (it->second != None && (*consumed)[it->second])
        it->second = next_[it->second];
    for (uint32_t x = it->second; x != None; x = next_[x]) {
      if (consumed && (*consumed)[x])
        continue;
      if (match(x)) {
        if (consumed)
          (*consumed)[x] = true;
        return x;
      }
    }
    return None;
  }

private:
  llvm::DenseMap<uint64_t, uint32_t> head_;
  std::vector<uint32_t> next_;
};

std::string ipv4(uint32_t a) { return a ? ir::ipv4String(a) : ""; }


// ---- keys (the join columns) ----
void deviceKey(const ir::Fabric &F, uint32_t d, std::string &out) { F.appendNodeName(F.devNode[d], out); }

void cableKey(const ir::Fabric &F, uint32_t l, std::string &out) {
  std::string a, b;
  F.appendPortName(F.linkA[l], a);
  F.appendPortName(F.linkB[l], b);
  if (b < a)
    std::swap(a, b);
  out += a;
  out += '\n';
  out += b;
}

void devicePairKey(const ir::Fabric &F, uint32_t l, std::string &out) {
  std::string a, b;
  F.appendNodeName(F.devNode[F.portDevice[F.linkA[l]]], a);
  F.appendNodeName(F.devNode[F.portDevice[F.linkB[l]]], b);
  if (b < a)
    std::swap(a, b);
  out += a;
  out += '\n';
  out += b;
}

// The equi-join of B's ids [0, nB) to A's [0, nA) on `key`: newToOld[b] is the A id with
// b's key (the first, in id order), oldToNew its inverse; None where there is none.
void joinOnKey(const ir::Fabric &A, uint32_t nA, const ir::Fabric &B, uint32_t nB,
               void (*key)(const ir::Fabric &, uint32_t, std::string &), std::vector<uint32_t> &newToOld,
               std::vector<uint32_t> &oldToNew) {
  HashIndex index;
  index.build(nA, [&](uint32_t a, std::string &k) { key(A, a, k); });
  newToOld.assign(nB, None);
  oldToNew.assign(nA, None);
  std::string k, k2;
  for (uint32_t b = 0; b < nB; ++b) {
    k.clear();
    key(B, b, k);
    uint32_t o = index.find(k, [&](uint32_t x) {
      k2.clear();
      key(A, x, k2);
      return k2 == k;
    });
    if (o != None) {
      newToOld[b] = o;
      oldToNew[o] = b;
    }
  }
}

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
    if (p.scope)
      key += " " + std::string(F.strings.str(p.scope));
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

} // namespace

std::string skuOf(const ir::Fabric &F, uint32_t m) {
  if (m == None)
    return "";
  const ir::Model &x = F.models[m];
  return std::string(F.strings.str(x.sku ? x.sku : x.name));
}

DiffCable diffCable(const ir::Fabric &F, uint32_t l) {
  DiffCable c;
  auto end = [&](uint32_t port, bool sideA) {
    DiffEnd e;
    std::string full;
    F.appendPortName(port, full);
    size_t s = full.find('/');
    e.device = full.substr(0, s);
    e.port = s == std::string::npos ? "" : full.substr(s + 1);
    uint32_t d = F.portDevice[port];
    e.rack = F.devRack[d] == None ? "" : F.rackName(F.devRack[d]);
    e.u = F.devU[d];
    // The part in the cage, whichever link of a twin-port cage its count went to.
    e.xcvr = skuOf(F, sideA ? F.linkOpticA[l] : F.linkOpticB[l]);
    return e;
  };
  c.a = end(F.linkA[l], true);
  c.b = end(F.linkB[l], false);
  if (c.b.device + "/" + c.b.port < c.a.device + "/" + c.a.port)
    std::swap(c.a, c.b);
  ir::Media m = F.linkMedia[l];
  c.media = ir::mediaName(m);
  c.sku = skuOf(F, F.linkCable[l]);
  if (c.sku.empty() && m != ir::Media::None)
    c.sku = std::string(ir::mediaName(m)) + " fibre";
  c.length = fmt::format("{:.2f}", F.linkLength[l]);
  c.gbps = F.portSpeed(F.linkA[l]) / 1e9;
  return c;
}

DiffChanges cableChanges(const DiffCable &o, const DiffCable &n, bool sameEnds) {
  DiffChanges r;
  auto cmp = [&](const char *what, const std::string &a, const std::string &b) {
    if (a != b)
      r.emplace_back(what, a, b);
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

DiffDevice diffDevice(const ir::Fabric &F, uint32_t d) {
  DiffDevice r;
  r.name = F.deviceName(d);
  r.model = skuOf(F, F.devModel[d]);
  r.tier = ir::tierName(F.devTier[d]);
  r.role = ir::roleName(F.devRole[d]);
  r.rack = F.devRack[d] == None ? "" : F.rackName(F.devRack[d]);
  r.u = F.devU[d];
  r.asn = d < F.devAsn.size() && F.devAsn[d] ? std::to_string(F.devAsn[d]) : "";
  r.loopback = d < F.devLoopback.size() ? ipv4(F.devLoopback[d]) : "";
  ir::ModelKind k = F.modelOf(d).kind;
  r.isSwitch = k == ir::ModelKind::Switch || k == ir::ModelKind::NvSwitch;
  return r;
}

DiffChanges deviceChanges(const DiffDevice &o, const DiffDevice &n) {
  DiffChanges r;
  auto cmp = [&](const char *what, const std::string &a, const std::string &b) {
    if (a != b)
      r.emplace_back(what, a, b);
  };
  cmp("model", o.model, n.model);
  cmp("tier", o.tier, n.tier);
  cmp("role", o.role, n.role);
  cmp("rack", o.rack, n.rack);
  cmp("u", o.u ? std::to_string(o.u) : "", n.u ? std::to_string(n.u) : "");
  cmp("asn", o.asn, n.asn);
  cmp("loopback", o.loopback, n.loopback);
  return r;
}

BomLines bomLines(const Analyses &an) {
  const ir::Fabric &F = an.fabric();
  const BomSummary &s = an.bom();
  BomLines r;
  for (auto &kv : s.devices)
    r.push_back({{"device", skuOf(F, kv.first), "", -1}, kv.second});
  for (auto &kv : s.transceivers)
    r.push_back({{"transceiver", skuOf(F, kv.first), ir::mediaName(F.models[kv.first].media), -1}, kv.second.total});
  for (auto &kv : s.cables)
    r.push_back({{"cable", kv.first.sku, ir::mediaName(kv.first.media), kv.first.length}, kv.second});
  return r;
}

FabricDiff compareFabrics(const Analyses &anA, const Analyses &anB) {
  const ir::Fabric &A = anA.fabric(), &B = anB.fabric();
  BomLines bomA = bomLines(anA), bomB = bomLines(anB);
  FabricDiff r;
  DiffStats &st = r.stats;

  // Devices: join on the full name.
  std::vector<uint32_t> &newToOld = r.devNewToOld, &oldToNew = r.devOldToNew;
  joinOnKey(A, A.numDevices(), B, B.numDevices(), deviceKey, newToOld, oldToNew);
  std::vector<uint32_t> &devRemoved = r.devRemoved, &devAdded = r.devAdded, &devChanged = r.devChanged;
  for (uint32_t d = 0; d < A.numDevices(); ++d)
    if (oldToNew[d] == None)
      devRemoved.push_back(d);
  for (uint32_t d = 0; d < B.numDevices(); ++d) {
    if (newToOld[d] == None)
      devAdded.push_back(d);
    else if (!deviceChanges(diffDevice(A, newToOld[d]), diffDevice(B, d)).empty())
      devChanged.push_back(d);
  }

  // Cables: join on the two port names, in either orientation.
  std::vector<uint32_t> &linkNewToOld = r.linkNewToOld, linkOldToNew;
  joinOnKey(A, A.numLinks(), B, B.numLinks(), cableKey, linkNewToOld, linkOldToNew);
  // Moved: an unmatched new cable between the same two devices as an unmatched old one
  // (the cable is re-plugged on other ports), first come first served in IR order.
  std::vector<uint32_t> oldUnmatched;
  std::string k, k2;
  for (uint32_t l = 0; l < A.numLinks(); ++l)
    if (linkOldToNew[l] == None)
      oldUnmatched.push_back(l);
  HashIndex pairIndex;
  pairIndex.build(oldUnmatched.size(), [&](uint32_t i, std::string &key) { devicePairKey(A, oldUnmatched[i], key); });
  std::vector<bool> taken(oldUnmatched.size(), false);
  std::vector<uint32_t> &cabAdded = r.cabAdded, &cabChanged = r.cabChanged;
  std::vector<std::pair<uint32_t, uint32_t>> &cabMoved = r.cabMoved; // old link, new link
  for (uint32_t l = 0; l < B.numLinks(); ++l) {
    if (linkNewToOld[l] != None) {
      if (!cableChanges(diffCable(A, linkNewToOld[l]), diffCable(B, l), true).empty())
        cabChanged.push_back(l);
      else
        ++st.cablesUnchanged;
      continue;
    }
    k.clear();
    devicePairKey(B, l, k);
    uint32_t i = pairIndex.find(
        k,
        [&](uint32_t x) {
          k2.clear();
          devicePairKey(A, oldUnmatched[x], k2);
          return k2 == k;
        },
        &taken);
    if (i != None)
      cabMoved.push_back({oldUnmatched[i], l});
    else
      cabAdded.push_back(l);
  }
  std::vector<uint32_t> &cabRemoved = r.cabRemoved;
  for (size_t i = 0; i < oldUnmatched.size(); ++i)
    if (!taken[i])
      cabRemoved.push_back(oldUnmatched[i]);

  // Settings and the bill of materials: small, sorted maps.
  auto setA = settingsOf(A), setB = settingsOf(B);
  auto &settings = r.settings;
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
  for (int side = 0; side < 2; ++side)
    for (auto &line : side ? bomB : bomA)
      (side ? r.bom[line.first].second : r.bom[line.first].first) += line.second;
  for (auto it = r.bom.begin(); it != r.bom.end();)
    it = it->second.first == it->second.second ? r.bom.erase(it) : std::next(it);

  // Switches whose configuration changes: re-cabled ports or a changed identity.
  std::vector<SwitchTouch> &touch = r.touch;
  touch.assign(B.numDevices(), {});
  auto endsNew = [&](uint32_t l, auto fn) {
    fn(B.portDevice[B.linkA[l]]);
    if (B.portDevice[B.linkB[l]] != B.portDevice[B.linkA[l]])
      fn(B.portDevice[B.linkB[l]]);
  };
  for (uint32_t l : cabRemoved)
    for (uint32_t p : {A.linkA[l], A.linkB[l]})
      if (oldToNew[A.portDevice[p]] != None)
        ++touch[oldToNew[A.portDevice[p]]].unplugged;
  for (uint32_t l : cabAdded)
    endsNew(l, [&](uint32_t d) { ++touch[d].plugged; });
  for (auto &m : cabMoved)
    endsNew(m.second, [&](uint32_t d) { ++touch[d].moved; });
  for (uint32_t l : cabChanged)
    endsNew(l, [&](uint32_t d) { ++touch[d].replaced; });
  std::vector<uint32_t> &switches = r.switches;
  std::vector<bool> &changedDev = r.changedDev;
  changedDev.assign(B.numDevices(), false);
  for (uint32_t d : devChanged)
    changedDev[d] = true;
  for (uint32_t d = 0; d < B.numDevices(); ++d) {
    ir::ModelKind kind = B.modelOf(d).kind;
    if (kind != ir::ModelKind::Switch && kind != ir::ModelKind::NvSwitch)
      continue;
    const SwitchTouch &t = touch[d];
    if (t.unplugged || t.plugged || t.moved || t.replaced || changedDev[d])
      switches.push_back(d);
  }

  st.devicesAdded = devAdded.size();
  st.devicesRemoved = devRemoved.size();
  st.devicesChanged = devChanged.size();
  st.cablesAdded = cabAdded.size();
  st.cablesRemoved = cabRemoved.size();
  st.cablesMoved = cabMoved.size();
  st.cablesChanged = cabChanged.size();
  st.settingsChanged = settings.size();
  st.bomLines = r.bom.size();

  r.powerOld = anA.energy().it;
  r.powerNew = anB.energy().it;
  r.powerEstimate = A.metrics.usesEstimates || B.metrics.usesEstimates;
  return r;
}

} // namespace fabc::analysis

