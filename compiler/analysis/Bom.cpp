// The BOM roll-up (analysis/Bom.h): one scan of the devices and one of the links.
#include "analysis/Bom.h"

#include <cmath>
#include <iterator>

namespace fabc {
using ir::None;

// Round up to the next standard length.
double standardLength(ir::Media m, double len) {
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

BomSummary summarize(const ir::Fabric &F) {
  BomSummary s;
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
      uint8_t t = F.devTier[d];
      if (t < ir::Metrics::MaxTier)
        ++s.switchesByTier[t];
    }
  }
  for (size_t l = 0; l < F.numLinks(); ++l) {
    uint32_t da = F.portDevice[F.linkA[l]], db = F.portDevice[F.linkB[l]];
    uint8_t ta = F.devTier[da], tb = F.devTier[db];
    ++s.linksByTierPair[{std::min(ta, tb), std::max(ta, tb)}];
    bool mgmt = F.devRole[da] == ir::Role::Management || F.devRole[db] == ir::Role::Management;
    if (!mgmt)
      ++s.computeLinks;
    ir::Media m = F.linkMedia[l];
    ++s.linksByMedia[size_t(m)];
    s.totalLength += F.linkLength[l];
    std::string sku = F.linkCable[l] == None ? (m == ir::Media::None ? "unresolved" : std::string(ir::mediaName(m)) + " fibre")
                                             : std::string(F.strings.str(F.models[F.linkCable[l]].sku ? F.models[F.linkCable[l]].sku
                                                                                                      : F.models[F.linkCable[l]].name));
    if (F.linkCableUnits[l])
      s.cables[{sku, m, standardLength(m, F.linkLength[l])}] += F.linkCableUnits[l];
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
