#include "diag/DiagCodes.h"
#include "checks/HostNames.h"

#include "diag/Diag.h"
#include "passes/Addressing.h"
#include "passes/Passes.h"

#include <llvm/ADT/StringMap.h>

#include <cctype>

namespace fabc::checks {

bool checkHostNames(const ir::Fabric &F, DiagEngine &diags, const std::vector<uint32_t> &devs,
                    std::vector<std::string> *out) {
  if (out) {
    out->clear();
    out->reserve(devs.size());
  }
  llvm::StringMap<uint32_t> seen;
  unsigned reported = 0;
  std::string h;
  for (uint32_t d : devs) {
    h = passes::hostName(F, d);
    if (out)
      out->push_back(h);
    bool valid = !h.empty() && h.size() <= 63 && h.front() != '-' && h.back() != '-';
    if (!valid) {
      if (reported++ < 20) {
        Diagnostic *dg = diags.report(DiagCode::E0107, {F.devLoc[d], 1},
                                      "'{}' gives the hostname '{}', which is not a valid RFC 1123 hostname",
                                      F.deviceName(d), h);
        passes::noteInstances(dg, F, d);
        DiagEngine::note(dg, {}, "hostnames are at most 63 letters, digits and '-', and neither start nor end with '-'");
      } else {
        diags.tally(DiagCode::E0107, {F.devLoc[d], 1});
      }
      continue;
    }
    auto ins = seen.try_emplace(h, d);
    if (ins.second)
      continue;
    if (reported++ < 20) {
      Diagnostic *dg = diags.report(DiagCode::E0107, {F.devLoc[d], 1}, "'{}' and '{}' both get the hostname '{}'",
                                    F.deviceName(ins.first->second), F.deviceName(d), h);
      passes::noteInstances(dg, F, d);
      DiagEngine::note(dg, {F.devLoc[ins.first->second], 1}, "the first one is declared here");
    } else {
      diags.tally(DiagCode::E0107, {F.devLoc[d], 1});
    }
  }
  return reported == 0;
}

} // namespace fabc::checks

namespace fabc::names {

static void appendLabel(std::string_view path, std::string &h) {
  for (char c : path) {
    if (c == '[' || c == ']')
      continue;
    h += c == '.' || c == '_' ? '-' : char(std::tolower((unsigned char)c));
  }
}

std::string label(std::string_view path) {
  std::string h;
  h.reserve(path.size());
  appendLabel(path, h);
  return h;
}

std::string portLabel(const ir::Fabric &F, uint32_t port) {
  uint32_t idx = 0;
  uint32_t g = F.portGroup(port, &idx);
  std::string h;
  appendLabel(F.strings.str(F.modelOf(F.portDevice[port]).ports[g].name), h);
  return h + std::to_string(idx);
}

PortInfo portInfo(const ir::Fabric &F, uint32_t port) {
  PortInfo p;
  p.port = port;
  uint32_t dev = F.portDevice[port], q = 0;
  p.group = F.portGroup(port, &q);
  const ir::Layout &lay = F.layoutOf(dev);
  const ir::Model &m = F.modelOf(dev);
  uint32_t cageBase = 0, laneBase = 0;
  for (uint32_t g = 0; g < p.group; ++g) {
    cageBase += lay.groups[g].count / std::max(1u, lay.groups[g].portsPerCage);
    laneBase += m.ports[g].count * m.ports[g].lanes;
  }
  const ir::GroupLayout &gl = lay.groups[p.group];
  p.perCage = std::max(1u, gl.portsPerCage);
  p.cage = cageBase + q / p.perCage;
  p.sub = q % p.perCage;
  p.lanes = gl.lanes;
  p.firstLane = laneBase + q * gl.lanes;
  p.speed = gl.speed;
  return p;
}

std::string sonicPortName(const PortInfo &p) { return fmt::format("Ethernet{}", p.firstLane); }

std::string swpCageName(const PortInfo &p) { return fmt::format("swp{}", p.cage + 1); }

std::string swpName(const PortInfo &p) {
  return p.perCage > 1 ? fmt::format("swp{}s{}", p.cage + 1, p.sub) : swpCageName(p);
}

} // namespace fabc::names
