// The cabling plan (one row per cable, streamed) and the bill of materials (SKU
// rollups of devices, cables by standard length, transceivers per end).
#include "backends/Backend.h"
#include "backends/Common.h"
#include "analysis/Bom.h"

#include <map>

namespace fabc {
namespace {
using ir::None;

const char *lengthSource(uint8_t flags) {
  return flags & ir::LinkLengthExplicit ? "explicit" : flags & ir::LinkLengthAssumed ? "assumed" : "routed";
}

std::string modelName(const ir::Fabric &F, uint32_t m) {
  if (m == None)
    return "";
  const ir::Model &x = F.models[m];
  return std::string(F.strings.str(x.sku ? x.sku : x.name));
}

std::string rackOf(const ir::Fabric &F, uint32_t dev) {
  return F.devRack[dev] == None ? std::string() : F.rackName(F.devRack[dev]);
}

bool emitPlan(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  OutFile *csv = ctx.out.open("cabling/plan.csv");
  OutFile *json = ctx.out.open("cabling/plan.json");
  if (!csv || !json)
    return failOpen(ctx);
  csv->write("cable,a_device,a_port,a_rack,a_u,b_device,b_port,b_rack,b_u,speed_gbps,media,length_m,"
             "length_source,order_length_m,cable_sku,a_transceiver,b_transceiver,cable_units,a_transceiver_units,"
             "b_transceiver_units\n");
  JsonWriter j(sinkTo(*json));
  j.beginObject();
  j.key("format_version").string(formats::CablingPlan);
  j.key("fabric").string(F.name);
  j.key("generator").string("fabc " + ctx.info.version);
  j.key("cables").beginArray();
  std::string a, b, line;
  for (size_t l = 0; l < F.numLinks(); ++l) {
    uint32_t pa = F.linkA[l], pb = F.linkB[l];
    uint32_t da = F.portDevice[pa], db = F.portDevice[pb];
    a.clear();
    b.clear();
    F.appendPortName(pa, a);
    F.appendPortName(pb, b);
    size_t sa = a.find('/'), sb = b.find('/');
    ir::Media m = F.linkMedia[l];
    double len = F.linkLength[l];
    std::string cable = cableSku(F, F.linkCable[l], m);
    // The plug in each port; the BOM counts a twin-port transceiver once per cage.
    std::string xa = modelName(F, F.linkOpticA[l]);
    std::string xb = modelName(F, F.linkOpticB[l]);
    double order = standardLength(F, F.linkCable[l], m, len);
    // What this row adds to the BOM: summed over the plan, these are the BOM's cable and
    // transceiver counts (a twin-port module or copper assembly is on the row of its
    // cage's first link; the other rows of the cage add 0).
    unsigned cu = F.linkCableUnits[l], ua = F.linkXcvrA[l], ub = F.linkXcvrB[l];
    std::string_view devA(a.data(), sa), portA(a.data() + sa + 1, a.size() - sa - 1);
    std::string_view devB(b.data(), sb), portB(b.data() + sb + 1, b.size() - sb - 1);
    csv->print("{},{},{},{},{},{},{},{},{},{:g},{},{:.2f},{},{:g},{},{},{},{},{},{}\n", l + 1, csvField(devA), csvField(portA),
               csvField(rackOf(F, da)), F.devU[da], csvField(devB), csvField(portB), csvField(rackOf(F, db)),
               F.devU[db], F.portSpeed(pa) / 1e9, ir::mediaName(m), len, lengthSource(F.linkFlags[l]), order,
               csvField(cable), csvField(xa), csvField(xb), cu, ua, ub);
    j.beginObject(JsonLayout::Inline);
    j.key("cable").integer(l + 1);
    j.key("a").beginObject(JsonLayout::Inline);
    j.key("device").string(devA);
    j.key("port").string(portA);
    j.endObject();
    j.key("b").beginObject(JsonLayout::Inline);
    j.key("device").string(devB);
    j.key("port").string(portB);
    j.endObject();
    j.key("speed_gbps").general(F.portSpeed(pa) / 1e9);
    j.key("media").string(ir::mediaName(m));
    j.key("length_m").fixed(len, 2);
    j.key("length_source").string(lengthSource(F.linkFlags[l]));
    j.key("order_length_m").general(order);
    j.key("cable_sku").string(cable);
    j.key("a_transceiver").stringOrNull(xa);
    j.key("b_transceiver").stringOrNull(xb);
    j.key("cable_units").integer(cu);
    j.key("a_transceiver_units").integer(ua);
    j.key("b_transceiver_units").integer(ub);
    j.endObject();
  }
  j.endArray();
  j.endObject();
  return true;
}

bool emitBom(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const BomSummary &s = ctx.an.bom();
  OutFile *csv = ctx.out.open("bom/bom.csv");
  OutFile *json = ctx.out.open("bom/bom.json");
  if (!csv || !json)
    return failOpen(ctx);
  // count: what the design uses; spares: what policy spares adds (0 without one);
  // order_quantity: their sum, what a buyer orders.
  csv->write("category,sku,model,vendor,media,order_length_m,count,estimate,spares,order_quantity\n");
  const SparesPolicy &sp = s.spares;
  for (const auto &kv : s.devices) {
    const ir::Model &m = F.models[kv.first];
    uint64_t n = sp.spares(deviceCategory(m), kv.second);
    csv->print("device,{},{},{},,,{},{},{},{}\n", csvField(modelName(F, kv.first)), csvField(F.strings.str(m.name)),
               csvField(F.strings.str(m.vendor)), kv.second, m.power.estimate ? "power" : "", n, kv.second + n);
  }
  for (const auto &kv : s.transceivers) {
    const ir::Model &m = F.models[kv.first];
    uint64_t n = sp.spares(SpareCategory::Transceiver, kv.second.total);
    csv->print("transceiver,{},{},{},{},,{},{},{},{}\n", csvField(modelName(F, kv.first)), csvField(F.strings.str(m.name)),
               csvField(F.strings.str(m.vendor)), ir::mediaName(m.media), kv.second.total,
               m.power.estimate ? "power" : "", n, kv.second.total + n);
  }
  for (const auto &kv : s.cables) {
    uint64_t n = sp.spares(SpareCategory::Cable, kv.second);
    csv->print("cable,{},,,{},{:g},{},,{},{}\n", csvField(kv.first.sku), ir::mediaName(kv.first.media), kv.first.length,
               kv.second, n, kv.second + n);
  }

  JsonWriter j(sinkTo(*json));
  j.beginObject();
  j.key("format_version").string(formats::Bom);
  j.key("fabric").string(F.name);
  j.key("generator").string("fabc " + ctx.info.version);
  j.key("summary").beginObject();
  j.key("gpus").integer(s.gpus);
  j.key("systems").integer(s.systems);
  j.key("compute_systems").integer(s.computeSystems);
  j.key("switches").integer(s.switches);
  j.key("switches_by_tier").beginObject(JsonLayout::Inline);
  for (uint32_t t = 1; t < ir::Metrics::MaxTier; ++t)
    if (s.switchesByTier[t])
      j.key(tierName(t)).integer(s.switchesByTier[t]);
  j.endObject();
  j.key("links").integer(F.numLinks());
  j.key("cables_by_tier").beginObject(JsonLayout::Inline);
  for (const auto &kv : s.linksByTierPair)
    j.keyf("{}-{}", tierName(kv.first.first), tierName(kv.first.second)).integer(kv.second);
  j.endObject();
  j.key("cables_by_role").beginObject(JsonLayout::Inline);
  j.key("compute").integer(s.computeLinks);
  j.key("management").integer(F.numLinks() - s.computeLinks);
  j.endObject();
  j.key("cables_by_media").beginObject(JsonLayout::Inline);
  for (size_t m = 0; m < size_t(ir::Media::Count); ++m)
    if (s.linksByMedia[m])
      j.key(ir::mediaName(ir::Media(m))).integer(s.linksByMedia[m]);
  j.endObject();
  j.key("transceivers").beginObject(JsonLayout::Inline);
  j.key("total").integer(s.xcvrTotal);
  j.key("switch").integer(s.xcvrSwitch);
  j.key("compute_system").integer(s.xcvrCompute);
  j.key("other").integer(s.xcvrTotal - s.xcvrSwitch - s.xcvrCompute);
  j.endObject();
  j.key("cpo_ports").integer(F.metrics.cpoPorts);
  j.key("transceivers_per_gpu").fixed(s.transceiversPerGpu(), 3);
  j.key("cable_length_m").fixed(s.totalLength, 1);
  j.endObject();
  // The policy behind every entry's spares (null: none asked, no spares).
  j.key("spares_policy");
  if (!sp.set) {
    j.null();
  } else {
    j.beginObject(JsonLayout::Inline);
    for (size_t c = 0; c < size_t(SpareCategory::Count); ++c)
      if (sp.named[c])
        j.keyf("{}_percent", spareCategoryName(SpareCategory(c))).general(sp.percent[c]);
    j.key("min_per_sku").integer(sp.minPerSku);
    j.endObject();
  }
  j.key("devices").beginArray(JsonLayout::BlockOpenWhenEmpty);
  for (const auto &kv : s.devices) {
    const ir::Model &m = F.models[kv.first];
    j.beginObject(JsonLayout::Inline);
    j.key("sku").string(modelName(F, kv.first));
    j.key("model").string(F.strings.str(m.name));
    j.key("kind").string(ir::modelKindName(m.kind));
    j.key("vendor").string(F.strings.str(m.vendor));
    j.key("count").integer(kv.second);
    uint64_t n = sp.spares(deviceCategory(m), kv.second);
    j.key("spares").integer(n);
    j.key("order_quantity").integer(kv.second + n);
    j.endObject();
  }
  j.endArray();
  j.key("transceivers").beginArray(JsonLayout::BlockOpenWhenEmpty);
  for (const auto &kv : s.transceivers) {
    const ir::Model &m = F.models[kv.first];
    j.beginObject(JsonLayout::Inline);
    j.key("sku").string(modelName(F, kv.first));
    j.key("model").string(F.strings.str(m.name));
    j.key("media").string(ir::mediaName(m.media));
    j.key("count").integer(kv.second.total);
    uint64_t n = sp.spares(SpareCategory::Transceiver, kv.second.total);
    j.key("spares").integer(n);
    j.key("order_quantity").integer(kv.second.total + n);
    j.key("at_switch").integer(kv.second.atSwitch);
    j.key("at_compute_system").integer(kv.second.atCompute);
    j.key("power_w").general(m.power.value);
    j.key("power_estimate").boolean(m.power.estimate || !m.power.known);
    j.endObject();
  }
  j.endArray();
  j.key("cables").beginArray(JsonLayout::BlockOpenWhenEmpty);
  for (const auto &kv : s.cables) {
    j.beginObject(JsonLayout::Inline);
    j.key("sku").string(kv.first.sku);
    j.key("media").string(ir::mediaName(kv.first.media));
    j.key("order_length_m").general(kv.first.length);
    j.key("count").integer(kv.second);
    uint64_t n = sp.spares(SpareCategory::Cable, kv.second);
    j.key("spares").integer(n);
    j.key("order_quantity").integer(kv.second + n);
    j.endObject();
  }
  j.endArray();
  j.endObject();
  return true;
}

} // namespace

bool failOpen(BackendContext &ctx) {
  fmt::print(stderr, "fabc: error: cannot write output: {}\n", ctx.out.error());
  return false;
}

bool runCabling(BackendContext &ctx) { return emitPlan(ctx); }
bool runBom(BackendContext &ctx) { return emitBom(ctx); }

} // namespace fabc
