#pragma once
// The DOT backend: a Graphviz diagram of the fabric (docs/backends.md#dot).
#include "backends/Backend.h"

namespace fabc {
bool runDot(BackendContext &ctx);
} // namespace fabc
