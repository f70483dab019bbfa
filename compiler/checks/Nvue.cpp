// The checks of the NVUE output: the Cumulus Linux release it is written for (the one
// table of releases and their NVUE dialect) and the RoCE profile NVUE can express.
#include "diag/DiagCodes.h"
#include "checks/OutputChecks.h"

#include "diag/Diag.h"
#include "checks/HostNames.h"
#include "passes/Addressing.h"
#include "passes/Roce.h"

#include <cctype>
#include <cstdlib>

namespace fabc::checks {

namespace {
// The Cumulus Linux releases fabc writes NVUE for, and the dialect of each. Cumulus
// Linux 5.15 renamed the keys fabc writes ("New and Changed NVUE Commands", Cumulus
// Linux 5.15 user guide; CumulusNetworks/docs content/cumulus-linux-515/Whats-New/
// New-and-Changed-NVUE-Commands.md): 5.14 and earlier take the older form. NVUE is the
// default CLI from 5.0; earlier releases (NCLU) are not a target. A release past the
// table is unknown until its NVUE changes are checked and a line is added here.
struct Release {
  const char *name;
  NvueDialect dialect;
};
constexpr Release kReleases[] = {
    {"5.0", NvueDialect::Cl50},   {"5.1", NvueDialect::Cl50},   {"5.2", NvueDialect::Cl50},
    {"5.3", NvueDialect::Cl50},   {"5.4", NvueDialect::Cl50},   {"5.5", NvueDialect::Cl50},
    {"5.6", NvueDialect::Cl50},   {"5.7", NvueDialect::Cl50},   {"5.8", NvueDialect::Cl50},
    {"5.9", NvueDialect::Cl50},   {"5.10", NvueDialect::Cl50},  {"5.11", NvueDialect::Cl50},
    {"5.12", NvueDialect::Cl50},  {"5.13", NvueDialect::Cl50},  {"5.14", NvueDialect::Cl50},
    {"5.15", NvueDialect::Cl515}, {"5.16", NvueDialect::Cl515},
};

bool allDigits(std::string_view s) {
  if (s.empty() || s.size() > 3)
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

// "5.14" or "5.14.1": the release line X.Y in the table, and the full version.
bool checkRelease(const ir::Fabric &F, NvuePlan &p, DiagEngine &diags) {
  const ir::Setting *s = F.option("nvue_release");
  if (!s)
    return true;
  std::string_view v = s->type == ir::Setting::String ? F.strings.str(s->str) : std::string_view();
  std::string_view line = v, patch = "0";
  size_t dot = v.find('.');
  size_t second = dot == std::string_view::npos ? dot : v.find('.', dot + 1);
  if (second != std::string_view::npos) {
    line = v.substr(0, second);
    patch = v.substr(second + 1);
  }
  const Release *found = nullptr;
  if (allDigits(patch))
    for (const Release &r : kReleases)
      if (line == r.name)
        found = &r;
  if (!found) {
    Diagnostic *d = s->type == ir::Setting::String
                        ? diags.report(DiagCode::E0200, s->loc, "unknown Cumulus Linux release '{}' for the NVUE output", v)
                        : diags.report(DiagCode::E0200, s->loc, "option nvue_release is not a string");
    DiagEngine::note(d, {}, fmt::format("write the release as a string, \"X.Y\" or \"X.Y.Z\", from {} to {} (5.15 and "
                                        "later use NVUE's renamed keys, 5.0 to 5.14 the older ones)",
                                        kReleases[0].name, std::end(kReleases)[-1].name));
    return false;
  }
  p.dialect = found->dialect;
  p.minor = unsigned(std::atoi(found->name + 2));
  p.version = fmt::format("{}.{}", line, patch);
  return true;
}
} // namespace

// The RoCE profile NVUE applies is fixed; anything else would be silently ignored.
static bool checkRoceProfile(const ir::Fabric &F, DiagEngine &diags) {
  passes::RoceSettings r = passes::roceSettings(F);
  if (!r.enabled)
    return true;
  passes::RoceSettings profile; // the defaults are the Cumulus profile's values
  std::string diff;
  auto cmp = [&](const char *name, uint64_t want, uint64_t have) {
    if (want != have)
      diff += fmt::format("{}{} = {} (the profile has {})", diff.empty() ? "" : ", ", name, have, want);
  };
  cmp("pfc_priority", profile.pfcPriority, r.pfcPriority);
  // The profile trusts DSCP by class (docs/decisions/0261): any DSCP of 24-31 is
  // RoCE's and any of 48-55 CNP's, so a host marking in those classes is carried.
  if (r.dscp >> 3 != profile.pfcPriority)
    cmp("dscp", profile.dscp, r.dscp);
  if (r.cnpDscp >> 3 != passes::RoceSettings::CnpTrafficClass)
    cmp("cnp_dscp", profile.cnpDscp, r.cnpDscp);
  cmp("ecn", profile.ecn, r.ecn);
  cmp("ecn_min", profile.ecnMin, r.ecnMin);
  cmp("ecn_max", profile.ecnMax, r.ecnMax);
  cmp("ecn_probability", profile.ecnProbability, r.ecnProbability);
  if (diff.empty())
    return true;
  Diagnostic *d = diags.report(DiagCode::E0113, r.loc, "the NVUE lossless RoCE profile cannot carry {}", diff);
  DiagEngine::note(d, {}, "Cumulus Linux's 'qos roce mode lossless' uses priority 3 (DSCP 24-31), CNPs on priority 6 "
                          "(DSCP 48-55) and ECN from 150000 to 1500000 bytes at 100%");
  return false;
}

// What NVUE can carry of the PFC watchdog and adaptive routing: both need Cumulus
// Linux 5.6; the watchdog has no action or restoration time there; adaptive routing
// runs at 200G and 400G only. Warnings: the rest of the output stays right.
static bool eth(const ir::Fabric &F, uint32_t d) { return F.modelOf(d).protocol == ir::Protocol::Ethernet; }

static void checkRoceFeatures(const ir::Fabric &F, const Analyses &an, DiagEngine &diags) {
  passes::RoceSettings r = passes::roceSettings(F);
  if (!r.enabled)
    return;
  if (an.nvue.minor < 6 && (r.pfcWatchdog || r.adaptiveRouting)) {
    const ir::Setting *s = F.option("nvue_release");
    Diagnostic *d = diags.report(DiagCode::W0331, s ? s->loc : r.loc, "Cumulus Linux {} has no NVUE PFC watchdog or "
                                 "adaptive routing: startup.yaml leaves them out", an.nvue.version);
    DiagEngine::note(d, {}, "both came with Cumulus Linux 5.6; target 5.6 or later to arm the PFC watchdog");
  }
  if (r.pfcWatchdog && an.nvue.minor >= 6 &&
      (r.pfcwdRestorationMs || (r.pfcwdActionSet && r.pfcwdAction != passes::RoceSettings::PfcwdAction::Drop))) {
    const ir::PolicyBlock *pol = F.policyBlock("roce");
    const ir::Setting *s = pol->get(F.strings, r.pfcwdRestorationMs ? "pfcwd_restoration" : "pfcwd_action");
    Diagnostic *d = diags.report(DiagCode::W0332, s ? s->loc : r.loc, "NVUE's PFC watchdog cannot carry {}: Cumulus "
                                 "Linux drops on a storm and restores after a quiet poll",
                                 r.pfcwdRestorationMs ? "a restoration time" : "an action other than drop");
    DiagEngine::note(d, {}, "the SONiC output carries them; NVUE carries pfcwd_poll and pfcwd_detection");
  }
  if (r.adaptiveRouting && an.nvue.minor >= 6) {
    // Both ends of a link between routed switches: the ports NVUE would give adaptive routing.
    uint64_t skipped = 0;
    for (uint32_t l = 0; l < F.numLinks(); ++l) {
      uint32_t a = F.linkA[l], b = F.linkB[l];
      if (!passes::isRoutedSwitch(F, F.portDevice[a]) || !passes::isRoutedSwitch(F, F.portDevice[b]))
        continue;
      for (uint32_t port : {a, b})
        skipped += eth(F, F.portDevice[port]) && !passes::adaptiveRoutingSpeed(names::portInfo(F, port).speed);
    }
    if (skipped) {
      Diagnostic *d = diags.report(DiagCode::W0333, r.arLoc, "{} routed fabric port{} run at a speed without adaptive "
                                   "routing (Spectrum-4: 200G and 400G only) and keep ECMP hashing",
                                   skipped, skipped == 1 ? "" : "s");
      DiagEngine::note(d, {}, "split those cages to 2x400G, or accept ECMP hashing on them");
    }
  }
}

// What NVUE carries of policy management: TACACS+ came to NVUE with Cumulus Linux 5.4, and
// takes at most eight servers (5.15 user guide, TACACS).
static bool checkControlPlaneAcl(const ir::Fabric &F, Analyses &an, DiagEngine &diags);

static bool checkManagementNvue(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  const ManagementPlan &m = an.management;
  const ir::PolicyBlock *pb = F.policyBlock("management");
  if (!checkControlPlaneAcl(F, an, diags))
    return false;
  const ir::Setting *s = pb ? pb->get(F.strings, "tacacs_servers") : nullptr;
  if (!s || m.tacacs.empty())
    return true;
  if (m.tacacs.size() > 8) {
    Diagnostic *d = diags.report(DiagCode::E0205, s->loc, "tacacs_servers lists {} servers, and Cumulus Linux takes at most 8",
                                 m.tacacs.size());
    DiagEngine::note(d, {}, "list at most eight, in the order the switches ask them");
    return false;
  }
  if (an.nvue.minor < 4) {
    Diagnostic *d = diags.report(DiagCode::W0201, s->loc, "Cumulus Linux {} has no NVUE TACACS+ keys: startup.yaml leaves "
                                 "tacacs_servers out", an.nvue.version);
    DiagEngine::note(d, {}, "NVUE configures TACACS+ from Cumulus Linux 5.4; target 5.4 or later, or write /etc/tacplus_servers");
  }
  return true;
}

// mgmt_allow as NVUE's control-plane ACL FABRIC_MGMT: the Cumulus Linux user guide
// documents `nv set system control-plane acl <name> inbound` from 5.9 (Firewall Rules, the
// default acl-default-dos and acl-default-whitelist) to 5.15 (Access Control List
// Configuration, Control Plane ACLs); older targets get none (W0420).
static bool checkControlPlaneAcl(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  const ManagementPlan &m = an.management;
  NvuePlan &plan = an.nvue;
  plan.controlPlaneAcl = false;
  plan.aclNtp.clear();
  if (m.allow.empty())
    return true;
  const ir::Setting *s = F.policyBlock("management")->get(F.strings, "mgmt_allow");
  if (plan.minor < 9) {
    Diagnostic *d = diags.report(DiagCode::W0420, s->loc, "Cumulus Linux {} predates NVUE's control-plane ACL: startup.yaml "
                                 "leaves mgmt_allow out, and SSH, SNMP and NTP stay open to every source", plan.version);
    DiagEngine::note(d, {}, "target Cumulus Linux 5.9 or later (option nvue_release), or install the rules with cl-acltool");
    return true;
  }
  // The switch's NTP client hears its servers on UDP 123, which the ACL closes to the rest.
  for (uint32_t server : m.ntp) {
    bool covered = false;
    for (const auto &[base, len] : m.allow)
      covered |= len == 0 || (server >> (32 - len)) == (base >> (32 - len));
    if (!covered)
      plan.aclNtp.push_back(server);
  }
  // Rules 10, 20, ...: three permits per prefix, the NTP servers' permits, three denies.
  uint64_t last = 10 * (3 * uint64_t(m.allow.size()) + plan.aclNtp.size() + 3);
  if (last > 65535) {
    Diagnostic *d = diags.report(DiagCode::E0421, s->loc, "mgmt_allow's {} prefixes need ACL rule {}, past NVUE's 65535",
                                 m.allow.size(), last);
    DiagEngine::note(d, {}, "summarise the prefixes into fewer, shorter ones");
    return false;
  }
  plan.controlPlaneAcl = true;
  return true;
}

bool checkNvue(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  checkEthernet(F, an, diags, "nvue");
  an.nvue.checked = true;
  bool ok = checkRelease(F, an.nvue, diags);
  ok &= checkManagement(F, an, diags);
  if (ok)
    ok &= checkManagementNvue(F, an, diags);
  ok &= checkBfd(F, an, diags);
  ok &= checkBgp(F, an, diags);
  ok &= checkStormControl(F, an, diags);
  checkRoceFeatures(F, an, diags);
  return checkRoceProfile(F, diags) && ok;
}

} // namespace fabc::checks
