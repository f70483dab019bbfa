#include "analysis/Analyses.h"

#include "passes/Addressing.h"

namespace fabc {

const BomSummary &Analyses::bom() const {
  if (!bom_)
    bom_ = std::make_unique<BomSummary>(summarize(F_));
  return *bom_;
}

const EnergyModel &Analyses::energy() const {
  if (!energy_)
    energy_ = std::make_unique<EnergyModel>(computeEnergy(F_));
  return *energy_;
}

const ReliabilityModel &Analyses::reliability() const {
  if (!reliability_)
    reliability_ = std::make_unique<ReliabilityModel>(computeReliability(F_));
  return *reliability_;
}

const ReliabilityModel &Analyses::reliabilityCounts() const {
  if (reliability_ || !checksOnly)
    return reliability();
  if (!reliabilityCounts_)
    reliabilityCounts_ = std::make_unique<ReliabilityModel>(computeReliability(F_, /*countsOnly=*/true));
  return *reliabilityCounts_;
}

const std::string &Analyses::hostName(uint32_t dev) const {
  if (hostNames_.empty())
    hostNames_.resize(F_.numDevices());
  std::string &h = hostNames_[dev];
  if (h.empty())
    h = passes::hostName(F_, dev);
  return h;
}

} // namespace fabc
