#pragma once
// Which ports are CPO: the per-link loops that ask (power, energy, reliability) find a
// port's group only on devices of a model with a CPO port group, not on every link end of
// a fabric with no CPO at all (decision 0541).
#include "ir/Fabric.h"

#include <cstdint>
#include <vector>

namespace fabc::ir {
class CpoPorts {
public:
  explicit CpoPorts(const Fabric &F) : F_(F), model_(F.models.size(), 0) {
    for (size_t i = 0; i < F.models.size(); ++i)
      for (const PortGroup &pg : F.models[i].ports)
        if (pg.cpo)
          model_[i] = 1, any_ = true;
  }
  bool any() const { return any_; }
  bool operator()(uint32_t port) const {
    uint32_t dev = F_.portDevice[port];
    return model_[F_.devModel[dev]] && F_.modelOf(dev).ports[F_.portGroup(port)].cpo;
  }

private:
  const Fabric &F_;
  std::vector<uint8_t> model_;
  bool any_ = false;
};
} // namespace fabc::ir
