// The order of the passes: physical facts first, then the checks that use them.
#include "passes/Passes.h"
#include "diag/Diag.h"
#include "passes/Guids.h"

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
  passes::checkPorts(F, diags);
  passes::checkNvLink(F, diags);
  passes::checkPowerBudgets(F, diags);
  passes::checkOversubscription(F, diags);
  passes::checkLatency(F, diags);
  passes::checkRails(F, diags);
  passes::checkRedundancy(F, diags);
  stage("guids");
  passes::assignGuids(F, diags);
  return !diags.hasErrors();
}
} // namespace fabc
