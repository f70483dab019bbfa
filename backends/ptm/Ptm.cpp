// Cumulus PTM's topology.dot (ptm/topology.dot): the expected cabling of the Ethernet
// fabric, one undirected edge per cable, `"host":"port" -- "host":"port";`, in the
// names LLDP reports (host names, Cumulus swp names). ptmd on each switch reads the
// whole file (/etc/ptm.d/topology.dot) and checks the edges that name it against its
// LLDP neighbours. The links and names are the output check's (checks/LldpCabling.cpp);
// formats: docs/backends.md#ptm.
#include "backends/Common.h"
#include "backends/ethernet/Ethernet.h"

namespace fabc {

bool runPtm(BackendContext &ctx) {
  const ir::Fabric &F = ctx.F;
  const LldpCablingPlan &p = ctx.an.lldpCabling;
  if (p.links.empty()) // no Ethernet link (W0160): nothing to write
    return true;
  OutFile *o = ctx.out.open("ptm/topology.dot");
  if (!o)
    return failOpen(ctx);
  o->print("# fabc {}: expected cabling of '{}' for Cumulus PTM (ptmd): install as /etc/ptm.d/topology.dot\n"
           "# on every switch; each checks the cables that name it against LLDP (ptmctl shows the result).\n"
           "# {} cables, {} switches; server ports are named as in docs/backends.md#host-names.\n",
           ctx.info.version, F.name, p.links.size(), p.switches.size());
  o->write("graph G {\n");
  for (size_t i = 0; i < p.links.size(); ++i) {
    uint32_t l = p.links[i], a = F.linkA[l], b = F.linkB[l];
    if (p.bFirst[i])
      std::swap(a, b);
    o->print("  \"{}\":\"{}\" -- \"{}\":\"{}\";\n", p.names[p.nameOf[F.portDevice[a]]], eth::cumulusEndName(F, a),
             p.names[p.nameOf[F.portDevice[b]]], eth::cumulusEndName(F, b));
  }
  o->write("}\n");
  return true;
}

} // namespace fabc
