#pragma once
// The InfiniBand backend: what OpenSM, ibsim, ibnetdiscover, ibdiagnet and NVIDIA's
// cable validation tool read (docs/backends.md#infiniband).
#include "backends/Backend.h"

namespace fabc {
bool runInfiniband(BackendContext &ctx);
} // namespace fabc
