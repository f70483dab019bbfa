// The design in NetBox's CSV bulk-import form (fabc export --format=netbox;
// docs/export.md): one file per object type, columns named as NetBox's *ImportForm
// classes name them (dcim/forms/bulk_import.py, ipam/forms/bulk_import.py; the version
// in tests/lit/export/Inputs/netbox-import-forms.json), numbered in the order they must
// be imported: each refers only to objects of the files before it. Devices are named by
// their host names (checked distinct and valid: checks::checkExport), interfaces by the
// design's port names; the types come from checks/Export.h. Streamed, row by row.
#include "backends/Common.h"
#include "checks/Export.h"
#include "ir/Address.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringSet.h>

#include <cmath>

namespace fabc {
namespace {
using ir::None;

// NetBox's slug: [-a-zA-Z0-9_], lower case here; runs of anything else become one '-'.
std::string slugify(std::string_view s) {
  std::string r;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (c >= 'A' && c <= 'Z')
      r += char(c - 'A' + 'a');
    else if (ok)
      r += c;
    else if (!r.empty() && r.back() != '-')
      r += '-';
  }
  while (!r.empty() && r.back() == '-')
    r.pop_back();
  return r.empty() ? "x" : r;
}

// Slugs for a set of names, made distinct ("dgx-b300", "dgx-b300-2").
class Slugs {
public:
  const std::string &operator()(std::string_view name) {
    auto it = byName_.find(name);
    if (it != byName_.end())
      return it->second;
    std::string s = slugify(name), base = s;
    for (unsigned n = 2; !taken_.insert(s).second; ++n)
      s = base + "-" + std::to_string(n);
    return byName_[name] = s;
  }

private:
  llvm::StringMap<std::string> byName_;
  llvm::StringSet<> taken_;
};

struct Writer {
  BackendContext &ctx;
  const ir::Fabric &F;
  const std::vector<std::string> &hosts;
  Slugs siteSlugs, makerSlugs, typeSlugs, roleSlugs;
  TextBuffer row;
  std::string name;

  explicit Writer(BackendContext &c) : ctx(c), F(c.F), hosts(c.an.exports.hosts) {}

  // A device's site: its building, or the fabric for a device placed in none.
  std::string_view siteOf(uint32_t d) const {
    uint32_t b = F.devRack[d] == None ? None : F.halls[F.racks[F.devRack[d]].hall].building;
    return b == None ? std::string_view(F.name) : F.strings.str(F.buildings[b].name);
  }
  std::string_view vendorOf(uint32_t m) const {
    return F.models[m].vendor ? F.strings.str(F.models[m].vendor) : std::string_view("Unknown");
  }
  // Switches by tier (leaf, spine, ...), other devices by role (compute, storage, ...).
  std::string_view roleOf(uint32_t d) const {
    ir::ModelKind k = F.modelOf(d).kind;
    if ((k == ir::ModelKind::Switch || k == ir::ModelKind::NvSwitch) && F.devTier[d] != ir::Tier::Unknown)
      return ir::tierName(F.devTier[d]);
    return ir::roleName(F.devRole[d]);
  }
  // The port's own name: fabc's "device/group[i]" after the device's part.
  std::string_view portName(uint32_t p) {
    name.clear();
    F.appendPortName(p, name);
    return std::string_view(name).substr(name.find('/') + 1);
  }
  template <typename... Args> void cells(OutFile &o, Args &&...args) {
    bool first = true;
    auto cell = [&](std::string_view v) {
      if (!first)
        append(row, ",");
      first = false;
      append(row, csvField(v));
    };
    (cell(args), ...);
    append(row, "\n");
    if (row.size() >= (1u << 16)) {
      o.write(row);
      row.clear();
    }
  }
  void flush(OutFile &o) {
    o.write(row);
    row.clear();
    o.close();
  }
  OutFile *open(const char *rel, const char *header) {
    OutFile *o = ctx.out.open(std::string("netbox/") + rel);
    if (o)
      o->write(std::string(header) + "\n");
    return o;
  }

  bool sites() {
    OutFile *o = open("01-sites.csv", "name,slug,status,description");
    if (!o)
      return false;
    llvm::StringSet<> seen;
    for (uint32_t d = 0; d < F.numDevices(); ++d) {
      std::string_view s = siteOf(d);
      if (seen.insert(s).second)
        cells(*o, s, siteSlugs(s), "planned", "fabc: " + F.name);
    }
    flush(*o);
    return true;
  }
  bool manufacturers() {
    OutFile *o = open("02-manufacturers.csv", "name,slug");
    if (!o)
      return false;
    llvm::StringSet<> seen;
    for (uint32_t d = 0; d < F.numDevices(); ++d)
      if (seen.insert(vendorOf(F.devModel[d])).second)
        cells(*o, vendorOf(F.devModel[d]), makerSlugs(vendorOf(F.devModel[d])));
    flush(*o);
    return true;
  }
  bool deviceTypes() {
    OutFile *o = open("03-device-types.csv", "manufacturer,model,slug,part_number,u_height");
    if (!o)
      return false;
    std::vector<uint8_t> seen(F.models.size());
    for (uint32_t d = 0; d < F.numDevices(); ++d) {
      uint32_t m = F.devModel[d];
      if (seen[m]++)
        continue;
      const ir::Model &x = F.models[m];
      std::string_view model = F.strings.str(x.name);
      // u_height: the model's rack units; a part that states none takes none in the rack
      // (0), as fabc placed it.
      cells(*o, vendorOf(m), model, typeSlugs(model), x.sku ? F.strings.str(x.sku) : std::string_view(),
            std::to_string(x.rackUnits));
    }
    flush(*o);
    return true;
  }
  bool roles() {
    OutFile *o = open("04-device-roles.csv", "name,slug,color");
    if (!o)
      return false;
    llvm::StringSet<> seen;
    for (uint32_t d = 0; d < F.numDevices(); ++d)
      if (seen.insert(roleOf(d)).second)
        cells(*o, roleOf(d), roleSlugs(roleOf(d)), "9e9e9e");
    flush(*o);
    return true;
  }
  bool racks() {
    OutFile *o = open("05-racks.csv", "site,name,status,width,u_height,description");
    if (!o)
      return false;
    for (uint32_t r = 0; r < F.racks.size(); ++r) {
      const ir::Hall &h = F.halls[F.racks[r].hall];
      cells(*o, F.strings.str(F.buildings[h.building].name), F.rackName(r), "planned", "19",
            std::to_string(h.rackUnits), fmt::format("hall {}, row {}, position {}", F.strings.str(h.name),
                                                     F.racks[r].row, F.racks[r].pos));
    }
    flush(*o);
    return true;
  }
  bool devices() {
    OutFile *o = open("06-devices.csv", "name,role,manufacturer,device_type,status,site,rack,position,face,description");
    if (!o)
      return false;
    std::string path;
    for (uint32_t d = 0; d < F.numDevices(); ++d) {
      bool placed = F.devRack[d] != None && F.devU[d] && F.modelOf(d).rackUnits;
      path.clear();
      F.appendNodeName(F.devNode[d], path);
      cells(*o, hosts[d], roleOf(d), vendorOf(F.devModel[d]), F.strings.str(F.modelOf(d).name), "planned", siteOf(d),
            F.devRack[d] == None ? std::string() : F.rackName(F.devRack[d]),
            placed ? std::to_string(F.devU[d]) : std::string(), placed ? "front" : "", "fabc instance " + path);
    }
    flush(*o);
    return true;
  }
  bool interfaces() {
    OutFile *o = open("07-interfaces.csv", "device,name,type,speed,description");
    if (!o)
      return false;
    for (uint32_t d = 0; d < F.numDevices(); ++d) {
      uint32_t end = d + 1 < F.numDevices() ? F.devPortBase[d + 1] : uint32_t(F.numPorts());
      for (uint32_t p = F.devPortBase[d]; p < end; ++p) {
        // NetBox's speed is in Kbps.
        std::string speed = std::to_string(uint64_t(std::llround(F.portSpeed(p) / 1e3)));
        cells(*o, hosts[d], portName(p), checks::netboxInterfaceType(F, p), speed, "");
      }
      if (d < F.devLoopback.size() && F.devLoopback[d])
        cells(*o, hosts[d], "lo", "virtual", "", "loopback");
    }
    for (const ir::HostNet &n : F.hostNets)
      if (n.vlan)
        cells(*o, hosts[n.leaf], "vlan" + std::to_string(n.vlan), "virtual", "",
              n.rail == None ? std::string("host subnet") : "host subnet of rail " + std::to_string(n.rail));
    flush(*o);
    return true;
  }
  bool cables() {
    OutFile *o = open("08-cables.csv", "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,"
                                      "type,status,label,length,length_unit,description");
    if (!o)
      return false;
    std::string a;
    for (uint32_t l = 0; l < F.numLinks(); ++l) {
      uint32_t pa = F.linkA[l], pb = F.linkB[l];
      a = std::string(portName(pa));
      cells(*o, hosts[F.portDevice[pa]], "dcim.interface", a, hosts[F.portDevice[pb]], "dcim.interface", portName(pb),
            checks::netboxCableType(F.linkMedia[l]), "planned", std::to_string(l + 1),
            fmt::format("{:.2f}", F.linkLength[l]), "m", cableSku(F, F.linkCable[l], F.linkMedia[l]));
    }
    flush(*o);
    return true;
  }
  bool addresses() {
    OutFile *o = open("09-ip-addresses.csv", "address,status,role,device,interface,description");
    if (!o)
      return false;
    auto cidr = [](uint32_t a, unsigned len) { return ir::ipv4String(a) + "/" + std::to_string(len); };
    for (uint32_t d = 0; d < F.numDevices(); ++d)
      if (d < F.devLoopback.size() && F.devLoopback[d])
        cells(*o, cidr(F.devLoopback[d], 32), "reserved", "loopback", hosts[d], "lo", "");
    for (uint32_t l = 0; l < F.numLinks(); ++l)
      for (uint32_t p : {F.linkA[l], F.linkB[l]}) {
        checks::PortAddress a = checks::portAddress(F, l, p);
        if (a.addr)
          cells(*o, cidr(a.addr, a.len), "reserved", "", hosts[F.portDevice[p]], portName(p), "");
      }
    for (const ir::HostNet &n : F.hostNets)
      if (n.vlan)
        cells(*o, cidr(n.base + 1, n.len), "reserved", "", hosts[n.leaf], "vlan" + std::to_string(n.vlan), "gateway");
    flush(*o);
    return true;
  }
};
} // namespace

bool runNetbox(BackendContext &ctx) {
  Writer w(ctx);
  if (!w.sites() || !w.manufacturers() || !w.deviceTypes() || !w.roles() || !w.racks() || !w.devices() ||
      !w.interfaces() || !w.cables() || !w.addresses())
    return failOpen(ctx);
  return true;
}

} // namespace fabc
