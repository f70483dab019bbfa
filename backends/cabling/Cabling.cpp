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
             "length_source,order_length_m,cable_sku,a_transceiver,b_transceiver\n");
  json->print("{{\n  \"fabric\": {},\n  \"generator\": \"fabc {}\",\n  \"cables\": [", jsonString(F.name),
              ctx.info.version);
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
    std::string cable = modelName(F, F.linkCable[l]);
    if (cable.empty() && m != ir::Media::None)
      cable = std::string(ir::mediaName(m)) + " fibre";
    // The plug in each port; the BOM counts a twin-port transceiver once per cage.
    std::string xa = modelName(F, F.linkOpticA[l]);
    std::string xb = modelName(F, F.linkOpticB[l]);
    double order = standardLength(m, len);
    std::string_view devA(a.data(), sa), portA(a.data() + sa + 1, a.size() - sa - 1);
    std::string_view devB(b.data(), sb), portB(b.data() + sb + 1, b.size() - sb - 1);
    csv->print("{},{},{},{},{},{},{},{},{},{:g},{},{:.2f},{},{:g},{},{},{}\n", l + 1, csvField(devA), csvField(portA),
               csvField(rackOf(F, da)), F.devU[da], csvField(devB), csvField(portB), csvField(rackOf(F, db)),
               F.devU[db], F.portSpeed(pa) / 1e9, ir::mediaName(m), len, lengthSource(F.linkFlags[l]), order,
               csvField(cable), csvField(xa), csvField(xb));
    json->print("{}\n    {{\"cable\": {}, \"a\": {{\"device\": {}, \"port\": {}}}, \"b\": {{\"device\": {}, \"port\": {}}}, "
                "\"speed_gbps\": {:g}, \"media\": \"{}\", \"length_m\": {:.2f}, \"length_source\": \"{}\", "
                "\"order_length_m\": {:g}, \"cable_sku\": {}, \"a_transceiver\": {}, \"b_transceiver\": {}}}",
                l ? "," : "", l + 1, jsonString(devA), jsonString(portA), jsonString(devB), jsonString(portB),
                F.portSpeed(pa) / 1e9, ir::mediaName(m), len, lengthSource(F.linkFlags[l]), order, jsonString(cable),
                xa.empty() ? "null" : jsonString(xa), xb.empty() ? "null" : jsonString(xb));
  }
  json->print("{}]\n}}\n", F.numLinks() ? "\n  " : "");
  return true;
}

bool emitBom(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const BomSummary &s = ctx.an.bom();
  OutFile *csv = ctx.out.open("bom/bom.csv");
  OutFile *json = ctx.out.open("bom/bom.json");
  if (!csv || !json)
    return failOpen(ctx);
  csv->write("category,sku,model,vendor,media,order_length_m,count,estimate\n");
  for (const auto &kv : s.devices) {
    const ir::Model &m = F.models[kv.first];
    csv->print("device,{},{},{},,,{},{}\n", csvField(modelName(F, kv.first)), csvField(F.strings.str(m.name)),
               csvField(F.strings.str(m.vendor)), kv.second, m.power.estimate ? "power" : "");
  }
  for (const auto &kv : s.transceivers) {
    const ir::Model &m = F.models[kv.first];
    csv->print("transceiver,{},{},{},{},,{},{}\n", csvField(modelName(F, kv.first)), csvField(F.strings.str(m.name)),
               csvField(F.strings.str(m.vendor)), ir::mediaName(m.media), kv.second.total,
               m.power.estimate ? "power" : "");
  }
  for (const auto &kv : s.cables)
    csv->print("cable,{},,,{},{:g},{},\n", csvField(kv.first.sku), ir::mediaName(kv.first.media), kv.first.length,
               kv.second);

  json->print("{{\n  \"fabric\": {},\n  \"generator\": \"fabc {}\",\n", jsonString(F.name), ctx.info.version);
  json->print("  \"summary\": {{\n    \"gpus\": {},\n    \"systems\": {},\n    \"compute_systems\": {},\n"
              "    \"switches\": {},\n    \"switches_by_tier\": {{",
              s.gpus, s.systems, s.computeSystems, s.switches);
  bool first = true;
  for (uint32_t t = 1; t < ir::Metrics::MaxTier; ++t)
    if (s.switchesByTier[t]) {
      json->print("{}\"{}\": {}", first ? "" : ", ", tierName(t), s.switchesByTier[t]);
      first = false;
    }
  json->print("}},\n    \"links\": {},\n    \"cables_by_tier\": {{", F.numLinks());
  first = true;
  for (const auto &kv : s.linksByTierPair) {
    json->print("{}\"{}-{}\": {}", first ? "" : ", ", tierName(kv.first.first), tierName(kv.first.second), kv.second);
    first = false;
  }
  json->print("}},\n    \"cables_by_role\": {{\"compute\": {}, \"management\": {}}},\n", s.computeLinks,
              F.numLinks() - s.computeLinks);
  json->print("    \"cables_by_media\": {{");
  first = true;
  for (size_t m = 0; m < size_t(ir::Media::Count); ++m)
    if (s.linksByMedia[m]) {
      json->print("{}\"{}\": {}", first ? "" : ", ", ir::mediaName(ir::Media(m)), s.linksByMedia[m]);
      first = false;
    }
  json->print("}},\n    \"transceivers\": {{\"total\": {}, \"switch\": {}, \"compute_system\": {}, \"other\": {}}},\n",
              s.xcvrTotal, s.xcvrSwitch, s.xcvrCompute, s.xcvrTotal - s.xcvrSwitch - s.xcvrCompute);
  json->print("    \"cpo_ports\": {},\n    \"transceivers_per_gpu\": {:.3f},\n    \"cable_length_m\": {:.1f}\n  }},\n",
              F.metrics.cpoPorts, s.transceiversPerGpu(), s.totalLength);
  json->print("  \"devices\": [");
  first = true;
  for (const auto &kv : s.devices) {
    const ir::Model &m = F.models[kv.first];
    json->print("{}\n    {{\"sku\": {}, \"model\": {}, \"kind\": \"{}\", \"vendor\": {}, \"count\": {}}}", first ? "" : ",",
                jsonString(modelName(F, kv.first)), jsonString(F.strings.str(m.name)), ir::modelKindName(m.kind),
                jsonString(F.strings.str(m.vendor)), kv.second);
    first = false;
  }
  json->print("\n  ],\n  \"transceivers\": [");
  first = true;
  for (const auto &kv : s.transceivers) {
    const ir::Model &m = F.models[kv.first];
    json->print("{}\n    {{\"sku\": {}, \"model\": {}, \"media\": \"{}\", \"count\": {}, \"at_switch\": {}, "
                "\"at_compute_system\": {}, \"power_w\": {:g}, \"power_estimate\": {}}}",
                first ? "" : ",", jsonString(modelName(F, kv.first)), jsonString(F.strings.str(m.name)),
                ir::mediaName(m.media), kv.second.total, kv.second.atSwitch, kv.second.atCompute, m.power.value,
                m.power.estimate || !m.power.known ? "true" : "false");
    first = false;
  }
  json->print("\n  ],\n  \"cables\": [");
  first = true;
  for (const auto &kv : s.cables) {
    json->print("{}\n    {{\"sku\": {}, \"media\": \"{}\", \"order_length_m\": {:g}, \"count\": {}}}", first ? "" : ",",
                jsonString(kv.first.sku), ir::mediaName(kv.first.media), kv.first.length, kv.second);
    first = false;
  }
  json->write("\n  ]\n}\n");
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
