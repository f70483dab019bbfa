#pragma once
// The export's rules (fabc export; docs/export.md): which NetBox interface type a port
// is and which NetBox cable type a link's media is. They are choices of NetBox's own
// vocabulary (dcim/choices.py, InterfaceTypeChoices and CableTypeChoices, of the NetBox
// version tests/lit/export/Inputs/netbox-import-forms.json was extracted from); the test
// checks every value fabc writes against that file.
#include "ir/Fabric.h"

#include <string>
#include <string_view>

namespace fabc::checks {
// "800gbase-x-osfp", "infiniband-ndr", ... or "other" when NetBox has no type for the
// port's speed and form factor (an NVLink port, a CPO port without a form).
std::string netboxInterfaceType(const ir::Fabric &F, uint32_t port);
// "dac-passive", "dac-active", "aoc", "mmf", "smf"; empty for no media (CPO fibre or unknown).
std::string_view netboxCableType(ir::Media m);

// The address on one end (`port`) of a link, as the addressing passes assigned it: the
// /31 of a numbered switch-to-switch link (end a the even address, as the switch
// configurations write it), a GPU NIC's host address, the leaf's /31 of a p2p host link.
// {0, 0} when the port has none (unnumbered; a leaf port of an SVI scheme: the SVI holds it).
struct PortAddress {
  uint32_t addr = 0; // IPv4, host byte order
  uint8_t len = 0;
};
PortAddress portAddress(const ir::Fabric &F, uint32_t link, uint32_t port);
} // namespace fabc::checks
