// The BOM roll-up (analysis/Bom.h): one scan of the devices and one of the links.
#include "analysis/Bom.h"

#include <llvm/ADT/DenseMap.h>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <iterator>

namespace fabc {
using ir::None;

double standardLength(const ir::Fabric &F, uint32_t cable, ir::Media m, double len) {
  if (cable != None) {
    const std::vector<double> &sold = F.models[cable].orderLengths;
    auto it = std::lower_bound(sold.begin(), sold.end(), len - 1e-6);
    if (it != sold.end())
      return *it;
  }
  static const double copper[] = {0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7, 10};
  static const double fibre[] = {1, 2, 3, 5, 7, 10, 12, 15, 20, 25, 30, 40, 50, 60, 70, 80, 100, 150, 200, 300, 500};
  bool cu = m == ir::Media::DAC || m == ir::Media::ACC;
  const double *b = cu ? copper : fibre;
  size_t n = cu ? std::size(copper) : std::size(fibre);
  for (size_t i = 0; i < n; ++i)
    if (len <= b[i] + 1e-6)
      return b[i];
  double step = len <= 2000 ? 100 : 1000; // campus runs: to the next 100 m / km
  return std::ceil(len / step) * step;
}

std::string cableSku(const ir::Fabric &F, uint32_t cable, ir::Media m) {
  if (cable != None) {
    const ir::Model &c = F.models[cable];
    return std::string(F.strings.str(c.sku ? c.sku : c.name));
  }
  return m == ir::Media::None ? std::string() : std::string(ir::mediaName(m)) + " fibre";
}

const char *spareCategoryName(SpareCategory c) {
  static const char *names[] = {"switch", "system", "transceiver", "cable"};
  return names[size_t(c)];
}

SpareCategory deviceCategory(const ir::Model &m) {
  return m.kind == ir::ModelKind::Switch || m.kind == ir::ModelKind::NvSwitch ? SpareCategory::Switch
                                                                              : SpareCategory::System;
}

uint64_t SparesPolicy::spares(SpareCategory c, uint64_t count) const {
  if (!named[size_t(c)] || !count)
    return 0;
  // Rounded up: 2% of 49 optics is 0.98, one spare. The small epsilon keeps an exact
  // product (2% of 50) from rounding up to 2 through floating-point noise.
  uint64_t n = uint64_t(std::ceil(double(count) * percent[size_t(c)] / 100.0 - 1e-9));
  return std::max(n, minPerSku);
}

// The elaborator checked the values (elab/Ranges.def, "policy spares"); read them here.
SparesPolicy SparesPolicy::of(const ir::Fabric &F) {
  SparesPolicy p;
  const ir::PolicyBlock *pb = F.policyBlock("spares");
  if (!pb)
    return p;
  p.set = true;
  for (size_t c = 0; c < size_t(SpareCategory::Count); ++c)
    if (const ir::Setting *s = pb->get(F.strings, std::string(spareCategoryName(SpareCategory(c))) + "_percent")) {
      p.named[c] = true;
      p.percent[c] = s->number;
    }
  if (const ir::Setting *s = pb->get(F.strings, "min_per_sku"))
    p.minPerSku = uint64_t(s->number);
  return p;
}

BomSummary summarize(const ir::Fabric &F) {
  BomSummary s;
  s.spares = SparesPolicy::of(F);
  // Counted per model, per tier pair and per (cable model, media, order length) in flat
  // arrays and one hash table of integers, then folded into the summary's ordered maps:
  // a map lookup with a SKU string per link was most of the roll-up's time.
  size_t nm = F.models.size();
  auto slot = [nm](uint32_t m) { return m == None ? nm : size_t(m); }; // None: the last slot
  std::vector<uint64_t> devices(nm + 1, 0);
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    ++devices[slot(F.devModel[d])];
    if (m.kind == ir::ModelKind::System) {
      ++s.systems;
      s.gpus += m.gpus;
      if (F.devRole[d] == ir::Role::Compute)
        ++s.computeSystems;
    } else if (m.kind == ir::ModelKind::Switch) {
      ++s.switches;
      unsigned t = ir::tierIndex(F.devTier[d]);
      if (t < ir::Metrics::MaxTier)
        ++s.switchesByTier[t];
    }
  }
  for (size_t m = 0; m <= nm; ++m)
    if (devices[m])
      s.devices[m == nm ? None : uint32_t(m)] = devices[m];
  constexpr unsigned Tiers = 16; // tier indices below this are counted in the array
  std::vector<uint64_t> tierPairs(Tiers * Tiers, 0);
  std::vector<XcvrCount> xcvrs(nm + 1);
  // (cable model, media) and the order length's bits -> cable units.
  llvm::DenseMap<std::pair<uint64_t, uint64_t>, uint64_t> cables;
  for (size_t l = 0; l < F.numLinks(); ++l) {
    uint32_t da = F.portDevice[F.linkA[l]], db = F.portDevice[F.linkB[l]];
    uint8_t ta = uint8_t(ir::tierIndex(F.devTier[da])), tb = uint8_t(ir::tierIndex(F.devTier[db]));
    uint8_t lo = std::min(ta, tb), hi = std::max(ta, tb);
    if (hi < Tiers)
      ++tierPairs[lo * Tiers + hi];
    else
      ++s.linksByTierPair[{lo, hi}];
    bool mgmt = F.devRole[da] == ir::Role::Management || F.devRole[db] == ir::Role::Management;
    if (!mgmt)
      ++s.computeLinks;
    ir::Media m = F.linkMedia[l];
    ++s.linksByMedia[size_t(m)];
    s.totalLength += F.linkLength[l];
    if (F.linkCableUnits[l]) {
      double len = standardLength(F, F.linkCable[l], m, F.linkLength[l]);
      uint64_t bits;
      std::memcpy(&bits, &len, sizeof bits);
      cables[{uint64_t(F.linkCable[l]) << 8 | uint64_t(m), bits}] += F.linkCableUnits[l];
    }
    for (int side = 0; side < 2; ++side) {
      if (!(side ? F.linkXcvrB[l] : F.linkXcvrA[l]))
        continue;
      uint32_t o = side ? F.linkOpticB[l] : F.linkOpticA[l];
      uint32_t d = side ? db : da;
      XcvrCount &c = xcvrs[slot(o)];
      ++c.total;
      ++s.xcvrTotal;
      if (F.modelOf(d).kind == ir::ModelKind::Switch) {
        ++c.atSwitch;
        ++s.xcvrSwitch;
      } else if (F.devRole[d] == ir::Role::Compute) {
        ++c.atCompute;
        ++s.xcvrCompute;
      }
    }
  }
  for (unsigned i = 0; i < Tiers * Tiers; ++i)
    if (tierPairs[i])
      s.linksByTierPair[{uint8_t(i / Tiers), uint8_t(i % Tiers)}] += tierPairs[i];
  for (size_t m = 0; m <= nm; ++m)
    if (xcvrs[m].total)
      s.transceivers[m == nm ? None : uint32_t(m)] = xcvrs[m];
  // One SKU string per (cable model, media); two models may share a SKU, and add up.
  std::map<std::pair<uint32_t, ir::Media>, std::string> skus;
  for (auto &kv : cables) {
    uint32_t cable = uint32_t(kv.first.first >> 8);
    ir::Media m = ir::Media(kv.first.first & 0xff);
    auto it = skus.find({cable, m});
    if (it == skus.end()) {
      std::string sku = cableSku(F, cable, m);
      it = skus.emplace(std::make_pair(cable, m), sku.empty() ? "unresolved" : sku).first;
    }
    double len;
    std::memcpy(&len, &kv.first.second, sizeof len);
    s.cables[{it->second, m, len}] += kv.second;
  }
  return s;
}

} // namespace fabc
