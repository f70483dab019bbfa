// The addressing pass: the eBGP ASN plan (RFC 7938 style), loopbacks, /31s, hostnames.
#include "diag/DiagCodes.h"
#include "passes/Addressing.h"
#include "passes/Passes.h"
#include "passes/Overlay.h"
#include "passes/HostAddressing.h"
#include "passes/AddressDomains.h"
#include "passes/Bonds.h"
#include "checks/HostNames.h"
#include "diag/Diag.h"
#include "ir/Address.h"
#include "ir/DenseKeys.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringMap.h>

#include <array>
#include <cctype>

namespace fabc::passes {
using ir::None;
using ir::ipv4String;
using ir::parseCidr;

bool isRoutedSwitch(const ir::Fabric &F, uint32_t dev) {
  const ir::Model &m = F.modelOf(dev);
  return m.kind == ir::ModelKind::Switch && m.protocol != ir::Protocol::InfiniBand;
}

bool isRoutedLink(const ir::Fabric &F, uint32_t link) {
  return isRoutedSwitch(F, F.portDevice[F.linkA[link]]) && isRoutedSwitch(F, F.portDevice[F.linkB[link]]);
}

std::string hostName(const ir::Fabric &F, uint32_t dev) {
  std::string path = F.deviceName(dev), h;
  h.reserve(path.size());
  for (char c : path) {
    if (c == '[' || c == ']')
      continue;
    h += c == '.' || c == '_' ? '-' : char(std::tolower((unsigned char)c));
  }
  return h;
}

bool bgpUnnumbered(const ir::Fabric &F) {
  const ir::Setting *s = F.option("bgp_unnumbered");
  return !s || s->type != ir::Setting::Bool || s->boolean;
}

uint32_t fabricMtu(const ir::Fabric &F) {
  const ir::Setting *s = F.option("mtu");
  if (!s || s->type != ir::Setting::Number)
    return 9100;
  double v = s->dim == dims::Data ? s->number / 8 : s->number;
  return v >= 0 && v < 1e9 ? uint32_t(v) : 0;
}

namespace {

struct AsnPool {
  const char *name;
  uint64_t lo, hi, next;
  SourceRange loc;
  uint64_t failed = 0;
};

// The fabric pools (loopback, point-to-point; HostAddressing.h) with this pass's defaults,
// and the ASN plan.
struct Plan : FabricPools {
  Plan() {
    lbBase = 0x0A000000, p2pBase = 0x0AFE0000; // 10.0.0.0/16, 10.254.0.0/16
    lbLen = 16, p2pLen = 16;
  }
  AsnPool pools[3] = {{"leaf_asn", 4200000000u, 4200999999u, 0, {}},
                      {"spine_asn", 4201000000u, 4201999999u, 0, {}},
                      {"core_asn", 4202000000u, 4202999999u, 0, {}}};
  bool perTier = true;
  AddressDomains dom; // one shared domain unless policy addressing's per names a scope
};


// Reads policy addressing and option bgp_unnumbered; false after E0105.
bool readPlan(const ir::Fabric &F, DiagEngine &diags, Plan &plan) {
  bool ok = true;
  auto bad = [&](const ir::Setting &s, std::string msg, std::string fix) {
    Diagnostic *d = diags.report(DiagCode::E0105, s.loc, "{}", msg);
    DiagEngine::note(d, {}, std::move(fix));
    ok = false;
  };
  if (const ir::Setting *s = F.option("bgp_unnumbered")) {
    if (s->type != ir::Setting::Bool)
      bad(*s, "option bgp_unnumbered must be true or false", "bgp_unnumbered = false numbers every switch link with a /31");
    else
      plan.numbered = !s->boolean;
  }
  // Without a policy, pool diagnostics point at the fabric.
  SourceRange at{F.loc.begin, 1};
  plan.lbLoc = plan.p2pLoc = at;
  for (AsnPool &p : plan.pools)
    p.loc = at;
  const ir::PolicyBlock *pol = F.policyBlock("addressing");
  if (!pol)
    return ok;
  plan.policyLoc = pol->loc;
  for (AsnPool &p : plan.pools)
    p.loc = pol->loc;
  plan.lbLoc = plan.p2pLoc = pol->loc;
  for (const ir::Setting &s : pol->props) {
    std::string_view key = F.strings.str(s.name);
    AsnPool *pool = nullptr;
    for (AsnPool &p : plan.pools)
      if (key == p.name)
        pool = &p;
    if (pool) {
      std::vector<double> v = s.type == ir::Setting::List ? s.list : std::vector<double>();
      if (s.type == ir::Setting::Number && s.dim.none())
        v = {s.number, s.number};
      auto isAsn = [](double x) { return x >= 1 && x <= 4294967295.0 && x == double(uint64_t(x)); };
      if (v.size() != 2 || !isAsn(v[0]) || !isAsn(v[1]) || v[0] > v[1]) {
        bad(s, fmt::format("'{}' must be a range [first, last] of ASNs", key),
            "ASNs are 1 to 4294967295; the private 4-byte range is [4200000000, 4294967294] (RFC 6996)");
        continue;
      }
      pool->lo = uint64_t(v[0]);
      pool->hi = uint64_t(v[1]);
      pool->loc = s.loc;
    } else if (key == "asn_per") {
      std::string_view v = s.type == ir::Setting::String ? F.strings.str(s.str) : "";
      if (v != "switch" && v != "tier") {
        bad(s, "asn_per must be \"switch\" or \"tier\"",
            "\"tier\": the spines of one tier and pod share an ASN (RFC 7938); \"switch\": every switch has its own");
        continue;
      }
      plan.perTier = v == "tier";
    } else if (key == "loopback_pool" || key == "p2p_pool") {
      bool lb = key == "loopback_pool";
      uint32_t base;
      unsigned len;
      bool parsed = s.type == ir::Setting::String && parseCidr(F.strings.str(s.str), base, len);
      if (!parsed || base == 0 || (!lb && len > 31)) {
        bad(s, fmt::format("'{}' must be an IPv4 prefix \"a.b.c.d/len\"{}", key, lb ? "" : " of at most /31"),
            "for example \"10.0.0.0/16\"; the host bits must be zero and the prefix must not start at 0.0.0.0");
        continue;
      }
      if (const char *block = ir::specialUseBlock(base, len)) {
        Diagnostic *d = diags.report(DiagCode::E0144, s.loc, "{} {}/{} overlaps {}", key, ipv4String(base), len, block);
        DiagEngine::note(d, {}, "no interface may be numbered from it: take a private range, for example \"10.0.0.0/16\"");
        ok = false;
        continue;
      }
      (lb ? plan.lbBase : plan.p2pBase) = base;
      (lb ? plan.lbLen : plan.p2pLen) = len;
      (lb ? plan.lbLoc : plan.p2pLoc) = s.loc;
    }
    // per: planDomains. guid_prefix belongs to the InfiniBand addressing.
  }
  return ok;
}

// Union-find over device ids, for the pods of a tier.
struct Components {
  std::vector<uint32_t> parent;
  explicit Components(size_t n) : parent(n) {
    for (size_t i = 0; i < n; ++i)
      parent[i] = uint32_t(i);
  }
  uint32_t find(uint32_t x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b)
      parent[std::max(a, b)] = std::min(a, b);
  }
};

// leaf_asn (leaves and untiered switches), spine_asn, core_asn (core and above).
unsigned poolOf(ir::Tier tier) {
  return tier == ir::Tier::Spine ? 1 : tier >= ir::Tier::Core && tier != ir::Tier::Unknown ? 2 : 0;
}

void assignAsns(ir::Fabric &F, DiagEngine &diags, Plan &plan, const std::vector<uint8_t> &routed) {
  size_t nd = F.numDevices();
  // With asn_per = "tier", the switches of tier t >= 2 that are connected through tiers
  // 1..t (one pod, for t = 2) share an ASN: a path that climbs to tier t+1 and comes
  // back down into the same pod repeats that ASN, and BGP drops it (no valley paths).
  std::vector<uint32_t> group(nd, None);
  struct Group {
    uint32_t asn = 0, explicitDev = None;
    ir::Tier tier = ir::Tier::EndSystem;
  };
  std::vector<Group> groups;
  if (plan.perTier) {
    for (unsigned k = ir::tierIndex(ir::Tier::Spine); k < ir::NumTiers; ++k) {
      const ir::Tier t = ir::Tier(k);
      bool any = false;
      for (uint32_t d = 0; d < nd && !any; ++d)
        any = routed[d] && F.devTier[d] == t;
      if (!any)
        continue;
      Components cc(nd);
      auto inSet = [&](uint32_t d) { return routed[d] && F.devTier[d] >= ir::Tier::Leaf && F.devTier[d] <= t; };
      for (size_t l = 0; l < F.numLinks(); ++l) {
        uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
        if (inSet(a) && inSet(b))
          cc.unite(a, b);
      }
      llvm::DenseMap<uint32_t, uint32_t> byRoot;
      for (uint32_t d = 0; d < nd; ++d) {
        if (!routed[d] || F.devTier[d] != t)
          continue;
        auto ins = byRoot.try_emplace(cc.find(d), uint32_t(groups.size()));
        if (ins.second) {
          groups.emplace_back();
          groups.back().tier = t;
        }
        group[d] = ins.first->second;
      }
    }
  }

  // Each domain numbers from the start of the pools (decision 0481): an ASN is unique
  // within its domain, and the domains' plans repeat one another.
  const AddressDomains &dom = plan.dom;
  std::vector<ir::Wide32Set> used(dom.count); // ASNs: every 32-bit value is legal
  unsigned conflicts = 0;
  for (uint32_t d = 0; d < nd; ++d) {
    if (!routed[d] || !F.devAsn[d])
      continue;
    used[dom.at(d)].insert(F.devAsn[d]);
    if (group[d] == None)
      continue;
    Group &g = groups[group[d]];
    if (!g.asn) {
      g.asn = F.devAsn[d];
      g.explicitDev = d;
    } else if (g.asn != F.devAsn[d] && conflicts++ < 20) {
      Diagnostic *dg = diags.report(DiagCode::E0109, devRange(F, d),
                                    "'{}' has asn {}, but '{}' in the same shared-ASN tier has {}", F.deviceName(d),
                                    F.devAsn[d], F.deviceName(g.explicitDev), g.asn);
      noteInstances(dg, F, d);
      DiagEngine::note(dg, devRange(F, g.explicitDev), "the tier's ASN is set here");
      DiagEngine::note(dg, plan.policyLoc, "asn_per = \"tier\" (the default) shares one ASN per spine tier and pod; "
                                           "use asn_per = \"switch\" for one ASN per switch");
    }
  }
  std::vector<std::array<uint64_t, 3>> next(dom.count); // per domain, per pool
  for (auto &n : next)
    for (unsigned i = 0; i < 3; ++i)
      n[i] = plan.pools[i].lo;
  auto alloc = [&](ir::Tier tier, uint32_t k) -> uint32_t {
    AsnPool &p = plan.pools[poolOf(tier)];
    uint64_t &n = next[k][poolOf(tier)];
    while (n <= p.hi && used[k].count(n))
      ++n;
    if (n > p.hi) {
      ++p.failed;
      return 0;
    }
    used[k].insert(n);
    return uint32_t(n++);
  };
  for (uint32_t d = 0; d < nd; ++d) {
    if (!routed[d])
      continue;
    if (group[d] != None) {
      Group &g = groups[group[d]]; // a shared-ASN group lies in one domain: no link crosses (E0430)
      if (!g.asn)
        g.asn = alloc(g.tier, dom.at(d));
      F.devAsn[d] = g.asn;
    } else if (!F.devAsn[d]) {
      F.devAsn[d] = alloc(F.devTier[d], dom.at(d));
    }
  }
  for (const AsnPool &p : plan.pools) {
    if (!p.failed)
      continue;
    Diagnostic *dg = diags.report(DiagCode::E0100, p.loc, "the {} pool [{}, {}] is exhausted: {} more ASN{} needed",
                                  p.name, p.lo, p.hi, p.failed, p.failed == 1 ? " is" : "s are");
    DiagEngine::note(dg, {}, fmt::format("set {} = [first, last] in policy addressing to a wider range{}", p.name,
                                         plan.perTier ? "" : ", or share one ASN per spine tier with asn_per = \"tier\""));
    if (dom.split())
      DiagEngine::note(dg, dom.perLoc, fmt::format("with per = \"{}\" each of the {} domains numbers from the start of "
                                                   "the pool, and these are their shortfalls summed", dom.per, dom.count));
  }

  // Uniqueness: an ASN belongs to one switch, or to one shared-ASN tier group, within
  // its domain.
  std::vector<ir::Wide32Map<std::pair<uint64_t, uint32_t>>> owner(dom.count); // asn -> (owner, first device)
  unsigned dups = 0;
  for (uint32_t d = 0; d < nd; ++d) {
    if (!routed[d] || !F.devAsn[d])
      continue;
    uint64_t who = group[d] == None ? d : (uint64_t(1) << 32) | group[d];
    auto ins = owner[dom.at(d)].try_emplace(F.devAsn[d], who, d);
    if (ins.second || ins.first->second.first == who || dups++ >= 20)
      continue;
    uint32_t first = ins.first->second.second;
    Diagnostic *dg = diags.report(DiagCode::E0103, devRange(F, d), "'{}' and '{}' both have ASN {}", F.deviceName(first),
                                  F.deviceName(d), F.devAsn[d]);
    noteInstances(dg, F, d);
    DiagEngine::note(dg, devRange(F, first), "the first one is declared here");
    DiagEngine::note(dg, {}, group[d] == None && group[first] == None && F.devTier[d] >= ir::Tier::Spine && F.devTier[d] != ir::Tier::Unknown
                                 ? "to share one ASN across a spine tier, use asn_per = \"tier\" in policy addressing"
                                 : "give each its own asn, or drop the asn property to take one from the pool");
  }
  unsigned same = 0;
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    if (!routed[a] || !routed[b] || !F.devAsn[a] || F.devAsn[a] != F.devAsn[b] || same++ >= 20)
      continue;
    Diagnostic *dg = diags.report(DiagCode::E0108, linkRange(F, l), "'{}' and '{}' are linked but share ASN {}",
                                  F.deviceName(a), F.deviceName(b), F.devAsn[a]);
    noteLinkInstances(dg, F, l);
    DiagEngine::note(dg, plan.policyLoc, group[a] != None ? "switches of one tier and pod share an ASN with asn_per = "
                                                            "\"tier\"; use asn_per = \"switch\" when they are linked"
                                                          : "give one of them another asn");
  }
}

void assignLoopbacks(ir::Fabric &F, DiagEngine &diags, const Plan &plan, const std::vector<uint8_t> &routed) {
  size_t nd = F.numDevices();
  uint64_t p2pSize = uint64_t(1) << (32 - plan.p2pLen);
  ir::Wide32Map<uint32_t> taken; // address -> device
  unsigned dups = 0, overlaps = 0;
  for (uint32_t d = 0; d < nd; ++d) {
    uint32_t a = F.devLoopback[d];
    if (!routed[d] || !a)
      continue;
    auto ins = taken.try_emplace(a, d);
    if (!ins.second && dups++ < 20) {
      Diagnostic *dg = diags.report(DiagCode::E0104, devRange(F, d), "'{}' and '{}' both have loopback {}",
                                    F.deviceName(ins.first->second), F.deviceName(d), ipv4String(a));
      noteInstances(dg, F, d);
      DiagEngine::note(dg, devRange(F, ins.first->second), "the first one is declared here");
    }
    bool inP2p = plan.numbered && a >= plan.p2pBase && uint64_t(a) < plan.p2pBase + p2pSize;
    if (inP2p && overlaps++ < 20) {
      Diagnostic *dg = diags.report(DiagCode::E0106, devRange(F, d), "loopback {} of '{}' lies in the point-to-point pool",
                                    ipv4String(a), F.deviceName(d));
      noteInstances(dg, F, d);
      DiagEngine::note(dg, plan.p2pLoc, fmt::format("p2p_pool is {}/{}", ipv4String(plan.p2pBase), plan.p2pLen));
    }
  }
  // Each domain takes its slice of the pool (the whole pool with one domain). Network and
  // broadcast addresses of a slice stay free (but a /31 or /32 is all host).
  const AddressDomains &dom = plan.dom;
  unsigned len = plan.lbLen + dom.splitBits;
  uint64_t sliceSize = uint64_t(1) << (32 - len);
  std::vector<uint64_t> next(dom.count), failed(dom.count, 0);
  for (uint32_t k = 0; k < dom.count; ++k)
    next[k] = sliceBase(plan.lbBase, plan.lbLen, dom.splitBits, k) + (len <= 30 ? 1 : 0);
  for (uint32_t d = 0; d < nd; ++d) {
    if (!routed[d] || F.devLoopback[d])
      continue;
    uint32_t k = dom.at(d);
    uint64_t last = sliceBase(plan.lbBase, plan.lbLen, dom.splitBits, k) + sliceSize - 1 - (len <= 30 ? 1 : 0);
    while (next[k] <= last && taken.count(next[k]))
      ++next[k];
    if (next[k] > last) {
      ++failed[k];
      continue;
    }
    F.devLoopback[d] = uint32_t(next[k]++);
  }
  for (uint32_t k = 0; k < dom.count; ++k) {
    if (!failed[k])
      continue;
    uint64_t n = failed[k];
    Diagnostic *dg = diags.report(DiagCode::E0101, plan.lbLoc, "loopback pool {}/{}{} is exhausted: {} more switch{} need{} a loopback",
                                  ipv4String(sliceBase(plan.lbBase, plan.lbLen, dom.splitBits, k)), len,
                                  dom.split() ? fmt::format(" of {} {}", dom.per, dom.names[k]) : std::string(), n,
                                  n == 1 ? "" : "es", n == 1 ? "s" : "");
    DiagEngine::note(dg, {}, dom.split() ? fmt::format("each {} takes 1/{} of loopback_pool {}/{}: give policy addressing a "
                                                       "larger loopback_pool", dom.per, uint64_t(1) << dom.splitBits,
                                                       ipv4String(plan.lbBase), plan.lbLen)
                                         : std::string("give policy addressing a larger loopback_pool"));
  }
}

void assignSubnets(ir::Fabric &F, DiagEngine &diags, const Plan &plan) {
  uint64_t lbEnd = plan.lbBase + (uint64_t(1) << (32 - plan.lbLen));
  uint64_t p2pEnd = plan.p2pBase + (uint64_t(1) << (32 - plan.p2pLen));
  if (plan.lbBase < p2pEnd && plan.p2pBase < lbEnd) {
    Diagnostic *dg = diags.report(DiagCode::E0106, plan.p2pLoc, "p2p_pool {}/{} overlaps loopback_pool {}/{}",
                                  ipv4String(plan.p2pBase), plan.p2pLen, ipv4String(plan.lbBase), plan.lbLen);
    DiagEngine::note(dg, plan.lbLoc, "loopback_pool is set here (default 10.0.0.0/16)");
    return;
  }
  // Each domain numbers its links from its slice (the whole pool with one domain).
  const AddressDomains &dom = plan.dom;
  unsigned len = plan.p2pLen + dom.splitBits;
  uint64_t capacity = (p2pEnd - plan.p2pBase) / 2 >> dom.splitBits;
  std::vector<uint64_t> used(dom.count, 0), needed(dom.count, 0);
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    if (!isRoutedLink(F, l))
      continue;
    uint32_t k = dom.at(F.portDevice[F.linkA[l]]); // both ends: no link crosses (E0430)
    ++needed[k];
    if (used[k] < capacity)
      F.linkSubnet[l] = uint32_t(sliceBase(plan.p2pBase, plan.p2pLen, dom.splitBits, k) + 2 * used[k]++);
  }
  for (uint32_t k = 0; k < dom.count; ++k) {
    if (needed[k] <= capacity)
      continue;
    Diagnostic *dg = diags.report(DiagCode::E0102, plan.p2pLoc, "point-to-point pool {}/{}{} holds {} /31{}, but {} switch "
                                  "links need one", ipv4String(sliceBase(plan.p2pBase, plan.p2pLen, dom.splitBits, k)), len,
                                  dom.split() ? fmt::format(" of {} {}", dom.per, dom.names[k]) : std::string(), capacity,
                                  capacity == 1 ? "" : "s", needed[k]);
    DiagEngine::note(dg, {}, "give policy addressing a larger p2p_pool, or keep option bgp_unnumbered = true");
  }
}

// E0433: the pools cut into 2^splitBits slices need a /32 per loopback slice and a /31 per
// point-to-point slice at least.
bool splitFits(DiagEngine &diags, const Plan &plan) {
  const AddressDomains &dom = plan.dom;
  bool ok = true;
  auto check = [&](const char *key, uint32_t base, unsigned len, unsigned maxLen, SourceRange at) {
    if (len + dom.splitBits <= maxLen)
      return;
    ok = false;
    Diagnostic *dg = diags.report(DiagCode::E0433, at, "{} {}/{} cannot be split among {} {}s: each would be a /{}", key,
                                  ipv4String(base), len, dom.count, dom.per, len + dom.splitBits);
    DiagEngine::note(dg, dom.perLoc, fmt::format("per = \"{}\" cuts the pools into {} aligned slices, one per {} (and a /{} "
                                                 "at most each)", dom.per, uint64_t(1) << dom.splitBits, dom.per, maxLen));
    DiagEngine::note(dg, {}, fmt::format("give policy addressing a {} of /{} or shorter", key, maxLen - dom.splitBits));
  };
  check("loopback_pool", plan.lbBase, plan.lbLen, 32, plan.lbLoc);
  if (plan.numbered)
    check("p2p_pool", plan.p2pBase, plan.p2pLen, 31, plan.p2pLoc);
  return ok;
}

// F.addressDomains for summary.json: each domain's switches, ASNs and pool slices.
void recordDomains(ir::Fabric &F, const Plan &plan, const std::vector<uint8_t> &routed) {
  const AddressDomains &dom = plan.dom;
  if (!dom.split())
    return;
  F.addressPer = dom.per;
  F.addressDomains.resize(dom.count);
  for (uint32_t k = 0; k < dom.count; ++k) {
    ir::Fabric::AddressDomain &a = F.addressDomains[k];
    a.name = dom.names[k];
    a.lbBase = sliceBase(plan.lbBase, plan.lbLen, dom.splitBits, k);
    a.lbLen = uint8_t(plan.lbLen + dom.splitBits);
    if (plan.numbered) {
      a.p2pBase = sliceBase(plan.p2pBase, plan.p2pLen, dom.splitBits, k);
      a.p2pLen = uint8_t(plan.p2pLen + dom.splitBits);
    }
  }
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    if (!routed[d] || !F.devAsn[d])
      continue;
    ir::Fabric::AddressDomain &a = F.addressDomains[dom.at(d)];
    a.asnFirst = a.switches ? std::min(a.asnFirst, F.devAsn[d]) : F.devAsn[d];
    a.asnLast = std::max(a.asnLast, F.devAsn[d]);
    ++a.switches;
  }
}

} // namespace

void assignAddresses(ir::Fabric &F, DiagEngine &diags) {
  size_t nd = F.numDevices();
  F.devAsn.resize(nd, 0);
  F.devLoopback.resize(nd, 0);
  F.linkSubnet.assign(F.numLinks(), 0);
  F.hostScheme = ir::HostScheme::None;
  F.linkHostAddr.clear();
  F.linkHostNet.clear();
  F.hostNets.clear();
  F.routePolicies.clear();
  F.devDomain.clear();
  F.addressPer.clear();
  F.addressDomains.clear();
  std::vector<uint8_t> routed(nd, 0);
  bool any = false;
  for (uint32_t d = 0; d < nd; ++d)
    any |= routed[d] = isRoutedSwitch(F, d);
  planBonds(F, diags, routed);
  Plan plan;
  if (!readPlan(F, diags, plan) || !any || !planDomains(F, diags, routed, plan.dom) || !splitFits(diags, plan))
    return;
  assignAsns(F, diags, plan, routed);
  assignLoopbacks(F, diags, plan, routed);
  if (plan.numbered)
    assignSubnets(F, diags, plan);
  recordDomains(F, plan, routed);
  assignHostAddresses(F, diags, plan, plan.dom, routed);
  planOverlay(F, diags, routed);
  buildRoutePolicy(F, plan, plan.dom, routed);
  std::vector<uint32_t> switches;
  for (uint32_t d = 0; d < nd; ++d)
    if (routed[d])
      switches.push_back(d);
  checks::checkHostNames(F, diags, switches); // their configs are named after them
}

} // namespace fabc::passes
