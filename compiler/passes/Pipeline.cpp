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
#include <exception>
#include <future>
#include <system_error>
#include <thread>
#include <optional>
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

namespace {
// The validate pass's checks, in its order. `topology`: the check reads none of what the
// physical passes (lengths to power) and analysis::measurePhysical write, only the
// topology's facts and measures (tiers, groups, resilience, reach, the pods), so it may
// run while they run (rerunPasses). Found by reading every metric and array each reads
// (the physical ones: checkPowerBudgets the power and the scopes' power, checkLatency
// the latency paths and matrix, checkOversubscription the scopes, which measurePhysical
// rebuilds).
struct Check {
  void (*run)(ir::Fabric &, DiagEngine &);
  bool topology;
};
constexpr Check kChecks[] = {
    {checkPorts, true},         {checkNvLink, true},      {checkPowerBudgets, false},
    {checkOversubscription, false}, {checkLatency, false}, {checkRails, true},
    {checkRedundancy, true},    {checkResilience, true},  {checkReachability, true},
    {checkPlanes, true},        {checkBonds, true},       {checkUnratedOversubscription, true},
};
constexpr size_t kNumChecks = sizeof kChecks / sizeof kChecks[0];

// The topology checks run ahead on another thread, each one's diagnostics between two
// marks of an engine of their own.
struct ChecksAhead {
  explicit ChecksAhead(const DiagEngine &like) : diags(like.emptyCopy()) {}
  DiagEngine diags;
  DiagEngine::Mark begin[kNumChecks], end[kNumChecks];
  bool ran[kNumChecks] = {};
};

void runChecksAhead(ir::Fabric &F, ChecksAhead &ahead) {
  for (size_t i = 0; i < kNumChecks; ++i)
    if (kChecks[i].topology) {
      ahead.begin[i] = ahead.diags.mark();
      kChecks[i].run(F, ahead.diags);
      ahead.end[i] = ahead.diags.mark();
      ahead.ran[i] = true;
    }
}

// The checks in order; one run ahead is taken over when adopting its diagnostics here
// gives what reporting them here would (DiagEngine::adoptFromBeside). Else it runs again
// here: a check writes nothing.
void runChecks(ir::Fabric &F, DiagEngine &diags, const ChecksAhead *ahead) {
  for (size_t i = 0; i < kNumChecks; ++i) {
    if (ahead && ahead->ran[i] && diags.adoptFromBeside(ahead->diags, ahead->begin[i], ahead->end[i]))
      continue;
    kChecks[i].run(F, diags);
  }
}
} // namespace

void runValidationChecks(ir::Fabric &F, DiagEngine &diags) { runChecks(F, diags, nullptr); }

void runTopologyChecks(ir::Fabric &F, DiagEngine &diags) {
  for (const Check &c : kChecks)
    if (c.topology)
      c.run(F, diags);
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

namespace {
// The whole pipeline on two cores. Two pieces of it read nothing the physical passes
// (lengths to power) and the validate pass compute, so they run on the second core from
// the tiers pass on, beside them:
// - the measures' walks (reachability, single points) and the groups' counts
//   (analysis::measureBeside), which the validation checks wait for;
// - the addressing pass (it needs the tiers only: its table row; the pod kind it reads
//   comes from the groups), into an engine of its own, whose diagnostics are adopted in
//   its place, after the guids pass's. When adopting would differ from reporting here
//   (DiagEngine::adoptFromBeside: a tally, a limit, a fold), the ASNs and loopbacks
//   elaboration set are put back and the pass runs again here: it resets everything else
//   it writes.
// Neither writes anything the other passes read (checked by reading every array each
// reads and writes; the string pool is only read: Roce.cpp's lookup). The outputs are
// those of runPasses in order (tests: every lit test and snapshot design).
bool runScheduled(ir::Fabric &F, DiagEngine &diags, const std::function<void(const char *)> &timer) {
  using namespace passes::fact;
  auto start = [&](const char *name) {
    if (timer)
      timer(name);
  };
  const std::vector<passes::Pass> &table = passes::pipeline();
  const passes::Pass *addressing = passes::findPass("addressing");
  assert(addressing && table.front().produces == Tiers && addressing->needs == Tiers);
  start(table.front().name);
  table.front().run(F, diags);
#ifdef FABC_VERIFY_IR
  ir::verifyOrAbort(F, table.front().name);
#endif
  // The second core's work. It never throws out: a failure is kept for the first core.
  const std::vector<uint32_t> asnBefore = F.devAsn, loopbackBefore = F.devLoopback;
  DiagEngine ahead = diags.emptyCopy();
  std::promise<void> walked;
  std::future<void> walkedDone = walked.get_future();
  std::exception_ptr secondFailed;
  bool addressed = false;
  auto second = [&] {
    try {
      analysis::measureBeside(F);
    } catch (...) {
      secondFailed = std::current_exception();
      walked.set_value();
      return;
    }
    walked.set_value();
    try {
      addressing->run(F, ahead);
      addressed = true;
    } catch (...) {
      secondFailed = std::current_exception();
    }
  };
  std::thread t;
  try {
    t = std::thread(second);
  } catch (const std::system_error &) { // no thread: in turn, below
  }
  auto join = [&] {
    if (t.joinable())
      t.join();
    else if (!secondFailed && !addressed)
      second();
  };
  try {
    for (size_t i = 1; i < table.size(); ++i) {
      const passes::Pass &p = table[i];
      start(p.name);
      if (p.produces & Measurements) {
        analysis::measureRest(F);
        if (t.joinable())
          walkedDone.wait();
        else
          join(); // no second core: the walks and addressing now
        if (secondFailed)
          std::rethrow_exception(secondFailed);
        passes::runValidationChecks(F, diags);
      } else if (&p == addressing) {
        join();
        if (secondFailed)
          std::rethrow_exception(secondFailed);
        if (!diags.adoptFromBeside(ahead, DiagEngine::Mark{}, ahead.mark())) {
          F.devAsn = asnBefore;
          F.devLoopback = loopbackBefore;
          p.run(F, diags);
        }
      } else {
        p.run(F, diags);
      }
    }
  } catch (...) {
    if (t.joinable())
      t.join();
    throw;
  }
#ifdef FABC_VERIFY_IR
  ir::verifyOrAbort(F, "the passes");
#endif
  return !diags.hasErrors();
}
} // namespace

bool runPasses(ir::Fabric &F, DiagEngine &diags, const std::function<void(const char *)> &timer,
               std::string_view stopAfter) {
  if (stopAfter.empty())
    return runScheduled(F, diags, timer);
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
  // those passes.
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
  // The topology's checks, too, go on the second core once the latencies are measured
  // (checkResilience reads the pods they write).
  runRange(0, beside ? l + 1 : v);
  std::optional<passes::ChecksAhead> ahead;
  if (beside) {
    ahead.emplace(diags);
    runConcurrently([&] { runRange(l + 1, v); },
                    [&] {
                      analysis::measureLatencies(F);
                      passes::runChecksAhead(F, *ahead);
                    });
  }
  if (v < run.size()) {
    start(run[v]->name);
    if (!beside)
      analysis::measureLatencies(F);
    analysis::measureScopes(F); // the power's; the other measures read none of the physical facts
    passes::runChecks(F, diags, ahead ? &*ahead : nullptr);
    verify(run[v]->name);
    runRange(v + 1, run.size());
  }
  return !diags.hasErrors();
}

} // namespace fabc
