#pragma once
// The host-name rule, the one place it is written (docs/backends.md#host-names): a
// device's host name is passes::hostName (its instance path, lower case, brackets
// dropped, '.' and '_' turned into '-'), and every name an output uses must be an RFC
// 1123 host name (1 to 63 of [a-z0-9-], no '-' at either end), distinct from the others
// that output names. The addressing pass applies it to the routed switches; the output
// checks of infiniband, slurm and dot to the devices those files name. FAB-E0107 (the
// retired FAB-E0135 reported the same rule for those outputs).
#include "ir/Fabric.h"

#include <string>
#include <string_view>
#include <vector>

namespace fabc {
class DiagEngine;

namespace checks {
// Checks the host names of `devs`; reports FAB-E0107 (at most 20) and returns false if
// any is invalid or shared. `out`, when given, receives the names in the order of `devs`.
bool checkHostNames(const ir::Fabric &F, DiagEngine &diags, const std::vector<uint32_t> &devs,
                    std::vector<std::string> *out = nullptr);
} // namespace checks

namespace names {
// The host-name rule for any instance path (a group's, say): "nvl72[3]" -> "nvl723".
std::string label(std::string_view path);
// "cx[3]" -> "cx3": a port's group and index under the same rule.
std::string portLabel(const ir::Fabric &F, uint32_t port);
} // namespace names
} // namespace fabc
