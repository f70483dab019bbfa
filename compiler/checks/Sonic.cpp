// The checks of the SONiC output: port lanes, the platform the catalog names for each
// switch model (platform, HwSKU, the breakout modes of its platform.json), the
// switches' MACs from policy addressing's mac_pool, and what config_db can carry of
// policy bfd. The plan (Analyses::sonic) holds what the writer names.
#include "diag/DiagCodes.h"
#include "checks/OutputChecks.h"

#include "diag/Diag.h"
#include "ir/Address.h"
#include "passes/Roce.h"
#include "passes/Passes.h"

#include <cctype>
#include <cmath>

namespace fabc::checks {

namespace {

// A platform.json mode of one uniform breakout: "2x400G[200G,100G]" is 2 ports of
// 400G, or of 200G or 100G. Mixed modes ("1x100G(2)+2x50G(2)") do not parse: fabc lays
// cages out uniformly and never picks them.
struct Mode {
  uint32_t ports = 0;
  std::vector<double> speeds; // b/s, the default first
};

bool parseSpeed(std::string_view s, double &out) {
  if (s.size() < 2 || s.back() != 'G')
    return false;
  double v = 0;
  for (char c : s.substr(0, s.size() - 1)) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
    v = v * 10 + (c - '0');
  }
  out = v * 1e9;
  return v > 0;
}

bool parseMode(std::string_view s, Mode &m) {
  size_t x = s.find('x');
  if (x == 0 || x == std::string_view::npos || x > 3)
    return false;
  m.ports = 0;
  for (char c : s.substr(0, x)) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
    m.ports = m.ports * 10 + uint32_t(c - '0');
  }
  std::string_view rest = s.substr(x + 1), alts;
  size_t br = rest.find('[');
  if (br != std::string_view::npos) {
    if (rest.back() != ']')
      return false;
    alts = rest.substr(br + 1, rest.size() - br - 2);
    rest = rest.substr(0, br);
  }
  double v;
  m.speeds.clear();
  if (!parseSpeed(rest, v))
    return false;
  m.speeds.push_back(v);
  while (!alts.empty()) {
    size_t comma = alts.find(',');
    if (!parseSpeed(alts.substr(0, comma), v))
      return false;
    m.speeds.push_back(v);
    alts = comma == std::string_view::npos ? std::string_view() : alts.substr(comma + 1);
  }
  return m.ports > 0;
}

// The mode of `modes` for `ports` ports of `speed` per cage: one whose default speed
// is that speed first, else one that lists it. 0 if none.
uint32_t pickMode(const ir::Fabric &F, const std::vector<uint32_t> &modes, uint32_t ports, double speed) {
  Mode m;
  uint32_t alt = 0;
  for (uint32_t s : modes) {
    if (!parseMode(F.strings.str(s), m) || m.ports != ports)
      continue;
    for (size_t i = 0; i < m.speeds.size(); ++i)
      if (std::fabs(m.speeds[i] - speed) < 1) {
        if (i == 0)
          return s;
        if (!alt)
          alt = s;
      }
  }
  return alt;
}

std::string speedText(double bps) { return fmt::format("{}G", bps / 1e9); }

// Breakout modes per layout and group; W0200 once per model without platform data.
bool checkPlatform(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  SonicPlan &p = an.sonic;
  p.breakoutMode.assign(F.layouts.size(), {});
  std::vector<uint8_t> layoutDone(F.layouts.size(), 0), modelDone(F.models.size(), 0);
  bool ok = true;
  for (uint32_t d : an.ethernet.switches) {
    uint32_t li = F.devLayout[d];
    const ir::Model &m = F.modelOf(d);
    if (!modelDone[F.devModel[d]]++) {
      std::string missing;
      auto need = [&](bool have, const char *what) {
        if (!have)
          missing += fmt::format("{}{}", missing.empty() ? "" : ", ", what);
      };
      need(m.sonicPlatform, "sonic_platform");
      need(m.sonicHwsku, "sonic_hwsku");
      bool allModes = true;
      for (const ir::PortGroup &g : m.ports)
        allModes &= !g.sonicBreakoutModes.empty();
      need(allModes, "sonic_breakout_modes on its port groups");
      need(m.sonicEgressLosslessPool > 0, "sonic_egress_lossless_pool");
      if (!missing.empty()) {
        Diagnostic *dg = diags.report(DiagCode::W0200, m.loc, "switch model '{}' does not name its SONiC platform ({})",
                                      F.strings.str(m.name), missing);
        DiagEngine::note(dg, {{F.devLoc[d]}, 1}, fmt::format("'{}' is one of its switches", F.deviceName(d)));
        DiagEngine::note(dg, {}, "config_db.json then lacks what is missing (platform, hwsku, the egress lossless "
                                 "pool's size), and BREAKOUT_CFG names modes in fabc's short form ('2x400G'), unchecked "
                                 "against the platform's platform.json: add the properties from the platform's files");
      }
    }
    if (layoutDone[li]++)
      continue;
    const ir::Layout &L = F.layouts[li];
    std::vector<uint32_t> &modes = p.breakoutMode[li];
    modes.assign(L.groups.size(), 0);
    for (size_t gi = 0; gi < L.groups.size(); ++gi) {
      const ir::PortGroup &g = m.ports[gi];
      const ir::GroupLayout &gl = L.groups[gi];
      if (g.sonicBreakoutModes.empty())
        continue;
      modes[gi] = pickMode(F, g.sonicBreakoutModes, gl.portsPerCage, gl.speed);
      if (modes[gi])
        continue;
      Diagnostic *dg = diags.report(DiagCode::E0201, {F.devLoc[d], 1},
                                    "'{}' runs port group '{}' as {} x {} per cage, a breakout the SONiC platform of "
                                    "'{}' does not offer",
                                    F.deviceName(d), F.strings.str(g.name), gl.portsPerCage, speedText(gl.speed),
                                    F.strings.str(m.name));
      passes::noteInstances(dg, F, d);
      std::string list;
      for (uint32_t s : g.sonicBreakoutModes)
        list += fmt::format("{}{}", list.empty() ? "" : ", ", F.strings.str(s));
      DiagEngine::note(dg, {{g.loc.begin}, 1}, fmt::format("its platform.json modes: {}", list));
      DiagEngine::note(dg, {}, "choose a breakout_<group> (and port speed) one of these modes names");
      ok = false;
    }
  }
  return ok;
}

// policy addressing's mac_pool: "aa:bb:cc:dd:ee:ff/len", unicast, one address per switch.
bool checkMacs(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  const ir::PolicyBlock *pb = F.policyBlock("addressing");
  const ir::Setting *s = pb ? pb->get(F.strings, "mac_pool") : nullptr;
  if (!s)
    return true;
  uint64_t base = 0;
  unsigned len = 0;
  std::string_view v = s->type == ir::Setting::String ? F.strings.str(s->str) : std::string_view();
  if (!ir::parseMacPrefix(v, base, len) || (base >> 40 & 1)) {
    Diagnostic *d = diags.report(DiagCode::E0203, s->loc, "invalid mac_pool '{}'", v);
    DiagEngine::note(d, {}, "mac_pool is a unicast MAC prefix \"aa:bb:cc:dd:ee:ff/len\" with the host bits zero, e.g. "
                            "\"02:fa:bc:00:00:00/24\" (the first octet even; 02 marks a locally administered range)");
    return false;
  }
  uint64_t n = an.ethernet.switches.size();
  if (len < 48 && n > (uint64_t(1) << (48 - len))) {
    Diagnostic *d = diags.report(DiagCode::E0204, s->loc, "mac_pool {} holds {} MAC addresses, and {} switches need one each",
                                 v, uint64_t(1) << (48 - len), n);
    DiagEngine::note(d, {}, "give a shorter prefix length");
    return false;
  }
  if (len == 48 && n > 1) {
    Diagnostic *d = diags.report(DiagCode::E0204, s->loc, "mac_pool {} holds 1 MAC address, and {} switches need one each", v, n);
    DiagEngine::note(d, {}, "give a shorter prefix length");
    return false;
  }
  an.sonic.macs = true;
  an.sonic.macBase = base;
  return true;
}

// SONiC's ConfigDB turns BFD on per BGP peer (bfd: true) and has no timers: FRR's
// defaults apply, so other timers would be silently dropped.
bool checkSonicBfd(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  const BfdPlan &b = an.bfd;
  BfdPlan defaults;
  if (!b.enabled || (b.intervalMs == defaults.intervalMs && b.multiplier == defaults.multiplier))
    return true;
  Diagnostic *d = diags.report(DiagCode::E0208, F.policyBlock("bfd")->loc,
                               "SONiC's config_db cannot carry BFD timers of {} ms x {}: its BGP tables only turn BFD on",
                               b.intervalMs, b.multiplier);
  DiagEngine::note(d, {}, fmt::format("FRR's defaults apply on SONiC ({} ms x {}): use them, or drop sonic from --emit",
                                      defaults.intervalMs, defaults.multiplier));
  return false;
}

// The SONiC releases and the ConfigDB schema version each one's db_migrator.py sets
// (CURRENT_VERSION, sonic-net/sonic-utilities scripts/db_migrator.py on each release
// branch: 202305 86aa8c4, 202311 8654634, 202405 ced89eb, 202411 ac66b67, 202505
// 7511bf2, 202511 a092c97, 202605 92c565b). A VERSIONS table older than the image's
// replays migrations; a newer one names a version the image's db_migrator lacks.
struct SonicRelease {
  const char *name, *dbVersion;
};
constexpr SonicRelease kSonicReleases[] = {
    {"202305", "version_202305_01"}, {"202311", "version_202311_03"}, {"202405", "version_202405_02"},
    {"202411", "version_202411_02"}, {"202505", "version_202505_01"}, {"202511", "version_202511_01"},
    {"202605", "version_202605_01"},
};

bool checkSonicRelease(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  const ir::Setting *s = F.option("sonic_release");
  if (!s)
    return true;
  std::string_view v = s->type == ir::Setting::String ? F.strings.str(s->str) : std::string_view();
  for (const SonicRelease &r : kSonicReleases)
    if (v == r.name) {
      an.sonic.dbVersion = r.dbVersion;
      return true;
    }
  Diagnostic *d = s->type == ir::Setting::String
                      ? diags.report(DiagCode::E0330, s->loc, "unknown SONiC release '{}' for the config_db.json files", v)
                      : diags.report(DiagCode::E0330, s->loc, "option sonic_release is not a string");
  DiagEngine::note(d, {}, fmt::format("write the release as a string, from \"{}\" to \"{}\" (the release branch's name)",
                                      kSonicReleases[0].name, std::end(kSonicReleases)[-1].name));
  return false;
}

} // namespace

// SONiC's PORT table names ports by their first lane: every port group needs lanes.
bool checkSonic(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  checkEthernet(F, an, diags, "sonic");
  an.sonic.checked = true;
  std::vector<uint8_t> reported(F.models.size(), 0);
  bool ok = true;
  for (uint32_t d : an.ethernet.switches) {
    const ir::Model &m = F.modelOf(d);
    for (const ir::PortGroup &g : m.ports)
      if (!g.lanes && !reported[F.devModel[d]]++) {
        Diagnostic *dg = diags.report(DiagCode::E0112, g.loc, "port group '{}' of '{}' has no lanes, which "
                                      "SONiC's PORT table needs", F.strings.str(g.name), F.strings.str(m.name));
        DiagEngine::note(dg, {}, "add lanes = N (SerDes lanes per port, e.g. 8 for an 800G OSFP) to the port group");
        ok = false;
      }
  }
  ok &= checkPlatform(F, an, diags);
  ok &= checkMacs(F, an, diags);
  ok &= checkManagement(F, an, diags);
  if (checkBfd(F, an, diags))
    ok &= checkSonicBfd(F, an, diags);
  else
    ok = false;
  ok &= checkSonicRelease(F, an, diags);
  ok &= checkBgp(F, an, diags);
  if (checkStormControl(F, an, diags)) {
    // sonic-storm-control.yang's kbps stops at 100000000 (100 Gb/s).
    const StormControlPlan &st = an.storm;
    uint32_t top = std::max({st.broadcast, st.multicast, st.unknownUnicast});
    if (st.enabled && st.kbps(top) > 100000000) {
      const ir::PolicyBlock *pb = F.policyBlock("storm_control");
      Diagnostic *d = diags.report(DiagCode::E0212, pb->loc, "storm control of {} packets per second of {} B is {} kbit/s, "
                                   "above the 100000000 SONiC's PORT_STORM_CONTROL takes", top, st.frameBytes, st.kbps(top));
      DiagEngine::note(d, {}, "a storm limit is far below line rate: lower it, or the frame_size it is computed with");
      ok = false;
    }
  } else {
    ok = false;
  }
  passes::RoceSettings roce = passes::roceSettings(F);
  if (roce.enabled && roce.adaptiveRouting) {
    Diagnostic *d = diags.report(DiagCode::W0330, roce.arLoc, "SONiC has no table for adaptive routing: the SONiC switches "
                                 "forward RoCE by ECMP hashing");
    DiagEngine::note(d, {}, "community SONiC's ConfigDB and YANG models carry no Spectrum-X adaptive routing; the nvue "
                            "output carries it");
  }
  return ok;
}

} // namespace fabc::checks
