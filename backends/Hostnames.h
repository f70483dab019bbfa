#pragma once
// Host names, shared by the InfiniBand, Slurm and DOT outputs (docs/backends.md#host-names):
// the device's instance path, lower case, brackets dropped, '.' and '_' turned into
// '-' ("pod[3].leaf[12]" -> "pod3-leaf12"); the switch-config backends' hostnames
// follow the same rule.
#include "checks/HostNames.h"
#include "ir/Fabric.h"

#include <string>
#include <string_view>
#include <vector>

namespace fabc {
namespace names {
// The rule and its check live in the compiler (checks/HostNames.h); the output checks
// store the checked names in Analyses for the emitters.

// A Slurm hostlist expression for `hosts` ("dgx[0-31],mgmt"): names that differ only in
// a trailing number are folded into ranges. The order of the input does not matter;
// the output is sorted, so equal sets give equal strings.
std::string hostlist(std::vector<std::string> hosts);
} // namespace names
} // namespace fabc
