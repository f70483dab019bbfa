#pragma once
// The GPU servers' RoCE files (docs/backends.md, hosts; docs/decisions/0271 to 0273), all
// from the one reading of policy roce the switch configurations use (passes/Roce.h):
// a script for NVIDIA's NIC tools per server, an NCCL environment file per server and a
// NicConfigurationTemplate for NVIDIA's NIC Configuration Operator.
#include "passes/Roce.h"
#include "support/TextBuffer.h"

#include <string>
#include <vector>

namespace fabc::hosts {

// One GPU NIC of a server, as its RoCE files name it.
struct RoceNic {
  std::string ifname; // the interface netplan configures, also its RDMA device's name
  uint32_t rail = 0;
  uint32_t addr = 0;  // its IPv4 address
  std::string where;  // "srv[0]/cx[0] to leaf0 swp1s0", for a comment
};

struct RoceHost {
  const std::string &host;    // host name
  const std::string &device;  // the device's path in the design ("srv[0]")
  const std::string &fabric;
  const std::string &version; // fabc's
  uint32_t mtu;               // the NICs' IP MTU (passes::hostMtu)
};

// nics in rail order. sh, shellcheck clean, idempotent (docs/backends.md).
void roceScript(TextBuffer &out, const RoceHost &h, const std::vector<RoceNic> &nics, const passes::RoceSettings &r);
// KEY=VALUE lines: /etc/nccl.conf's format, and the shell's.
void ncclEnv(TextBuffer &out, const RoceHost &h, const std::vector<RoceNic> &nics, const passes::RoceSettings &r);
// One NicConfigurationTemplate for the fabric's NICs of type r.nicType (not empty).
void nicTemplate(TextBuffer &out, const std::string &fabric, const std::string &version,
                 const passes::RoceSettings &r);

} // namespace fabc::hosts
