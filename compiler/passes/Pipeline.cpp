// The order of the passes: physical facts first, then the checks that use them.
#include "passes/Passes.h"
#include "diag/Diag.h"
#include "passes/Guids.h"
#include "passes/Addressing.h"
#include "passes/Roce.h"
#include "analysis/Measure.h"

namespace fabc {
bool runPasses(ir::Fabric &F, DiagEngine &diags, const std::function<void(const char *)> &timer) {
  auto stage = [&](const char *name) {
    if (timer)
      timer(name);
  };
  stage("tiers");
  passes::inferTiers(F);
  stage("lengths");
  passes::computeLengths(F, diags);
  stage("media");
  passes::chooseMedia(F, diags);
  stage("transceivers");
  passes::countTransceivers(F, diags);
  stage("power");
  passes::computePower(F);
  stage("validate");
  analysis::measure(F); // the figures the checks below compare with the policies
  passes::checkPorts(F, diags);
  passes::checkNvLink(F, diags);
  passes::checkPowerBudgets(F, diags);
  passes::checkOversubscription(F, diags);
  passes::checkLatency(F, diags);
  passes::checkRails(F, diags);
  passes::checkRedundancy(F, diags);
  stage("guids");
  passes::assignGuids(F, diags);
  // Logical passes: cheap (switches and their links only), so they always run and
  // `fabc check` reports addressing and RoCE problems without a backend asked for.
  stage("addressing");
  passes::assignAddresses(F, diags);
  passes::checkEthernet(F, diags);
  return !diags.hasErrors();
}
} // namespace fabc
