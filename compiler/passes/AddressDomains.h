#pragma once
// Addressing domains (part of the addressing pass, decision 0481): `policy addressing
// { per = "plane"; }` makes each element of a scope an addressing and routing domain of
// its own. Each domain numbers its ASNs from the start of the ASN pools (the planes get
// the same ASN plan) and takes its loopbacks and /31s from its own slice of the pools
// (addresses stay unique in the whole fabric). Without `per` there is one domain, the
// whole fabric: the shared plan, as before.
#include "ir/Fabric.h"

#include <string>
#include <vector>

namespace fabc {
class DiagEngine;

namespace passes {

struct AddressDomains {
  // Device -> domain, for the routed switches (0 for all of them with one domain).
  std::vector<uint32_t> of;
  std::vector<std::string> names; // per domain, in the scope's order ("" for the shared one)
  uint32_t count = 1;             // domains holding a routed switch
  unsigned splitBits = 0;         // the pools are cut into 2^splitBits aligned slices
  std::string per;                // the scope's name, empty for the shared plan
  SourceRange perLoc;
  bool split() const { return !per.empty(); }
  uint32_t at(uint32_t dev) const { return of.empty() ? 0 : of[dev]; }
};

// Reads policy addressing's `per` (absent or "fabric": one shared domain), resolves the
// scope (FAB-E0370, E0434), puts every routed switch in one domain (E0431, E0432) and
// checks that no routed link joins two (E0430); W0430 when one domain holds every routed
// switch. False after an error: the pass numbers nothing then.
bool planDomains(const ir::Fabric &F, DiagEngine &diags, const std::vector<uint8_t> &routed, AddressDomains &out);

// Domain k's slice of a pool base/len cut into 2^bits: its base and length.
inline uint32_t sliceBase(uint32_t base, unsigned len, unsigned bits, uint32_t k) {
  return uint32_t(base + (uint64_t(k) << (32 - len - bits))); // len + bits <= 32 (E0433)
}

} // namespace passes
} // namespace fabc
