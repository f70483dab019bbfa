#pragma once
// The Slurm backend: topology.conf for the tree and the block topology plugins
// (docs/backends.md#slurm).
#include "backends/Backend.h"

namespace fabc {
bool runSlurm(BackendContext &ctx);
} // namespace fabc
