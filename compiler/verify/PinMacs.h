#pragma once
// fabc build/check --guids-from DISC, for Ethernet: the host NIC MACs an LLDP discovery
// reports, pinned on the design's NIC ports (F.nicMacs) so that the hosts output matches
// each NIC by its MAC (netplan `match: {macaddress}` and `set-name`). A MAC comes from a
// switch's neighbour whose port ID is a MAC (lldpd's `portidsubtype macaddress`; SONiC's
// `show lldp table` RemotePortID): the switch is found by its host name, its port by the
// name fabc gives it (SONiC EthernetN, Cumulus swpN, the design's label), and the design's
// link at that port names the NIC port, whose host must be the neighbour's system name.
#include "diag/Diag.h"
#include "discovery/Observed.h"
#include "ir/Fabric.h"

namespace fabc::verify {

// Fills F.nicMacs (sorted by port) and returns how many NIC ports were pinned. A MAC that
// cannot be placed for sure is not pinned and is reported (FAB-W0203): the neighbour is
// not the host the design cables to that switch port, a port reported with two MACs, a
// MAC on two ports. Switches and ports the design does not have are left to fabc verify.
uint64_t pinMacs(ir::Fabric &F, const discovery::Observed &obs, SourceManager &sm, DiagEngine &diags);

} // namespace fabc::verify
