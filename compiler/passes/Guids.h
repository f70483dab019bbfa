#pragma once
// InfiniBand GUIDs: a logical pass that gives every InfiniBand switch and every
// end system with InfiniBand links its node GUID (F.devGuid), from the addressing
// policy's guid_prefix, and checks that the GUIDs are unique. The boundary of the
// InfiniBand fabric is ir/InfiniBand.h's.
#include "ir/Fabric.h"

namespace fabc {
class DiagEngine;

namespace passes {
// Used when the design gives no `policy addressing { guid_prefix = ...; }`: 0x02 sets
// the EUI-64 "locally administered" bit, so compiled GUIDs never equal the vendor-burned
// ones (which have it clear).
constexpr const char *DefaultGuidPrefix = "0x02fabc";

void assignGuids(ir::Fabric &F, DiagEngine &diags);
} // namespace passes
} // namespace fabc
