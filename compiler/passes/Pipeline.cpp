// The pass table: physical facts first, then the checks that use them, then the logical
// passes. The names are the --time-stages labels (bench/run.py parses them).
#include "passes/Passes.h"
#include "diag/Diag.h"
#include "ir/Verify.h"
#include "passes/Addressing.h"
#include "passes/Guids.h"
#include "passes/Roce.h"
#include "analysis/Measure.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>

namespace fabc {
namespace passes {

const std::vector<Pass> &pipeline() {
  using namespace fact;
  static const std::vector<Pass> table = {
      {"tiers", "infer the tier of switches that do not state one", Elaborated, Tiers,
       [](ir::Fabric &F, DiagEngine &) { inferTiers(F); }},
      {"lengths", "route length of every link from placement, else the default", Elaborated, Lengths, computeLengths},
      {"media", "cable or transceivers for every link from speed, lanes, form, reach, CPO and the chosen parts", Lengths | Tiers, Media, chooseMedia},
      {"transceivers", "transceivers per cage and cables per link (a twin-port cage counts once)", Media,
       Transceivers, countTransceivers},
      {"power", "power of every device and of the optics in its cages", Transceivers, Power,
       [](ir::Fabric &F, DiagEngine &) { computePower(F); }},
      {"validate",
       "ports, NVLink domains, power budgets, oversubscription, latency, rails, redundancy, resilience, reachability; records the metrics",
       Tiers | Lengths | Media | Power, Measurements,
       [](ir::Fabric &F, DiagEngine &diags) {
         analysis::measure(F); // the figures the checks compare with the policies
         runValidationChecks(F, diags);
       }},
      {"guids", "InfiniBand node GUIDs from the addressing policy's prefix", Elaborated, Guids, assignGuids},
      // Logical passes: cheap (switches and their links only), so they always run and
      // `fabc check` reports addressing and RoCE problems without a backend asked for.
      {"addressing", "ASNs, loopbacks and /31s per Ethernet switch; RoCE settings", Tiers, Addresses,
       [](ir::Fabric &F, DiagEngine &diags) {
         assignAddresses(F, diags);
         checkEthernet(F, diags);
       }},
  };
  return table;
}

void runValidationChecks(ir::Fabric &F, DiagEngine &diags) {
  checkPorts(F, diags);
  checkNvLink(F, diags);
  checkPowerBudgets(F, diags);
  checkOversubscription(F, diags);
  checkLatency(F, diags);
  checkRails(F, diags);
  checkRedundancy(F, diags);
  checkResilience(F, diags);
  checkReachability(F, diags);
  checkPlanes(F, diags);
  checkBonds(F, diags);
  checkUnratedOversubscription(F, diags);
}

const Pass *findPass(std::string_view name) {
  for (const Pass &p : pipeline())
    if (name == p.name)
      return &p;
  return nullptr;
}

std::string passNames() {
  std::string r;
  for (const Pass &p : pipeline())
    r += (r.empty() ? "" : ", ") + std::string(p.name);
  return r;
}

std::string factNames(uint32_t facts) {
  static const char *names[fact::Count] = {"elaborated", "tiers",        "lengths", "media",    "transceivers",
                                           "power",      "measurements", "guids",   "addresses"};
  std::string r;
  for (uint32_t i = 0; i < fact::Count; ++i)
    if (facts & (1u << i))
      r += (r.empty() ? "" : ",") + std::string(names[i]);
  return r;
}

} // namespace passes

bool runPasses(ir::Fabric &F, DiagEngine &diags, const std::function<void(const char *)> &timer,
               std::string_view stopAfter) {
  for (const passes::Pass &p : passes::pipeline()) {
    if (timer)
      timer(p.name);
    p.run(F, diags);
#ifdef FABC_VERIFY_IR
    ir::verifyOrAbort(F, p.name);
#endif
    if (p.name == stopAfter)
      break;
  }
  return !diags.hasErrors();
}

bool rerunPasses(uint32_t changed, ir::Fabric &F, DiagEngine &diags, const std::function<void(const char *)> &timer) {
  using namespace passes::fact;
  [[maybe_unused]] constexpr uint32_t physical = Lengths | Media | Transceivers | Power;
  assert((changed & ~physical) == 0 && "only the physical facts have a rerun");
  uint32_t dirty = 0;
  for (const passes::Pass &p : passes::pipeline()) {
    if (!(p.produces & changed) && !(p.needs & dirty))
      continue;
    assert((p.produces & ~(physical | Measurements)) == 0 && "a pass run again produces only what it may");
    if (timer)
      timer(p.name);
    if (p.produces & Measurements) {
      analysis::measurePhysical(F); // the other measures read none of the physical facts
      passes::runValidationChecks(F, diags);
    } else {
      p.run(F, diags);
    }
    dirty |= p.produces;
#ifdef FABC_VERIFY_IR
    ir::verifyOrAbort(F, p.name);
#endif
  }
  return !diags.hasErrors();
}

} // namespace fabc
