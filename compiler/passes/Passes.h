#pragma once
// The pass pipeline over the Fabric IR: physical passes (tiers, cable lengths, media,
// transceivers, power), the measuring steps (analysis/Measure.h), then validation
// checks (NVLink domains, power budgets, oversubscription, latency, rails, redundancy)
// that compare the measurements with the policies. Each is linear in links.
#include "ir/Fabric.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fabc {
class DiagEngine;
struct Diagnostic;

namespace passes {
// Where a diagnostic about device d points: its instance statement.
SourceRange devRange(const ir::Fabric &F, uint32_t d);
// The template instances device d is in, as notes on dg, innermost first, like the
// elaborator's instantiation backtrace: a statement in a template body is every
// instance's, and the notes say which instance the diagnostic is about
// (InstanceNotes.cpp). Nothing for a device outside templates or a folded diagnostic.
void noteInstances(Diagnostic *dg, const ir::Fabric &F, uint32_t d);
// Where a diagnostic about link l points: the `link` keyword of its statement.
SourceRange linkRange(const ir::Fabric &F, uint32_t l);
// The template instances whose bodies made link l, as notes on dg (noteInstances' words).
void noteLinkInstances(Diagnostic *dg, const ir::Fabric &F, uint32_t l);

// Infers the tier of switches that do not state one (leaf: links to end systems).
void inferTiers(ir::Fabric &F);
// Route length of every link from placement, or the default with a warning.
void computeLengths(ir::Fabric &F, DiagEngine &diags);
// Whether computeLengths with the options `o` would give F's checked IR the lengths it
// has (bit for bit), reporting what it would report when they are (Compilation::reusePasses).
bool sameLengths(const ir::Fabric &F, const ir::Options &o, DiagEngine &diags);
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
// passes/ValidateLatency.cpp: `policy latency` between two buildings or sites (round
// trips, FAB-E0380..E0382, W0380). checkLatency calls it.
void checkRoundTrips(ir::Fabric &F, DiagEngine &diags);
// FAB-E0370 at `at`: `per` names no scope of the design (the nearest one it has, and the
// list: analysis::scopeNames and `extra`). Scoped policies (Validate.cpp) and policy
// addressing's per (Addressing.cpp) share it.
void reportUnknownScope(const ir::Fabric &F, std::string_view per, SourceRange at, const char *kind,
                        const std::vector<std::string> &extra, DiagEngine &diags);
void checkRails(ir::Fabric &F, DiagEngine &diags);
void checkRedundancy(ir::Fabric &F, DiagEngine &diags);
// Issue 18 (passes/ValidateResilience.cpp): policy resilience against the failure
// what-if, rail isolation and reachability, oversubscription of a tier without uplinks.
void checkResilience(ir::Fabric &F, DiagEngine &diags);
void checkReachability(ir::Fabric &F, DiagEngine &diags);
void checkPlanes(ir::Fabric &F, DiagEngine &diags); // FAB-E0306
void checkBonds(ir::Fabric &F, DiagEngine &diags);  // FAB-E0307
void checkUnratedOversubscription(ir::Fabric &F, DiagEngine &diags);
// The validate pass's checks, in its order, once analysis::measure has filled
// F.metrics: what an edit of only policies' figures runs again (Compilation::reusePasses).
void runValidationChecks(ir::Fabric &F, DiagEngine &diags);
// Those of the validate pass's checks that read only the topology's facts and measures
// (not what the lengths to power passes and analysis::measurePhysical write), in its
// order: rerunPasses runs them beside the physical passes. For the tests, which change
// the physical facts under them.
void runTopologyChecks(ir::Fabric &F, DiagEngine &diags);

// The pipeline as a table of named passes, in the order they run (MLIR / p4c style). A
// name is the --time-stages label and the --stop-after argument. `needs` and `produces`
// name IR facts (bits of fact::): a pass may only need what elaboration or an earlier pass
// produces (PassTest checks it).
namespace fact {
constexpr uint32_t Elaborated = 1u << 0;   // devices, ports, links, groups, places, settings
constexpr uint32_t Tiers = 1u << 1;        // devTier
constexpr uint32_t Lengths = 1u << 2;      // linkLength, linkFlags
constexpr uint32_t Media = 1u << 3;        // linkMedia, linkCable, linkOpticA/B
constexpr uint32_t Transceivers = 1u << 4; // linkXcvrA/B, linkCableUnits, metrics.transceivers
constexpr uint32_t Power = 1u << 5;        // devPower, devOpticPower
constexpr uint32_t Measurements = 1u << 6; // metrics: tiers, NVLink domains, latency, bisection
constexpr uint32_t Guids = 1u << 7;        // devGuid
constexpr uint32_t Addresses = 1u << 8;    // devAsn, devLoopback, linkSubnet
constexpr uint32_t Count = 9;
} // namespace fact
// "tiers,lengths": a fact set's names, for the docs and --help-hidden.
std::string factNames(uint32_t facts);

struct Pass {
  const char *name;    // --time-stages label, --stop-after=NAME
  const char *summary; // one line
  uint32_t needs;      // fact:: bits
  uint32_t produces;   // fact:: bits
  void (*run)(ir::Fabric &F, DiagEngine &diags);
};
const std::vector<Pass> &pipeline();
const Pass *findPass(std::string_view name);
// "tiers, lengths, ...": every pass name, in order (error messages).
std::string passNames();
} // namespace passes

// Runs again, on an IR the whole pipeline checked, the passes that produce a fact of
// `changed` and those that read what a pass run again produces (by the table's needs and
// produces), in order: new route lengths run lengths, media, transceivers and power, and
// of the validate pass the measures that read them (analysis::measurePhysical) and every
// check; guids and addressing, which need none of those, keep what they computed.
// `changed` may hold only the physical facts (lengths to power): a pass that produces
// tiers or the measurements has no such rerun. `timer` as runPasses'. Returns false if
// errors were reported. Decision 0651.
bool rerunPasses(uint32_t changed, ir::Fabric &F, DiagEngine &diags,
                 const std::function<void(const char *)> &timer = {});

// Runs the passes in order, up to and including `stopAfter` (empty: all); `timer` (may
// be empty) is called with each pass's name before it runs, for --time-stages. After
// each pass, in builds with FABC_VERIFY_IR, ir::verify checks the IR (a failure is a
// compiler bug: it aborts). Returns false if errors were reported.
bool runPasses(ir::Fabric &F, DiagEngine &diags, const std::function<void(const char *)> &timer = {},
               std::string_view stopAfter = {});

} // namespace fabc
