// The export's checks and NetBox vocabulary (checks/Export.h, docs/export.md).
#include "checks/Export.h"

#include "checks/HostNames.h"
#include "checks/OutputChecks.h"
#include "passes/HostAddressing.h"

#include <cmath>
#include <numeric>

namespace fabc::checks {
namespace {
using ir::None;

// The protocol a port speaks: its device's, else (a system's NIC port) its peer's.
ir::Protocol portProtocol(const ir::Fabric &F, uint32_t port) {
  ir::Protocol p = F.modelOf(F.portDevice[port]).protocol;
  uint32_t l = F.portLink[port];
  if (p == ir::Protocol::Unspecified && l != None)
    p = F.modelOf(F.portDevice[F.otherEnd(l, port)]).protocol;
  return p;
}
} // namespace

std::string netboxInterfaceType(const ir::Fabric &F, uint32_t port) {
  long gbps = std::lround(F.portSpeed(port) / 1e9);
  if (portProtocol(F, port) == ir::Protocol::InfiniBand) {
    // IBTA's names per port speed: EDR 100, HDR 200, NDR 400, XDR 800 Gb/s (4x ports).
    switch (gbps) {
    case 100: return "infiniband-edr";
    case 200: return "infiniband-hdr";
    case 400: return "infiniband-ndr";
    case 800: return "infiniband-xdr";
    default: return "other";
    }
  }
  const ir::Model &m = F.modelOf(F.portDevice[port]);
  uint32_t g = F.portGroup(port);
  std::string form;
  if (g < m.ports.size() && m.ports[g].form)
    for (char c : F.strings.str(m.ports[g].form))
      if (c != '-' && c != ' ')
        form += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); // "QSFP-DD" -> "qsfpdd"
  // The Ethernet types NetBox has for a speed and cage ("{speed}gbase-x-{form}").
  struct Known {
    long gbps;
    const char *forms[4];
  };
  static const Known known[] = {
      {100, {"qsfp28", "qsfpdd", "sfp112", "dsfp"}},
      {200, {"qsfp56", "qsfpdd"}},
      {400, {"qsfp112", "qsfpdd", "osfp"}},
      {800, {"osfp", "qsfpdd"}},
  };
  for (const Known &k : known)
    if (k.gbps == gbps)
      for (const char *f : k.forms)
        if (f && form == f)
          return std::to_string(gbps) + "gbase-x-" + form;
  if (gbps == 1600 && (form == "osfp" || form == "osfp1600"))
    return "1.6tbase-x-osfp1600";
  return "other";
}

std::string_view netboxCableType(ir::Media m) {
  switch (m) {
  case ir::Media::DAC: return "dac-passive";
  case ir::Media::ACC: return "dac-active";
  case ir::Media::AOC: return "aoc";
  case ir::Media::MMF: return "mmf";
  case ir::Media::SMF:
  case ir::Media::DCI: return "smf";
  default: return "";
  }
}

PortAddress portAddress(const ir::Fabric &F, uint32_t link, uint32_t port) {
  if (!F.linkSubnet.empty() && F.linkSubnet[link])
    return {F.linkSubnet[link] + (F.linkA[link] == port ? 0u : 1u), 31};
  if (passes::isHostLink(F, link)) {
    if (passes::nicPortOf(F, link) == port)
      return {F.linkHostAddr[link], uint8_t(passes::hostPrefixLen(F, link))};
    if (F.hostScheme == ir::HostScheme::P2p)
      return {passes::hostGateway(F, link), 31};
  }
  return {};
}

// Every device is named in the export: its host name must be valid and distinct, as a
// DCIM's device names are (NetBox: unique per site), so the rule of the other host-name
// outputs applies to all of them (FAB-E0107).
bool checkExport(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  ExportPlan &p = an.exports;
  if (p.checked)
    return !p.hosts.empty() || F.numDevices() == 0;
  p.checked = true;
  std::vector<uint32_t> all(F.numDevices());
  std::iota(all.begin(), all.end(), 0u);
  if (!checkHostNames(F, diags, all, &p.hosts)) {
    p.hosts.clear();
    return false;
  }
  return true;
}

} // namespace fabc::checks
