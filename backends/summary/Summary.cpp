// summary.json: what the validation passes measured, for CI dashboards and reviews:
// counts, oversubscription per tier, bisection, worst-case latency, NVLink domains.
#include "backends/Common.h"

namespace fabc {

bool runSummary(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const ir::Metrics &M = F.metrics;
  OutFile *out = ctx.out.open("summary.json");
  if (!out)
    return failOpen(ctx);
  out->print("{{\n  \"fabric\": {},\n  \"generator\": \"fabc {}\",\n", jsonString(F.name), ctx.info.version);
  out->print("  \"gpus\": {},\n  \"systems\": {},\n  \"devices\": {},\n  \"links\": {},\n", M.gpus, M.systems,
             F.numDevices(), F.numLinks());
  out->print("  \"nvlink_domains\": {},\n  \"largest_nvlink_domain\": {},\n", M.nvlinkDomains, M.largestNvlinkDomain);
  out->write("  \"tiers\": [");
  bool first = true;
  for (uint32_t t = 1; t < ir::Metrics::MaxTier; ++t) {
    const ir::TierStats &ts = M.tiers[t];
    if (!ts.switches)
      continue;
    out->print("{}\n    {{\"tier\": \"{}\", \"switches\": {}, \"down_gbps\": {:.0f}, \"up_gbps\": {:.0f}, "
               "\"max_oversubscription\": {}, \"worst_switch\": {}}}",
               first ? "" : ",", tierName(t), ts.switches, ts.downBandwidth / 1e9, ts.upBandwidth / 1e9,
               ts.upBandwidth > 0 ? fmt::format("{:.3f}", ts.maxOversubscription) : std::string("null"),
               ts.worstSwitch == ir::None ? std::string("null") : jsonString(F.deviceName(ts.worstSwitch)));
    first = false;
  }
  out->print("{}],\n  \"bisection_gbps\": {:.0f},\n", first ? "" : "\n  ", M.bisection / 1e9);
  out->print("  \"worst_latency_ns\": {:.1f},\n  \"worst_latency_switch_hops\": {},\n  \"worst_latency_cable_m\": {:.1f},\n",
             M.worstLatency * 1e9, M.worstHops, M.worstFibre);
  out->print("  \"transceivers\": {},\n  \"cpo_ports\": {},\n  \"uses_estimates\": {}\n}}\n", M.transceivers,
             M.cpoPorts, M.usesEstimates ? "true" : "false");
  return true;
}

} // namespace fabc
