// The host addressing plan of policy addressing, read and checked (HostPlan.h).
#include "passes/HostPlan.h"

#include "diag/Diag.h"
#include "diag/DiagCodes.h"
#include "ir/Address.h"
#include "passes/Passes.h"

namespace fabc::passes {
using ir::ipv4String;

bool readHostPlan(const ir::Fabric &F, DiagEngine &diags, HostPlan &plan) {
  const ir::PolicyBlock *pol = F.policyBlock("addressing");
  if (!pol)
    return true;
  bool ok = true;
  auto bad = [&](const ir::Setting &s, std::string msg, std::string fix) {
    Diagnostic *d = diags.report(DiagCode::E0105, s.loc, "{}", msg);
    DiagEngine::note(d, {}, std::move(fix));
    ok = false;
  };
  auto whole = [](const ir::Setting &s, double lo, double hi) {
    return s.type == ir::Setting::Number && s.dim.none() && s.number >= lo && s.number <= hi &&
           s.number == double(int64_t(s.number));
  };
  const ir::Setting *scheme = nullptr;
  for (const ir::Setting &s : pol->props) {
    std::string_view key = F.strings.str(s.name);
    if (key == "host_pool") {
      uint32_t base;
      unsigned len;
      if (s.type != ir::Setting::String || !ir::parseCidr(F.strings.str(s.str), base, len) || base == 0 || len > 31) {
        bad(s, "'host_pool' must be an IPv4 prefix \"a.b.c.d/len\" of at most /31",
            "for example host_pool = \"172.16.0.0/12\"; the host bits must be zero");
        continue;
      }
      if (const char *block = ir::specialUseBlock(base, len)) {
        Diagnostic *d = diags.report(DiagCode::E0144, s.loc, "host_pool {}/{} overlaps {}", ipv4String(base), len, block);
        DiagEngine::note(d, {}, "no NIC may be numbered from it: take a private range, for example \"172.16.0.0/12\"");
        ok = false;
        continue;
      }
      plan.base = base;
      plan.len = len;
      plan.poolLoc = s.loc;
      if (plan.scheme == ir::HostScheme::None)
        plan.scheme = ir::HostScheme::P2p;
    } else if (key == "host_scheme") {
      scheme = &s;
    } else if (key == "host_subnet_len") {
      if (!whole(s, 1, 30)) {
        bad(s, "'host_subnet_len' must be a prefix length from 1 to 30",
            "the length of every leaf's (or rail's) host subnet, for example 24; leave it out to take the smallest "
            "that holds the largest leaf");
        continue;
      }
      plan.subnetLen = unsigned(s.number);
      plan.lenLoc = s.loc;
    } else if (key == "host_vlan") {
      if (!whole(s, 1, 4094)) {
        bad(s, "'host_vlan' must be a VLAN ID from 1 to 4094", "the VLAN of the host subnets' SVIs (default 100)");
        continue;
      }
      plan.vlan = uint32_t(s.number);
      plan.vlanLoc = s.loc;
    }
  }
  if (scheme) {
    std::string_view v = scheme->type == ir::Setting::String ? F.strings.str(scheme->str) : "";
    ir::HostScheme sc = v == "p2p" ? ir::HostScheme::P2p : v == "leaf" ? ir::HostScheme::Leaf
                        : v == "rail" ? ir::HostScheme::Rail : ir::HostScheme::None;
    if (sc == ir::HostScheme::None) {
      bad(*scheme, "host_scheme must be \"p2p\", \"leaf\" or \"rail\"",
          "\"p2p\": a /31 per NIC-leaf link; \"leaf\": one subnet per leaf behind a VLAN interface; \"rail\": one "
          "subnet per rail on each leaf, each in its own VLAN (host_vlan + rail)");
    } else if (!plan.len) {
      Diagnostic *d = diags.report(DiagCode::E0105, scheme->loc, "host_scheme is set but policy addressing has no host_pool");
      DiagEngine::note(d, {}, "add host_pool = \"a.b.c.d/len\", the pool the GPU NICs are addressed from");
      ok = false;
    } else {
      plan.scheme = sc;
    }
    plan.schemeLoc = scheme->loc;
  }
  if (!plan.schemeLoc.begin.valid())
    plan.schemeLoc = plan.poolLoc;
  return ok;
}

bool overlaps(uint64_t a, unsigned alen, uint64_t b, unsigned blen) {
  uint64_t aend = a + (uint64_t(1) << (32 - alen)), bend = b + (uint64_t(1) << (32 - blen));
  return a < bend && b < aend;
}

bool checkHostOverlaps(const ir::Fabric &F, DiagEngine &diags, const HostPlan &plan, const FabricPools &pools,
                       const std::vector<uint8_t> &routed) {
  bool ok = true;
  auto pool = [&](const char *name, uint32_t base, unsigned len, SourceRange at) {
    if (!overlaps(plan.base, plan.len, base, len))
      return;
    Diagnostic *d = diags.report(DiagCode::E0142, plan.poolLoc, "host_pool {}/{} overlaps {} {}/{}",
                                 ipv4String(plan.base), plan.len, name, ipv4String(base), len);
    DiagEngine::note(d, at, fmt::format("{} is set here{}", name,
                                        std::string_view(name) == "loopback_pool" ? " (default 10.0.0.0/16)"
                                                                                  : " (default 10.254.0.0/16)"));
    ok = false;
  };
  pool("loopback_pool", pools.lbBase, pools.lbLen, pools.lbLoc);
  if (pools.numbered) // unnumbered fabrics take no address from p2p_pool
    pool("p2p_pool", pools.p2pBase, pools.p2pLen, pools.p2pLoc);
  if (!ok)
    return false; // the pool's loopbacks lie in the host pool too: said once
  // Explicit loopbacks (the pool's are outside the host pool by now).
  unsigned shown = 0;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    uint32_t a = F.devLoopback[d];
    if (!routed[d] || !a || !overlaps(plan.base, plan.len, a, 32))
      continue;
    ok = false;
    if (shown++ >= 20) {
      diags.tally(DiagCode::E0142, {F.devLoc[d], 1});
      continue;
    }
    Diagnostic *dg = diags.report(DiagCode::E0142, {F.devLoc[d], 1}, "loopback {} of '{}' lies in host_pool {}/{}",
                                  ipv4String(a), F.deviceName(d), ipv4String(plan.base), plan.len);
    passes::noteInstances(dg, F, d);
    DiagEngine::note(dg, plan.poolLoc, "host_pool is set here");
  }
  return ok;
}

} // namespace fabc::passes
