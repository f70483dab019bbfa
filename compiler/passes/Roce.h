#pragma once
// RoCE and Ethernet lint (a logical pass), and the one reading of policy roce that the
// switch-config backends share, so that every generated switch carries the same PFC
// priority, DSCP marking, ECN thresholds and MTU.
#include "ir/Fabric.h"

#include <string>

namespace fabc {
class DiagEngine;

namespace passes {

struct RoceSettings {
  bool enabled = false;      // policy roce is present
  uint32_t pfcPriority = 3;  // lossless priority = traffic class = queue of RoCE data
  uint32_t dscp = 26;        // DSCP of RoCE data
  uint32_t cnpDscp = 48;     // DSCP of congestion notification packets
  bool ecn = true;           // ECN marking (DCQCN) on the RoCE queue
  uint32_t mtu = 0;          // bytes the RoCE traffic needs on every fabric port; 0: not given
  uint64_t ecnMin = 150000;  // bytes of queue depth where marking starts
  uint64_t ecnMax = 1500000; // bytes where every packet is marked
  uint32_t ecnProbability = 100; // percent, at ecnMax
  // The PFC watchdog on every lossless port (pfc_watchdog = false turns it off). A
  // time of 0 is not pinned by the policy: each NOS's own default applies.
  bool pfcWatchdog = true;
  uint32_t pfcwdDetectionMs = 0, pfcwdRestorationMs = 0, pfcwdPollMs = 0;
  enum class PfcwdAction : uint8_t { Drop, Forward, Alert } pfcwdAction = PfcwdAction::Drop;
  bool pfcwdActionSet = false;
  bool adaptiveRouting = false; // Spectrum-X adaptive routing on the routed fabric ports
  SourceRange arLoc;            // adaptive_routing = true, for the targets that cannot express it
  std::string nicType;       // PCI device ID of the GPU NICs ("1023"), lower case; "": not given
  SourceRange loc;           // the policy
  static constexpr uint32_t CnpTrafficClass = 6; // CNPs ride a strict-priority queue
};

// policy roce with its defaults; a value that checkEthernet rejects keeps its default.
RoceSettings roceSettings(const ir::Fabric &F);

// The traffic class of DSCP `dscp` on every switch (docs/decisions/0261): Cumulus
// Linux's lossless RoCE profile trusts DSCP by its class selector (DSCP / 8 is the
// switch priority) and carries the lossless priority and the CNP priority (6) on
// their own traffic classes, the rest on 0: DSCP 24-31 lossless and 48-55 CNP for
// priority 3. The policy's `dscp` is lossless and its `cnp_dscp` is CNP even outside
// those blocks.
uint32_t dscpTrafficClass(const RoceSettings &r, uint32_t dscp);

// SONiC's PFC_WD values for a switch of `ports` PORT entries: the policy's where it
// pins them, else what `pfcwd start_default` writes (sonic-utilities pfcwd/main.py:
// 200 ms detection, restoration and poll, action drop, each times ceil(ports / 32));
// an unpinned poll interval never exceeds the detection or restoration time.
struct PfcWatchdog {
  uint32_t pollMs, detectionMs, restorationMs;
  const char *action; // "drop", "forward", "alert"
};
PfcWatchdog sonicPfcWatchdog(const RoceSettings &r, uint32_t ports);

// NVUE's robustness (polls before the watchdog acts) for a pinned detection time and
// poll interval (Cumulus Linux's default poll is 100 ms).
uint32_t nvueRobustness(const RoceSettings &r);

// Cumulus Linux runs adaptive routing on the Spectrum-4 at 400G and 200G, not on 800G
// links (Cumulus Linux 5.15 user guide, "Equal Cost Multipath Load Sharing").
inline bool adaptiveRoutingSpeed(double bps) { return bps >= 200e9 && bps <= 400e9; }

// The IP ToS byte of RoCE data: the DSCP in the upper six bits, ECT(0) in the ECN bits
// when ECN is on (DSCP 26 with ECN: 106). cma_roce_tos, the RDMA device's traffic class and
// NCCL_IB_TC all take this byte.
inline uint32_t roceTos(const RoceSettings &r) { return r.dscp << 2 | (r.ecn ? 2u : 0u); }

// True when the NICs' default DSCP-to-priority map (priority = DSCP / 8), the one NVIDIA's
// NIC Configuration Operator leaves in place, puts RoCE data on pfcPriority and CNPs on
// the CNP class; else the operator's template cannot express r (FAB-W0341).
inline bool defaultDscpMap(const RoceSettings &r) {
  return r.dscp >> 3 == r.pfcPriority && r.cnpDscp >> 3 == RoceSettings::CnpTrafficClass;
}

// One MTU story (docs/decisions/0271): the switch ports and SVIs carry the fabric MTU
// (option mtu, passes/Addressing.h fabricMtu); the GPU NICs carry policy roce mtu when
// given, else the fabric MTU (checkEthernet: never above it, FAB-E0111); RoCE's RDMA path
// MTU follows from the NICs' MTU (rdmaMtu).
uint32_t hostMtu(const ir::Fabric &F);
// The setting hostMtu reads (policy roce's mtu; nullptr: none), where a diagnostic about
// the host MTU points.
const ir::Setting *roceMtuSetting(const ir::Fabric &F);

// The RDMA path MTU a RoCE NIC derives from its interface MTU: the largest InfiniBand MTU
// (256..4096) that fits in it less the 88 bytes of RoCEv2 headers (Linux's iboe_get_mtu,
// include/rdma/ib_addr.h); 0 when none fits.
inline uint32_t rdmaMtu(uint32_t ipMtu) {
  for (uint32_t m = 4096; m >= 256; m /= 2)
    if (ipMtu >= m + 88)
      return m;
  return 0;
}

// option mtu in range; no link joins Ethernet and InfiniBand; policy roce values in
// range, consistent with each other and with the fabric MTU.
void checkEthernet(ir::Fabric &F, DiagEngine &diags);

} // namespace passes
} // namespace fabc
