// Addressing domains (decision 0481): which routed switch is numbered by which plan.
// A domain is an element of the scope policy addressing's `per` names (analysis::
// resolveScope, the scopes of decision 0321), counted only when it holds a routed switch,
// in the scope's order, so that an InfiniBand plane beside Ethernet planes takes no slice.
// One pass over the devices, one over the links and one over the scope's groups.
#include "passes/AddressDomains.h"

#include "analysis/Measure.h"
#include "analysis/Scopes.h"
#include "diag/Diag.h"
#include "diag/DiagCodes.h"
#include "passes/Passes.h"

namespace fabc::passes {
using ir::None;

namespace {

// A routed switch in two groups of the scope's kind (resolveScope keeps the first):
// E0432 at the switch, with the second group. Group scopes only: an instance array's
// elements nest, never overlap.
bool checkOverlaps(const ir::Fabric &F, DiagEngine &diags, const std::vector<uint8_t> &routed,
                   std::string_view kind, const analysis::ScopePartition &P) {
  std::vector<uint32_t> seen(F.numDevices(), None);
  unsigned reported = 0;
  uint32_t e = 0;
  bool ok = true;
  for (const ir::Group &g : F.groups) {
    if (F.strings.str(g.kindName) != kind)
      continue;
    for (uint32_t d : g.devices()) {
      if (!routed[d])
        continue;
      if (seen[d] == None) {
        seen[d] = e;
        continue;
      }
      if (seen[d] == e)
        continue;
      ok = false;
      if (reported++ >= 20) {
        diags.tally(DiagCode::E0432, devRange(F, d));
        continue;
      }
      Diagnostic *dg = diags.report(DiagCode::E0432, devRange(F, d), "'{}' is in {} {} and in {} {}: it can be in one "
                                    "addressing domain only", F.deviceName(d), kind, P.names[seen[d]], kind,
                                    F.nodeName(g.node));
      noteInstances(dg, F, d);
      DiagEngine::note(dg, g.loc, fmt::format("{} {} is declared here", kind, F.nodeName(g.node)));
      DiagEngine::note(dg, {}, fmt::format("planes share no switch: remove '{}' from one of the two {} groups",
                                           F.deviceName(d), kind));
    }
    ++e;
  }
  return ok;
}
} // namespace

bool planDomains(const ir::Fabric &F, DiagEngine &diags, const std::vector<uint8_t> &routed, AddressDomains &out) {
  out = {};
  const ir::PolicyBlock *pol = F.policyBlock("addressing");
  const ir::Setting *s = pol ? pol->get(F.strings, "per") : nullptr;
  if (!s)
    return true;
  out.perLoc = s->loc;
  if (s->type != ir::Setting::String) {
    Diagnostic *d = diags.report(DiagCode::E0105, s->loc, "per in policy addressing must be a scope name, a string");
    DiagEngine::note(d, {}, "per = \"plane\" makes each plane its own addressing domain; leave it out (or \"fabric\") for one");
    return false;
  }
  std::string_view per = F.strings.str(s->str);
  if (per == "fabric")
    return true; // the shared plan, said explicitly
  if (per == "rack" || per == "hall" || per == "building") {
    Diagnostic *d = diags.report(DiagCode::E0434, s->loc, "addressing domains per {} are not networks: a {} is a place",
                                 per, per);
    DiagEngine::note(d, {}, "per = \"plane\" (or the group kind that holds each network) gives each its own ASN plan "
                            "and pools; leave per out for one shared domain");
    return false;
  }
  analysis::ScopePartition P;
  if (!analysis::resolveScope(F, per, P)) {
    reportUnknownScope(F, per, s->loc, "addressing", {"fabric"}, diags);
    return false;
  }
  bool ok = true;
  const ir::GroupKind podKind = analysis::podKindOf(F);
  if (P.kind == "group" || (P.kind == "pod" && podKind != ir::GroupKind::Other))
    ok = checkOverlaps(F, diags, routed, P.kind == "group" ? per : ir::groupKindName(podKind), P);

  // Domains: the elements holding a routed switch, renumbered in the scope's order.
  size_t nd = F.numDevices();
  std::vector<uint32_t> index(P.names.size(), None);
  out.of.assign(nd, 0);
  out.count = 0;
  unsigned orphans = 0;
  for (uint32_t d = 0; d < nd; ++d) {
    if (!routed[d])
      continue;
    uint32_t e = P.owner[d];
    if (e == None) {
      ok = false;
      if (orphans++ >= 20) {
        diags.tally(DiagCode::E0431, devRange(F, d));
        continue;
      }
      Diagnostic *dg = diags.report(DiagCode::E0431, devRange(F, d), "'{}' is in no {}, but policy addressing numbers "
                                    "each {} as a domain of its own", F.deviceName(d), per, per);
      noteInstances(dg, F, d);
      DiagEngine::note(dg, out.perLoc, fmt::format("per = \"{}\" is set here", per));
      DiagEngine::note(dg, {}, fmt::format("{} '{}' {} {}; a switch that joins the {}s (a shared core) makes them one "
                                           "domain: then leave per out", P.kind == "array" ? "declare" : "add",
                                           F.deviceName(d), P.kind == "array" ? "inside an element of" : "to a",
                                           P.kind == "array" ? std::string(per) : std::string(per) + " group", per));
      continue;
    }
    index[e] = 0; // holds a routed switch
  }
  // Numbered in the scope's order (declaration order), not in device order.
  for (size_t e = 0; e < index.size(); ++e)
    if (index[e] != None) {
      index[e] = out.count++;
      out.names.push_back(P.names[e]);
    }
  for (uint32_t d = 0; d < nd; ++d)
    if (routed[d] && P.owner[d] != None)
      out.of[d] = index[P.owner[d]];

  unsigned crossing = 0;
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
    if (!routed[a] || !routed[b] || P.owner[a] == None || P.owner[b] == None || P.owner[a] == P.owner[b])
      continue;
    ok = false;
    if (crossing++ >= 20) {
      diags.tally(DiagCode::E0430, linkRange(F, l));
      continue;
    }
    Diagnostic *dg = diags.report(DiagCode::E0430, linkRange(F, l), "this link joins {} {} ('{}') and {} {} ('{}'), "
                                  "two addressing domains", per, P.names[P.owner[a]], F.deviceName(a), per,
                                  P.names[P.owner[b]], F.deviceName(b));
    noteLinkInstances(dg, F, l);
    DiagEngine::note(dg, out.perLoc, fmt::format("per = \"{}\" makes each {} its own routing domain, numbered with the "
                                                 "same ASNs as the others", per, per));
    DiagEngine::note(dg, {}, fmt::format("{} would join them: recable it within one {}, or leave per out to number the "
                                         "fabric as one domain", F.isPeerLink(l) ? "the MC-LAG peer link" : "its BGP session",
                                         per));
  }
  if (!ok)
    return false;
  out.per = std::string(per);
  while ((uint64_t(1) << out.splitBits) < out.count)
    ++out.splitBits;
  if (out.count == 1) {
    Diagnostic *d = diags.report(DiagCode::W0430, out.perLoc, "per = \"{}\" gives one addressing domain: only {} {} "
                                 "holds Ethernet switches", per, per, out.names[0]);
    DiagEngine::note(d, {}, "the plan is the shared one; declare the other groups, or leave per out");
  }
  return true;
}

} // namespace fabc::passes
