#pragma once
// Shared by several backends: tier names, output errors, the entry points.
#include "backends/Backend.h"
#include "backends/FormatVersions.h"

#include <string>

namespace fabc {

using ir::tierName;
bool failOpen(BackendContext &ctx);
// A figure's coverage (analysis/Coverage.h) as a member "coverage": the parts summed,
// those counted, the categories covered and, per category, the parts left out with their
// models and why (`why`: "no failure rate", "no power figure"). summary.json and
// energy.json share it.
void writeCoverage(JsonWriter &j, const ir::Fabric &F, const Coverage &c, const char *why);

// A site's facility power envelope (analysis::SiteEnvelope) as a member "site_envelope",
// null when the design states none. energy.json and summary.json share it.
struct SiteEnvelope;
void writeSiteEnvelope(JsonWriter &j, const ir::Fabric &F, const SiteEnvelope &s);

// What CPO saves as a range (analysis::CpoSavings::least/most) as a member "range" of
// cpo_savings: each figure as [least, most], what the range covers, and the estimates it
// rests on that state no bounds. energy.json and summary.json share it.
struct CpoSavings;
void writeCpoRange(JsonWriter &j, const CpoSavings &c);

// Backend entry points (registered in Registry.cpp).
bool runCabling(BackendContext &ctx);
bool runBom(BackendContext &ctx);
bool runEnergy(BackendContext &ctx);
bool runSummary(BackendContext &ctx);
bool runReport(BackendContext &ctx);
bool runSonic(BackendContext &ctx);
bool runFrr(BackendContext &ctx);
bool runNvue(BackendContext &ctx);
bool runHosts(BackendContext &ctx);
bool runPtm(BackendContext &ctx);
bool runCvt(BackendContext &ctx);
bool runDesign(BackendContext &ctx);
bool runDesignYaml(BackendContext &ctx);
bool runNetbox(BackendContext &ctx);

} // namespace fabc
