// The InfiniBand fabric of a design (ir/InfiniBand.h draws its boundary), in the
// formats of the programs that run one:
//   infiniband/fabric.net      ibnetdiscover's topology format, which ibsim simulates
//   infiniband/root_guids.txt  OpenSM's root_guid_file for the ftree routing engine
//   infiniband/node_name_map   GUID -> name, for OpenSM and infiniband-diags
//   infiniband/cn_guids.txt    OpenSM's cn_guid_file: the compute nodes' HCA port GUIDs
//   infiniband/opensm.conf.fragment  the OpenSM options that use them (the routing
//                              engine, the files where they are installed: /etc/opensm/),
//                              to merge into the subnet manager's own opensm.conf
//   infiniband/fabric.topo     IBDM topology file, the expected cabling that
//                              ibdiagnet -t, ibtopodiff and NVIDIA's cable validation
//                              tool compare the discovered fabric with
//   infiniband/ibnl/*.ibnl     the IBNL system definitions fabric.topo refers to
// A design whose planes hold InfiniBand switches gets these files per plane instead, one
// subnet each, in infiniband/<plane>/, and infiniband/planes.txt naming them.
// Formats and conventions: docs/backends.md#infiniband. Everything streams, in device
// and port order.
#include "backends/infiniband/InfiniBand.h"

#include "backends/Common.h"
#include "backends/Hostnames.h"
#include "ir/InfiniBand.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace fabc {
namespace {
using ir::None;
namespace ib = ir::ib;

// Where opensm.conf says the files are: OpenSM's own configuration directory (its
// default -F is /etc/opensm/opensm.conf, in Debian's and NVIDIA's packages alike); a
// plane's in a directory of its own there, so that one host can run the SMs of several.
constexpr const char *OpensmDir = "/etc/opensm/";

// The fabric the output checks drew and checked (checks/InfiniBand.cpp), the subnet
// being written (the whole fabric, or one plane: checks/InfiniBandPlanes.cpp), and the
// IBNL type names of its layouts.
struct View {
  View(const ir::Fabric &f, const InfinibandPlan &p, const InfinibandSubnet &s) : F(f), P(p), S(s) {}
  const ir::Fabric &F;
  const InfinibandPlan &P;
  const InfinibandSubnet &S;
  const InfinibandPlane *plane = nullptr; // null: the whole fabric is one subnet
  std::string out = "infiniband/";        // where its files go
  std::string etc = OpensmDir;            // where opensm.conf.fragment says they are installed
  std::string title;                      // "'pod'", "'pod' plane 'planeA'"
  std::vector<std::string> typeOfLayout;  // IBNL system type per layout ("" unused)
};

bool isIbPort(const ir::Fabric &F, uint32_t port) {
  uint32_t l = F.portLink[port];
  return l != None && ib::isLink(F, l);
}

// An IBNL name: a letter, then at least one more character, and not one of IBNL's
// keywords (its lexer takes "SW" or "NODE" as keywords, "S" as nothing).
std::string ibnlName(std::string s) {
  static const char *keywords[] = {"SYSTEM", "TOPSYSTEM", "SUBSYSTEM", "NODE", "SW", "CA", "HCA"};
  if (s.empty() || !std::isalpha((unsigned char)s[0]))
    s.insert(0, "X");
  for (const char *k : keywords)
    if (s == k)
      s += '_';
  if (s.size() < 2)
    s += '_';
  return s;
}

// The IBNL system type of a layout: the model's name, and the breakouts that change
// its port count ("QM9700_px2").
std::string typeName(const ir::Fabric &F, uint32_t layout) {
  const ir::Layout &L = F.layouts[layout];
  const ir::Model &m = F.models[L.model];
  std::string t(F.strings.str(m.name));
  for (size_t g = 0; g < L.groups.size(); ++g)
    if (L.groups[g].breakout > 1)
      t += fmt::format("_{}x{}", F.strings.str(m.ports[g].name), L.groups[g].breakout);
  return ibnlName(t);
}

const std::string &host(const View &v, uint32_t dev) { return v.P.names[v.P.nameOf[dev]]; }

// NodeDescription: the host name for a switch, "host port" for an HCA (cut at 63 bytes
// by the output check, which warns).
const std::string &desc(const View &v, uint32_t dev, uint32_t port) {
  if (port == None)
    return host(v, dev);
  const std::vector<uint32_t> &hca = v.P.hcaPorts;
  return v.P.hcaDescriptions[std::lower_bound(hca.begin(), hca.end(), port) - hca.begin()];
}

void emitNet(BackendContext &ctx, const View &v, OutFile &o) {
  const ir::Fabric &F = ctx.F;
  o.print("# fabc {}: InfiniBand fabric {}, ibnetdiscover topology format (ibsim reads it)\n", ctx.info.version,
          v.title);
  o.print("# {} switches, {} HCAs (one single-port HCA per end-system port), {} links\n", v.S.switches.size(),
          v.S.hcaPorts.size(), v.S.links);
  // ibsim's tables are fixed in size (defaults: 2048 nodes, 256 switches, 13312 ports,
  // a switch counting its port 0): say what this fabric needs.
  uint64_t ports = v.S.hcaPorts.size();
  for (uint32_t s : v.S.switches)
    ports += F.layoutOf(s).ports + 1;
  o.print("# ibsim needs -N {} -S {} -P {} past its defaults (2048 nodes, 256 switches, 13312 ports)\n\n",
          v.S.switches.size() + v.S.hcaPorts.size(), v.S.switches.size(), ports);
  for (uint32_t s : v.S.switches) {
    uint64_t g = F.devGuid[s];
    o.print("switchguid=0x{:x}({:x})\nSwitch\t{} \"S-{:016x}\"\t\t# \"{}\"\n", g, g, F.layoutOf(s).ports, g,
            desc(v, s, None));
    uint32_t base = F.devPortBase[s];
    for (uint32_t p = base; p < base + F.layoutOf(s).ports; ++p) {
      if (!isIbPort(F, p))
        continue;
      uint32_t q = F.otherEnd(F.portLink[p], p), e = F.portDevice[q];
      if (ib::isSwitch(F, e)) {
        o.print("[{}]\t\"S-{:016x}\"[{}]\t\t# \"{}\"\n", ib::portNumber(F, p), F.devGuid[e], ib::portNumber(F, q),
                desc(v, e, None));
      } else {
        uint64_t h = ib::hcaGuid(F, q);
        o.print("[{}]\t\"H-{:016x}\"[1]({:x})\t\t# \"{}\"\n", ib::portNumber(F, p), h, ib::hcaPortGuid(F, q),
                desc(v, e, q));
      }
    }
    o.write("\n");
  }
  for (uint32_t q : v.S.hcaPorts) {
    uint64_t h = ib::hcaGuid(F, q);
    uint32_t p = F.otherEnd(F.portLink[q], q), s = F.portDevice[p];
    o.print("caguid=0x{:x}\nCa\t1 \"H-{:016x}\"\t\t# \"{}\"\n", h, h, desc(v, F.portDevice[q], q));
    o.print("[1]({:x})\t\"S-{:016x}\"[{}]\t\t# \"{}\"\n\n", ib::hcaPortGuid(F, q), F.devGuid[s], ib::portNumber(F, p),
            desc(v, s, None));
  }
}

// ftree's roots: the switches of the highest tier. OpenSM skips '#' lines.
void emitRoots(const View &v, OutFile &o) {
  size_t roots = 0;
  for (uint32_t s : v.S.switches)
    roots += ir::tierIndex(v.F.devTier[s]) == v.S.topTier;
  o.print("# OpenSM root_guid_file for the ftree routing engine (opensm -R ftree -a FILE): the {} {} switch{}\n",
          roots, tierName(v.S.topTier), roots == 1 ? "" : "es");
  if (v.S.topTier < 2)
    o.write("# The fabric has one switch tier: ftree needs two or more, use another engine (minhop)\n");
  for (uint32_t s : v.S.switches)
    if (ir::tierIndex(v.F.devTier[s]) == v.S.topTier)
      o.print("0x{:016x}\n", v.F.devGuid[s]);
}

// OpenSM's cn_guid_file: the port GUIDs of the compute nodes' HCAs (opensm -u). ftree
// routes between compute nodes; other HCAs (storage, UFM) are I/O nodes to it. After
// --guids-from it lists discovered GUIDs only (checks/InfiniBand.cpp, W0350).
void emitCnGuids(BackendContext &ctx, const View &v, OutFile &o) {
  o.print("# fabc {}: OpenSM cn_guid_file of {} for the ftree routing engine (opensm -u FILE): the port\n"
          "# GUIDs of the {} HCA ports of compute systems ({} HCA ports in the {})\n",
          ctx.info.version, v.title, v.S.cnPorts.size(), v.S.hcaPorts.size(), v.plane ? "plane" : "fabric");
  if (ctx.F.guidsFromDiscovery)
    o.print("# GUIDs as discovered (fabc build --guids-from){}\n",
            v.S.cnUnpinned ? fmt::format(": {} compute HCA port{} with no discovered GUID left out (FAB-W0350)",
                                         v.S.cnUnpinned, v.S.cnUnpinned == 1 ? "" : "s")
                           : "");
  for (uint32_t q : v.S.cnPorts)
    o.print("0x{:016x}\n", ib::hcaPortGuid(ctx.F, q));
}

// A plane's subnet manager: the port OpenSM binds to (checks/InfiniBandPlanes.cpp says
// which), and a log of its own beside the other planes' SMs.
void emitPlaneSm(BackendContext &ctx, const View &v, OutFile &o) {
  const ir::Fabric &F = ctx.F;
  const InfinibandPlane &p = *v.plane;
  using From = InfinibandPlane::SmFrom;
  std::string where = p.smFrom == From::Switch ? fmt::format("'{}' port 0", host(v, p.smSwitch))
                                               : fmt::format("'{}'", desc(v, F.portDevice[p.smPort], p.smPort));
  const char *why = p.smFrom == From::Management ? "a management system's port in the plane"
                    : p.smFrom == From::Compute  ? "the plane's first compute HCA port"
                    : p.smFrom == From::Hca      ? "the plane's first HCA port"
                                                 : "no HCA in the plane: the switch's own SM";
  o.print("# The plane is a subnet of its own: its subnet manager is OpenSM bound to the port\n"
          "# below, {} ({}). Run one OpenSM per plane\n"
          "# (docs/backends.md#infiniband-planes).\n"
          "guid 0x{:016x}\n\n",
          where, why, p.smGuid);
  o.print("# Its log, apart from the other planes' SMs on the same host (each also needs its own\n"
          "# OSM_CACHE_DIR). subnet_prefix stays OpenSM's default, 0xfe80000000000000, in every\n"
          "# plane: add one per plane where GIDs must tell the planes apart\n"
          "log_file /var/log/opensm-{}.log\n\n",
          p.dir);
}

// The opensm.conf options that put the other files to use, naming them where
// docs/backends.md (opensm.conf.fragment) installs them: a fragment to merge into the
// subnet manager's own file (a vendor's opensm.conf carries settings of its own).
void emitOpensmConf(BackendContext &ctx, const View &v, OutFile &o) {
  const InfinibandSubnet &P = v.S;
  o.print("# fabc {}: OpenSM options for InfiniBand fabric {}.\n"
          "# A FRAGMENT: merge these lines into the subnet manager's own opensm.conf (a later\n"
          "# line overrides an earlier one); never install it in that file's place, which would\n"
          "# drop the vendor's settings. That file is /etc/opensm/opensm.conf for OpenSM from\n"
          "# MLNX_OFED/DOCA or Debian, /opt/ufm/files/conf/opensm/opensm.conf under UFM\n"
          "# Enterprise. The files named below are this directory's, installed in {}.\n\n",
          ctx.info.version, v.title, v.etc);
  if (v.plane)
    emitPlaneSm(ctx, v, o);
  if (P.engineFromPolicy)
    o.write("# Routing engine: the design's policy infiniband\n");
  else if (P.routingEngine.rfind("ar_", 0) == 0)
    o.write("# Routing engine: NVIDIA's adaptive-routing engines, the default of NVIDIA's OpenSM for\n"
            "# Quantum switches; upstream OpenSM has no ar_* engine, skips them and routes with\n"
            "# the last one (policy infiniband sets them)\n");
  else if (P.topTier >= 2)
    o.write("# Routing engine: fat-tree routing from the design's roots\n");
  else
    o.write("# Routing engine: one switch tier, so min-hop routing (ftree needs two or more)\n");
  o.print("routing_engine {}\n", P.routingEngine);
  if (P.topTier >= 2)
    o.print("\n# The fat tree's roots, its {} switches (ftree and updn engines)\nroot_guid_file {}root_guids.txt\n",
            tierName(P.topTier), v.etc);
  if (!P.cnPorts.empty()) {
    o.print("\n# The compute nodes' HCA ports ({} of {}); the others are I/O nodes to ftree\n", P.cnPorts.size(),
            P.hcaPorts.size());
    o.print("cn_guid_file {}cn_guids.txt\n", v.etc);
  } else {
    // OpenSM's ftree fails on a cn_guid_file without a GUID of the fabric ("Fabric has no
    // valid compute nodes"); without the option it counts every HCA as a compute node.
    o.print("\n# No cn_guid_file: no compute HCA port {}, so cn_guids.txt lists\n"
            "# none; without the option OpenSM counts every HCA as a compute node\n",
            ctx.F.guidsFromDiscovery && P.cnUnpinned ? "got a GUID from the discovery" : "in the fabric");
  }
  o.print("\n# The design's names for the nodes in OpenSM's log and dumps\nnode_name_map_name {}node_name_map\n",
          v.etc);
}

void emitNameMap(BackendContext &ctx, const View &v, OutFile &o) {
  const ir::Fabric &F = ctx.F;
  o.print("# fabc {}: InfiniBand node names of {} (node GUID \"NodeDescription\")\n", ctx.info.version, v.title);
  for (uint32_t s : v.S.switches)
    o.print("0x{:016x} \"{}\"\n", F.devGuid[s], desc(v, s, None));
  for (uint32_t q : v.S.hcaPorts)
    o.print("0x{:016x} \"{}\"\n", ib::hcaGuid(F, q), desc(v, F.portDevice[q], q));
}

// Port names on the system panels of fabric.topo and ibnl/: "P<n>" on a switch (its
// InfiniBand port number), the design's port ("cx3") on an end system.
std::string panelPort(const ir::Fabric &F, uint32_t port) {
  return ib::isSwitch(F, F.portDevice[port]) ? fmt::format("P{}", ib::portNumber(F, port))
                                              : ibnlName(names::portLabel(F, port));
}

void emitTopo(BackendContext &ctx, const View &v, OutFile &o) {
  const ir::Fabric &F = ctx.F;
  o.print("# fabc {}: expected cabling of InfiniBand fabric {}, IBDM topology file\n", ctx.info.version, v.title);
  o.write("# (ibdiagnet -t, ibtopodiff -t, cable validation tool). The system types are in ibnl/:\n"
          "# set IBDM_IBNL_PATH to that directory. Each link is listed once, at its switch end\n"
          "# (between switches: at the one declared first).\n\n");
  for (uint32_t s : v.S.switches) {
    o.print("{} {}\n", v.typeOfLayout[F.devLayout[s]], host(v, s));
    uint32_t base = F.devPortBase[s];
    for (uint32_t p = base; p < base + F.layoutOf(s).ports; ++p) {
      if (!isIbPort(F, p))
        continue;
      uint32_t q = F.otherEnd(F.portLink[p], p), e = F.portDevice[q];
      if (ib::isSwitch(F, e) && e < s)
        continue;
      o.print("   {} -> {} {} {}\n", panelPort(F, p), v.typeOfLayout[F.devLayout[e]], host(v, e), panelPort(F, q));
    }
    o.write("\n");
  }
}

bool emitIbnl(BackendContext &ctx, const View &v) {
  const ir::Fabric &F = ctx.F;
  std::map<std::string, uint32_t> types; // sorted: one file per system type, and a device of it
  for (uint32_t d : v.S.devs)
    types.emplace(v.typeOfLayout[F.devLayout[d]], d);
  for (const auto &kv : types) {
    OutFile *o = ctx.out.open(v.out + "ibnl/" + kv.first + ".ibnl");
    if (!o)
      return failOpen(ctx);
    uint32_t dev = kv.second, layout = F.devLayout[dev];
    const ir::Layout &L = F.layouts[layout];
    const ir::Model &m = F.models[L.model];
    std::string model = ibnlName(std::string(F.strings.str(m.name)));
    // IBNL has no comments: the file is the definition only.
    o->print("TOPSYSTEM {}\n\n", kv.first);
    if (m.kind == ir::ModelKind::Switch && m.protocol == ir::Protocol::InfiniBand) {
      o->print("NODE SW {} {} U1\n", L.ports, model);
      for (uint32_t p = 1; p <= L.ports; ++p)
        o->print("   {} -> P{}\n", p, p);
      continue;
    }
    // One single-port CA per port of the groups that carry InfiniBand links.
    uint32_t unit = 0;
    for (uint32_t g = 0; g < L.groups.size(); ++g) {
      if (!(v.P.hostGroups[layout] >> std::min<uint32_t>(g, 63) & 1))
        continue;
      uint32_t first = F.devPortBase[dev] + L.groups[g].offset;
      for (uint32_t i = 0; i < L.groups[g].count; ++i, ++unit)
        o->print("{}NODE CA 1 {} U{}\n   1 -> {}\n", unit ? "\n" : "", model, unit + 1,
                 panelPort(F, first + i));
    }
  }
  return true;
}

// One subnet's files: the whole fabric's in infiniband/, or a plane's in its directory.
bool emitSubnet(BackendContext &ctx, View &v) {
  for (uint32_t d : v.S.devs)
    if (v.typeOfLayout[ctx.F.devLayout[d]].empty())
      v.typeOfLayout[ctx.F.devLayout[d]] = typeName(ctx.F, ctx.F.devLayout[d]);
  OutFile *net = ctx.out.open(v.out + "fabric.net");
  OutFile *roots = ctx.out.open(v.out + "root_guids.txt");
  OutFile *map = ctx.out.open(v.out + "node_name_map");
  OutFile *topo = ctx.out.open(v.out + "fabric.topo");
  OutFile *cns = ctx.out.open(v.out + "cn_guids.txt");
  OutFile *conf = ctx.out.open(v.out + "opensm.conf.fragment");
  if (!net || !roots || !map || !topo || !cns || !conf)
    return failOpen(ctx);
  emitNet(ctx, v, *net);
  emitRoots(v, *roots);
  emitNameMap(ctx, v, *map);
  emitCnGuids(ctx, v, *cns);
  emitOpensmConf(ctx, v, *conf);
  emitTopo(ctx, v, *topo);
  return emitIbnl(ctx, v);
}

// infiniband/planes.txt: which directory holds which plane's subnet, and where its SM runs.
void emitPlanes(BackendContext &ctx, OutFile &o) {
  const ir::Fabric &F = ctx.F;
  const InfinibandPlan &P = ctx.an.infiniband;
  o.print("# fabc {}: InfiniBand subnets of '{}', one per plane (docs/backends.md#infiniband).\n"
          "# Planes share no switch, so each is a subnet with its own subnet manager: install a\n"
          "# plane's directory in {}PLANE/ on the host of its SM (sm_port_guid, the `guid` of\n"
          "# its opensm.conf.fragment) and run one OpenSM per plane with its fragment merged.\n"
          "# plane directory sm_port_guid sm_port switches hca_ports\n",
          ctx.info.version, F.name, OpensmDir);
  for (const InfinibandPlane &p : P.planes) {
    std::string port = p.smPort == None ? P.names[P.nameOf[p.smSwitch]] + " port0"
                                        : P.hcaDescriptions[std::lower_bound(P.hcaPorts.begin(), P.hcaPorts.end(),
                                                                             p.smPort) - P.hcaPorts.begin()];
    o.print("{} {}/ 0x{:016x} \"{}\" {} {}\n", F.nodeName(F.groups[p.group].node), p.dir, p.smGuid, port,
            p.switches.size(), p.hcaPorts.size());
  }
}

} // namespace

bool runInfiniband(BackendContext &ctx) {
  const InfinibandPlan &plan = ctx.an.infiniband;
  if (plan.empty) // no InfiniBand switch (W0157): nothing to write
    return true;
  std::vector<std::string> types(ctx.F.layouts.size(), "");
  if (plan.planes.empty()) {
    View v(ctx.F, plan, plan);
    v.title = "'" + ctx.F.name + "'";
    v.typeOfLayout = std::move(types);
    return emitSubnet(ctx, v);
  }
  OutFile *index = ctx.out.open("infiniband/planes.txt");
  if (!index)
    return failOpen(ctx);
  emitPlanes(ctx, *index);
  for (const InfinibandPlane &p : plan.planes) {
    View v(ctx.F, plan, p);
    v.plane = &p;
    v.out = "infiniband/" + p.dir + "/";
    v.etc = std::string(OpensmDir) + p.dir + "/";
    v.title = fmt::format("'{}' plane '{}'", ctx.F.name, ctx.F.nodeName(ctx.F.groups[p.group].node));
    v.typeOfLayout = types;
    if (!emitSubnet(ctx, v))
      return false;
  }
  return true;
}

} // namespace fabc
