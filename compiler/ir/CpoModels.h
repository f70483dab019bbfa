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
    bool catalog = false;
    for (size_t i = 0; i < F.models.size(); ++i)
      for (const PortGroup &pg : F.models[i].ports)
        if (pg.cpo)
          model_[i] = 1, catalog = true;
    // Whether a device is of such a model: the catalog has CPO switches that most
    // designs do not use, and then no port needs looking up (two loads from arrays of
    // millions, per link end).
    for (size_t d = 0; catalog && !any_ && d < F.devModel.size(); ++d)
      any_ = model_[F.devModel[d]];
  }
  bool any() const { return any_; }
  bool operator()(uint32_t port) const {
    if (!any_)
      return false;
    uint32_t dev = F_.portDevice[port];
    return model_[F_.devModel[dev]] && F_.modelOf(dev).ports[F_.portGroup(port)].cpo;
  }

private:
  const Fabric &F_;
  std::vector<uint8_t> model_;
  bool any_ = false;
};
} // namespace fabc::ir
