// fabc diff: hash joins between two IRs, then a plan in working order (unplug, remove,
// change, install, move, replace, plug), switch by switch counts, setting changes, the
// bill-of-materials delta and the power delta. Text or JSON, streamed.
#include "backends/diff/Diff.h"
#include "backends/Backend.h"
#include "backends/Common.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Support/xxhash.h>

#include <map>

namespace fabc {
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

std::string skuOf(const ir::Fabric &F, uint32_t m) {
  if (m == None)
    return "";
  const ir::Model &x = F.models[m];
  return std::string(F.strings.str(x.sku ? x.sku : x.name));
}

std::string ipv4(uint32_t a) {
  return a ? fmt::format("{}.{}.{}.{}", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255) : "";
}

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

// ---- what is compared and printed ----
struct End {
  std::string device, port, rack, xcvr;
  unsigned u = 0;
};
struct Cable {
  End a, b; // oriented: a's full port name sorts first
  std::string media, sku, length;
  double gbps = 0;
};

Cable cableOf(const ir::Fabric &F, uint32_t l) {
  Cable c;
  auto end = [&](uint32_t port, bool sideA) {
    End e;
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

using Changes = std::vector<std::tuple<const char *, std::string, std::string>>;

Changes cableChanges(const Cable &o, const Cable &n, bool sameEnds) {
  Changes r;
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

struct Device {
  std::string name, model, tier, role, rack, asn, loopback;
  unsigned u = 0;
  bool isSwitch = false;
};

Device deviceOf(const ir::Fabric &F, uint32_t d) {
  Device r;
  r.name = F.deviceName(d);
  r.model = skuOf(F, F.devModel[d]);
  r.tier = F.devTier[d] == 255 ? "untiered" : tierName(F.devTier[d]);
  r.role = ir::roleName(F.devRole[d]);
  r.rack = F.devRack[d] == None ? "" : F.rackName(F.devRack[d]);
  r.u = F.devU[d];
  r.asn = d < F.devAsn.size() && F.devAsn[d] ? std::to_string(F.devAsn[d]) : "";
  r.loopback = d < F.devLoopback.size() ? ipv4(F.devLoopback[d]) : "";
  ir::ModelKind k = F.modelOf(d).kind;
  r.isSwitch = k == ir::ModelKind::Switch || k == ir::ModelKind::NvSwitch;
  return r;
}

Changes deviceChanges(const Device &o, const Device &n) {
  Changes r;
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
  }
  for (const ir::PolicyBlock &b : F.extraPolicies)
    for (const ir::Setting &s : b.props)
      r["policy " + std::string(F.strings.str(b.kind)) + " " + std::string(F.strings.str(s.name))] = settingText(F, s);
  return r;
}

// ---- bill of materials, keyed by what is ordered ----
struct BomKey {
  std::string category, sku, media;
  double length = -1;
  bool operator<(const BomKey &o) const {
    return std::tie(category, sku, media, length) < std::tie(o.category, o.sku, o.media, o.length);
  }
};
std::map<BomKey, std::pair<uint64_t, uint64_t>> bomDelta(const ir::Fabric &A, const ir::Fabric &B) {
  std::map<BomKey, std::pair<uint64_t, uint64_t>> r;
  for (int side = 0; side < 2; ++side) {
    const ir::Fabric &F = side ? B : A;
    BomSummary s = summarize(F);
    auto add = [&](BomKey k, uint64_t n) { (side ? r[k].second : r[k].first) += n; };
    for (auto &kv : s.devices)
      add({"device", skuOf(F, kv.first), "", -1}, kv.second);
    for (auto &kv : s.transceivers)
      add({"transceiver", skuOf(F, kv.first), ir::mediaName(F.models[kv.first].media), -1}, kv.second.total);
    for (auto &kv : s.cables)
      add({"cable", kv.first.sku, ir::mediaName(kv.first.media), kv.first.length}, kv.second);
  }
  for (auto it = r.begin(); it != r.end();)
    it = it->second.first == it->second.second ? r.erase(it) : std::next(it);
  return r;
}

double itPower(const ir::Fabric &F) {
  double w = 0;
  for (size_t d = 0; d < F.numDevices(); ++d)
    w += double(F.devPower[d]) + double(F.devOpticPower[d]);
  return w;
}

// ---- output ----
class Writer {
public:
  Writer(DiffFormat f, FILE *out)
      : json_(f == DiffFormat::Json), out_(out),
        j_([out](std::string_view s) { std::fwrite(s.data(), 1, s.size(), out); }) {}
  bool json() const { return json_; }
  JsonWriter &j() { return j_; }
  template <typename... Args> void print(fmt::format_string<Args...> f, Args &&...args) {
    fmt::print(out_, f, std::forward<Args>(args)...);
  }

  void jsonEnd(const End &e) {
    j_.beginObject(JsonLayout::Inline);
    j_.key("device").string(e.device);
    j_.key("port").string(e.port);
    j_.key("rack").stringOrNull(e.rack);
    j_.key("u").integer(e.u);
    j_.key("transceiver").stringOrNull(e.xcvr);
    j_.endObject();
  }
  void jsonCable(const Cable &c) {
    j_.beginObject(JsonLayout::Inline);
    j_.key("a");
    jsonEnd(c.a);
    j_.key("b");
    jsonEnd(c.b);
    j_.key("speed_gbps").general(c.gbps);
    j_.key("media").string(c.media);
    j_.key("length_m").rawNumber(c.length);
    j_.key("cable_sku").string(c.sku);
    j_.endObject();
  }
  static std::string textCable(const Cable &c) {
    return fmt::format("{}/{} -- {}/{} ({}, {} m{}{})", c.a.device, c.a.port, c.b.device, c.b.port, c.media, c.length,
                       c.sku.empty() ? "" : ", ", c.sku);
  }
  void jsonDevice(const Device &d) {
    j_.beginObject(JsonLayout::Inline);
    j_.key("device").string(d.name);
    j_.key("model").string(d.model);
    j_.key("tier").string(d.tier);
    j_.key("role").string(d.role);
    j_.key("rack").stringOrNull(d.rack);
    j_.key("u").integer(d.u);
    j_.endObject();
  }
  static std::string textDevice(const Device &d) {
    std::string r = d.name + " (" + d.model;
    if (!d.rack.empty())
      r += ", rack " + d.rack + (d.u ? fmt::format(" U{}", d.u) : "");
    return r + ")";
  }
  // {"what": [old, new], ...}, null for an unset side.
  void jsonChanges(const Changes &c) {
    j_.beginObject(JsonLayout::Inline);
    for (const auto &ch : c) {
      j_.key(std::get<0>(ch)).beginArray(JsonLayout::Inline);
      j_.stringOrNull(std::get<1>(ch));
      j_.stringOrNull(std::get<2>(ch));
      j_.endArray();
    }
    j_.endObject();
  }
  static std::string textChanges(const Changes &c) {
    std::string r;
    for (size_t i = 0; i < c.size(); ++i) {
      auto v = [](const std::string &s) { return s.empty() ? std::string("(none)") : s; };
      r += fmt::format("{}{} {} -> {}", i ? "; " : "", std::get<0>(c[i]), v(std::get<1>(c[i])), v(std::get<2>(c[i])));
    }
    return r;
  }

  // A list: in JSON an array under `key`, in text a numbered step (skipped if empty).
  template <typename Fn> void list(const char *key, const std::string &heading, size_t n, Fn item) {
    if (json_) {
      j_.key(key).beginArray();
      for (size_t i = 0; i < n; ++i)
        item(i);
      j_.endArray();
      return;
    }
    if (!n)
      return;
    print("  {}. {}\n", ++step_, heading);
    for (size_t i = 0; i < n; ++i) {
      print("       ");
      item(i);
      print("\n");
    }
  }

private:
  bool json_;
  FILE *out_;
  JsonWriter j_; // JSON only: streams to out_
  unsigned step_ = 0;
};

std::string plural(uint64_t n, const char *one, const char *many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

} // namespace

DiffStats diffFabrics(const DiffSide &sa, const DiffSide &sb, DiffFormat format, FILE *out) {
  const ir::Fabric &A = sa.F, &B = sb.F;
  DiffStats st;

  // Devices: join on the full name.
  std::vector<uint32_t> newToOld, oldToNew;
  joinOnKey(A, A.numDevices(), B, B.numDevices(), deviceKey, newToOld, oldToNew);
  std::vector<uint32_t> devRemoved, devAdded, devChanged;
  for (uint32_t d = 0; d < A.numDevices(); ++d)
    if (oldToNew[d] == None)
      devRemoved.push_back(d);
  for (uint32_t d = 0; d < B.numDevices(); ++d) {
    if (newToOld[d] == None)
      devAdded.push_back(d);
    else if (!deviceChanges(deviceOf(A, newToOld[d]), deviceOf(B, d)).empty())
      devChanged.push_back(d);
  }

  // Cables: join on the two port names, in either orientation.
  std::vector<uint32_t> linkNewToOld, linkOldToNew;
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
  std::vector<uint32_t> cabAdded, cabChanged;
  std::vector<std::pair<uint32_t, uint32_t>> cabMoved; // old link, new link
  for (uint32_t l = 0; l < B.numLinks(); ++l) {
    if (linkNewToOld[l] != None) {
      if (!cableChanges(cableOf(A, linkNewToOld[l]), cableOf(B, l), true).empty())
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
  std::vector<uint32_t> cabRemoved;
  for (size_t i = 0; i < oldUnmatched.size(); ++i)
    if (!taken[i])
      cabRemoved.push_back(oldUnmatched[i]);

  // Settings and the bill of materials: small, sorted maps.
  auto setA = settingsOf(A), setB = settingsOf(B);
  std::vector<std::tuple<std::string, std::string, std::string>> settings;
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
  auto bom = bomDelta(A, B);

  // Switches whose configuration changes: re-cabled ports or a changed identity.
  struct Touch {
    uint32_t unplugged = 0, plugged = 0, moved = 0, replaced = 0;
  };
  std::vector<Touch> touch(B.numDevices());
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
  std::vector<uint32_t> switches;
  std::vector<bool> changedDev(B.numDevices(), false);
  for (uint32_t d : devChanged)
    changedDev[d] = true;
  for (uint32_t d = 0; d < B.numDevices(); ++d) {
    ir::ModelKind kind = B.modelOf(d).kind;
    if (kind != ir::ModelKind::Switch && kind != ir::ModelKind::NvSwitch)
      continue;
    const Touch &t = touch[d];
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
  st.bomLines = bom.size();

  double powA = itPower(A), powB = itPower(B);
  bool powEstimate = A.metrics.usesEstimates || B.metrics.usesEstimates;

  Writer w(format, out);
  JsonWriter &j = w.j();
  if (w.json()) {
    auto side = [&](const char *key, const DiffSide &s, double pw) {
      j.key(key).beginObject(JsonLayout::Inline);
      j.key("file").string(s.file);
      j.key("fabric").string(s.F.name);
      j.key("gpus").integer(s.F.metrics.gpus);
      j.key("devices").integer(s.F.numDevices());
      j.key("cables").integer(s.F.numLinks());
      j.key("it_power_w").fixed(pw, 1);
      j.endObject();
    };
    j.beginObject();
    side("old", sa, powA);
    side("new", sb, powB);
    j.key("summary").beginObject(JsonLayout::Inline);
    j.key("devices_added").integer(st.devicesAdded);
    j.key("devices_removed").integer(st.devicesRemoved);
    j.key("devices_changed").integer(st.devicesChanged);
    j.key("cables_added").integer(st.cablesAdded);
    j.key("cables_removed").integer(st.cablesRemoved);
    j.key("cables_moved").integer(st.cablesMoved);
    j.key("cables_changed").integer(st.cablesChanged);
    j.key("cables_unchanged").integer(st.cablesUnchanged);
    j.key("settings_changed").integer(st.settingsChanged);
    j.key("bom_lines_changed").integer(st.bomLines);
    j.endObject();
  } else {
    auto side = [&](const char *tag, const DiffSide &s, double pw) {
      w.print("{} {}: fabric '{}', {} GPUs, {}, {}, {} IT power{}\n", tag, s.file, s.F.name, s.F.metrics.gpus,
              plural(s.F.numDevices(), "device", "devices"), plural(s.F.numLinks(), "cable", "cables"),
              formatQuantity(pw, dims::Power), s.F.metrics.usesEstimates ? " (estimate)" : "");
    };
    side("---", sa, powA);
    side("+++", sb, powB);
    if (!st.any()) {
      w.print("no differences\n");
      return st;
    }
    w.print("devices: {} added, {} removed, {} changed; cables: {} added, {} removed, {} moved, {} replaced, {} "
            "unchanged\n\nrecabling plan, in working order:\n",
            st.devicesAdded, st.devicesRemoved, st.devicesChanged, st.cablesAdded, st.cablesRemoved, st.cablesMoved,
            st.cablesChanged, st.cablesUnchanged);
  }

  w.list("cables_removed", "unplug " + plural(cabRemoved.size(), "cable", "cables"), cabRemoved.size(), [&](size_t i) {
    Cable c = cableOf(A, cabRemoved[i]);
    w.json() ? w.jsonCable(c) : w.print("- {}", Writer::textCable(c));
  });
  w.list("devices_removed", "remove " + plural(devRemoved.size(), "device", "devices"), devRemoved.size(),
         [&](size_t i) {
           Device d = deviceOf(A, devRemoved[i]);
           w.json() ? w.jsonDevice(d) : w.print("- {}", Writer::textDevice(d));
         });
  w.list("devices_changed", "change " + plural(devChanged.size(), "device", "devices") + " in place",
         devChanged.size(), [&](size_t i) {
           uint32_t d = devChanged[i];
           Device o = deviceOf(A, newToOld[d]), n = deviceOf(B, d);
           Changes c = deviceChanges(o, n);
           if (w.json()) {
             j.beginObject(JsonLayout::Inline);
             j.key("device").string(n.name);
             j.key("changes");
             w.jsonChanges(c);
             j.endObject();
           } else
             w.print("~ {}: {}", n.name, Writer::textChanges(c));
         });
  w.list("devices_added", "install " + plural(devAdded.size(), "device", "devices"), devAdded.size(), [&](size_t i) {
    Device d = deviceOf(B, devAdded[i]);
    w.json() ? w.jsonDevice(d) : w.print("+ {}", Writer::textDevice(d));
  });
  w.list("cables_moved", "move " + plural(cabMoved.size(), "cable", "cables") + " (same devices, other ports)",
         cabMoved.size(), [&](size_t i) {
           Cable o = cableOf(A, cabMoved[i].first), n = cableOf(B, cabMoved[i].second);
           Changes c = cableChanges(o, n, false);
           if (w.json()) {
             j.beginObject(JsonLayout::Inline);
             j.key("old");
             w.jsonCable(o);
             j.key("new");
             w.jsonCable(n);
             j.key("changes");
             w.jsonChanges(c);
             j.endObject();
           } else {
             w.print("> {}/{} -- {}/{}  =>  {}/{} -- {}/{}{}{}", o.a.device, o.a.port, o.b.device, o.b.port, n.a.device,
                     n.a.port, n.b.device, n.b.port, c.empty() ? "" : ": ", Writer::textChanges(c));
           }
         });
  w.list("cables_changed", "replace " + plural(cabChanged.size(), "cable", "cables") + " (same ports)",
         cabChanged.size(), [&](size_t i) {
           Cable o = cableOf(A, linkNewToOld[cabChanged[i]]), n = cableOf(B, cabChanged[i]);
           Changes c = cableChanges(o, n, true);
           if (w.json()) {
             j.beginObject(JsonLayout::Inline);
             j.key("a").string(n.a.device + "/" + n.a.port);
             j.key("b").string(n.b.device + "/" + n.b.port);
             j.key("changes");
             w.jsonChanges(c);
             j.endObject();
           } else
             w.print("~ {}/{} -- {}/{}: {}", n.a.device, n.a.port, n.b.device, n.b.port, Writer::textChanges(c));
         });
  w.list("cables_added", "plug " + plural(cabAdded.size(), "cable", "cables"), cabAdded.size(), [&](size_t i) {
    Cable c = cableOf(B, cabAdded[i]);
    w.json() ? w.jsonCable(c) : w.print("+ {}", Writer::textCable(c));
  });

  if (w.json()) {
    j.key("switches").beginArray();
    for (uint32_t d : switches) {
      const Touch &t = touch[d];
      j.beginObject(JsonLayout::Inline);
      j.key("device").string(B.deviceName(d));
      j.key("unplugged").integer(t.unplugged);
      j.key("plugged").integer(t.plugged);
      j.key("moved").integer(t.moved);
      j.key("replaced").integer(t.replaced);
      j.key("changed").boolean(changedDev[d]);
      j.endObject();
    }
    j.endArray();
    j.key("settings").beginArray();
    for (auto &s : settings) {
      j.beginObject(JsonLayout::Inline);
      j.key("setting").string(std::get<0>(s));
      j.key("old").stringOrNull(std::get<1>(s));
      j.key("new").stringOrNull(std::get<2>(s));
      j.endObject();
    }
    j.endArray();
    j.key("bom").beginArray();
    for (auto &kv : bom) {
      const BomKey &bk = kv.first;
      j.beginObject(JsonLayout::Inline);
      j.key("category").string(bk.category);
      j.key("sku").string(bk.sku);
      j.key("media").stringOrNull(bk.media);
      j.key("order_length_m");
      bk.length < 0 ? j.null() : j.general(bk.length);
      j.key("old").integer(kv.second.first);
      j.key("new").integer(kv.second.second);
      j.key("delta").integer(int64_t(kv.second.second) - int64_t(kv.second.first));
      j.endObject();
    }
    j.endArray();
    j.key("it_power_w").beginObject(JsonLayout::Inline);
    j.key("old").fixed(powA, 1);
    j.key("new").fixed(powB, 1);
    j.key("delta").fixed(powB - powA, 1);
    j.key("estimate").boolean(powEstimate);
    j.endObject();
    j.endObject();
    j.flush();
    return st;
  }

  if (!switches.empty()) {
    w.print("\nswitches to reconfigure ({}):\n", switches.size());
    for (uint32_t d : switches) {
      const Touch &t = touch[d];
      w.print("  {}: {} unplugged, {} plugged, {} moved, {} replaced{}\n", B.deviceName(d), t.unplugged, t.plugged,
              t.moved, t.replaced, changedDev[d] ? ", device changed (see step above)" : "");
    }
  }
  if (!settings.empty()) {
    w.print("\nsettings:\n");
    for (auto &s : settings) {
      const std::string &o = std::get<1>(s), &n = std::get<2>(s);
      if (o.empty())
        w.print("  + {} = {}\n", std::get<0>(s), n);
      else if (n.empty())
        w.print("  - {} = {}\n", std::get<0>(s), o);
      else
        w.print("  ~ {}: {} -> {}\n", std::get<0>(s), o, n);
    }
  }
  if (!bom.empty()) {
    w.print("\nbill of materials (old -> new):\n");
    for (auto &kv : bom) {
      const BomKey &bk = kv.first;
      std::string what = bk.category + " " + bk.sku;
      if (bk.category == "cable")
        what += fmt::format(" {} m", bk.length);
      w.print("  {}: {} -> {} ({:+d})\n", what, kv.second.first, kv.second.second,
              int64_t(kv.second.second) - int64_t(kv.second.first));
    }
  }
  w.print("\nIT power: {} -> {} ({}{}){}\n", formatQuantity(powA, dims::Power), formatQuantity(powB, dims::Power),
          powB >= powA ? "+" : "-", formatQuantity(std::abs(powB - powA), dims::Power),
          powEstimate ? ", estimate: rests on catalog figures marked 'estimate'" : "");
  return st;
}

} // namespace fabc
