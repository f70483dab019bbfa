#pragma once
// fabc build/check --guids-from DISC: the GUIDs a discovery reports, pinned onto the
// design's InfiniBand devices before the GUID pass (passes/Guids.cpp), so that
// root_guids.txt, the node name map and the net file name the real switches and HCAs.
// Nodes are matched by name as fabc verify matches them: a switch by its host name (also
// in NVIDIA's "MF0;host:part/U1" description), an HCA by its "host port" description.
// A host takes the GUIDs of its HCAs when they follow fabc's GUID layout (the HCA behind
// port index i has the host's base + 2i, ir/InfiniBand.h); else it keeps compiled ones.
#include "diag/Diag.h"
#include "discovery/Observed.h"
#include "ir/Fabric.h"

namespace fabc::verify {

struct PinResult {
  uint64_t switches = 0, hosts = 0; // pinned
};

// Sets F.devGuid of the matched devices. Reports a discovered node not in the design
// (FAB-W0187), a discovered GUID already a design device's guid (FAB-E0190), and the
// InfiniBand devices left unpinned (FAB-W0188, one summary).
PinResult pinGuids(ir::Fabric &F, const discovery::Observed &obs, SourceManager &sm, DiagEngine &diags);

} // namespace fabc::verify
