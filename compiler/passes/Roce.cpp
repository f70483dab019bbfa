// RoCE and Ethernet lint: the settings every Ethernet switch config must agree on.
#include "diag/DiagCodes.h"
#include "passes/Roce.h"
#include "passes/Passes.h"
#include "diag/Diag.h"
#include "passes/Addressing.h"
#include "analysis/Groups.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

namespace fabc::passes {
namespace {

// The PFC watchdog's three times, in ms from 100 to maxMs (SONiC's YANG ranges).
struct PfcwdTime {
  std::string_view key;
  uint32_t maxMs;
  const char *maxText;
  uint32_t RoceSettings::*field;
};
constexpr PfcwdTime kPfcwdTimes[] = {
    {"pfcwd_detection", 5000, "5 s", &RoceSettings::pfcwdDetectionMs},
    {"pfcwd_restoration", 60000, "60 s", &RoceSettings::pfcwdRestorationMs},
    {"pfcwd_poll", 1000, "1 s", &RoceSettings::pfcwdPollMs},
};
const PfcwdTime *pfcwdTime(std::string_view key) {
  for (const PfcwdTime &t : kPfcwdTimes)
    if (t.key == key)
      return &t;
  return nullptr;
}

// Reads policy roce; with `diags`, reports what is wrong (E0110, W0122).
RoceSettings read(const ir::Fabric &F, DiagEngine *diags) {
  RoceSettings r;
  const ir::PolicyBlock *pol = F.policyBlock("roce");
  if (!pol)
    return r;
  r.enabled = true;
  r.loc = pol->loc;
  auto bad = [&](const ir::Setting &s, std::string msg, const char *fix) {
    if (!diags)
      return;
    Diagnostic *d = diags->report(DiagCode::E0110, s.loc, "{}", msg);
    DiagEngine::note(d, {}, fix);
  };
  // A plain integer in [lo, hi], or false.
  auto integer = [&](const ir::Setting &s, double lo, double hi, uint32_t &out) {
    double v = s.number;
    if (s.type != ir::Setting::Number || !s.dim.none() || v != std::floor(v) || v < lo || v > hi)
      return false;
    out = uint32_t(v);
    return true;
  };
  // Bytes: a data size ("150 kB") or a plain number of bytes.
  auto bytes = [&](const ir::Setting &s, uint64_t &out) {
    if (s.type != ir::Setting::Number || !(s.dim.none() || s.dim == dims::Data))
      return false;
    double v = s.dim.none() ? s.number : s.number / 8;
    if (!(v >= 0 && v < 1e15))
      return false;
    out = uint64_t(std::llround(v));
    return true;
  };
  // Milliseconds: a whole number of ms in [lo, hi].
  auto millis = [&](const ir::Setting &s, double lo, double hi, uint32_t &out) {
    double ms = s.number * 1e3;
    if (s.type != ir::Setting::Number || !(s.dim == dims::Time) || ms < lo - 1e-6 || ms > hi + 1e-6 ||
        std::fabs(ms - std::round(ms)) > 1e-6)
      return false;
    out = uint32_t(std::lround(ms));
    return true;
  };
  const ir::Setting *ecnMin = nullptr, *ecnMax = nullptr, *dscp = nullptr, *cnp = nullptr;
  const ir::Setting *wd[3] = {}; // as kPfcwdTimes: detection, restoration, poll
  for (const ir::Setting &s : pol->props) {
    std::string_view key = F.strings.str(s.name);
    uint32_t u;
    uint64_t b;
    if (key == "pfc_priority") {
      if (!integer(s, 0, 7, u))
        bad(s, "pfc_priority must be an 802.1p priority from 0 to 7", "RoCE conventionally uses priority 3");
      else if (u == RoceSettings::CnpTrafficClass)
        bad(s, fmt::format("pfc_priority {} is the traffic class of CNPs", u),
            "congestion notification packets use traffic class 6 (strict priority); pick another priority, usually 3");
      else
        r.pfcPriority = u;
    } else if (key == "dscp" || key == "cnp_dscp") {
      if (!integer(s, 0, 63, u))
        bad(s, fmt::format("{} must be a DSCP value from 0 to 63", key),
            "RoCE data conventionally uses DSCP 26 and CNPs DSCP 48");
      else
        (key == "dscp" ? r.dscp : r.cnpDscp) = u, (key == "dscp" ? dscp : cnp) = &s;
    } else if (key == "ecn") {
      if (s.type != ir::Setting::Bool)
        bad(s, "ecn must be true or false", "ecn = true marks the RoCE queue for DCQCN");
      else
        r.ecn = s.boolean;
    } else if (key == "mtu") {
      uint64_t v;
      if (!bytes(s, v) || v < 68 || v > 9216)
        bad(s, "the RoCE mtu must be 68 to 9216 bytes", "for example mtu = 9100 (or 4200 for a 4096-byte RDMA MTU)");
      else
        r.mtu = uint32_t(v);
    } else if (key == "ecn_min" || key == "ecn_max") {
      if (!bytes(s, b) || b == 0)
        bad(s, fmt::format("{} must be a positive queue depth", key), "for example ecn_min = 150 kB; ecn_max = 1500 kB;");
      else
        (key == "ecn_min" ? r.ecnMin : r.ecnMax) = b, (key == "ecn_min" ? ecnMin : ecnMax) = &s;
    } else if (key == "pfc_watchdog" || key == "adaptive_routing") {
      if (s.type != ir::Setting::Bool)
        bad(s, fmt::format("{} must be true or false", key),
            key == "pfc_watchdog" ? "the PFC watchdog (default true) stops a pause storm from stalling the lossless class"
                                  : "adaptive_routing = true spreads RoCE over the uplinks by their load (Spectrum-X)");
      else if (key == "pfc_watchdog")
        r.pfcWatchdog = s.boolean;
      else
        r.adaptiveRouting = s.boolean, r.arLoc = s.loc;
    } else if (const PfcwdTime *t = pfcwdTime(key)) {
      // The ranges are SONiC's YANG (sonic-pfcwd.yang); NVUE's are wider.
      if (!millis(s, 100, t->maxMs, u))
        bad(s, fmt::format("{} must be a whole number of milliseconds from 100 ms to {}", key, t->maxText),
            "SONiC's default is 200 ms");
      else
        r.*(t->field) = u, wd[t - kPfcwdTimes] = &s;
    } else if (key == "pfcwd_action") {
      std::string_view v = s.type == ir::Setting::String ? F.strings.str(s.str) : std::string_view();
      if (v == "drop" || v == "forward" || v == "alert")
        r.pfcwdAction = v == "drop"      ? RoceSettings::PfcwdAction::Drop
                        : v == "forward" ? RoceSettings::PfcwdAction::Forward
                                         : RoceSettings::PfcwdAction::Alert,
        r.pfcwdActionSet = true;
      else
        bad(s, "pfcwd_action must be \"drop\", \"forward\" or \"alert\"",
            "\"drop\" (the default) discards the stalled queue's packets until the storm ends");
    } else if (key == "nic_type") {
      // The PCI device ID, as lspci -d 15b3: and the NIC Configuration Operator's nicType
      // spell it: 4 hexadecimal digits, lower case.
      std::string_view v = s.type == ir::Setting::String ? F.strings.str(s.str) : std::string_view();
      bool ok = v.size() == 4;
      for (char c : v)
        ok = ok && std::isxdigit((unsigned char)c);
      if (!ok) {
        if (diags) {
          Diagnostic *d = diags->report(DiagCode::E0340, s.loc, "nic_type must be a PCI device ID of 4 hexadecimal "
                                                                "digits");
          DiagEngine::note(d, {}, "for example nic_type = \"1023\" (ConnectX-8) or \"1021\" (ConnectX-7); "
                                  "lspci -nn -d 15b3: prints it");
        }
      } else {
        r.nicType.clear();
        for (char c : v)
          r.nicType += char(std::tolower((unsigned char)c));
      }
    } else if (key == "ecn_probability") {
      if (!integer(s, 0, 100, u))
        bad(s, "ecn_probability must be a percentage from 0 to 100", "the marking probability at ecn_max, usually 100");
      else
        r.ecnProbability = u;
    }
  }
  if (dscp && cnp && r.dscp == r.cnpDscp) {
    bad(*cnp, fmt::format("cnp_dscp {} is the DSCP of RoCE data", r.cnpDscp),
        "CNPs need their own DSCP so that they reach the strict-priority queue: usually 48");
    r.cnpDscp = 48;
  } else if (!cnp && dscp && r.dscp == 48) {
    bad(*dscp, "dscp 48 is the default DSCP of CNPs", "set cnp_dscp to another value, or mark RoCE with DSCP 26");
  }
  if (r.ecnMin > r.ecnMax) {
    const ir::Setting &at = ecnMin ? *ecnMin : *ecnMax;
    bad(at, fmt::format("ecn_min ({} B) is above ecn_max ({} B)", r.ecnMin, r.ecnMax),
        "marking starts at ecn_min and reaches ecn_probability at ecn_max");
    r.ecnMin = 150000;
    r.ecnMax = std::max<uint64_t>(r.ecnMax, 1500000);
  }
  for (int k = 0; k < 2; ++k)
    if (wd[k] && wd[2] && r.*(kPfcwdTimes[k].field) < r.pfcwdPollMs) {
      bad(*wd[k], fmt::format("{} ({} ms) is shorter than pfcwd_poll ({} ms)", kPfcwdTimes[k].key,
                              r.*(kPfcwdTimes[k].field), r.pfcwdPollMs),
          "the watchdog sees the queue once per poll: give it at least one poll interval");
      r.*(kPfcwdTimes[k].field) = 0;
    }
  if (diags && !r.ecn) {
    Diagnostic *d = diags->report(DiagCode::W0122, pol->loc, "lossless RoCE on priority {} without ECN", r.pfcPriority);
    DiagEngine::note(d, {}, "without ECN marks, congestion spreads as PFC pauses; set ecn = true");
  }
  return r;
}


} // namespace

RoceSettings roceSettings(const ir::Fabric &F) { return read(F, nullptr); }

uint32_t dscpTrafficClass(const RoceSettings &r, uint32_t dscp) {
  if (dscp == r.cnpDscp)
    return RoceSettings::CnpTrafficClass;
  if (dscp == r.dscp)
    return r.pfcPriority;
  uint32_t sp = dscp >> 3; // Cumulus's default trust map: DSCP 8k..8k+7 -> switch priority k
  return sp == r.pfcPriority || sp == RoceSettings::CnpTrafficClass ? sp : 0;
}

PfcWatchdog sonicPfcWatchdog(const RoceSettings &r, uint32_t ports) {
  // pfcwd start_default: each value 200 ms times ceil(ports / 32), the poll at most 1 s.
  uint32_t multiply = std::max<uint32_t>(1, (std::max<uint32_t>(ports, 1) - 1) / 32 + 1);
  PfcWatchdog w;
  w.detectionMs = r.pfcwdDetectionMs ? r.pfcwdDetectionMs : std::min<uint32_t>(200 * multiply, 5000);
  w.restorationMs = r.pfcwdRestorationMs ? r.pfcwdRestorationMs : std::min<uint32_t>(200 * multiply, 60000);
  w.pollMs = r.pfcwdPollMs ? r.pfcwdPollMs
                           : std::min({200 * multiply, uint32_t(1000), w.detectionMs, w.restorationMs});
  static const char *const actions[] = {"drop", "forward", "alert"};
  w.action = actions[static_cast<int>(r.pfcwdAction)];
  return w;
}

uint32_t nvueRobustness(const RoceSettings &r) {
  uint32_t poll = r.pfcwdPollMs ? r.pfcwdPollMs : 100, detect = r.pfcwdDetectionMs ? r.pfcwdDetectionMs : 300;
  return std::max<uint32_t>(1, (detect + poll - 1) / poll);
}

uint32_t hostMtu(const ir::Fabric &F) {
  RoceSettings r = read(F, nullptr);
  return r.mtu ? r.mtu : fabricMtu(F);
}

const ir::Setting *roceMtuSetting(const ir::Fabric &F) {
  const ir::PolicyBlock *pol = F.policyBlock("roce");
  return pol ? pol->get(F.strings, "mtu") : nullptr;
}

namespace {
// FAB-E0213: the MTU a port carries above its model's max_mtu. Ethernet switches carry the
// fabric MTU on every port and SVI; the end systems linked to them (GPU servers, NICs)
// the host MTU. One diagnostic per model and kind of MTU, at the setting that gives the
// MTU (or, for a default, at the first device); linear in devices and links.
void checkPortMtu(ir::Fabric &F, DiagEngine &diags, uint32_t fabric, const ir::Setting *mtuOpt) {
  const ir::Setting *roceMtu = roceMtuSetting(F);
  uint32_t host = hostMtu(F);
  auto isEthSwitch = [&](uint32_t d) {
    const ir::Model &m = F.modelOf(d);
    return m.kind == ir::ModelKind::Switch && m.protocol == ir::Protocol::Ethernet;
  };
  auto limit = [&](uint32_t d) -> uint32_t {
    const ir::Figure &f = F.modelOf(d).maxMtu;
    return f.known ? uint32_t(f.value / 8) : 0; // a data size is in bits
  };
  // Per model: the first device over its limit and how many are, for switches (0) and
  // end systems (1).
  struct Over {
    uint32_t first = ir::None;
    uint64_t count = 0;
  };
  std::vector<std::array<Over, 2>> over(F.models.size());
  auto note = [&](uint32_t d, int kind) {
    Over &o = over[F.devModel[d]][kind];
    if (o.first == ir::None)
      o.first = d;
    ++o.count;
  };
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    if (isEthSwitch(d) && limit(d) && fabric > limit(d))
      note(d, 0);
  if (host) {
    std::vector<uint8_t> seen(F.numDevices(), 0);
    for (uint32_t l = 0; l < F.numLinks(); ++l) {
      uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
      for (auto [end, peer] : {std::pair{a, b}, std::pair{b, a}})
        if (!seen[end] && isEthSwitch(peer) && !analysis::isSwitch(F, end) && limit(end) && host > limit(end)) {
          seen[end] = 1;
          note(end, 1);
        }
    }
  }
  // None when no model sets it. A lookup writes nothing (an intern would): this pass runs
  // beside others that read the pool (runPasses).
  uint32_t maxKey = F.strings.lookup("max_mtu");
  for (uint32_t mi = 0; mi < over.size(); ++mi)
    for (int kind = 0; kind < 2; ++kind) {
      const Over &o = over[mi][kind];
      if (o.first == ir::None)
        continue;
      const ir::Model &m = F.models[mi];
      uint32_t max = uint32_t(m.maxMtu.value / 8), mtu = kind == 0 ? fabric : host;
      const ir::Setting *from = kind == 1 && roceMtu ? roceMtu : mtuOpt;
      std::string what = kind == 0 ? "the fabric MTU of its ports and SVIs" : "the host MTU of its ports";
      Diagnostic *d = diags.report(DiagCode::E0213, from ? from->loc : devRange(F, o.first),
                                   "'{}' ({}) takes at most a {}-byte MTU, but {} is {} bytes", F.deviceName(o.first),
                                   F.strings.str(m.name), max, what, mtu);
      DiagEngine::note(d, m.propLoc(maxKey),
                       m.maxMtu.estimate ? fmt::format("max_mtu of '{}' (an estimate: {})", F.strings.str(m.name),
                                                       F.strings.str(m.maxMtu.source))
                                         : fmt::format("max_mtu of '{}'", F.strings.str(m.name)));
      if (o.count > 1)
        DiagEngine::note(d, {}, fmt::format("{} devices of model '{}' carry it", o.count, F.strings.str(m.name)));
      std::string fix =
          kind == 0 ? fmt::format("lower option mtu to {} or less", max)
          : roceMtu ? fmt::format("lower the RoCE mtu to {} or less", max)
                    : fmt::format("set policy roce {{ mtu = {}; }} (the host MTU) or lower option mtu to {} or less", max, max);
      DiagEngine::note(d, {}, fix + ", or use a model that takes the MTU");
    }
}
} // namespace

void checkEthernet(ir::Fabric &F, DiagEngine &diags) {
  uint32_t mtu = fabricMtu(F);
  const ir::Setting *mtuOpt = F.option("mtu");
  bool mtuOk = true;
  if (mtuOpt && (mtuOpt->type != ir::Setting::Number || !(mtuOpt->dim.none() || mtuOpt->dim == dims::Data) ||
                 mtu < 68 || mtu > 9216)) {
    Diagnostic *d = diags.report(DiagCode::E0114, mtuOpt->loc, "option mtu must be 68 to 9216 bytes");
    DiagEngine::note(d, {}, "9100 (the default) leaves room for a 9000-byte host MTU plus encapsulation");
    mtuOk = false;
  }

  // A link joins the two protocols only where devices of both exist: a pass over the
  // devices' models spares the fabric of one protocol a pass over both ends of every
  // link (~15 ms at a million GPUs).
  bool anyEthernet = false, anyInfiniband = false;
  const std::vector<uint8_t> used = F.modelsInUse();
  for (size_t m = 0; m < used.size(); ++m)
    if (used[m]) {
      anyEthernet |= F.models[m].protocol == ir::Protocol::Ethernet;
      anyInfiniband |= F.models[m].protocol == ir::Protocol::InfiniBand;
    }
  unsigned mixed = 0;
  for (uint32_t l = 0; anyEthernet && anyInfiniband && l < F.numLinks(); ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    ir::Protocol pa = F.modelOf(a).protocol, pb = F.modelOf(b).protocol;
    if (pa == ir::Protocol::Unspecified || pb == ir::Protocol::Unspecified || pa == pb)
      continue;
    if (mixed++ >= 20) {
      diags.tally(DiagCode::E0115, linkRange(F, l));
      continue;
    }
    uint32_t eth = pa == ir::Protocol::Ethernet ? a : b, ib = eth == a ? b : a;
    Diagnostic *d = diags.report(DiagCode::E0115, linkRange(F, l), "link joins Ethernet '{}' and InfiniBand '{}'",
                                 F.deviceName(eth), F.deviceName(ib));
    noteLinkInstances(d, F, l);
    DiagEngine::note(d, F.modelOf(ib).loc, "this model says protocol = \"infiniband\"");
  }

  if (mtuOk)
    checkPortMtu(F, diags, mtu, mtuOpt);

  RoceSettings r = read(F, &diags);
  if (!r.enabled)
    return;
  bool ethernet = false;
  uint32_t firstEth = ir::None;
  for (uint32_t d = 0; d < F.numDevices() && !ethernet; ++d)
    if (F.modelOf(d).kind == ir::ModelKind::Switch && F.modelOf(d).protocol == ir::Protocol::Ethernet)
      ethernet = true, firstEth = d;
  if (!ethernet) {
    Diagnostic *d = diags.report(DiagCode::W0121, r.loc, "policy roce is set, but no switch is an Ethernet switch");
    DiagEngine::note(d, {}, "add protocol = \"ethernet\" to the switch models that carry RoCE");
    return;
  }
  const ir::PolicyBlock *pol = F.policyBlock("roce");
  if (!r.nicType.empty() && !defaultDscpMap(r)) {
    const ir::Setting *s = pol->get(F.strings, "nic_type");
    bool data = r.dscp >> 3 != r.pfcPriority;
    Diagnostic *d = diags.report(DiagCode::W0341, s ? s->loc : r.loc,
                                 "no NicConfigurationTemplate: the NICs' default DSCP map puts {} DSCP {} on priority "
                                 "{}, not {}",
                                 data ? "RoCE's" : "the CNPs'", data ? r.dscp : r.cnpDscp,
                                 (data ? r.dscp : r.cnpDscp) >> 3,
                                 data ? r.pfcPriority : RoceSettings::CnpTrafficClass);
    DiagEngine::note(d, {}, fmt::format("the operator keeps priority = DSCP / 8; use dscp = {} and cnp_dscp = 48, or "
                                        "configure the NICs with hosts/roce/HOST.sh, which maps both DSCPs",
                                        r.pfcPriority * 8 + 2));
  }
  const ir::Setting *roceMtu = pol->get(F.strings, "mtu");
  if (mtuOk && r.mtu && mtu < r.mtu) {
    const ir::Setting *s = roceMtu;
    Diagnostic *d = diags.report(DiagCode::E0111, s ? s->loc : r.loc,
                                 "RoCE needs an MTU of {} bytes, but the fabric ports have {}", r.mtu, mtu);
    if (mtuOpt)
      DiagEngine::note(d, mtuOpt->loc, "option mtu sets the MTU of every fabric port");
    else
      DiagEngine::note(d, devRange(F, firstEth), fmt::format("every fabric port has the default MTU of {} bytes; raise "
                                                             "it with option mtu", mtu));
  } else if (mtuOk) {
    // The GPU NICs' MTU (policy roce mtu, else the fabric's) sets RoCE's RDMA path MTU.
    uint32_t host = r.mtu ? r.mtu : mtu, rdma = rdmaMtu(host);
    if (rdma < 4096) {
      SourceRange at = roceMtu ? roceMtu->loc : mtuOpt ? mtuOpt->loc : r.loc;
      Diagnostic *d = diags.report(DiagCode::W0340, at, "an MTU of {} bytes gives RoCE an RDMA MTU of {} bytes, not 4096",
                                   host, rdma);
      DiagEngine::note(d, {}, "RoCEv2 needs 88 bytes of headers around each RDMA packet: an MTU of 4184 or more (9100 "
                              "is usual) carries the 4096-byte RDMA MTU");
    }
  }
}

} // namespace fabc::passes
