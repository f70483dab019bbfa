#pragma once
// What the InfiniBand fabric of a design is, read off the IR, shared by the GUID pass
// and the InfiniBand backend so that both draw the same boundary.
//
// - An InfiniBand switch is a device of kind switch whose model says
//   `protocol = "infiniband"`.
// - An InfiniBand link has an InfiniBand switch at one end and, at the other, another
//   InfiniBand switch or an end system (system, NIC): never a switch of another or of
//   an unstated protocol.
// - Every end-system port on an InfiniBand link is one single-port HCA (one ConnectX
//   per port, as on DGX systems). Its node GUID is the device's GUID + 2 x the port's
//   index on the device, its port GUID the node GUID + 1 (ibsim and ConnectX alike
//   give port p the GUID node + p). A switch has one GUID (node = port 0 = system).
// - The InfiniBand port number of a port is its index on the device + 1.
#include "ir/Fabric.h"

#include <algorithm>

namespace fabc::ir::ib {

// IB port numbers are 8 bits, 255 is reserved: at most 254 ports on a switch.
constexpr uint32_t MaxSwitchPorts = 254;

inline bool isSwitch(const Fabric &F, uint32_t dev) {
  const Model &m = F.modelOf(dev);
  return m.kind == ModelKind::Switch && m.protocol == Protocol::InfiniBand;
}
inline bool isEndSystem(const Fabric &F, uint32_t dev) {
  ModelKind k = F.modelOf(dev).kind;
  return k == ModelKind::System || k == ModelKind::Nic;
}
inline bool isLink(const Fabric &F, uint32_t link) {
  uint32_t a = F.portDevice[F.linkA[link]], b = F.portDevice[F.linkB[link]];
  bool sa = isSwitch(F, a), sb = isSwitch(F, b);
  return (sa && (sb || isEndSystem(F, b))) || (sb && isEndSystem(F, a));
}
// The port's index on its device + 1.
inline uint32_t portNumber(const Fabric &F, uint32_t port) {
  return port - F.devPortBase[F.portDevice[port]] + 1;
}
// GUIDs a device reserves from its base GUID (F.devGuid).
inline uint64_t guidBlock(const Fabric &F, uint32_t dev) {
  return isSwitch(F, dev) ? 1 : 2 * uint64_t(F.layoutOf(dev).ports);
}
// The GUIDs a discovery pinned on an end-system port's HCA, or null (compiled ones).
inline const Fabric::HcaGuidPin *hcaPin(const Fabric &F, uint32_t port) {
  if (F.hcaPins.empty())
    return nullptr;
  auto it = std::lower_bound(F.hcaPins.begin(), F.hcaPins.end(), port,
                             [](const Fabric::HcaGuidPin &p, uint32_t q) { return p.port < q; });
  return it != F.hcaPins.end() && it->port == port ? &*it : nullptr;
}
// Node GUID of the single-port HCA behind an end-system port: the discovered one, else
// the device's GUID + 2 x the port's index.
inline uint64_t hcaGuid(const Fabric &F, uint32_t port) {
  if (const Fabric::HcaGuidPin *p = hcaPin(F, port))
    return p->node;
  uint32_t dev = F.portDevice[port];
  return F.devGuid[dev] + 2 * uint64_t(port - F.devPortBase[dev]);
}
// Its port GUID: the discovered one (a ConnectX-4 or later reports its node GUID), else
// the node GUID + 1.
inline uint64_t hcaPortGuid(const Fabric &F, uint32_t port) {
  if (const Fabric::HcaGuidPin *p = hcaPin(F, port))
    return p->portGuid;
  return hcaGuid(F, port) + 1;
}

} // namespace fabc::ir::ib
