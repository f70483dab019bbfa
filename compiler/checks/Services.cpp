// Settings several Ethernet outputs write, checked once for all of them: policy
// management (NTP, syslog and TACACS+ servers, the management VRF and the management
// port's address per switch, the sources mgmt_allow lets reach them) and policy bfd
// (BFD on every fabric BGP session).
#include "diag/DiagCodes.h"
#include "checks/OutputChecks.h"

#include "diag/Diag.h"
#include "ir/Address.h"
#include "passes/Addressing.h"
#include "passes/HostAddressing.h"

#include <algorithm>
#include <cmath>

namespace fabc::checks {

namespace {

Diagnostic *badSetting(DiagEngine &diags, const ir::Setting &s, std::string msg, const char *fix) {
  Diagnostic *d = diags.report(DiagCode::E0205, s.loc, "{}", msg);
  DiagEngine::note(d, {}, fix);
  return d;
}

// A list of IPv4 server addresses (one string is a list of one).
bool servers(const ir::Fabric &F, const ir::Setting &s, std::vector<uint32_t> &out, DiagEngine &diags) {
  std::string_view name = F.strings.str(s.name);
  std::vector<uint32_t> strs = s.type == ir::Setting::String ? std::vector<uint32_t>{s.str} : s.strs;
  if (s.type != ir::Setting::String && s.type != ir::Setting::StringList) {
    badSetting(diags, s, fmt::format("{} is a list of IPv4 addresses", name), "for example [\"10.0.0.1\", \"10.0.0.2\"]");
    return false;
  }
  bool ok = true;
  for (uint32_t id : strs) {
    uint32_t a;
    std::string_view v = F.strings.str(id);
    if (!ir::parseIPv4(v, a) || a == 0 || a >> 28 >= 0xE) {
      badSetting(diags, s, fmt::format("{}: '{}' is not a unicast IPv4 address", name, v),
                 "write each server as \"a.b.c.d\" (host names would need DNS on every switch)");
      ok = false;
      continue;
    }
    for (uint32_t b : out)
      if (a == b) {
        badSetting(diags, s, fmt::format("{} lists {} twice", name, v), "list each server once");
        ok = false;
      }
    out.push_back(a);
  }
  return ok;
}

// mgmt_allow: the sources a control-plane ACL lets reach SSH, SNMP and NTP. Each element
// is checked on its own, the caret at it; an empty list would lock every operator out.
bool allowList(const ir::Fabric &F, const ir::Setting &s, ManagementPlan &p, DiagEngine &diags) {
  auto bad = [&](SourceRange at, std::string msg, std::string fix) {
    Diagnostic *d = diags.report(DiagCode::E0420, at, "{}", msg);
    DiagEngine::note(d, {}, std::move(fix));
  };
  std::vector<uint32_t> strs = s.type == ir::Setting::String ? std::vector<uint32_t>{s.str} : s.strs;
  if ((s.type != ir::Setting::String && s.type != ir::Setting::StringList) || strs.empty()) {
    bad(s.loc, s.type == ir::Setting::List && s.list.empty() ? "mgmt_allow is empty: no source could reach the switches' SSH"
                                                              : "mgmt_allow is a list of IPv4 prefixes",
        "for example mgmt_allow = [\"10.250.0.0/16\"]; leave mgmt_allow out for no control-plane ACL");
    return false;
  }
  bool ok = true;
  for (size_t e = 0; e < strs.size(); ++e) {
    std::string_view v = F.strings.str(strs[e]);
    SourceRange at = diags.element(s.loc, v, unsigned(std::count(strs.begin(), strs.begin() + e, strs[e])));
    uint32_t base, addr;
    unsigned len;
    if (ir::parseCidr(v, base, len)) {
      bool twice = false;
      for (const auto &[b, l] : p.allow)
        twice |= b == base && l == len;
      if (twice) {
        bad(at, fmt::format("mgmt_allow lists {} twice", v), "list each prefix once");
        ok = false;
        continue;
      }
      p.allow.emplace_back(base, uint8_t(len));
      continue;
    }
    ok = false;
    size_t slash = v.find('/');
    std::string_view host = v.substr(0, slash);
    unsigned l = 0;
    bool lenOk = slash != std::string_view::npos && slash + 1 < v.size() && v.size() - slash <= 3;
    for (size_t i = slash + 1; lenOk && i < v.size(); ++i)
      lenOk = v[i] >= '0' && v[i] <= '9' && (l = l * 10 + unsigned(v[i] - '0')) <= 32;
    if (lenOk && ir::parseIPv4(host, addr)) { // a well-formed prefix with host bits set
      uint32_t mask = l ? ~uint32_t(0) << (32 - l) : 0;
      bad(at, fmt::format("mgmt_allow prefix '{}' has host bits set", v),
          fmt::format("the prefix of {}/{} is \"{}/{}\"; for the one host write \"{}/32\"", host, l,
                      ir::ipv4String(addr & mask), l, host));
    } else if (slash == std::string_view::npos && ir::parseIPv4(v, addr)) {
      bad(at, fmt::format("mgmt_allow element '{}' is an address, not a prefix", v),
          fmt::format("write \"{}/32\" for the one host", v));
    } else {
      bad(at, fmt::format("mgmt_allow element '{}' is not an IPv4 prefix", v),
          v.find(':') != std::string_view::npos
              ? "mgmt_allow takes IPv4 prefixes (\"a.b.c.d/len\"), the management network fabc numbers"
              : "write \"a.b.c.d/len\" with len from 0 to 32, e.g. \"10.250.0.0/16\"");
    }
  }
  if (!ok)
    p.allow.clear();
  return ok;
}

// The fabric's own pools, to keep the management network out of them.
void fabricPool(const ir::Fabric &F, const char *name, uint32_t defBase, uint32_t &base, unsigned &len) {
  base = defBase;
  len = 16;
  const ir::PolicyBlock *pb = F.policyBlock("addressing");
  const ir::Setting *s = pb ? pb->get(F.strings, name) : nullptr;
  if (s && s->type == ir::Setting::String) {
    uint32_t b;
    unsigned l;
    if (ir::parseCidr(F.strings.str(s->str), b, l)) {
      base = b;
      len = l;
    }
  }
}

bool overlaps(uint32_t a, unsigned al, uint32_t b, unsigned bl) {
  unsigned l = al < bl ? al : bl;
  uint32_t mask = l == 0 ? 0 : ~uint32_t(0) << (32 - l);
  return (a & mask) == (b & mask);
}

} // namespace

bool checkManagement(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  ManagementPlan &p = an.management;
  if (p.checked)
    return p.ok;
  p.checked = true;
  const ir::PolicyBlock *pb = F.policyBlock("management");
  if (!pb)
    return true;
  const ir::Setting *pool = nullptr, *gw = nullptr, *tacacs = nullptr, *secret = nullptr;
  for (const ir::Setting &s : pb->props) {
    std::string_view k = F.strings.str(s.name);
    if (k == "ntp_servers")
      p.ok &= servers(F, s, p.ntp, diags);
    else if (k == "syslog_servers")
      p.ok &= servers(F, s, p.syslog, diags);
    else if (k == "tacacs_servers") {
      p.ok &= servers(F, s, p.tacacs, diags);
      tacacs = &s;
    } else if (k == "tacacs_secret")
      secret = &s;
    else if (k == "mgmt_vrf") {
      if (s.type != ir::Setting::Bool) {
        badSetting(diags, s, "mgmt_vrf is a boolean", "mgmt_vrf = true puts the management port in VRF mgmt");
        p.ok = false;
      }
      p.vrf = s.boolean;
    } else if (k == "mgmt_pool")
      pool = &s;
    else if (k == "mgmt_gateway")
      gw = &s;
    else if (k == "mgmt_allow")
      p.ok &= allowList(F, s, p, diags);
  }
  if (secret)
    p.ok &= resolveSecret(F, *secret, p.tacacsSecret, diags);
  else if (tacacs && !p.tacacs.empty()) {
    Diagnostic *d = diags.report(DiagCode::W0202, tacacs->loc, "TACACS+ servers without a shared secret: the outputs list "
                                 "them without a key, and TACACS+ stays unusable until one is set on each switch");
    DiagEngine::note(d, {}, "name the key by reference: tacacs_secret = \"env:NAME\" or \"file:/path\"");
  }
  if (gw && !pool) {
    badSetting(diags, *gw, "mgmt_gateway without mgmt_pool", "give mgmt_pool, the subnet the switches' management ports take addresses from");
    p.ok = false;
  }
  if (!pool)
    return p.ok;
  std::string_view pv = pool->type == ir::Setting::String ? F.strings.str(pool->str) : std::string_view();
  if (!ir::parseCidr(pv, p.base, p.len) || p.len > 30 || p.base == 0) {
    badSetting(diags, *pool, fmt::format("invalid mgmt_pool '{}'", pv),
               "mgmt_pool is \"a.b.c.d/len\" with the host bits zero and len at most 30, e.g. \"192.168.0.0/24\"");
    return p.ok = false;
  }
  if (const char *block = ir::specialUseBlock(p.base, p.len)) {
    Diagnostic *d = diags.report(DiagCode::E0144, pool->loc, "mgmt_pool {} overlaps {}", pv, block);
    DiagEngine::note(d, {}, "no management port may be numbered from it: take a private range, for example "
                            "\"192.168.0.0/24\"");
    return p.ok = false;
  }
  uint32_t size = uint32_t(1) << (32 - p.len), last = p.base + size - 1;
  for (const char *other : {"loopback_pool", "p2p_pool"}) {
    uint32_t b;
    unsigned l;
    fabricPool(F, other, other[0] == 'l' ? 0x0A000000 : 0x0AFE0000, b, l);
    if (overlaps(p.base, p.len, b, l)) {
      badSetting(diags, *pool, fmt::format("mgmt_pool {} overlaps {} {}/{}", pv, other, ir::ipv4String(b), l),
                 "the management network is out of band: give it a subnet of its own");
      p.ok = false;
    }
  }
  // The host pool numbers the GPU NICs: a switch's management port must not take one of
  // their addresses (nor the SVI, the NICs' gateway, become the management gateway).
  if (const ir::PolicyBlock *ab = F.policyBlock("addressing"))
    if (const ir::Setting *hs = ab->get(F.strings, "host_pool"); hs && hs->type == ir::Setting::String) {
      uint32_t b;
      unsigned l;
      if (ir::parseCidr(F.strings.str(hs->str), b, l) && overlaps(p.base, p.len, b, l)) {
        Diagnostic *d = diags.report(DiagCode::E0205, pool->loc, "mgmt_pool {} overlaps host_pool {}/{}", pv,
                                     ir::ipv4String(b), l);
        DiagEngine::note(d, hs->loc, "host_pool is set here: the GPU NICs and the leaves' SVIs take addresses from it");
        DiagEngine::note(d, {}, "the management network is out of band: give it a subnet of its own");
        p.ok = false;
      }
    }
  if (gw) {
    std::string_view gv = gw->type == ir::Setting::String ? F.strings.str(gw->str) : std::string_view();
    if (!ir::parseIPv4(gv, p.gateway) || p.gateway <= p.base || p.gateway >= last) {
      badSetting(diags, *gw, fmt::format("mgmt_gateway '{}' is not a host address of mgmt_pool {}", gv, pv),
                 "the gateway is the management subnet's router, an address inside mgmt_pool");
      return p.ok = false;
    }
  }
  uint64_t hosts = size - 2 - (gw ? 1 : 0), n = an.ethernet.switches.size();
  if (n > hosts) {
    Diagnostic *d = diags.report(DiagCode::E0206, pool->loc, "mgmt_pool {} has {} host address{}{}, and {} switches need one each",
                                 pv, hosts, hosts == 1 ? "" : "es", gw ? " besides the gateway" : "", n);
    DiagEngine::note(d, {}, "give a larger mgmt_pool");
    return p.ok = false;
  }
  p.addresses = p.ok;
  return p.ok;
}

bool checkBfd(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  BfdPlan &b = an.bfd;
  if (b.checked)
    return b.ok;
  b.checked = true;
  const ir::PolicyBlock *pb = F.policyBlock("bfd");
  if (!pb)
    return true;
  b.enabled = true;
  for (const ir::Setting &s : pb->props) {
    std::string_view k = F.strings.str(s.name);
    if (k == "interval") {
      double ms = s.number * 1e3;
      if (s.type != ir::Setting::Number || !(s.dim == dims::Time) || ms < 10 || ms > 60000 || std::fabs(ms - std::round(ms)) > 1e-6) {
        Diagnostic *d = diags.report(DiagCode::E0207, s.loc, "BFD interval must be a whole number of milliseconds from 10 ms to 60 s");
        DiagEngine::note(d, {}, "for example interval = 300 ms (FRR's and Cumulus Linux's default)");
        b.ok = false;
        continue;
      }
      b.intervalMs = uint32_t(std::lround(ms));
    } else if (k == "multiplier") {
      if (s.type != ir::Setting::Number || !s.dim.none() || s.number < 2 || s.number > 255 || s.number != std::floor(s.number)) {
        Diagnostic *d = diags.report(DiagCode::E0207, s.loc, "BFD multiplier must be a whole number from 2 to 255");
        DiagEngine::note(d, {}, "the session goes down after this many intervals without a packet (default 3)");
        b.ok = false;
        continue;
      }
      b.multiplier = uint32_t(s.number);
    }
  }
  return b.ok;
}

bool checkBgp(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  BgpPlan &b = an.bgp;
  if (b.checked)
    return b.ok;
  b.checked = true;
  const ir::PolicyBlock *pb = F.policyBlock("bgp");
  if (!pb)
    return true;
  b.enabled = true;
  // What the fabric originates: a loopback per routed switch, and the host prefixes (a /31
  // per NIC link, or a subnet per leaf or rail). A session receives at most all of them.
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    b.fabricPrefixes += passes::isRoutedSwitch(F, d);
  if (F.hostScheme == ir::HostScheme::P2p) {
    for (uint32_t l = 0; l < F.numLinks(); ++l)
      b.fabricPrefixes += passes::isHostLink(F, l);
  } else {
    b.fabricPrefixes += F.hostNets.size();
  }
  bool automatic = true; // max_prefix = "auto", the policy's default
  for (const ir::Setting &s : pb->props) {
    std::string_view k = F.strings.str(s.name);
    if (k == "max_prefix") {
      if (s.type == ir::Setting::String && F.strings.str(s.str) == "auto") {
        automatic = true;
      } else if (s.type == ir::Setting::Number && s.dim.none() && s.number >= 1 && s.number <= 4294967295.0 &&
                 s.number == std::floor(s.number)) {
        automatic = false;
        b.maxPrefix = uint32_t(s.number);
      } else {
        Diagnostic *d = diags.report(DiagCode::E0209, s.loc, "max_prefix must be a whole number from 1 to 4294967295, or \"auto\"");
        DiagEngine::note(d, {}, fmt::format("\"auto\" allows twice the {} prefix{} this fabric originates", b.fabricPrefixes,
                                             b.fabricPrefixes == 1 ? "" : "es"));
        b.ok = false;
      }
    } else if (k == "password") {
      b.ok &= resolveSecret(F, s, b.password, diags);
    } else if (k == "max_prefix_warning_only") {
      if (s.type != ir::Setting::Bool) {
        Diagnostic *d = diags.report(DiagCode::E0209, s.loc, "max_prefix_warning_only must be true or false");
        DiagEngine::note(d, {}, "false (the default) closes a session that passes max_prefix; true only logs it");
        b.ok = false;
      } else {
        b.warningOnly = s.boolean;
      }
    }
  }
  // Twice: room for the fabric to grow while its switches are reconfigured one by one,
  // when old limits meet new prefixes.
  if (automatic)
    b.maxPrefix = uint32_t(std::min<uint64_t>(std::max<uint64_t>(2 * b.fabricPrefixes, 1), 4294967295u));
  return b.ok;
}

bool checkStormControl(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  StormControlPlan &p = an.storm;
  if (p.checked)
    return p.ok;
  p.checked = true;
  const ir::PolicyBlock *pb = F.policyBlock("storm_control");
  if (!pb)
    return true;
  for (const ir::Setting &s : pb->props) {
    std::string_view k = F.strings.str(s.name);
    uint32_t *rate = k == "broadcast" ? &p.broadcast : k == "multicast" ? &p.multicast
                   : k == "unknown_unicast" ? &p.unknownUnicast : nullptr;
    if (rate) {
      // NVUE's range (nv set interface <id> storm-control broadcast 1-4294967295).
      if (s.type != ir::Setting::Number || !s.dim.none() || s.number < 1 || s.number > 4294967295.0 ||
          s.number != std::floor(s.number)) {
        Diagnostic *d = diags.report(DiagCode::E0212, s.loc, "storm control {} must be a whole number of packets per second "
                                     "from 1 to 4294967295", k);
        DiagEngine::note(d, {}, "for example broadcast = 400 (packets per second, NVUE's unit); leave a kind out for no limit");
        p.ok = false;
        continue;
      }
      *rate = uint32_t(s.number);
    } else if (k == "frame_size") {
      if (s.type != ir::Setting::Number || !(s.dim == dims::Data) || s.number < 64 * 8 - 1e-6 || s.number > 9216 * 8 + 1e-6 ||
          std::fabs(s.number / 8 - std::round(s.number / 8)) > 1e-6) {
        Diagnostic *d = diags.report(DiagCode::E0212, s.loc, "storm control frame_size must be a whole number of bytes from 64 B to 9216 B");
        DiagEngine::note(d, {}, "SONiC limits storms in bits per second: a limit of N packets per second becomes N frames "
                                "of frame_size (default 64 B, the smallest Ethernet frame)");
        p.ok = false;
        continue;
      }
      p.frameBytes = uint32_t(std::lround(s.number / 8));
    }
  }
  p.enabled = p.ok && (p.broadcast || p.multicast || p.unknownUnicast);
  return p.ok;
}

bool checkFrr(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  checkEthernet(F, an, diags, "frr");
  bool ok = checkBfd(F, an, diags);
  return checkBgp(F, an, diags) && ok;
}

} // namespace fabc::checks
