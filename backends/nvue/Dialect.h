#pragma once
// How each NVUE dialect spells the keys fabc writes: the one place the writer asks,
// so that a new key that differs between releases is one more field here. Which
// release takes which dialect is a rule (compiler/checks/Nvue.cpp); the sources of
// the spellings are in docs/backends.md ("NVUE dialects").
#include "analysis/OutputPlans.h"

namespace fabc::nvue {

struct Dialect {
  const char *state;    // an object's on/off switch: "enable" (5.0-5.14), "state" (5.15+)
  const char *on;       // its value, and a plain boolean's: "on", "enabled"
  const char *ipv4;     // an interface's IPv4 addresses sit under "ip", "ipv4"
  const char *wdOn;     // qos pfc-watchdog's state (5.6+): "enable", "enabled"
  // policy management: 5.15 moved an interface's VRF from `ip vrf` to `vrf`, NTP from
  // `service ntp <vrf> server` to `system ntp server` (the VRF once, `system ntp vrf`),
  // syslog from `service syslog <vrf> server` to `system syslog server` (the VRF per
  // server), and keys TACACS+ servers by address with a priority (by priority with a
  // `host` before), with no `enable` switch.
  bool cl515;
};

inline const Dialect &dialect(NvueDialect d) {
  static const Dialect table[] = {
      /* Cl50  */ {"enable", "on", "ip", "enable", false},
      /* Cl515 */ {"state", "enabled", "ipv4", "enabled", true},
  };
  return table[static_cast<int>(d)];
}

} // namespace fabc::nvue
