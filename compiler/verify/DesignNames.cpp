// The design's devices and ports by discovered names (DesignNames.h).
#include "verify/DesignNames.h"

#include "checks/HostNames.h"
#include "discovery/Observed.h"
#include "passes/Addressing.h"

namespace fabc::verify {

DesignNames::DesignNames(const ir::Fabric &F, const std::vector<uint8_t> *member) : F(F) {
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    if (!member || (*member)[d])
      byHost_.try_emplace(passes::hostName(F, d), d);
}

uint32_t DesignNames::host(std::string_view name) const {
  auto it = byHost_.find(name);
  if (it == byHost_.end())
    it = byHost_.find(discovery::hostKey(name));
  return it == byHost_.end() ? ir::None : it->second;
}

uint32_t DesignNames::port(uint32_t dev, std::string_view name) {
  auto &m = ports_[dev];
  if (!m) {
    m = std::make_unique<llvm::StringMap<uint32_t>>();
    uint32_t base = F.devPortBase[dev];
    bool sw = F.modelOf(dev).kind == ir::ModelKind::Switch;
    for (uint32_t p = base; p < base + F.layoutOf(dev).ports; ++p) {
      m->try_emplace(names::portLabel(F, p), p);
      std::string full = F.portName(p);
      m->try_emplace(full.substr(full.rfind('/') + 1), p);
      if (sw) {
        names::PortInfo pi = names::portInfo(F, p);
        m->try_emplace(names::swpName(pi), p);
        m->try_emplace(names::sonicPortName(pi), p);
      }
    }
  }
  auto it = m->find(name);
  return it == m->end() ? ir::None : it->second;
}

} // namespace fabc::verify
