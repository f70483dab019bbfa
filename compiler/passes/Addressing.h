#pragma once
// The addressing pass (a logical pass): ASNs for eBGP, loopbacks, /31 point-to-point
// subnets, switch hostnames. It always runs (linear in devices + links, and only
// switches take part), so `fabc check` reports a duplicate ASN or an exhausted pool
// without any backend asked for. The switch-config backends read its results from the
// IR (devAsn, devLoopback, linkSubnet) and use the helpers below, never recompute them.
#include "ir/Fabric.h"

#include <string>
#include <string_view>

namespace fabc {
class DiagEngine;

namespace passes {

// A switch that takes part in IP routing: its model is Ethernet, or does not say
// (an InfiniBand switch gets no ASN and no loopback).
bool isRoutedSwitch(const ir::Fabric &F, uint32_t dev);
// Both ends of the link are routed switches: it carries an eBGP session.
bool isRoutedLink(const ir::Fabric &F, uint32_t link);

// The RFC 1123 hostname of a device, from its instance path: lower case, '.' and '_'
// become '-', brackets go ("pod[3].leaf[12]" -> "pod3-leaf12").
std::string hostName(const ir::Fabric &F, uint32_t dev);

// option bgp_unnumbered (default true) and option mtu (default 9100 bytes).
bool bgpUnnumbered(const ir::Fabric &F);
uint32_t fabricMtu(const ir::Fabric &F);

// Fills F.devAsn, F.devLoopback (routed switches) and F.linkSubnet (routed links when
// numbered), and checks uniqueness. Explicit asn / loopback instance properties win.
void assignAddresses(ir::Fabric &F, DiagEngine &diags);

} // namespace passes
} // namespace fabc
