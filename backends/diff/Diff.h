#pragma once
// fabc diff: what changes between two compiled revisions of a design, as a recabling
// plan (docs/diff.md). Reads two IRs only. Matching is by name, through hash joins:
// devices by their full name, cables by the names of their two port ends (either
// orientation), moved cables by the names of their two devices. Linear in devices and
// links; every list comes out in IR order (deterministic, like the IR itself).
#include "ir/Fabric.h"

#include <cstdio>
#include <string>

namespace fabc {

struct DiffSide {
  const ir::Fabric &F;
  std::string file; // as given on the command line
};

enum class DiffFormat { Text, Json };

struct DiffStats {
  uint64_t devicesAdded = 0, devicesRemoved = 0, devicesChanged = 0;
  uint64_t cablesAdded = 0, cablesRemoved = 0, cablesMoved = 0, cablesChanged = 0, cablesUnchanged = 0;
  uint64_t settingsChanged = 0, bomLines = 0;
  bool any() const {
    return devicesAdded || devicesRemoved || devicesChanged || cablesAdded || cablesRemoved || cablesMoved ||
           cablesChanged || settingsChanged || bomLines;
  }
};

// Writes the plan from `a` (old) to `b` (new) to `out`.
DiffStats diffFabrics(const DiffSide &a, const DiffSide &b, DiffFormat format, FILE *out);

} // namespace fabc
