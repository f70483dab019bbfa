// Bonds: membership, groups, numbering and MC-LAG peer links (Bonds.h). Linear in the
// bonds' member ports plus a sort per switch; a std::map over the groups' switch sets.
#include "passes/Bonds.h"
#include "diag/Diag.h"
#include "diag/DiagCodes.h"
#include "passes/Passes.h"
#include "passes/Roce.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace fabc::passes {
using ir::None;

namespace {

using Kind = ir::Model::Bond;

// A bond's member ports, each with its link and switch.
struct Member {
  uint32_t port, link, sw;
};

void membersOf(const ir::Fabric &F, const std::vector<uint8_t> &routed, uint32_t d, uint32_t gpu,
               std::vector<Member> &out) {
  out.clear();
  const ir::Model &m = F.modelOf(d);
  const ir::GroupLayout &g = F.layoutOf(d).groups[0];
  uint32_t per = std::max<uint32_t>(1, m.portsPerGpu), base = F.devPortBase[d] + g.offset;
  for (uint32_t i = gpu * per; i < std::min(g.count, (gpu + 1) * per); ++i) {
    uint32_t p = base + i, l = F.portLink[p];
    if (l == None)
      continue;
    uint32_t sw = F.portDevice[F.otherEnd(l, p)];
    if (routed[sw])
      out.push_back({p, l, sw});
  }
}

const char *kindName(uint8_t k) { return k == uint8_t(Kind::McLag) ? "mc-lag" : k == uint8_t(Kind::EvpnMh) ? "evpn-mh" : "lacp"; }

} // namespace

void planBonds(ir::Fabric &F, DiagEngine &diags, const std::vector<uint8_t> &routed) {
  F.bonds.clear();
  F.bondGroups.clear();
  F.bondGroupSwitches.clear();
  F.portBond.clear();
  F.linkBondNo.clear();
  F.linkPeerLink.clear();
  bool any = false;
  for (uint32_t d = 0; d < F.numDevices() && !any; ++d) {
    const ir::Model &m = F.modelOf(d);
    any = m.kind == ir::ModelKind::System && m.bond != Kind::None && m.gpus && !F.layoutOf(d).groups.empty();
  }
  if (!any)
    return;
  F.portBond.assign(F.numPorts(), None);
  F.linkBondNo.assign(F.numLinks(), 0);
  F.linkPeerLink.assign(F.numLinks(), 0);

  // The bonds, and the switch set of each (multi-chassis sets first, so that on every
  // switch an MC-LAG pair's bonds come first and take the same numbers on both peers).
  std::vector<Member> mem;
  std::vector<std::vector<uint32_t>> sets;  // per bond
  std::vector<uint32_t> firstLink;          // per bond, for the diagnostics
  unsigned e402 = 0;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    const ir::Model &m = F.modelOf(d);
    if (m.kind != ir::ModelKind::System || m.bond == Kind::None || !m.gpus || F.layoutOf(d).groups.empty())
      continue;
    for (uint32_t gpu = 0; gpu < m.gpus; ++gpu) {
      membersOf(F, routed, d, gpu, mem);
      if (mem.empty())
        continue;
      std::vector<uint32_t> set;
      for (const Member &x : mem)
        set.push_back(x.sw);
      std::sort(set.begin(), set.end());
      set.erase(std::unique(set.begin(), set.end()), set.end());
      if (m.bond == Kind::Lacp && set.size() > 1) {
        if (e402++ < 20) {
          Diagnostic *dg = diags.report(DiagCode::E0402, linkRange(F, mem.back().link),
                                        "GPU {}'s LACP bond on '{}' spans {} switches, '{}' and '{}'", gpu,
                                        F.deviceName(d), set.size(), F.deviceName(set[0]), F.deviceName(set[1]));
          noteLinkInstances(dg, F, mem.back().link);
          DiagEngine::note(dg, {}, "bond = \"lacp\" is one port channel on one switch: cable the GPU's ports to one "
                                   "switch, or declare bond = \"mc-lag\" or \"evpn-mh\" for a bond across switches");
        } else {
          diags.tally(DiagCode::E0402, linkRange(F, mem.back().link));
        }
        continue;
      }
      uint32_t b = uint32_t(F.bonds.size());
      ir::Bond bond;
      bond.device = d;
      bond.gpu = gpu;
      F.bonds.push_back(bond);
      for (const Member &x : mem)
        F.portBond[x.port] = b;
      sets.push_back(std::move(set));
      firstLink.push_back(mem.front().link);
    }
  }
  if (F.bonds.empty())
    return;

  std::map<std::vector<uint32_t>, uint32_t> groupOf;
  auto kindOf = [&](uint32_t b) {
    Kind k = F.modelOf(F.bonds[b].device).bond;
    return sets[b].size() > 1 ? k : Kind::Lacp; // a bond on one switch is a port channel of that switch
  };
  for (bool multi : {true, false}) {
    for (uint32_t b = 0; b < F.bonds.size(); ++b) {
      Kind k = kindOf(b);
      if ((k != Kind::Lacp) != multi)
        continue;
      auto [it, fresh] = groupOf.try_emplace(sets[b], uint32_t(F.bondGroups.size()));
      if (fresh) {
        ir::BondGroup g;
        g.first = uint32_t(F.bondGroupSwitches.size());
        g.count = uint32_t(sets[b].size());
        g.kind = uint8_t(k);
        g.index = multi ? uint32_t(F.bondGroups.size()) : 0;
        F.bondGroupSwitches.insert(F.bondGroupSwitches.end(), sets[b].begin(), sets[b].end());
        F.bondGroups.push_back(g);
      }
      ir::BondGroup &g = F.bondGroups[it->second];
      if (g.kind != uint8_t(k) && g.kind != uint8_t(Kind::Lacp)) {
        // Two models bond across the same switches as MC-LAG and as EVPN-MH: one switch
        // runs one of them (Cumulus: "remove any MLAG configuration" before EVPN-MH).
        Diagnostic *dg = diags.report(DiagCode::E0403, linkRange(F, firstLink[b]),
                                      "GPU {} of '{}' bonds as {} on switches that other GPUs bond to as {}",
                                      F.bonds[b].gpu, F.deviceName(F.bonds[b].device), kindName(uint8_t(k)),
                                      kindName(g.kind));
        noteLinkInstances(dg, F, firstLink[b]);
        DiagEngine::note(dg, {}, "a ToR pair runs MC-LAG or EVPN multihoming, not both: give the system models one bond");
      }
      F.bonds[b].group = it->second;
      F.bonds[b].local = ++g.bonds;
    }
  }

  // MC-LAG: two switches exactly, each with one peer, and a link between them (the peer
  // link). E0403 and E0400 once per group, at its first bond.
  std::vector<uint32_t> groupFirstBond(F.bondGroups.size(), None);
  for (uint32_t b = 0; b < F.bonds.size(); ++b)
    if (groupFirstBond[F.bonds[b].group] == None)
      groupFirstBond[F.bonds[b].group] = b;
  std::vector<uint32_t> mlagPeer(F.numDevices(), None);
  unsigned reported = 0;
  for (uint32_t gi = 0; gi < F.bondGroups.size(); ++gi) {
    const ir::BondGroup &g = F.bondGroups[gi];
    if (g.kind != uint8_t(Kind::McLag))
      continue;
    const uint32_t *sw = groupSwitches(F, gi);
    uint32_t b = groupFirstBond[gi];
    SourceRange at = linkRange(F, firstLink[b]);
    if (g.count > 2) {
      Diagnostic *dg = diags.report(DiagCode::E0403, at, "GPU {}'s MC-LAG bond on '{}' spans {} switches",
                                    F.bonds[b].gpu, F.deviceName(F.bonds[b].device), g.count);
      noteLinkInstances(dg, F, firstLink[b]);
      DiagEngine::note(dg, {}, "an MC-LAG pair is two switches: cable each GPU to two ToRs, or use bond = \"evpn-mh\", "
                               "whose Ethernet segments may span more");
      continue;
    }
    bool clash = false;
    for (uint32_t i = 0; i < 2; ++i) {
      uint32_t self = sw[i], other = sw[1 - i];
      if (mlagPeer[self] != None && mlagPeer[self] != other && !clash) {
        clash = true;
        Diagnostic *dg = diags.report(DiagCode::E0403, at,
                                      "GPU {}'s MC-LAG bond on '{}' pairs '{}' with '{}', but '{}' is already the MC-LAG "
                                      "peer of '{}'",
                                      F.bonds[b].gpu, F.deviceName(F.bonds[b].device), F.deviceName(self),
                                      F.deviceName(other), F.deviceName(self), F.deviceName(mlagPeer[self]));
        noteLinkInstances(dg, F, firstLink[b]);
        DiagEngine::note(dg, {}, "a switch has one MC-LAG peer: cable every dual-homed GPU of a ToR to the same two "
                                 "ToRs, or use bond = \"evpn-mh\"");
      }
      if (mlagPeer[self] == None)
        mlagPeer[self] = other;
    }
    // The peer link: every link between the pair.
    uint32_t a = sw[0], bsw = sw[1], links = 0;
    uint32_t base = F.devPortBase[a], n = F.layoutOf(a).ports;
    for (uint32_t p = base; p < base + n; ++p) {
      uint32_t l = F.portLink[p];
      if (l != None && F.portDevice[F.otherEnd(l, p)] == bsw) {
        F.linkPeerLink[l] = 1;
        ++links;
      }
    }
    if (!links) {
      if (reported++ < 20) {
        Diagnostic *dg = diags.report(DiagCode::E0400, at, "the MC-LAG pair '{}' and '{}' has no peer link",
                                      F.deviceName(a), F.deviceName(bsw));
        noteLinkInstances(dg, F, firstLink[b]);
        DiagEngine::note(dg, {}, fmt::format("MC-LAG needs a link between its two switches (the peer link): add one, "
                                             "for example `link {}.p -- {}.p {{ count = 2; }}`, or use bond = "
                                             "\"evpn-mh\", which needs none",
                                             F.deviceName(a), F.deviceName(bsw)));
      } else {
        diags.tally(DiagCode::E0400, at);
      }
    }
  }

  // RoCE over a bond runs on the adapter's RoCE LAG: one RDMA device for both ports, which
  // needs both members on one dual-port ConnectX, and the design does not say which ports
  // share an adapter (decision 0441).
  if (roceSettings(F).enabled) {
    Diagnostic *dg = diags.report(DiagCode::W0401, linkRange(F, firstLink[0]),
                                  "the hosts output writes no RoCE script or NCCL file for servers with bonded GPUs");
    noteLinkInstances(dg, F, firstLink[0]);
    DiagEngine::note(dg, {}, "RoCE over a bond is the NIC's RoCE LAG (one RDMA device, mlx5_bond_N, for both members "
                             "of one dual-port adapter): configure it by hand (docs/backends.md), or use bond = \"none\" "
                             "for independent ports that each run RoCE");
  }

  // Numbers on each switch: its bonds in (group, local) order, from 1.
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> onSwitch; // (switch, group, local, link)
  for (uint32_t p = 0; p < F.portBond.size(); ++p) {
    uint32_t b = F.portBond[p];
    if (b == None || F.bonds[b].group == None)
      continue;
    uint32_t l = F.portLink[p];
    onSwitch.emplace_back(F.portDevice[F.otherEnd(l, p)], F.bonds[b].group, F.bonds[b].local, l);
  }
  std::sort(onSwitch.begin(), onSwitch.end());
  uint32_t sw = None, no = 0, prevGroup = None, prevLocal = 0;
  bool tooMany = false;
  for (const auto &[s, g, local, l] : onSwitch) {
    if (s != sw) {
      sw = s;
      no = 0;
      prevGroup = None;
    }
    if (g != prevGroup || local != prevLocal)
      ++no;
    prevGroup = g;
    prevLocal = local;
    // SONiC names a port channel PortChannel + at most 4 digits; the peer link takes one more.
    if (no > 9998 && !tooMany) {
      tooMany = true;
      Diagnostic *dg = diags.report(DiagCode::E0404, linkRange(F, l), "'{}' has more than 9998 bonds",
                                    F.deviceName(s));
      noteLinkInstances(dg, F, l);
      DiagEngine::note(dg, {}, "SONiC names a port channel PortChannel0 to PortChannel9999: split the GPUs over more ToRs");
    }
    F.linkBondNo[l] = uint16_t(std::min<uint32_t>(no, 65535));
  }
  uint32_t multi = 0;
  for (const ir::BondGroup &g : F.bondGroups)
    multi += g.kind != uint8_t(Kind::Lacp);
  if (multi > 65535) {
    Diagnostic *dg = diags.report(DiagCode::E0404, linkRange(F, firstLink[0]),
                                  "{} multi-chassis bond groups, but the system MACs fabc gives them number 65536",
                                  multi);
    noteLinkInstances(dg, F, firstLink[0]);
    DiagEngine::note(dg, {}, "each MC-LAG pair or EVPN-MH group takes one MAC of 44:38:39:ff:00:00/16, the range NVIDIA "
                             "reserves for them");
  }
}

std::vector<uint32_t> bondDomains(const ir::Fabric &F) {
  if (F.bondGroups.empty())
    return {};
  std::vector<uint32_t> up(F.numDevices());
  std::iota(up.begin(), up.end(), 0u);
  auto find = [&](uint32_t x) {
    while (up[x] != x)
      x = up[x] = up[up[x]];
    return x;
  };
  for (uint32_t g = 0; g < F.bondGroups.size(); ++g) {
    const ir::BondGroup &bg = F.bondGroups[g];
    if (bg.kind == uint8_t(ir::Model::Bond::Lacp))
      continue;
    const uint32_t *sw = groupSwitches(F, g);
    for (uint32_t i = 1; i < bg.count; ++i) {
      uint32_t a = find(sw[0]), b = find(sw[i]);
      if (a != b)
        up[std::max(a, b)] = std::min(a, b); // the lowest switch is the domain's
    }
  }
  for (uint32_t d = 0; d < up.size(); ++d)
    up[d] = find(d);
  return up;
}

} // namespace fabc::passes
