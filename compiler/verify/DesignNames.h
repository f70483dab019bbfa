#pragma once
// The design's devices and ports by the names a discovery gives them: one index for
// fabc verify and for --guids-from's GUID and MAC pinning, which all read LLDP system
// names, ibnetdiscover node descriptions and switch interface names.
#include "ir/Fabric.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringMap.h>

#include <memory>
#include <string_view>
#include <vector>

namespace fabc::verify {

class DesignNames {
public:
  // Every device, or those whose `member` entry is set.
  explicit DesignNames(const ir::Fabric &F, const std::vector<uint8_t> *member = nullptr);

  // A device by its host name (passes::hostName), or by the same name fully qualified or
  // in upper case as LLDP reports it (discovery::hostKey); ir::None if none.
  uint32_t host(std::string_view name) const;

  // A port of `dev` by any name fabc's outputs give it: the design's label ("p3", "cx0"),
  // the last part of its full name ("p[3]"), and on switches the SONiC (EthernetN) and
  // Cumulus (swpN) interface names; ir::None if none. A device's names are indexed the
  // first time it is asked for.
  uint32_t port(uint32_t dev, std::string_view name);

private:
  const ir::Fabric &F;
  llvm::StringMap<uint32_t> byHost_;
  llvm::DenseMap<uint32_t, std::unique_ptr<llvm::StringMap<uint32_t>>> ports_;
};

} // namespace fabc::verify
