// Every backend, by name. The order is the order of --emit=all and of the docs.
#include "backends/Common.h"
#include "backends/infiniband/InfiniBand.h"
#include "backends/slurm/Slurm.h"
#include "backends/dot/Dot.h"
#include "backends/ir/Ir.h"

namespace fabc {

const std::vector<Backend> &backends() {
  static const std::vector<Backend> list = {
      {"summary", "what the checks measured: tiers, oversubscription, bisection, latency, NVLink domains (summary.json)",
       runSummary, true, true, Analyses::NeedEnergy | Analyses::NeedReliability},
      {"bom", "bill of materials: devices, transceivers and cables by SKU (bom/bom.csv, bom/bom.json)", runBom, true, true, Analyses::NeedBom},
      {"cabling", "cabling plan, one row per cable with ends, racks, media and length (cabling/plan.csv, .json)",
       runCabling, true},
      {"energy", "energy budget per tier, rack and building, and the pluggable-vs-CPO what-if (energy/energy.json, .csv)",
       runEnergy, true, true, Analyses::NeedEnergy},
      {"report", "the design report: one self-contained HTML page, summary, latency, energy, BOM, topology, diagnostics "
                 "(report/index.html)",
       runReport, false, true, Analyses::NeedBom | Analyses::NeedEnergy | Analyses::NeedReliability},
      {"infiniband", "InfiniBand fabric: ibsim/ibnetdiscover net file, OpenSM ftree root and compute-node GUIDs "
                     "and the opensm.conf fragment that uses them, node name map, "
                     "IBDM expected-cabling topology and IBNL (infiniband/)",
       runInfiniband, false},
      {"slurm", "Slurm topology.conf for topology/tree (leaf groups and the switches above) and for "
                "topology/block (one block per NVLink domain), and both in topology.yaml (Slurm 25.05+) (slurm/)",
       runSlurm, false},
      {"dot", "Graphviz diagram: tiers as ranks, su/pod groups as clusters, collapsed past dot_max_nodes "
              "(dot/fabric.dot)",
       runDot, false},
      {"sonic", "SONiC config_db.json per Ethernet switch: ports, interfaces, BGP, RoCE QoS (sonic/HOST/config_db.json)",
       runSonic, false},
      {"frr", "FRR frr.conf per Ethernet switch: eBGP unnumbered or numbered (frr/HOST/frr.conf, frr/wiring.csv)",
       runFrr, false},
      {"nvue", "Cumulus Linux NVUE startup.yaml per Ethernet switch (nvue/HOST/startup.yaml)", runNvue, false},
      {"hosts", "GPU servers' side of host addressing: per-NIC plan and one netplan per server (hosts/plan.csv, "
                "plan.json, netplan/HOST.yaml); with policy roce, a RoCE script and an NCCL file per server and a "
                "NicConfigurationTemplate (roce/HOST.sh, nccl/HOST.env, nic-configuration-operator.yaml); writes "
                "nothing without policy addressing host_pool",
       runHosts, true},
      {"ptm", "Cumulus PTM topology.dot: the expected cabling of the Ethernet fabric in switch port names, "
              "checked on each switch against LLDP (ptm/topology.dot)",
       runPtm, false},
      {"cvt", "NVIDIA UFM Cable Validation Tool topology file (DOT) of the Ethernet fabric (cvt/topology.dot)", runCvt,
       false},
      {"design", "the evaluated design as data: places, models, devices with their ports and addresses, cables "
                 "(export/design.json; fabc export; not in 'all')",
       runDesign, false, /*inAll=*/false},
      {"design-yaml", "the same as YAML (export/design.yaml; fabc export --format=yaml; not in 'all')", runDesignYaml,
       false, /*inAll=*/false},
      {"netbox", "NetBox bulk-import CSV: sites, manufacturers, device types, roles, racks, devices, interfaces, "
                 "cables, IP addresses, numbered in import order (netbox/; fabc export --format=netbox; not in 'all')",
       runNetbox, false, /*inAll=*/false},
      {"ir", "the Fabric IR as JSON, to test a pass on its own with --stop-after (ir/ir.json; not in 'all')", runIr,
       false, /*inAll=*/false},
  };
  return list;
}

const Backend *findBackend(std::string_view name) {
  for (const Backend &b : backends())
    if (name == b.name)
      return &b;
  return nullptr;
}

} // namespace fabc
