#pragma once
// What an output check (compiler/checks/) prepares for its backend: the result its rules
// were checked on, stored in Analyses so that the emitter writes exactly that and
// computes nothing (CIRCT's LegalizeNames/PrepareForEmission pattern). A plan is filled
// only when its backend is checked (`checked` says so).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fabc {

// sonic, frr, nvue: the switches that get a configuration (protocol = "ethernet").
struct EthernetPlan {
  bool checked = false;
  std::vector<uint32_t> switches; // device order
};

// nvue: the Cumulus Linux release the startup.yaml files are written for (option
// nvue_release, checked against the table in compiler/checks/Nvue.cpp) and the NVUE
// dialect of that release. Cumulus Linux 5.15 renamed the keys fabc writes (`enable: on`
// became `state: enabled`, an interface's `ip` became `ipv4`); backends/nvue/Dialect.h
// holds the spelling of each dialect.
enum class NvueDialect : uint8_t {
  Cl50,  // Cumulus Linux 5.0 to 5.14
  Cl515, // Cumulus Linux 5.15 and later
};
struct NvuePlan {
  bool checked = false;
  NvueDialect dialect = NvueDialect::Cl515;
  std::string version = "5.15.0"; // the header's "Cumulus Linux X.Y.Z"
  unsigned minor = 15;            // Y: the PFC watchdog and adaptive routing need 5.6
  // policy management's mgmt_allow as a control-plane ACL (Cumulus Linux 5.9 and later,
  // W0420 before): written when true. aclNtp: the ntp_servers no mgmt_allow prefix
  // covers, whose replies to the switch's NTP client the ACL permits too.
  bool controlPlaneAcl = false;
  std::vector<uint32_t> aclNtp;
};

// sonic: what the platform files name (checked against the catalog's SONiC properties)
// and each switch's MAC from policy addressing's mac_pool.
struct SonicPlan {
  bool checked = false;
  // Per layout (ir::Fabric::layouts), per port group: BREAKOUT_CFG's mode, the model's
  // platform.json name (interned), or 0 when the model names none (fabc's "2x400G").
  std::vector<std::vector<uint32_t>> breakoutMode;
  bool macs = false;   // mac_pool given: the i-th switch of EthernetPlan::switches gets
  uint64_t macBase = 0; // macBase + i
  // VERSIONS|DATABASE's VERSION: the schema version the target release's db_migrator
  // sets (option sonic_release), so that loading the file replays no migration.
  const char *dbVersion = "version_202605_01";
};

// sonic, nvue: policy management, checked once for every backend that writes it.
struct ManagementPlan {
  bool checked = false, ok = true;
  std::vector<uint32_t> ntp, syslog, tacacs; // IPv4 server addresses, as declared
  bool vrf = false;                          // the management port in VRF mgmt
  bool addresses = false;                    // mgmt_pool given
  // tacacs_secret, resolved from its reference ("env:NAME", "file:/path") when the
  // outputs are built (checks/Secrets.cpp); empty: none given.
  std::string tacacsSecret;
  uint32_t base = 0, gateway = 0;
  unsigned len = 0;
  // mgmt_allow: the IPv4 prefixes (base, length) that may reach every switch's SSH, SNMP
  // and NTP, as declared; empty: no control-plane ACL is written.
  std::vector<std::pair<uint32_t, uint8_t>> allow;
  // The i-th switch of EthernetPlan::switches: the pool's i-th host address, the
  // gateway skipped.
  uint32_t address(uint32_t i) const {
    uint32_t a = base + 1 + i;
    return a >= gateway && gateway > base ? a + 1 : a;
  }
};

// frr, sonic, nvue: policy bfd, BFD on every fabric BGP session (peer group FABRIC).
struct BfdPlan {
  bool checked = false, ok = true, enabled = false;
  uint32_t intervalMs = 300; // transmit and receive; FRR's and Cumulus Linux's default
  uint32_t multiplier = 3;
};

// frr, sonic, nvue: policy bgp, the limits every fabric BGP session (peer group FABRIC) keeps.
struct BgpPlan {
  bool checked = false, ok = true, enabled = false;
  uint32_t maxPrefix = 0;          // 0: no limit
  bool warningOnly = false;        // past the limit: log (true) or close the session
  uint64_t fabricPrefixes = 0;     // what the fabric originates: loopbacks and host subnets
  std::string password;            // the sessions' TCP-MD5 key, resolved from its reference; empty: none
};

// sonic, nvue: policy storm_control, the limits on every host-facing switch port.
struct StormControlPlan {
  bool checked = false, ok = true, enabled = false;
  // Packets per second (NVUE's unit); 0: no limit of that kind.
  uint32_t broadcast = 0, multicast = 0, unknownUnicast = 0;
  uint32_t frameBytes = 64; // frame_size: what SONiC's bit rates are computed with
  // SONiC's PORT_STORM_CONTROL rate: kbit/s of `pps` frames of frameBytes, rounded up.
  uint64_t kbps(uint32_t pps) const { return (uint64_t(pps) * frameBytes * 8 + 999) / 1000; }
};

// One InfiniBand subnet: what one subnet manager's files hold (backends/infiniband).
struct InfinibandSubnet {
  std::vector<uint32_t> switches;  // InfiniBand switches, device order
  std::vector<uint32_t> hcaPorts;  // end-system ports on InfiniBand links, port order
  std::vector<uint32_t> cnPorts;   // those of compute systems (role compute): OpenSM's compute nodes
  std::vector<uint32_t> devs;      // every device of the subnet, device order
  uint64_t links = 0;
  uint32_t topTier = 0;
  std::string routingEngine;       // OpenSM's routing_engine: policy infiniband's, else the default
  bool engineFromPolicy = false;
  uint64_t cnUnpinned = 0;         // compute HCA ports --guids-from found no GUID for (W0350): not in cnPorts
};

// A plane of InfiniBand switches (a `group plane`): a subnet of its own, with its own
// subnet manager and files under infiniband/<dir>/ (decision 0451).
struct InfinibandPlane : InfinibandSubnet {
  uint32_t group = UINT32_MAX;     // into ir::Fabric::groups
  std::string dir;                 // the plane's name under the host-name rule
  // Where its subnet manager runs: the port GUID of OpenSM's `guid` option, the HCA port
  // (UINT32_MAX: port 0 of switch smSwitch, a managed switch's own SM) and why it was taken.
  enum class SmFrom : uint8_t { Management, Compute, Hca, Switch };
  SmFrom smFrom = SmFrom::Compute;
  uint32_t smPort = UINT32_MAX, smSwitch = UINT32_MAX;
  uint64_t smGuid = 0;
};

// The InfiniBand fabric (ir/InfiniBand.h draws its boundary): the whole, and its planes.
struct InfinibandPlan : InfinibandSubnet {
  bool checked = false;
  bool empty = true;               // no InfiniBand switch (W0157): no file is written
  std::vector<uint32_t> nameOf;    // device -> index in names; UINT32_MAX outside the fabric
  std::vector<std::string> names;  // host names, checked (FAB-E0107)
  std::vector<std::string> hcaDescriptions; // NodeDescription per hcaPorts entry, cut at 63 bytes (W0152)
  std::vector<uint64_t> hostGroups; // per layout: port groups with InfiniBand links (bit mask)
  // Empty: the design declares no plane of InfiniBand switches, and the whole fabric is
  // one subnet (infiniband/'s files). Else one subnet per plane, in declaration order.
  std::vector<InfinibandPlane> planes;
};

// Slurm's view: the tree (leaf groups and the switches above) and the NVLink blocks.
struct SlurmPlan {
  bool checked = false;
  struct Entry {
    std::string name;
    std::vector<uint32_t> switches; // physical switches behind the entry (a leaf group: several)
    std::vector<uint32_t> nodes;    // leaf: compute systems
    std::vector<uint32_t> children; // upper: entries below
    uint8_t tier = 1;
  };
  std::vector<Entry> entries;      // empty: nothing for Slurm (W0158), no file is written
  std::vector<uint32_t> entryOf;   // device -> entry, UINT32_MAX
  std::vector<std::string> host;   // device -> host name (switches and nodes), checked
  struct Block {
    std::string name;
    std::vector<uint32_t> nodes;
    uint32_t gpus = 0;
  };
  std::vector<Block> blocks;       // in declaration order
  bool blocksFromGroups = false;   // one block per NVLink group (else one per system)
  size_t baseBlock = 0;            // the smallest block's node count
};

// ptm, cvt: the expected cabling of the Ethernet fabric (links with an Ethernet switch at
// one end or both) for Cumulus PTM's and NVIDIA's cable validation tool's topology.dot.
struct LldpCablingPlan {
  bool checked = false;
  bool ok = true;                  // the check's result, for the second backend that asks
  std::vector<uint32_t> links;     // link order
  std::vector<uint8_t> bFirst;     // per entry of links: write the B end first
  std::vector<uint32_t> nameOf;    // device -> index in names; UINT32_MAX if on no such link
  std::vector<std::string> names;  // host names, checked (FAB-E0107)
  std::vector<uint32_t> switches;  // Ethernet switches on those links, device order
};

// dot: the validated dot_max_nodes, and host names when every device is drawn.
struct DotPlan {
  bool checked = false;
  uint32_t maxNodes = 1000;
  bool collapsed = false;
  std::vector<std::string> hosts; // by device, when not collapsed
};

// summary, report: the coverage of the figures summed over parts was checked (FAB-W0310
// reported once per compilation).
struct CoveragePlan {
  bool checked = false;
};

// report: the validated report_collapse.
// A design sweep (fabc sweep's table), as its chart needs it: the parameters swept and,
// per point, the index of each one's value, whether it built without an error, its GPUs
// and its facility power (W; NaN where the point has none).
struct SweepTable {
  struct Param {
    std::string name;
    std::vector<std::string> values;
  };
  struct Point {
    std::vector<uint32_t> at;
    bool ok = false;
    double gpus = 0, facility = 0;
  };
  std::string design; // the swept file, as given
  std::vector<Param> params;
  std::vector<Point> points;
  int64_t largestPassing = -1; // index into points, -1: none
};

struct ReportPlan {
  bool checked = false;
  uint32_t collapse = 64;
  std::shared_ptr<const SweepTable> sweep; // fabc build --sweep FILE: drawn in the report
  std::string sweepFile;
};

// design, design-yaml, netbox (fabc export): every device's host name, checked
// (FAB-E0107: a DCIM's device names must be valid and distinct), by device; and per
// port, the NetBox interface type (checks/Export.h), by global port id.
struct ExportPlan {
  bool checked = false;
  std::vector<std::string> hosts;
};

// hosts: the GPU servers with an addressed NIC (passes/HostAddressing.h), in device
// order; their host names are checked (FAB-E0107).
struct HostsPlan {
  bool checked = false;
  std::vector<uint32_t> servers;
};

} // namespace fabc
