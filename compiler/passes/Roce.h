#pragma once
// RoCE and Ethernet lint (a logical pass), and the one reading of policy roce that the
// switch-config backends share, so that every generated switch carries the same PFC
// priority, DSCP marking, ECN thresholds and MTU.
#include "ir/Fabric.h"

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
  SourceRange loc;           // the policy
  static constexpr uint32_t CnpTrafficClass = 6; // CNPs ride a strict-priority queue
};

// policy roce with its defaults; a value that checkEthernet rejects keeps its default.
RoceSettings roceSettings(const ir::Fabric &F);

// option mtu in range; no link joins Ethernet and InfiniBand; policy roce values in
// range, consistent with each other and with the fabric MTU.
void checkEthernet(ir::Fabric &F, DiagEngine &diags);

} // namespace passes
} // namespace fabc
