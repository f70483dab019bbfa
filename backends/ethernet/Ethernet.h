#pragma once
// Shared by the Ethernet switch-config backends (sonic, frr, nvue): which switches get a
// configuration, the port naming conventions (docs/backends.md), and each port's peer.
#include "analysis/Groups.h"
#include "backends/Backend.h"
#include "checks/HostNames.h"

#include <string>
#include <vector>

namespace fabc::eth {

// A switch whose model says protocol = "ethernet".
bool isEthernetSwitch(const ir::Fabric &F, uint32_t dev);

// The Ethernet switches in device order (the output check listed them and warned about
// switch models that do not say their protocol, W0120).
inline const std::vector<uint32_t> &ethernetSwitches(const BackendContext &ctx) { return ctx.an.ethernet.switches; }

// Who may read a switch's configuration file (docs/decisions/0401): its owner only when the
// file carries a resolved secret, the BGP sessions' password or (`tacacsKey`: the backend
// writes the TACACS+ servers with their key) the TACACS+ key.
inline OutputDir::Access configAccess(const BackendContext &ctx, bool tacacsKey) {
  return !ctx.an.bgp.password.empty() || tacacsKey ? OutputDir::Access::OwnerOnly : OutputDir::Access::Shared;
}

// Where a logical port sits on its switch, and the names SONiC (Ethernet<first lane>)
// and Cumulus Linux / FRR (swp<cage+1>, swp<cage+1>s<sub> when split) give it: the rule
// lives in compiler/checks/HostNames.h, since fabc verify reads those names back.
using names::PortInfo;
using names::portInfo;
using names::sonicPortName;
using names::swpCageName;
using names::swpName;

// A connected port of a switch and what is at its other end.
struct Peer {
  uint32_t port, link, peerPort, peerDev;
  bool routed; // the peer is a routed switch: the link carries an eBGP session (an MC-LAG peer link does not)
};
std::vector<Peer> peersOf(const ir::Fabric &F, uint32_t dev);
// A port toward an end system (a server, a NIC, storage), not a switch: what storm
// control guards, with or without host addressing.
inline bool hostFacing(const ir::Fabric &F, const Peer &p) { return !p.routed && !analysis::isSwitch(F, p.peerDev); }
// The same into `out` (cleared first), so a backend reuses one vector for every switch.
void peersOf(const ir::Fabric &F, uint32_t dev, std::vector<Peer> &out);

// Host names (passes::hostName), composed once per device per compilation and kept in
// the analyses, since every port description and neighbor names its peer.
class HostNames {
public:
  explicit HostNames(const Analyses &an) : an_(an) {}
  const std::string &operator()(uint32_t dev) const { return an_.hostName(dev); }

private:
  const Analyses &an_;
};

// Per port layout, the order of its ports by name as SONiC's keys sort them (strings,
// so Ethernet8 comes after Ethernet64): `plain` for keys that are the port name,
// `piped` for keys that continue with '|' ("Ethernet8|3" sorts after "Ethernet80|3").
struct SonicPortOrder {
  std::vector<uint32_t> plain, piped; // port indices relative to the device's first port
};
const SonicPortOrder &sonicPortOrder(const ir::Fabric &F, uint32_t dev, std::vector<SonicPortOrder> &cache);

// "spine0 swp3": the peer's hostname and its port, named the way `style` names ports
// ('s' SONiC, 'c' Cumulus) when the peer is an Ethernet switch, else fabc's own names.
std::string peerDescription(const ir::Fabric &F, const Peer &p, char style);
void appendPeerDescription(TextBuffer &b, const ir::Fabric &F, const Peer &p, char style, HostNames &hosts);
// The port names of appendPeerDescription, appended.
void appendSonicPortName(TextBuffer &b, const PortInfo &p);
void appendSwpName(TextBuffer &b, const PortInfo &p);

// An end of a cable as the Cumulus-side cabling files name it (ptm, cvt): the swp name
// on an Ethernet switch, fabc's port label ("cx0", docs/backends.md#host-names) on a
// server or any other device.
std::string cumulusEndName(const ir::Fabric &F, uint32_t port);

// The address of this end of a numbered link (the A end takes the /31's even address).
uint32_t localAddress(const ir::Fabric &F, const Peer &p);
uint32_t peerAddress(const ir::Fabric &F, const Peer &p);

} // namespace fabc::eth
