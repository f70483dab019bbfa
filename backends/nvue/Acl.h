#pragma once
// NVUE's control-plane ACL from policy management's mgmt_allow (decision 0461): the ACL
// FABRIC_MGMT (a top-level `acl`) and its binding under `system control-plane acl`.
#include "analysis/OutputPlans.h"
#include "backends/Stream.h"

namespace fabc::nvue {

extern const char *const kControlPlaneAcl; // "FABRIC_MGMT"

// `acl: FABRIC_MGMT: {rule: ..., type: ipv4}`, at the top of the `set` tree.
void writeControlPlaneAcl(YamlWriter &y, const ManagementPlan &m, const NvuePlan &plan);
// `control-plane: acl: FABRIC_MGMT: inbound: {}`, inside `system`.
void bindControlPlaneAcl(YamlWriter &y);

} // namespace fabc::nvue
