#pragma once
// fabc build/check --guids-from DISC: the GUIDs a discovery reports, pinned onto the
// design's InfiniBand devices before the GUID pass (passes/Guids.cpp), so that
// root_guids.txt, the node name map and the net file name the real switches and HCAs.
// Nodes are matched by name as fabc verify matches them: a switch by its host name (also
// in NVIDIA's "MF0;host:part/U1" description), an HCA by its "host port" description:
// the design's port label, or rdma-ndd's "host mlx5_N", which is placed on the host's
// port that the design cables to the switch port the HCA is found on. Each placed HCA
// port keeps its discovered node and port GUID (F.hcaPins): real adapters do not follow
// fabc's base + 2i layout.
#include "diag/Diag.h"
#include "discovery/Observed.h"
#include "ir/Fabric.h"

namespace fabc::verify {

struct PinResult {
  uint64_t switches = 0, hosts = 0; // pinned (a host: at least one HCA port)
  uint64_t hcaPorts = 0;             // HCA ports pinned
};

// Sets F.devGuid of the matched switches, F.hcaPins of the placed HCA ports and
// F.guidsFromDiscovery; a discovery with no InfiniBand node (LLDP files alone) changes
// none of them. Reports a discovered node not in the design (FAB-W0187), an HCA of a
// design host not placed on a port (FAB-W0351), a discovered GUID already a design
// device's guid (FAB-E0190), and the InfiniBand devices left unpinned (FAB-W0188, one
// summary).
PinResult pinGuids(ir::Fabric &F, const discovery::Observed &obs, SourceManager &sm, DiagEngine &diags);

} // namespace fabc::verify
