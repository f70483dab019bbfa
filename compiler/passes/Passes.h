#pragma once
// The pass pipeline over the Fabric IR: physical passes (tiers, cable lengths, media,
// transceivers, power), the measuring steps (analysis/Measure.h), then validation
// checks (NVLink domains, power budgets, oversubscription, latency, rails, redundancy)
// that compare the measurements with the policies. Each is linear in links.
#include "ir/Fabric.h"

#include <functional>

namespace fabc {
class DiagEngine;

namespace passes {
// Infers the tier of switches that do not state one (leaf: links to end systems).
void inferTiers(ir::Fabric &F);
// Route length of every link from placement, or the default with a warning.
void computeLengths(ir::Fabric &F, DiagEngine &diags);
// Cable or transceivers for every link, from speed, form factor, reach and CPO.
void chooseMedia(ir::Fabric &F, DiagEngine &diags);
// Transceivers per cage (a twin-port cage counts once; none at a CPO port).
void countTransceivers(ir::Fabric &F, DiagEngine &diags);
// Power of every device and of the optics in its cages.
void computePower(ir::Fabric &F);

void checkPorts(ir::Fabric &F, DiagEngine &diags);
void checkNvLink(ir::Fabric &F, DiagEngine &diags);
void checkPowerBudgets(ir::Fabric &F, DiagEngine &diags);
void checkOversubscription(ir::Fabric &F, DiagEngine &diags);
void checkLatency(ir::Fabric &F, DiagEngine &diags);
void checkRails(ir::Fabric &F, DiagEngine &diags);
void checkRedundancy(ir::Fabric &F, DiagEngine &diags);
} // namespace passes

// Runs every pass in order; `timer` (may be empty) is called with each pass's name
// before it runs, for --time-stages. Returns false if errors were reported.
bool runPasses(ir::Fabric &F, DiagEngine &diags, const std::function<void(const char *)> &timer = {});

} // namespace fabc
