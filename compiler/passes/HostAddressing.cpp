// Host-facing addressing: /31 per NIC-leaf link, or one subnet per leaf (or per rail on a
// leaf) behind an SVI, from host_pool or, with addressing domains, from the slice of the
// leaf's domain (decision 0521). The plan's keys: HostPlan.cpp; the routing policy:
// RoutePolicy.cpp. Linear in devices + links: two
// walks over the NIC ports (count, then assign), per-leaf arrays, a hash map only for the
// (leaf, rail) subnets of the rail scheme.
#include "diag/DiagCodes.h"
#include "passes/HostAddressing.h"
#include "passes/AddressDomains.h"
#include "passes/HostPlan.h"
#include "diag/Diag.h"
#include "passes/Bonds.h"
#include "passes/Passes.h"
#include "ir/Address.h"

#include <llvm/ADT/DenseMap.h>

#include <algorithm>
#include <cmath>

namespace fabc::passes {
using ir::None;
using ir::ipv4String;

namespace {

bool isEndSystem(const ir::Fabric &F, uint32_t dev) {
  ir::ModelKind k = F.modelOf(dev).kind;
  return k == ir::ModelKind::System || k == ir::ModelKind::Nic;
}

bool isRouted(const ir::Fabric &F, uint32_t dev) {
  const ir::Model &m = F.modelOf(dev);
  return m.kind == ir::ModelKind::Switch && m.protocol != ir::Protocol::InfiniBand;
}

// The NIC a port belongs to, for FAB-E0143: a nic device is one NIC; on a system, the
// logical ports of one cage (a twin-port or broken-out NIC port) are one NIC.
uint32_t nicOf(const ir::Fabric &F, uint32_t port) {
  uint32_t dev = F.portDevice[port];
  if (F.modelOf(dev).kind == ir::ModelKind::Nic)
    return F.devPortBase[dev];
  uint32_t idx = 0, g = F.portGroup(port, &idx);
  const ir::GroupLayout &gl = F.layoutOf(dev).groups[g];
  uint32_t ppc = std::max<uint32_t>(1, gl.portsPerCage);
  return F.devPortBase[dev] + gl.offset + idx / ppc * ppc;
}

struct NicLink {
  uint32_t port, link, leaf;
};

// Calls fn(NicLink) for every NIC port in device and port order; of a bond, for its first
// member only (a bond is one NIC with one address: bondAddresses copies it to the others).
template <typename Fn> void forEachNic(const ir::Fabric &F, const std::vector<uint8_t> &routed, Fn &&fn) {
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    if (!isEndSystem(F, d))
      continue;
    auto [first, last] = nicPortRange(F, d);
    uint32_t lastBond = None;
    for (uint32_t p = first; p < last; ++p) {
      uint32_t l = F.portLink[p];
      if (l == None)
        continue;
      uint32_t leaf = F.portDevice[F.otherEnd(l, p)];
      if (!routed[leaf])
        continue;
      uint32_t b = F.bondOf(p);
      if (b != None && b == lastBond)
        continue; // a bond's members are consecutive ports of its GPU
      lastBond = b;
      fn(NicLink{p, l, leaf});
    }
  }
}

// A bond's address (and subnet) on every member link: its first member's.
void bondAddresses(const ir::Fabric &F, std::vector<uint32_t> &addr, std::vector<uint32_t> *net) {
  if (F.bonds.empty())
    return;
  std::vector<uint32_t> firstLink(F.bonds.size(), None);
  for (uint32_t p = 0; p < F.portBond.size(); ++p) {
    uint32_t b = F.portBond[p];
    if (b == None)
      continue;
    uint32_t l = F.portLink[p];
    if (firstLink[b] == None) {
      firstLink[b] = l;
      continue;
    }
    addr[l] = addr[firstLink[b]];
    if (net)
      (*net)[l] = (*net)[firstLink[b]];
  }
}

std::string railLabel(const HostPlan &plan, uint32_t rail) {
  return plan.scheme == ir::HostScheme::Rail ? fmt::format(" rail {}", rail) : std::string();
}

} // namespace

bool isNicPort(const ir::Fabric &F, uint32_t port) {
  uint32_t dev = F.portDevice[port], l = F.portLink[port];
  if (!isEndSystem(F, dev) || l == None || F.portGroup(port) != 0)
    return false;
  return isRouted(F, F.portDevice[F.otherEnd(l, port)]);
}

std::pair<uint32_t, uint32_t> nicPortRange(const ir::Fabric &F, uint32_t d) {
  const ir::Layout &lay = F.layoutOf(d);
  if (lay.groups.empty())
    return {0, 0};
  uint32_t first = F.devPortBase[d] + lay.groups[0].offset;
  return {first, first + lay.groups[0].count};
}

uint32_t nicRail(const ir::Fabric &F, uint32_t port) {
  uint32_t idx = 0;
  F.portGroup(port, &idx);
  // The GPU's ports are in its planes (or on its two ToRs), never in two rails.
  return idx / std::max<uint32_t>(1, F.modelOf(F.portDevice[port]).portsPerGpu);
}

void assignHostAddresses(ir::Fabric &F, DiagEngine &diags, const FabricPools &pools, const AddressDomains &dom,
                         const std::vector<uint8_t> &routed) {
  F.hostScheme = ir::HostScheme::None;
  F.linkHostAddr.clear();
  F.linkHostNet.clear();
  F.hostNets.clear();
  HostPlan plan;
  if (!readHostPlan(F, diags, plan) || plan.scheme == ir::HostScheme::None)
    return;
  if (!checkHostOverlaps(F, diags, plan, pools, routed))
    return;
  const size_t nd = F.numDevices();
  // Addressing domains (decision 0521): the pool is cut into 2^splitBits aligned slices
  // as the loopback pool is, domain k's NICs numbered from slice k. One domain: the pool.
  const unsigned bits = dom.splitBits, sliceLen = plan.len + bits;
  if (sliceLen > 31) {
    Diagnostic *dg = diags.report(DiagCode::E0435, plan.poolLoc, "host_pool {}/{} cannot be split among {} {}s: each "
                                  "would be a /{}", ipv4String(plan.base), plan.len, dom.count, dom.per, sliceLen);
    DiagEngine::note(dg, dom.perLoc, fmt::format("per = \"{}\" cuts host_pool into {} aligned slices, one per {}",
                                                 dom.per, uint64_t(1) << bits, dom.per));
    DiagEngine::note(dg, {}, fmt::format("give policy addressing a host_pool of /{} or shorter", 31 - bits));
    return;
  }
  const uint64_t poolSize = uint64_t(1) << (32 - sliceLen); // a domain's slice (the pool with one)
  auto sliceOf = [&](uint32_t k) { return sliceBase(plan.base, plan.len, bits, k); };
  // E0436: domain k's slice holds `fits` /31s or subnets (`what`), but `need` of its NIC
  // links or leaves (`who`) need one each.
  auto shortSlice = [&](uint32_t k, uint64_t fits, std::string what, uint64_t need, const char *who, std::string fix) {
    Diagnostic *dg = diags.report(DiagCode::E0436, plan.poolLoc, "host_pool's slice {}/{} for {} {} holds {} {}, but {} "
                                  "{} need one", ipv4String(sliceOf(k)), sliceLen, dom.per, dom.names[k], fits, what,
                                  need, who);
    DiagEngine::note(dg, dom.perLoc, fmt::format("per = \"{}\" gives each {} 1/{} of host_pool {}/{}", dom.per, dom.per,
                                                 uint64_t(1) << bits, ipv4String(plan.base), plan.len));
    DiagEngine::note(dg, {}, std::move(fix));
  };
  // The domains' host slices, for summary.json, once the NICs are numbered.
  auto record = [&] {
    for (uint32_t k = 0; k < F.addressDomains.size(); ++k) {
      F.addressDomains[k].hostBase = sliceOf(k);
      F.addressDomains[k].hostLen = uint8_t(sliceLen);
    }
  };
  if (plan.scheme == ir::HostScheme::P2p) {
    for (const ir::BondGroup &g : F.bondGroups) {
      if (g.kind == uint8_t(ir::Model::Bond::Lacp))
        continue;
      Diagnostic *d = diags.report(DiagCode::E0401, plan.schemeLoc,
                                   "host_scheme \"p2p\" gives each NIC a /31 on one switch, but {} bonds span two or "
                                   "more switches",
                                   g.kind == uint8_t(ir::Model::Bond::McLag) ? "MC-LAG" : "EVPN multihoming");
      DiagEngine::note(d, {}, "a multi-chassis bond is an access port of a VLAN both switches serve: use host_scheme = "
                              "\"leaf\" or \"rail\"");
      return;
    }
  }
  std::vector<uint32_t> addr(F.numLinks(), 0);

  if (plan.scheme == ir::HostScheme::P2p) {
    // FAB-E0143 first: per device, its NIC links sorted by (NIC, leaf).
    std::vector<std::pair<uint64_t, uint32_t>> mine; // ((nic, leaf), link)
    unsigned twice = 0;
    uint32_t curDev = None;
    auto flush = [&] {
      std::sort(mine.begin(), mine.end());
      for (size_t i = 1; i < mine.size(); ++i) {
        if (mine[i].first != mine[i - 1].first)
          continue;
        uint32_t l = mine[i].second, first = mine[i - 1].second;
        if (twice++ >= 20) {
          diags.tally(DiagCode::E0143, linkRange(F, l));
          continue;
        }
        uint32_t leaf = uint32_t(mine[i].first & 0xffffffffu);
        Diagnostic *dg = diags.report(DiagCode::E0143, linkRange(F, l),
                                      "NIC of '{}' has two links to '{}', but host_scheme \"p2p\" gives each NIC one /31 "
                                      "to its leaf",
                                      F.portName(nicPortOf(F, l)), F.deviceName(leaf));
        noteLinkInstances(dg, F, l);
        DiagEngine::note(dg, linkRange(F, first), fmt::format("the first link, from '{}'", F.portName(nicPortOf(F, first))));
        DiagEngine::note(dg, plan.schemeLoc, "link the NIC's ports to different leaves (one per rail), or use "
                                             "host_scheme = \"leaf\": one subnet per leaf, both ports in its VLAN");
      }
      mine.clear();
    };
    std::vector<uint32_t> perLeaf(nd, 0);
    uint64_t needed = 0;
    forEachNic(F, routed, [&](const NicLink &n) {
      uint32_t dev = F.portDevice[n.port];
      if (dev != curDev) {
        flush();
        curDev = dev;
      }
      mine.push_back({(uint64_t(nicOf(F, n.port)) << 32) | n.leaf, n.link});
      ++perLeaf[n.leaf];
      ++needed;
    });
    flush();
    if (twice)
      return;
    // Each leaf's /31s are one run of its domain's slice, leaves in device order.
    uint64_t capacity = poolSize / 2;
    std::vector<uint64_t> next(nd, 0), inDom(dom.count, 0);
    for (uint32_t d = 0; d < nd; ++d) {
      next[d] = inDom[dom.at(d)];
      inDom[dom.at(d)] += perLeaf[d];
    }
    if (dom.split()) {
      bool fit = true;
      for (uint32_t k = 0; k < dom.count; ++k)
        if (inDom[k] > capacity) {
          fit = false;
          shortSlice(k, capacity, capacity == 1 ? "/31" : "/31s", inDom[k], "NIC links", fmt::format(
                     "give policy addressing a host_pool of /{} or shorter, or use host_scheme = \"leaf\" (one subnet "
                     "per leaf)", std::max(1, 32 - int(std::ceil(std::log2(double(inDom[k]) * 2))) - int(bits))));
        }
      if (!fit)
        return;
    } else if (needed > capacity) {
      Diagnostic *dg = diags.report(DiagCode::E0140, plan.poolLoc,
                                    "host_pool {}/{} holds {} /31{}, but {} NIC links need one", ipv4String(plan.base),
                                    plan.len, capacity, capacity == 1 ? "" : "s", needed);
      DiagEngine::note(dg, {}, fmt::format("a /{} holds them; or use host_scheme = \"leaf\" (one subnet per leaf)",
                                           std::max(1, 32 - int(std::ceil(std::log2(double(needed) * 2))))));
      return;
    }
    forEachNic(F, routed, [&](const NicLink &n) {
      // The leaf port takes the even address (the NIC's gateway), the NIC the odd one.
      addr[n.link] = uint32_t(sliceOf(dom.at(n.leaf)) + 2 * next[n.leaf]++ + 1);
    });
    bondAddresses(F, addr, nullptr);
    record();
    F.hostScheme = plan.scheme;
    F.hostPoolBase = plan.base;
    F.hostPoolLen = uint8_t(plan.len);
    F.linkHostAddr = std::move(addr);
    return;
  }

  // Leaf and rail schemes: the groups (subnets) and how many NICs each holds. A leaf that
  // shares multi-chassis bonds with others is one with them (its bond domain): their
  // subnets are one, served by all of them.
  const bool byRail = plan.scheme == ir::HostScheme::Rail;
  std::vector<uint32_t> domain = bondDomains(F);
  auto domainOf = [&](uint32_t leaf) { return domain.empty() ? leaf : domain[leaf]; };
  llvm::DenseMap<uint32_t, std::vector<uint32_t>> domainSwitches; // domains of two switches or more
  for (uint32_t d = 0; d < domain.size(); ++d)
    if (domain[d] != d)
      domainSwitches[domain[d]].push_back(d);
  for (auto &e : domainSwitches) {
    e.second.insert(e.second.begin(), e.first);
    if (e.second.size() > 250) {
      Diagnostic *dg = diags.report(DiagCode::E0404, plan.schemeLoc,
                                    "multi-chassis bonds join {} switches, from '{}', into one host subnet",
                                    e.second.size(), F.deviceName(e.first));
      DiagEngine::note(dg, {}, "each switch of a shared subnet takes an address of its own in it, for at most 250: "
                               "bond each GPU to switches of a small group (an MC-LAG pair, an EVPN-MH rack)");
      return;
    }
  }
  auto sharedOf = [&](uint32_t dom) -> uint32_t {
    auto it = domainSwitches.find(dom);
    return it == domainSwitches.end() ? 0 : uint32_t(it->second.size());
  };
  std::vector<uint32_t> leafGroup(byRail ? 0 : nd, None);
  llvm::DenseMap<uint64_t, uint32_t> railGroup;
  std::vector<uint64_t> keys;   // (domain << 32 | rail) per group, in creation order
  std::vector<uint32_t> counts; // NICs per group
  std::vector<uint32_t> linkGroup(F.numLinks(), None);
  uint32_t maxRail = 0;
  forEachNic(F, routed, [&](const NicLink &n) {
    uint32_t rail = nicRail(F, n.port), dom = domainOf(n.leaf);
    uint32_t *slot;
    if (byRail) {
      maxRail = std::max(maxRail, rail);
      slot = &railGroup.try_emplace((uint64_t(dom) << 32) | rail, None).first->second;
    } else {
      slot = &leafGroup[dom];
    }
    if (*slot == None) {
      *slot = uint32_t(keys.size());
      keys.push_back((uint64_t(dom) << 32) | (byRail ? rail : 0));
      counts.push_back(0);
    }
    ++counts[*slot];
    linkGroup[n.link] = *slot;
  });
  if (keys.empty()) {
    record();
    F.hostScheme = plan.scheme;
    F.hostPoolBase = plan.base;
    F.hostPoolLen = uint8_t(plan.len);
    F.linkHostAddr = std::move(addr);
    F.linkHostNet.assign(F.numLinks(), None);
    return;
  }
  if (byRail && plan.vlan + maxRail > 4094) {
    Diagnostic *dg = diags.report(DiagCode::E0105, plan.vlanLoc.begin.valid() ? plan.vlanLoc : plan.schemeLoc,
                                  "host_vlan {} + rail {} is past VLAN 4094", plan.vlan, maxRail);
    DiagEngine::note(dg, {}, "host_scheme = \"rail\" puts rail r in VLAN host_vlan + r: lower host_vlan");
    return;
  }
  // One length for every subnet: the given one, or the smallest that holds the largest
  // group with its network, gateway (SVI), broadcast and the sharing switches' own addresses.
  uint64_t largest = 0;
  uint32_t largestGroup = 0;
  for (uint32_t g = 0; g < counts.size(); ++g) {
    uint64_t need = uint64_t(counts[g]) + sharedOf(uint32_t(keys[g] >> 32));
    if (need > largest) {
      largest = need;
      largestGroup = g;
    }
  }
  unsigned subnetLen = plan.subnetLen;
  if (!subnetLen) {
    subnetLen = 30;
    while (subnetLen > 1 && (uint64_t(1) << (32 - subnetLen)) < largest + 3)
      --subnetLen;
  }
  uint64_t subnetSize = uint64_t(1) << (32 - subnetLen);
  if (subnetSize < largest + 3) {
    uint64_t leaf = keys[largestGroup] >> 32;
    Diagnostic *dg = diags.report(DiagCode::E0141, plan.lenLoc,
                                  "a /{} host subnet has room for {} NIC{}, but '{}'{} has {}", subnetLen, subnetSize - 3,
                                  subnetSize - 3 == 1 ? "" : "s",
                                  F.deviceName(uint32_t(leaf)), railLabel(plan, uint32_t(keys[largestGroup])), largest);
    DiagEngine::note(dg, {}, "each subnet keeps its network, gateway (the leaf's SVI) and broadcast addresses: lower "
                             "host_subnet_len, or leave it out to take the smallest that fits");
    return;
  }
  // Subnets per domain (of the leaf that holds a shared one's own entry).
  std::vector<uint64_t> inDom(dom.count, 0);
  for (uint64_t key : keys)
    ++inDom[dom.at(uint32_t(key >> 32))];
  if (dom.split()) {
    bool fit = true;
    for (uint32_t k = 0; k < dom.count; ++k) {
      if (inDom[k] && (subnetLen < sliceLen || inDom[k] * subnetSize > poolSize)) {
        fit = false;
        uint64_t fits = subnetLen < sliceLen ? 0 : poolSize / subnetSize;
        shortSlice(k, fits, fmt::format("/{} subnet{}", subnetLen, fits == 1 ? "" : "s"), inDom[k],
                   byRail ? "leaf rails" : "leaves", "give policy addressing a larger host_pool, or a longer "
                   "host_subnet_len");
      }
    }
    if (!fit)
      return;
  } else if (subnetLen < plan.len || uint64_t(keys.size()) * subnetSize > poolSize) {
    uint64_t fits = subnetLen < plan.len ? 0 : poolSize / subnetSize;
    Diagnostic *dg = diags.report(DiagCode::E0140, plan.poolLoc,
                                  "host_pool {}/{} holds {} /{} subnet{}, but {} {} need one", ipv4String(plan.base),
                                  plan.len, fits, subnetLen, fits == 1 ? "" : "s", keys.size(),
                                  byRail ? "leaf rails" : "leaves");
    DiagEngine::note(dg, {}, "give policy addressing a larger host_pool, or a longer host_subnet_len");
    return;
  }
  // Subnets in (domain, leaf, rail) order, each domain's from the start of its slice; a
  // shared one is on each of its switches (HostNet::copy).
  std::vector<uint32_t> order(keys.size()), rank(keys.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto domOfKey = [&](uint32_t g) { return dom.at(uint32_t(keys[g] >> 32)); };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::make_pair(domOfKey(a), keys[a]) < std::make_pair(domOfKey(b), keys[b]);
  });
  F.hostNets.clear();
  F.hostNets.reserve(keys.size());
  std::vector<uint64_t> nextInDom(dom.count, 0);
  for (uint32_t i = 0; i < order.size(); ++i) {
    uint32_t g = order[i];
    rank[g] = i;
    ir::HostNet net;
    net.base = uint32_t(sliceOf(domOfKey(g)) + nextInDom[domOfKey(g)]++ * subnetSize);
    net.len = uint8_t(subnetLen);
    net.leaf = uint32_t(keys[g] >> 32);
    net.rail = byRail ? uint32_t(keys[g]) : None;
    net.vlan = uint16_t(plan.vlan + (byRail ? uint32_t(keys[g]) : 0));
    auto it = domainSwitches.find(net.leaf);
    if (it == domainSwitches.end()) {
      F.hostNets.push_back(net);
      continue;
    }
    net.shared = uint8_t(it->second.size());
    for (uint32_t m = 0; m < it->second.size(); ++m) {
      net.leaf = it->second[m];
      net.member = uint8_t(m);
      net.copy = m > 0;
      F.hostNets.push_back(net);
    }
  }
  // The subnets by rank (the shared ones' own entries), then by (leaf, rail).
  std::vector<uint32_t> byRank(keys.size(), None);
  for (uint32_t i = 0, r = 0; i < F.hostNets.size(); ++i)
    if (!F.hostNets[i].copy)
      byRank[r++] = F.hostNets[i].base;
  std::stable_sort(F.hostNets.begin(), F.hostNets.end(), [](const ir::HostNet &a, const ir::HostNet &b) {
    return a.leaf != b.leaf ? a.leaf < b.leaf : a.rail < b.rail;
  });
  // The SVI is the subnet's first address, the sharing switches' own the next ones; the
  // NICs follow in device and port order. A link's subnet entry is its own leaf's.
  llvm::DenseMap<uint64_t, uint32_t> entry; // (leaf << 32 | rail or 0) -> index in hostNets
  if (!domainSwitches.empty())
    for (uint32_t i = 0; i < F.hostNets.size(); ++i)
      entry[(uint64_t(F.hostNets[i].leaf) << 32) | (byRail ? F.hostNets[i].rail : 0)] = i;
  std::vector<uint32_t> used(keys.size(), 0);
  F.linkHostNet.assign(F.numLinks(), None);
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    if (linkGroup[l] == None)
      continue;
    uint32_t r = rank[linkGroup[l]], net = r;
    if (!domainSwitches.empty()) {
      uint32_t leaf = F.portDevice[F.otherEnd(l, nicPortOf(F, l))];
      net = entry[(uint64_t(leaf) << 32) | (byRail ? uint32_t(keys[linkGroup[l]]) : 0)];
    }
    F.linkHostNet[l] = net;
    addr[l] = byRank[r] + 2 + F.hostNets[net].shared + used[r]++;
  }
  bondAddresses(F, addr, &F.linkHostNet);
  record();
  // A bond member on another switch of the domain: its own switch's entry of the subnet.
  for (uint32_t p = 0; p < F.portBond.size(); ++p) {
    uint32_t l = F.portLink[p];
    if (F.portBond[p] == None || l == None || F.linkHostNet[l] == None)
      continue;
    uint32_t leaf = F.portDevice[F.otherEnd(l, p)];
    const ir::HostNet &net = F.hostNets[F.linkHostNet[l]];
    if (net.leaf != leaf)
      F.linkHostNet[l] = entry[(uint64_t(leaf) << 32) | (byRail ? net.rail : 0)];
  }
  F.hostScheme = plan.scheme;
  F.hostPoolBase = plan.base;
  F.hostPoolLen = uint8_t(plan.len);
  F.linkHostAddr = std::move(addr);
}

uint32_t nicPortOf(const ir::Fabric &F, uint32_t link) {
  uint32_t a = F.linkA[link];
  return isEndSystem(F, F.portDevice[a]) ? a : F.linkB[link];
}

uint32_t hostPrefixLen(const ir::Fabric &F, uint32_t link) {
  return F.hostScheme == ir::HostScheme::P2p ? 31 : F.hostNets[F.linkHostNet[link]].len;
}

uint32_t hostGateway(const ir::Fabric &F, uint32_t link) {
  return F.hostScheme == ir::HostScheme::P2p ? F.linkHostAddr[link] ^ 1u : F.hostNets[F.linkHostNet[link]].base + 1;
}

uint32_t hostSubnet(const ir::Fabric &F, uint32_t link) {
  return F.hostScheme == ir::HostScheme::P2p ? F.linkHostAddr[link] & ~1u : F.hostNets[F.linkHostNet[link]].base;
}

std::pair<uint32_t, unsigned> hostPoolOf(const ir::Fabric &F, uint32_t link) {
  uint32_t leaf = F.portDevice[F.otherEnd(link, nicPortOf(F, link))];
  uint32_t k = F.domainOf(leaf);
  if (k < F.addressDomains.size() && F.addressDomains[k].hostLen)
    return {F.addressDomains[k].hostBase, F.addressDomains[k].hostLen};
  return {F.hostPoolBase, F.hostPoolLen};
}

std::pair<uint32_t, uint32_t> hostNetsOf(const ir::Fabric &F, uint32_t leaf) {
  auto lo = std::lower_bound(F.hostNets.begin(), F.hostNets.end(), leaf,
                             [](const ir::HostNet &n, uint32_t d) { return n.leaf < d; });
  auto hi = lo;
  while (hi != F.hostNets.end() && hi->leaf == leaf)
    ++hi;
  return {uint32_t(lo - F.hostNets.begin()), uint32_t(hi - F.hostNets.begin())};
}

} // namespace fabc::passes
