#pragma once
// The IR dump (--emit=ir): ir/ir.json, every array of the Fabric IR by name, so a pass
// can be tested on its own (--stop-after=PASS --emit=ir). docs/backends.md#ir.
#include "backends/Backend.h"

#include <functional>
#include <string_view>

namespace fabc {
bool runIr(BackendContext &ctx);
// The same dump into `sink`, in pieces: the language server compares a design's IR before
// and after a rename with it (no source locations are in it).
void dumpIr(const ir::Fabric &F, const std::function<void(std::string_view)> &sink);
} // namespace fabc
