// The evaluated design as data (fabc export --format=json|yaml; docs/export.md): its
// buildings, halls and racks, the models it uses, every device with its placement,
// addressing and ports, and every cable with its ends' addresses. One walk over the IR,
// streamed through DocWriter: linear in devices + ports + links, no file held whole.
// docs/schemas/export.schema.json is the contract.
#include "backends/Common.h"
#include "backends/export/DocWriter.h"
#include "checks/Export.h"
#include "ir/Address.h"

namespace fabc {
namespace {
using ir::None;

std::string modelSku(const ir::Fabric &F, uint32_t m) {
  return m == None ? std::string() : std::string(F.strings.str(F.models[m].sku ? F.models[m].sku : F.models[m].name));
}

void writeAddress(DocWriter &w, checks::PortAddress a) {
  if (!a.addr)
    return w.null();
  w.string(ir::ipv4String(a.addr) + "/" + std::to_string(a.len));
}

void writePlaces(DocWriter &w, const ir::Fabric &F) {
  w.key("buildings");
  w.beginArray();
  for (size_t b = 0; b < F.buildings.size(); ++b) {
    w.beginObject();
    w.key("name");
    w.string(F.strings.str(F.buildings[b].name));
    w.key("halls");
    w.beginArray();
    for (const ir::Hall &h : F.halls) {
      if (h.building != b)
        continue;
      w.beginObject();
      w.key("name");
      w.string(F.strings.str(h.name));
      w.key("rack_units");
      w.integer(h.rackUnits);
      w.endObject();
    }
    w.endArray();
    w.endObject();
  }
  w.endArray();
  w.key("racks");
  w.beginArray();
  for (size_t r = 0; r < F.racks.size(); ++r) {
    const ir::Rack &rk = F.racks[r];
    const ir::Hall &h = F.halls[rk.hall];
    w.beginObject();
    w.key("name");
    w.string(F.rackName(uint32_t(r)));
    w.key("building");
    w.string(F.strings.str(F.buildings[h.building].name));
    w.key("hall");
    w.string(F.strings.str(h.name));
    w.key("row");
    w.integer(uint64_t(rk.row));
    w.key("position");
    w.integer(uint64_t(rk.pos));
    w.key("units");
    w.integer(h.rackUnits);
    w.endObject();
  }
  w.endArray();
}

void writeModels(DocWriter &w, const ir::Fabric &F) {
  const std::vector<uint8_t> used = F.modelsInUse();
  w.key("models");
  w.beginArray();
  for (size_t m = 0; m < F.models.size(); ++m) {
    if (!used[m])
      continue;
    const ir::Model &x = F.models[m];
    w.beginObject();
    w.key("name");
    w.string(F.strings.str(x.name));
    w.key("sku");
    w.stringOrNull(x.sku ? F.strings.str(x.sku) : std::string_view());
    w.key("vendor");
    w.stringOrNull(x.vendor ? F.strings.str(x.vendor) : std::string_view());
    w.key("kind");
    w.string(ir::modelKindName(x.kind));
    w.key("rack_units");
    x.rackUnits ? w.integer(x.rackUnits) : w.null();
    w.key("gpus");
    w.integer(x.gpus);
    w.endObject();
  }
  w.endArray();
}

void writeDevices(DocWriter &w, const BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const std::vector<std::string> &hosts = ctx.an.exports.hosts;
  std::string name;
  w.key("devices");
  w.beginArray();
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    w.beginObject();
    w.key("name");
    name.clear();
    F.appendNodeName(F.devNode[d], name);
    w.string(name);
    w.key("host_name");
    w.string(hosts[d]);
    w.key("model");
    w.string(F.strings.str(F.modelOf(d).name));
    w.key("tier");
    w.string(ir::tierName(F.devTier[d]));
    w.key("role");
    w.string(ir::roleName(F.devRole[d]));
    w.key("rack");
    F.devRack[d] == None ? w.null() : w.string(F.rackName(F.devRack[d]));
    w.key("u");
    F.devU[d] ? w.integer(F.devU[d]) : w.null();
    w.key("asn");
    d < F.devAsn.size() && F.devAsn[d] ? w.integer(F.devAsn[d]) : w.null();
    w.key("loopback");
    d < F.devLoopback.size() && F.devLoopback[d] ? w.string(ir::ipv4String(F.devLoopback[d]) + "/32") : w.null();
    w.key("ports");
    w.beginArray();
    uint32_t end = d + 1 < F.numDevices() ? F.devPortBase[d + 1] : uint32_t(F.numPorts());
    for (uint32_t p = F.devPortBase[d]; p < end; ++p) {
      // The port's own name: fabc's "device/group[i]" after the device's part.
      name.clear();
      F.appendPortName(p, name);
      w.beginObject();
      w.key("name");
      w.string(std::string_view(name).substr(name.find('/') + 1));
      w.key("speed_gbps");
      w.general(F.portSpeed(p) / 1e9);
      w.key("cable");
      F.portLink[p] == None ? w.null() : w.integer(uint64_t(F.portLink[p]) + 1);
      w.endObject();
    }
    w.endArray();
    w.endObject();
  }
  w.endArray();
}

void writeCables(DocWriter &w, const ir::Fabric &F) {
  std::string name;
  w.key("cables");
  w.beginArray();
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    w.beginObject();
    w.key("cable");
    w.integer(uint64_t(l) + 1);
    for (int e = 0; e < 2; ++e) {
      uint32_t p = e ? F.linkB[l] : F.linkA[l];
      name.clear();
      F.appendPortName(p, name);
      size_t slash = name.find('/');
      w.key(e ? "b" : "a");
      w.beginObject();
      w.key("device");
      w.string(std::string_view(name).substr(0, slash));
      w.key("port");
      w.string(std::string_view(name).substr(slash + 1));
      w.key("address");
      writeAddress(w, checks::portAddress(F, l, p));
      w.key("transceiver");
      w.stringOrNull(modelSku(F, e ? F.linkOpticB[l] : F.linkOpticA[l]));
      w.endObject();
    }
    w.key("speed_gbps");
    w.general(F.portSpeed(F.linkA[l]) / 1e9);
    w.key("media");
    w.string(ir::mediaName(F.linkMedia[l]));
    w.key("length_m");
    w.fixed(F.linkLength[l], 2);
    w.key("cable_sku");
    w.string(cableSku(F, F.linkCable[l], F.linkMedia[l]));
    w.endObject();
  }
  w.endArray();
}

// The host subnets of the leaf and rail schemes: each on an SVI of its leaf.
void writeHostNetworks(DocWriter &w, const BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  w.key("host_networks");
  w.beginArray();
  for (const ir::HostNet &n : F.hostNets) {
    w.beginObject();
    w.key("leaf");
    w.string(ctx.an.exports.hosts[n.leaf]);
    w.key("rail");
    n.rail == None ? w.null() : w.integer(n.rail);
    w.key("vlan");
    n.vlan ? w.integer(n.vlan) : w.null();
    w.key("prefix");
    w.string(ir::ipv4String(n.base) + "/" + std::to_string(n.len));
    w.key("gateway");
    w.string(ir::ipv4String(n.base + 1) + "/" + std::to_string(n.len));
    w.endObject();
  }
  w.endArray();
}

bool writeDesign(BackendContext &ctx, bool yaml) {
  const ir::Fabric &F = ctx.F;
  OutFile *out = ctx.out.open(yaml ? "export/design.yaml" : "export/design.json");
  if (!out)
    return failOpen(ctx);
  std::unique_ptr<DocWriter> w = DocWriter::create(yaml, *out);
  w->beginObject();
  w->key("format_version");
  w->string(formats::Export);
  w->key("fabric");
  w->string(F.name);
  w->key("generator");
  w->string("fabc " + ctx.info.version);
  writePlaces(*w, F);
  writeModels(*w, F);
  writeDevices(*w, ctx);
  writeCables(*w, F);
  writeHostNetworks(*w, ctx);
  w->endObject();
  w->finish();
  return true;
}
} // namespace

bool runDesign(BackendContext &ctx) { return writeDesign(ctx, false); }
bool runDesignYaml(BackendContext &ctx) { return writeDesign(ctx, true); }

} // namespace fabc
