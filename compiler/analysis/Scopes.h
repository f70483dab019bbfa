#pragma once
// The scopes of scoped policies (`per = "pod"` on an oversubscription or power policy,
// decision 0321): each element's GPUs, switches, links, power, and the bandwidth entering
// it from below and leaving it upwards, so the checks rate a pod on its own boundary.
#include "ir/Fabric.h"

#include <string>
#include <vector>

namespace fabc::analysis {

// One ScopeStats per distinct (per, tier) the policies name, in F.metrics.scopes.
void measureScopes(ir::Fabric &F);

// The scope a policy names, or nullptr (a policy without `per`).
const ir::ScopeStats *scopeOf(const ir::Fabric &F, const ir::Policy &p);

// Which element of scope `name` each device is in (None: none), and the elements' names
// and places; false when the design has no such scope. Linear in devices and nodes.
struct ScopePartition {
  std::string kind; // "group", "pod", "array", "placement"
  std::vector<uint32_t> owner;
  std::vector<std::string> names;
  std::vector<SourceRange> locs;
};
bool resolveScope(const ir::Fabric &F, std::string_view name, ScopePartition &out);

// The scope names the design offers (for FAB-E0370's note): "pod", the group kinds, the
// placements, the instance arrays; sorted, unique.
std::vector<std::string> scopeNames(const ir::Fabric &F);

} // namespace fabc::analysis
