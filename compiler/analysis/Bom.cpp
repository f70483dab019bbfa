// The BOM roll-up (analysis/Bom.h): one scan of the devices and one of the links.
#include "analysis/Bom.h"

#include <algorithm>
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
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    ++s.devices[F.devModel[d]];
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
  // One CableKey per distinct (cable model, media, order length): the SKU string is
  // built once per cable model, not once per link.
  std::map<std::pair<uint32_t, ir::Media>, std::string> skus;
  for (size_t l = 0; l < F.numLinks(); ++l) {
    uint32_t da = F.portDevice[F.linkA[l]], db = F.portDevice[F.linkB[l]];
    uint8_t ta = uint8_t(ir::tierIndex(F.devTier[da])), tb = uint8_t(ir::tierIndex(F.devTier[db]));
    ++s.linksByTierPair[{std::min(ta, tb), std::max(ta, tb)}];
    bool mgmt = F.devRole[da] == ir::Role::Management || F.devRole[db] == ir::Role::Management;
    if (!mgmt)
      ++s.computeLinks;
    ir::Media m = F.linkMedia[l];
    ++s.linksByMedia[size_t(m)];
    s.totalLength += F.linkLength[l];
    if (F.linkCableUnits[l]) {
      auto it = skus.find({F.linkCable[l], m});
      if (it == skus.end()) {
        std::string sku = cableSku(F, F.linkCable[l], m);
        it = skus.emplace(std::make_pair(F.linkCable[l], m), sku.empty() ? "unresolved" : sku).first;
      }
      s.cables[{it->second, m, standardLength(F, F.linkCable[l], m, F.linkLength[l])}] += F.linkCableUnits[l];
    }
    for (int side = 0; side < 2; ++side) {
      if (!(side ? F.linkXcvrB[l] : F.linkXcvrA[l]))
        continue;
      uint32_t o = side ? F.linkOpticB[l] : F.linkOpticA[l];
      uint32_t d = side ? db : da;
      XcvrCount &c = s.transceivers[o];
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
  return s;
}

} // namespace fabc
