// fabc diff's joins (analysis/Diff.h): each design's names composed once, then devices
// joined by name, ports through their devices, cables through their ports, and the cables
// left over paired by their two devices. No name is composed per cable, nothing is
// allocated per cable, and the only hashing is of device names.
#include "analysis/Diff.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringRef.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace fabc::analysis {
namespace {
using ir::None;

// Equal texts from equal bits (the fast path), else the texts compared: two doubles
// that differ can still print alike ("{:.2f}" of 5.6f and 5.6).
template <typename T> bool sameText(T x, T y, const char *spec) {
  if (std::memcmp(&x, &y, sizeof(T)) == 0)
    return true;
  char bx[64], by[64];
  auto nx = fmt::format_to_n(bx, sizeof bx, fmt::runtime(spec), x).size;
  auto ny = fmt::format_to_n(by, sizeof by, fmt::runtime(spec), y).size;
  return nx == ny && std::memcmp(bx, by, std::min<size_t>(nx, sizeof bx)) == 0;
}

// The part in a cage at one end of a link.
uint32_t opticAt(const ir::Fabric &F, uint32_t link, uint32_t port) {
  return F.linkA[link] == port ? F.linkOpticA[link] : F.linkOpticB[link];
}

// Port groups matched by name between the layouts of a device in each design: for a
// (new layout, old layout) pair, each new group's old group (None: no group of that
// name). Built once per pair that occurs; a design has a handful of layouts.
class GroupMatch {
public:
  GroupMatch(const ir::Fabric &A, const ir::Fabric &B) : A_(A), B_(B) {}
  const std::vector<uint32_t> &get(uint32_t layoutB, uint32_t layoutA) {
    uint64_t key = uint64_t(layoutB) << 32 | layoutA;
    if (key == lastKey_)
      return *last_;
    auto it = index_.find(key);
    if (it == index_.end()) {
      const ir::Model &mb = B_.models[B_.layouts[layoutB].model], &ma = A_.models[A_.layouts[layoutA].model];
      std::vector<uint32_t> m(B_.layouts[layoutB].groups.size(), None);
      for (uint32_t g = 0; g < m.size(); ++g)
        for (uint32_t h = 0; h < A_.layouts[layoutA].groups.size(); ++h)
          if (B_.strings.str(mb.ports[g].name) == A_.strings.str(ma.ports[h].name)) {
            m[g] = h; // the first of that name, as the name join would find it
            break;
          }
      it = index_.try_emplace(key, uint32_t(maps_.size())).first;
      maps_.push_back(std::move(m));
    }
    lastKey_ = key;
    last_ = &maps_[it->second];
    return *last_;
  }

private:
  const ir::Fabric &A_, &B_;
  llvm::DenseMap<uint64_t, uint32_t> index_;
  std::vector<std::vector<uint32_t>> maps_;
  uint64_t lastKey_ = ~0ull;
  const std::vector<uint32_t> *last_ = nullptr;
};

} // namespace

// ---- names ----
DiffNames::DiffNames(const ir::Fabric &F) : F_(F) {
  devOff_.reserve(F.numDevices() + 1);
  devOff_.push_back(0);
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    F.appendNodeName(F.devNode[d], text_);
    devOff_.push_back(uint32_t(text_.size()));
  }
  racks_.reserve(F.racks.size());
  for (uint32_t r = 0; r < F.racks.size(); ++r)
    racks_.push_back(F.rackName(r));
}

std::string_view DiffNames::rack(uint32_t dev) const {
  uint32_t r = F_.devRack[dev];
  return r == None ? std::string_view() : std::string_view(racks_[r]);
}

std::string_view DiffNames::sku(uint32_t m) const {
  if (m == None)
    return {};
  const ir::Model &x = F_.models[m];
  return F_.strings.str(x.sku ? x.sku : x.name);
}

std::string_view DiffNames::cableSku(uint32_t l) const {
  std::string_view s = sku(F_.linkCable[l]);
  ir::Media m = F_.linkMedia[l];
  if (!s.empty() || m == ir::Media::None)
    return s;
  // "<media> fibre": the media's name and a fixed word, one text per media.
  static const std::string fibre[] = {
#define FIBRE(M) std::string(ir::mediaName(ir::Media::M)) + " fibre"
      "", FIBRE(DAC), FIBRE(ACC), FIBRE(AOC), FIBRE(MMF), FIBRE(SMF), FIBRE(DCI),
#undef FIBRE
  };
  static_assert(sizeof(fibre) / sizeof(fibre[0]) == size_t(ir::Media::Count), "a text per media");
  return fibre[size_t(m)];
}

void DiffNames::appendPort(uint32_t port, std::string &out) const {
  uint32_t idx = 0;
  uint32_t g = F_.portGroup(port, &idx);
  out += F_.strings.str(F_.modelOf(F_.portDevice[port]).ports[g].name);
  char buf[16];
  char *e = buf + sizeof buf, *q = e;
  *--q = ']';
  do
    *--q = char('0' + idx % 10);
  while (idx /= 10);
  *--q = '[';
  out.append(q, size_t(e - q));
}

// ---- devices: a hash join on the full names ----
void diffDevices(FabricDiff &D) {
  const DiffNames &NA = D.oldNames, &NB = D.newNames;
  const ir::Fabric &A = NA.fabric(), &B = NB.fabric();
  uint32_t nA = uint32_t(A.numDevices()), nB = uint32_t(B.numDevices());
  llvm::DenseMap<llvm::StringRef, uint32_t> index;
  index.reserve(nA);
  for (uint32_t d = 0; d < nA; ++d) {
    std::string_view s = NA.device(d);
    index.try_emplace(llvm::StringRef(s.data(), s.size()), d); // the first of a name
  }
  D.devNewToOld.assign(nB, None);
  D.devOldToNew.assign(nA, None);
  for (uint32_t d = 0; d < nB; ++d) {
    std::string_view s = NB.device(d);
    auto it = index.find(llvm::StringRef(s.data(), s.size()));
    if (it == index.end()) {
      D.devAdded.push_back(d);
      continue;
    }
    D.devNewToOld[d] = it->second;
    D.devOldToNew[it->second] = d;
    if (!deviceChanges(diffDevice(NA, it->second), diffDevice(NB, d)).empty())
      D.devChanged.push_back(d);
  }
  for (uint32_t d = 0; d < nA; ++d)
    if (D.devOldToNew[d] == None)
      D.devRemoved.push_back(d);
  D.stats.devicesAdded = D.devAdded.size();
  D.stats.devicesRemoved = D.devRemoved.size();
  D.stats.devicesChanged = D.devChanged.size();
}

// ---- cables: through their ports ----
// A port's name is its device's and its group's name and index, so the old port of a new
// one is found from the device join and the group names; a port holds at most one cable
// (ir::verify), so the old cable with both ends' names is the one on the first end's old
// port, if its other end is the second's.
void diffCables(FabricDiff &D) {
  const DiffNames &NA = D.oldNames, &NB = D.newNames;
  const ir::Fabric &A = NA.fabric(), &B = NB.fabric();
  GroupMatch groups(A, B);
  auto oldPort = [&](uint32_t p) -> uint32_t {
    uint32_t d = B.portDevice[p], od = D.devNewToOld[d];
    if (od == None)
      return None;
    uint32_t idx = 0, g = B.portGroup(p, &idx);
    uint32_t og = groups.get(B.devLayout[d], A.devLayout[od])[g];
    if (og == None)
      return None;
    const ir::GroupLayout &gl = A.layouts[A.devLayout[od]].groups[og];
    return idx < gl.count ? A.devPortBase[od] + gl.offset + idx : None;
  };
  D.linkNewToOld.assign(B.numLinks(), None);
  D.linkOldToNew.assign(A.numLinks(), None);
  for (uint32_t l = 0; l < B.numLinks(); ++l) {
    uint32_t pa = B.linkA[l], pb = B.linkB[l];
    uint32_t oa = oldPort(pa);
    if (oa == None)
      continue;
    uint32_t ol = A.portLink[oa];
    if (ol == None)
      continue;
    uint32_t ob = A.otherEnd(ol, oa);
    if (ob != oldPort(pb))
      continue;
    D.linkNewToOld[l] = ol;
    D.linkOldToNew[ol] = l;
    // Replaced: what cableChanges(..., true) compares, without composing the texts.
    bool same = A.linkMedia[ol] == B.linkMedia[l] && sameText(A.linkLength[ol], B.linkLength[l], "{:.2f}") &&
                NA.cableSku(ol) == NB.cableSku(l) &&
                sameText(A.portSpeed(A.linkA[ol]) / 1e9, B.portSpeed(B.linkA[l]) / 1e9, "{:g}") &&
                NA.sku(opticAt(A, ol, oa)) == NB.sku(opticAt(B, l, pa)) &&
                NA.sku(opticAt(A, ol, ob)) == NB.sku(opticAt(B, l, pb));
    if (same)
      ++D.stats.cablesUnchanged;
    else
      D.cabChanged.push_back(l);
  }
  D.stats.cablesChanged = D.cabChanged.size();
}

// ---- moved: the cables left over, paired by their two devices ----
// The old leftovers sorted by (device pair, id), a cursor per pair; each new leftover, in
// new IR order, takes the next old cable of its pair (the first come, first served of
// docs/diff.md) by a binary search. Memory: 16 bytes per old leftover, none per new one.
void diffMoved(FabricDiff &D) {
  const ir::Fabric &A = D.oldNames.fabric(), &B = D.newNames.fabric();
  uint32_t nB = uint32_t(B.numDevices());
  auto pairKey = [](uint32_t x, uint32_t y) { return x < y ? uint64_t(x) << 32 | y : uint64_t(y) << 32 | x; };
  // An old device's key: its new id, or past the new ids when it has none.
  auto oldDev = [&](uint32_t port) {
    uint32_t d = A.portDevice[port];
    return D.devOldToNew[d] != None ? D.devOldToNew[d] : nB + d;
  };
  auto unmatched = [](const std::vector<uint32_t> &join) { return size_t(std::count(join.begin(), join.end(), None)); };
  size_t nOld = unmatched(D.linkOldToNew), nNew = unmatched(D.linkNewToOld);
  std::vector<std::pair<uint64_t, uint32_t>> olds;
  olds.reserve(nOld);
  for (uint32_t l = 0; l < A.numLinks(); ++l)
    if (D.linkOldToNew[l] == None)
      olds.push_back({pairKey(oldDev(A.linkA[l]), oldDev(A.linkB[l])), l});
  std::sort(olds.begin(), olds.end());
  // next[i], for the first entry i of a pair's run: the run's first old cable not taken.
  std::vector<uint32_t> next(olds.size());
  for (uint32_t i = 0; i < olds.size(); ++i)
    next[i] = i;
  std::vector<bool> taken(olds.size(), false);
  D.cabAdded.reserve(nNew);
  for (uint32_t l = 0; l < B.numLinks(); ++l) {
    if (D.linkNewToOld[l] != None)
      continue;
    uint64_t key = pairKey(B.portDevice[B.linkA[l]], B.portDevice[B.linkB[l]]);
    auto it = std::lower_bound(olds.begin(), olds.end(), std::make_pair(key, uint32_t(0)));
    uint32_t run = uint32_t(it - olds.begin());
    uint32_t i = run < olds.size() && olds[run].first == key ? next[run] : uint32_t(olds.size());
    if (i < olds.size() && olds[i].first == key) {
      D.cabMoved.push_back({olds[i].second, l});
      taken[i] = true;
      next[run] = i + 1;
    } else
      D.cabAdded.push_back(l);
  }
  for (uint32_t i = 0; i < olds.size(); ++i)
    if (!taken[i])
      D.cabRemoved.push_back(olds[i].second);
  std::sort(D.cabRemoved.begin(), D.cabRemoved.end());
  D.stats.cablesAdded = D.cabAdded.size();
  D.stats.cablesRemoved = D.cabRemoved.size();
  D.stats.cablesMoved = D.cabMoved.size();
}

} // namespace fabc::analysis
