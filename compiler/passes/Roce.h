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
  std::string nicType;       // PCI device ID of the GPU NICs ("1023"), lower case; "": not given
  SourceRange loc;           // the policy
  static constexpr uint32_t CnpTrafficClass = 6; // CNPs ride a strict-priority queue
};

// policy roce with its defaults; a value that checkEthernet rejects keeps its default.
RoceSettings roceSettings(const ir::Fabric &F);

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
