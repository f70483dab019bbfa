#pragma once
// SONiC config_db tables that depend on the switch only through its port names: the
// buffer tables of the dynamic buffer model and the management tables. Sonic.cpp
// calls each where its table name falls in ConfigDB's sorted order.
#include "analysis/OutputPlans.h"
#include "support/Json.h"

#include <string_view>
#include <vector>

namespace fabc::sonic {

// Every port of the switch, in the key orders of Ethernet.h's SonicPortOrder.
struct PortNames {
  std::vector<std::string_view> plain, piped;
};

// The lossless priority (RoCE's PFC priority), or -1 without lossless traffic.
void bufferPg(JsonWriter &j, const PortNames &p, int lossless);
void bufferPool(JsonWriter &j, double egressLosslessPool);
void bufferProfileLists(JsonWriter &j, const PortNames &p, bool egress);
void bufferProfile(JsonWriter &j);
void bufferQueue(JsonWriter &j, const PortNames &p, int lossless);
void defaultLosslessParameter(JsonWriter &j);
void losslessTrafficPattern(JsonWriter &j);

// policy management; `index` is the switch's position in EthernetPlan::switches. The
// TACACS+ servers are listed without a passkey (a secret, never in the design): AAA
// login through them is the operator's step once the key is set (SONiC's YANG
// rejects 'tacacs+' authentication without one).
void mgmtTables(JsonWriter &j, const ManagementPlan &m, uint32_t index); // MGMT_INTERFACE, MGMT_PORT, MGMT_VRF_CONFIG
void ntp(JsonWriter &j, const ManagementPlan &m);                        // NTP, NTP_SERVER
void syslog(JsonWriter &j, const ManagementPlan &m);
void tacplus(JsonWriter &j, const ManagementPlan &m);

} // namespace fabc::sonic
