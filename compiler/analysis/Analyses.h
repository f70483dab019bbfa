#pragma once
// What the compiler computes from the checked IR for its outputs, once per compilation.
// The driver builds one Analyses after the passes and hands it to the output checks
// (compiler/checks/) and to every backend (BackendContext::an); backends read it and never
// recompute (docs/decisions/0011-analyses-are-computed-once-in-the-compiler.md).
//
// - The BOM roll-up and the energy model are computed on first use and kept: `check`
//   pays for them only if a rule reads them, `build` once however many outputs do.
// - The measurements the validation checks compare with policies (tier summary,
//   bisection, latency paths, counts) are in the IR, ir::Fabric::metrics, filled by the
//   measuring steps of analysis/Measure.h before those checks run.
// - What the output checks prepare for their emitters (host names, the InfiniBand
//   boundary and descriptions, the Slurm tree and blocks, validated output options) is
//   stored here by them, so a backend writes the result the rule checked.
#include "analysis/Bom.h"
#include "analysis/Energy.h"
#include "analysis/OutputPlans.h"
#include "analysis/Reliability.h"
#include "ir/Fabric.h"

#include <memory>

namespace fabc {

class Analyses {
public:
  explicit Analyses(const ir::Fabric &F) : F_(F) {}
  Analyses(const Analyses &) = delete;
  Analyses &operator=(const Analyses &) = delete;

  const ir::Fabric &fabric() const { return F_; }
  const BomSummary &bom() const;
  const EnergyModel &energy() const;
  const ReliabilityModel &reliability() const;
  // What the coverage rule (FAB-W0310, FAB-W0440) reads: the full model when it is
  // computed or will be (a build), else, in a run that only checks, the part counts
  // alone (computeReliability's countsOnly: the same counts, no failure sums).
  const ReliabilityModel &reliabilityCounts() const;
  // Set by a compilation that runs the output rules and no backend (`fabc check`, the
  // language server): nothing will read the figures only outputs show.
  bool checksOnly = false;

  // The analyses above that an output reads (Backend::reads).
  enum Need : unsigned { NeedBom = 1, NeedEnergy = 2, NeedReliability = 4 };
  // Computes those of `needs` not computed yet before the outputs ask, on two threads
  // when there are two or more: each reads only the finished IR and writes its own
  // result, and at a million GPUs each takes 50-150 ms. The results are the same as
  // computed on first use.
  void prepare(unsigned needs);

  // Host names (passes::hostName) by device, composed on first use and kept.
  const std::string &hostName(uint32_t dev) const;

  // Filled by the output checks of the backend each belongs to (checks/OutputChecks.h).
  EthernetPlan ethernet;
  HostsPlan hosts;
  NvuePlan nvue;
  SonicPlan sonic;
  ManagementPlan management;
  BfdPlan bfd;
  BgpPlan bgp;
  StormControlPlan storm;
  InfinibandPlan infiniband;
  SlurmPlan slurm;
  LldpCablingPlan lldpCabling;
  DotPlan dot;
  ReportPlan report;
  CoveragePlan coverage;
  ExportPlan exports;

private:
  const ir::Fabric &F_;
  mutable std::unique_ptr<BomSummary> bom_;
  mutable std::unique_ptr<EnergyModel> energy_;
  mutable std::unique_ptr<ReliabilityModel> reliability_;
  mutable std::unique_ptr<ReliabilityModel> reliabilityCounts_;
  mutable std::vector<std::string> hostNames_; // sized on first use: names only for outputs that ask
};

} // namespace fabc
