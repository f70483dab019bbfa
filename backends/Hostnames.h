#pragma once
// Host names, shared by the InfiniBand, Slurm and DOT outputs (docs/backends.md#host-names):
// the device's instance path, lower case, brackets dropped, '.' and '_' turned into
// '-' ("pod[3].leaf[12]" -> "pod3-leaf12"); the switch-config backends' hostnames
// follow the same rule.
#include "ir/Fabric.h"

#include <string>
#include <string_view>
#include <vector>

namespace fabc {
class DiagEngine;

namespace names {
std::string hostName(const ir::Fabric &F, uint32_t dev);
// The same rule for any instance path (a group's, say): "nvl72[3]" -> "nvl723".
std::string label(std::string_view path);
// "cx[3]" -> "cx3": a port's group and index under the same rule.
std::string portLabel(const ir::Fabric &F, uint32_t port);

// Host names of `devs`, in that order, checked: RFC 1123 (1 to 63 of [a-z0-9-], no '-'
// at either end) and distinct. Reports FAB-E0135 and returns false otherwise.
bool hostNames(const ir::Fabric &F, DiagEngine &diags, const std::vector<uint32_t> &devs,
               std::vector<std::string> &out);

// A Slurm hostlist expression for `hosts` ("dgx[0-31],mgmt"): names that differ only in
// a trailing number are folded into ranges. The order of the input does not matter;
// the output is sorted, so equal sets give equal strings.
std::string hostlist(std::vector<std::string> hosts);
} // namespace names
} // namespace fabc
