#pragma once
// Output checks: the rules that hold for one output family (dot_max_nodes for the
// diagram, the RoCE profile NVUE can express, SONiC's port lanes, host names in the
// InfiniBand and Slurm files, ...), keyed by backend name. `fabc check` and `fabc build`
// run the same step for the same --emit set (by default the default backends), so check
// reports every diagnostic build does; backends only write files
// (docs/decisions/0012-output-checks.md).
//
// A check also prepares what its backend writes (Analyses' plans): the emitter reads
// the result the rule was checked on and computes nothing again.
#include "analysis/Analyses.h"

#include <string_view>

namespace fabc {
class DiagEngine;

namespace checks {
// Runs the checks of backend `backend` (nothing for one without any) and fills its plan
// in `an`. False if it reported errors. Each backend's checks run once per compilation.
bool checkOutput(std::string_view backend, const ir::Fabric &F, Analyses &an, DiagEngine &diags);

// One file per output family.
bool checkEthernet(const ir::Fabric &F, Analyses &an, DiagEngine &diags, const char *backend);
bool checkSonic(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
bool checkNvue(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
bool checkFrr(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
// policy management and policy bfd, shared by the backends that write them; each runs
// once per compilation and returns the same verdict to every caller.
bool checkManagement(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
bool checkBfd(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
// policy bgp: max_prefix (a number or "auto") and max_prefix_warning_only (FAB-E0209).
bool checkBgp(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
// A secret named by reference in setting `s` ("env:NAME", "file:/path"), read into
// `out` (FAB-E0210, E0211). The diagnostics never show the secret.
bool resolveSecret(const ir::Fabric &F, const ir::Setting &s, std::string &out, DiagEngine &diags);
// policy storm_control: pps limits per host-facing port (FAB-E0212).
bool checkStormControl(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
bool checkHosts(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
// The NIC interface names the hosts output writes fit Linux's IFNAMSIZ (FAB-E0145).
bool checkInterfaceNames(const ir::Fabric &F, DiagEngine &diags);
bool checkInfiniband(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
bool checkSlurm(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
// ptm and cvt: one plan for both (checks/LldpCabling.cpp).
bool checkLldpCabling(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
bool checkDot(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
bool checkReport(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
// summary, report: the parts the reliability figures count without a rate (FAB-W0310).
bool checkCoverage(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
// design, design-yaml and netbox (checks/Export.cpp).
bool checkExport(const ir::Fabric &F, Analyses &an, DiagEngine &diags);
} // namespace checks
} // namespace fabc
