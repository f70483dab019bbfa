// ir::verify: checked after each pass in Debug and sanitizer builds (FABC_VERIFY_IR).
#include "ir/Verify.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace fabc::ir {
namespace {

class Checker {
public:
  Checker(const Fabric &F, size_t limit) : F(F), limit_(limit) {}
  std::vector<std::string> problems;

  template <typename... Args> void fail(fmt::format_string<Args...> f, Args &&...args) {
    if (problems.size() < limit_)
      problems.push_back(fmt::format(f, std::forward<Args>(args)...));
  }
  bool full() const { return problems.size() >= limit_; }

  // A parallel array: exactly `n` long, or (filled by a later pass) empty.
  template <typename V> void length(const char *name, const V &v, size_t n, bool mayBeEmpty = false) {
    if (v.size() != n && !(mayBeEmpty && v.empty()))
      fail("array length: {} has {} entries, not {}", name, v.size(), n);
  }
  void id(const char *what, size_t owner, uint32_t value, size_t bound, bool noneOk) {
    if (value == None ? !noneOk : value >= bound)
      fail("id out of range: {} {}: {} is not below {}", what, owner, value == None ? "none" : std::to_string(value),
           bound);
  }

  const Fabric &F;

private:
  size_t limit_;
};

} // namespace

std::vector<std::string> verify(const Fabric &F, size_t limit) {
  Checker c(F, limit);
  const size_t nd = F.numDevices(), np = F.numPorts(), nl = F.numLinks();

  c.length("devLayout", F.devLayout, nd);
  c.length("devNode", F.devNode, nd);
  c.length("devPortBase", F.devPortBase, nd);
  c.length("devRack", F.devRack, nd);
  c.length("devTier", F.devTier, nd);
  c.length("devRole", F.devRole, nd);
  c.length("devU", F.devU, nd);
  c.length("devLoc", F.devLoc, nd);
  c.length("devAsn", F.devAsn, nd);
  c.length("devLoopback", F.devLoopback, nd);
  c.length("devGuid", F.devGuid, nd);
  c.length("devPower", F.devPower, nd, true);
  c.length("devOpticPower", F.devOpticPower, nd, true);
  c.length("portLink", F.portLink, np);
  c.length("linkB", F.linkB, nl);
  c.length("linkLength", F.linkLength, nl);
  c.length("linkFlags", F.linkFlags, nl);
  c.length("linkMediaReq", F.linkMediaReq, nl);
  for (size_t r = 0; r < F.linkLocRuns.size(); ++r) // runs from link 0, in order, each holding a link
    if ((r == 0 ? F.linkLocRuns[r].first != 0 : F.linkLocRuns[r].first <= F.linkLocRuns[r - 1].first) ||
        F.linkLocRuns[r].first >= nl)
      c.fail("linkLocRuns: run {} starts at link {}", r, F.linkLocRuns[r].first);
  if (nl && F.linkLocRuns.empty())
    c.fail("linkLocRuns: none for {} links", nl);
  c.length("linkChoice", F.linkChoice, nl, true);
  c.length("devChoice", F.devChoice, nd, true);
  c.length("linkMedia", F.linkMedia, nl, true);
  c.length("linkCable", F.linkCable, nl, true);
  c.length("linkOpticA", F.linkOpticA, nl, true);
  c.length("linkOpticB", F.linkOpticB, nl, true);
  c.length("linkXcvrA", F.linkXcvrA, nl, true);
  c.length("linkXcvrB", F.linkXcvrB, nl, true);
  c.length("linkCableUnits", F.linkCableUnits, nl, true);
  c.length("linkSubnet", F.linkSubnet, nl, true);
  c.length("linkHostAddr", F.linkHostAddr, nl, true);
  c.length("linkHostNet", F.linkHostNet, nl, true);
  c.length("portBond", F.portBond, np, true);
  c.length("linkBondNo", F.linkBondNo, nl, true);
  c.length("linkPeerLink", F.linkPeerLink, nl, true);
  c.length("devDomain", F.devDomain, nd, true);
  if (!c.problems.empty())
    return c.problems; // the checks below index these arrays

  // The catalog, the instance tree and the floor plan.
  for (size_t i = 0; i < F.layouts.size(); ++i)
    c.id("layout's model", i, F.layouts[i].model, F.models.size(), false);
  for (size_t i = 0; i < F.nodes.size(); ++i)
    c.id("node's parent", i, F.nodes[i].parent, i, true); // parents come first: no cycle
  for (size_t i = 0; i < F.halls.size(); ++i)
    c.id("hall's building", i, F.halls[i].building, F.buildings.size(), false);
  for (size_t i = 0; i < F.buildings.size(); ++i)
    c.id("building's site", i, F.buildings[i].site, F.sites.size(), true);
  for (size_t i = 0; i < F.racks.size(); ++i)
    c.id("rack's hall", i, F.racks[i].hall, F.halls.size(), false);
  for (size_t i = 0; i < F.spans.size(); ++i) {
    size_t places = F.spans[i].sites ? F.sites.size() : F.buildings.size();
    c.id("span's building or site", i, F.spans[i].a, places, false);
    c.id("span's building or site", i, F.spans[i].b, places, false);
  }
  for (size_t g = 0; g < F.groups.size(); ++g) {
    const Group &gr = F.groups[g];
    c.id("group's node", g, gr.node, F.nodes.size(), true);
    if (gr.contiguous && (gr.begin > gr.end || gr.end > nd))
      c.fail("id out of range: group {}: devices [{}, {}) of {}", g, gr.begin, gr.end, nd);
    if (!gr.contiguous)
      for (uint32_t m : gr.members)
        c.id("group's member", g, m, nd, false);
  }
  if (!c.problems.empty())
    return c.problems;

  // Devices own contiguous port ranges, in order.
  uint32_t nextPort = 0;
  for (uint32_t d = 0; d < nd && !c.full(); ++d) {
    c.id("device's model", d, F.devModel[d], F.models.size(), false);
    c.id("device's node", d, F.devNode[d], F.nodes.size(), false);
    c.id("device's rack", d, F.devRack[d], F.racks.size(), true);
    if (F.devLayout[d] >= F.layouts.size()) {
      c.id("device's layout", d, F.devLayout[d], F.layouts.size(), false);
      continue;
    }
    const Layout &l = F.layouts[F.devLayout[d]];
    if (l.model != F.devModel[d])
      c.fail("device {}: its layout is of model {}, the device of model {}", d, l.model, F.devModel[d]);
    if (F.devPortBase[d] != nextPort || uint64_t(F.devPortBase[d]) + l.ports > np) {
      c.fail("device {}: ports [{}, {}) do not follow the previous device's (next free port {}, {} ports)", d,
             F.devPortBase[d], uint64_t(F.devPortBase[d]) + l.ports, nextPort, np);
      continue;
    }
    nextPort = F.devPortBase[d] + l.ports;
    for (uint32_t p = F.devPortBase[d]; p < nextPort; ++p)
      if (F.portDevice[p] != d)
        c.fail("port {}: belongs to device {}, but lies in device {}'s range", p, F.portDevice[p], d);
  }
  if (c.problems.empty() && nextPort != np)
    c.fail("array length: {} ports, but the devices own {}", np, nextPort);

  // Links: ends in range, each port used once, both ends point back.
  std::vector<bool> used(np, false);
  auto modelOrNone = [&](const char *what, uint32_t l, const std::vector<uint32_t> &v) {
    if (!v.empty())
      c.id(what, l, v[l], F.models.size(), true);
  };
  for (uint32_t l = 0; l < nl && !c.full(); ++l) {
    for (uint32_t p : {F.linkA[l], F.linkB[l]}) {
      if (p >= np) {
        c.id("link's port", l, p, np, false);
        continue;
      }
      if (used[p])
        c.fail("port used twice: port {} is an end of link {} and of an earlier link", p, l);
      used[p] = true;
      if (F.portLink[p] != l)
        c.fail("link ends: link {}'s port {} refers to link {}", l, p,
               F.portLink[p] == None ? "none" : std::to_string(F.portLink[p]));
    }
    modelOrNone("link's cable", l, F.linkCable);
    modelOrNone("link's optic A", l, F.linkOpticA);
    modelOrNone("link's optic B", l, F.linkOpticB);
  }
  for (uint32_t p = 0; p < np && !c.full(); ++p) {
    uint32_t l = F.portLink[p];
    if (l == None)
      continue;
    if (l >= nl)
      c.id("port's link", p, l, nl, true);
    else if (F.linkA[l] != p && F.linkB[l] != p)
      c.fail("port back-reference: port {} refers to link {}, whose ends are ports {} and {}", p, l, F.linkA[l],
             F.linkB[l]);
  }
  return c.problems;
}

void verifyOrAbort(const Fabric &F, const char *stage) {
  std::vector<std::string> problems = verify(F);
  if (problems.empty())
    return;
  std::fflush(stdout);
  fmt::print(stderr, "fabc: internal error: the IR is broken after '{}' (a compiler bug):\n", stage);
  for (const std::string &p : problems)
    fmt::print(stderr, "  {}\n", p);
  std::fflush(stderr);
  std::abort();
}

} // namespace fabc::ir
