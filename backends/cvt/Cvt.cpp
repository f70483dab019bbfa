// The NVIDIA UFM Cable Validation Tool's DOT topology file for an Ethernet fabric
// (cvt/topology.dot): `graph network`, one node per switch with its label, role (leaf,
// spine, super_spine) and os, then one edge per cable, `"switch":"swpN" -- "peer":"port"`.
// The links and names are the output check's (checks/LldpCabling.cpp); the format and
// its source: docs/backends.md#cvt.
#include "backends/Common.h"
#include "backends/ethernet/Ethernet.h"

namespace fabc {
namespace {
// The tool's switch roles: tier 3 and up are its super spines.
const char *role(ir::Tier t) {
  switch (t) {
  case ir::Tier::Leaf: return "leaf";
  case ir::Tier::Spine: return "spine";
  case ir::Tier::Core:
  case ir::Tier::Super: return "super_spine";
  default: return nullptr;
  }
}
} // namespace

bool runCvt(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const LldpCablingPlan &p = ctx.an.lldpCabling;
  if (p.links.empty()) // no Ethernet link (W0160): nothing to write
    return true;
  OutFile *o = ctx.out.open("cvt/topology.dot");
  if (!o)
    return failOpen(ctx);
  o->print("// fabc {}: expected cabling of '{}' for the NVIDIA UFM Cable Validation Tool (DOT topology\n"
           "// file, Ethernet): {} cables, {} switches (Cumulus Linux port names); server ports are named\n"
           "// as in docs/backends.md#host-names.\n",
           ctx.info.version, F.name, p.links.size(), p.switches.size());
  o->write("graph network {\n");
  for (uint32_t s : p.switches) {
    const std::string &h = p.names[p.nameOf[s]];
    const char *r = role(F.devTier[s]);
    if (r)
      o->print("  \"{}\" [label=\"{}\" role=\"{}\" os=\"cumulus\"]\n", h, h, r);
    else
      o->print("  \"{}\" [label=\"{}\" os=\"cumulus\"]\n", h, h);
  }
  for (size_t i = 0; i < p.links.size(); ++i) {
    uint32_t l = p.links[i], a = F.linkA[l], b = F.linkB[l];
    if (p.bFirst[i])
      std::swap(a, b);
    o->print("  \"{}\":\"{}\" -- \"{}\":\"{}\"\n", p.names[p.nameOf[F.portDevice[a]]], eth::cumulusEndName(F, a),
             p.names[p.nameOf[F.portDevice[b]]], eth::cumulusEndName(F, b));
  }
  o->write("}\n");
  return true;
}

} // namespace fabc
