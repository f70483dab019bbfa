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
  JsonWriter j(sinkTo(*out));
  j.beginObject();
  j.key("fabric").string(F.name);
  j.key("generator").string("fabc " + ctx.info.version);
  j.key("gpus").integer(M.gpus);
  j.key("systems").integer(M.systems);
  j.key("devices").integer(F.numDevices());
  j.key("links").integer(F.numLinks());
  j.key("nvlink_domains").integer(M.nvlinkDomains);
  j.key("largest_nvlink_domain").integer(M.largestNvlinkDomain);
  j.key("tiers").beginArray();
  for (uint32_t t = 1; t < ir::Metrics::MaxTier; ++t) {
    const ir::TierStats &ts = M.tiers[t];
    if (!ts.switches)
      continue;
    j.beginObject(JsonLayout::Inline);
    j.key("tier").string(tierName(t));
    j.key("switches").integer(ts.switches);
    j.key("down_gbps").fixed(ts.downBandwidth / 1e9, 0);
    j.key("up_gbps").fixed(ts.upBandwidth / 1e9, 0);
    j.key("max_oversubscription");
    ts.upBandwidth > 0 ? j.fixed(ts.maxOversubscription, 3) : j.null();
    j.key("worst_switch");
    ts.worstSwitch == ir::None ? j.null() : j.string(F.deviceName(ts.worstSwitch));
    j.endObject();
  }
  j.endArray();
  j.key("bisection_gbps").fixed(M.bisection / 1e9, 0);
  j.key("worst_latency_ns").fixed(M.worstLatency * 1e9, 1);
  j.key("worst_latency_switch_hops").integer(M.worstHops);
  j.key("worst_latency_cable_m").fixed(M.worstFibre, 1);
  j.key("transceivers").integer(M.transceivers);
  j.key("cpo_ports").integer(M.cpoPorts);
  j.key("uses_estimates").boolean(M.usesEstimates);
  j.endObject();
  return true;
}

} // namespace fabc
