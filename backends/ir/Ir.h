#pragma once
// The IR dump (--emit=ir): ir/ir.json, every array of the Fabric IR by name, so a pass
// can be tested on its own (--stop-after=PASS --emit=ir). docs/backends.md#ir.
#include "backends/Backend.h"

namespace fabc {
bool runIr(BackendContext &ctx);
} // namespace fabc
