// The pass table: physical facts first, then the checks that use them, then the logical
// passes. The names are the --time-stages labels (bench/run.py parses them).
#include "passes/Passes.h"
#include "diag/Diag.h"
#include "ir/Verify.h"
#include "passes/Addressing.h"
#include "passes/Guids.h"
#include "passes/Roce.h"
#include "analysis/Measure.h"
#include "analysis/Scopes.h"
#include "support/Concurrent.h"

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
  // The passes that produce a changed fact, and those that need what one of them produces.
  std::vector<const passes::Pass *> run;
  uint32_t dirty = 0;
  for (const passes::Pass &p : passes::pipeline())
    if ((p.produces & changed) || (p.needs & dirty)) {
      assert((p.produces & ~(physical | Measurements)) == 0 && "a pass run again produces only what it may");
      run.push_back(&p);
      dirty |= p.produces;
    }
  auto start = [&](const char *name) {
    if (timer)
      timer(name);
  };
  auto verify = [&](const char *name) {
#ifdef FABC_VERIFY_IR
    ir::verifyOrAbort(F, name);
#endif
    (void)name;
  };
  // The validate pass runs again as the measures that read the physical facts and every
  // check. Of those measures, the latency paths and matrix read only the lengths, and the
  // passes between the lengths and validate (media, transceivers, power) neither read nor
  // write what they do: once the lengths pass has run, they run on the second core beside
  // those passes (which alone report).
  size_t v = 0, l = 0;
  while (v < run.size() && !(run[v]->produces & Measurements))
    ++v;
  while (l < v && !(run[l]->produces & Lengths))
    ++l;
  const bool beside = v < run.size() && l < v;
  auto runRange = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      start(run[i]->name);
      run[i]->run(F, diags);
      verify(run[i]->name);
    }
  };
  runRange(0, beside ? l + 1 : v);
  if (beside)
    runConcurrently([&] { runRange(l + 1, v); }, [&] { analysis::measureLatencies(F); });
  if (v < run.size()) {
    start(run[v]->name);
    if (!beside)
      analysis::measureLatencies(F);
    analysis::measureScopes(F); // the power's; the other measures read none of the physical facts
    passes::runValidationChecks(F, diags);
    verify(run[v]->name);
    runRange(v + 1, run.size());
  }
  return !diags.hasErrors();
}

} // namespace fabc
