#pragma once
// Which models have a CPO port group: the per-link loops that ask whether a port is CPO
// (power, energy, reliability) find its port group only on devices of such a model, not
// on every link end of a fabric with no CPO at all (decision 0541).
#include "ir/Fabric.h"

#include <cstdint>
#include <vector>

namespace fabc::ir {
inline std::vector<uint8_t> cpoModels(const Fabric &F) {
  std::vector<uint8_t> has(F.models.size(), 0);
  for (size_t i = 0; i < F.models.size(); ++i)
    for (const PortGroup &pg : F.models[i].ports)
      has[i] |= pg.cpo ? 1 : 0;
  return has;
}
} // namespace fabc::ir
