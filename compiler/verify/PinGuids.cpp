// fabc build --guids-from (PinGuids.h).
#include "diag/DiagCodes.h"
#include "verify/PinGuids.h"

#include "verify/DesignNames.h"

#include "discovery/LineReader.h"
#include "ir/InfiniBand.h"

#include <llvm/ADT/DenseMap.h>

#include <algorithm>

namespace fabc::verify {
namespace {
using ir::None;
namespace ib = ir::ib;
} // namespace

PinResult pinGuids(ir::Fabric &F, const discovery::Observed &obs, SourceManager &sm, DiagEngine &diags) {
  PinResult res;
  const uint32_t n = F.numDevices();
  F.hcaPins.clear();
  // Only an InfiniBand discovery (a node with a GUID) says which GUIDs are real. LLDP files
  // given alone (for the hosts' MACs) leave the compiled GUIDs as they are, with nothing
  // to report about them (W0188 and W0350 would call every device unpinned).
  F.guidsFromDiscovery =
      std::any_of(obs.nodes.begin(), obs.nodes.end(), [](const discovery::Node &N) { return N.guid != 0; });
  if (!F.guidsFromDiscovery)
    return res;
  // The InfiniBand devices: switches, and end systems with an InfiniBand link.
  std::vector<uint8_t> member(n, 0);
  for (uint32_t d = 0; d < n; ++d)
    member[d] = ib::isSwitch(F, d);
  for (uint32_t l = 0; l < F.numLinks(); ++l)
    if (ib::isLink(F, l))
      for (uint32_t p : {F.linkA[l], F.linkB[l]})
        member[F.portDevice[p]] = 1;
  DesignNames names(F, &member);
  // The design's own pins, which a discovered GUID must not repeat on another device.
  discovery::KeyMap<uint32_t> pinnedBy;
  for (uint32_t d = 0; d < n; ++d)
    if (F.devGuid[d] && F.devGuid[d] < discovery::FirstReservedKey)
      pinnedBy[F.devGuid[d]] = d;

  std::vector<uint8_t> pinned(n, 0);
  llvm::DenseMap<uint32_t, uint32_t> pinnedNode; // switch device -> the node pinned on it (None: two, reported)
  llvm::DenseMap<uint32_t, uint64_t> designGuid; // switch device -> its guid before the pin
  std::vector<uint32_t> nodeDev(obs.nodes.size(), None); // discovered switch -> the design switch pinned from it
  unsigned unknown = 0;
  auto where = [&](const discovery::Node &N) {
    return obs.atLine(sm, diags, N.at);
  };
  auto notInDesign = [&](const discovery::Node &N, std::string_view name) {
    if (unknown++ >= 20)
      return;
    Diagnostic *dg = diags.report(DiagCode::W0187, where(N),
                                  "discovered {} '{}' (GUID 0x{:016x}) is not a device of the design: its GUID "
                                  "is not pinned",
                                  N.isSwitch ? "switch" : "HCA", name, N.guid);
    DiagEngine::note(dg, {}, N.isSwitch ? "name the switch as the design does (its host name)"
                                        : "an HCA's description must be 'host port' with the design's host name "
                                          "(rdma-ndd's 'host mlx5_N', or the design's port label: su0-node7 cx2)");
  };
  auto clashes = [&](const discovery::Node &N, std::string_view name, uint32_t d) {
    auto clash = pinnedBy.find(N.guid);
    if (clash == pinnedBy.end() || clash->second == d)
      return false;
    Diagnostic *dg = diags.report(DiagCode::E0190, where(N), "GUID 0x{:016x} of '{}' is already the guid of '{}'",
                                  N.guid, name, F.deviceName(clash->second));
    DiagEngine::note(dg, {F.devLoc[clash->second], 1}, "remove the guid from the design, or fix the device's GUID");
    return true;
  };
  // Switches first: an HCA named by rdma-ndd ("host mlx5_3") is placed on its host's port
  // by the switch port it is cabled to.
  for (uint32_t i = 0; i < obs.nodes.size(); ++i) {
    const discovery::Node &N = obs.nodes[i];
    if (!N.guid || !N.isSwitch)
      continue;
    std::string_view name = obs.strings.str(N.name);
    size_t semi = name.find(';'), colon = name.find(':', semi == std::string_view::npos ? 0 : semi);
    uint32_t d = names.host(name);
    if (d == None && semi != std::string_view::npos && colon != std::string_view::npos)
      d = names.host(name.substr(semi + 1, colon - semi - 1));
    if (d != None && !ib::isSwitch(F, d))
      d = None;
    if (d == None) {
      notInDesign(N, name);
      continue;
    }
    if (clashes(N, name, d))
      continue;
    // Two discovered switches with one name: which GUID is this device's is unknown,
    // so neither is pinned (the last one seen won, silently, before).
    auto first = pinnedNode.try_emplace(d, i);
    if (!first.second) {
      if (first.first->second != None) {
        const discovery::Node &P = obs.nodes[first.first->second];
        Diagnostic *dg = diags.report(DiagCode::E0192, where(N),
                                      "two discovered switches are named '{}' (GUIDs 0x{:016x} and 0x{:016x}): "
                                      "neither is pinned on '{}'",
                                      name, P.guid, N.guid, F.deviceName(d));
        DiagEngine::note(dg, {}, fmt::format("the first is at {}:{}", obs.files[P.at.file], P.at.line));
        DiagEngine::note(dg, {}, "give each switch its own name (its NodeDescription), or pin the right GUID "
                                 "with `guid` in the design");
        F.devGuid[d] = designGuid[d];
        pinnedBy.erase(P.guid);
        pinned[d] = 0;
        nodeDev[first.first->second] = None;
        --res.switches;
        first.first->second = None; // reported once a device
      }
      continue;
    }
    designGuid.try_emplace(d, F.devGuid[d]);
    F.devGuid[d] = N.guid;
    pinned[d] = 1;
    pinnedBy[N.guid] = d;
    nodeDev[i] = d;
    ++res.switches;
  }

  // The switch port each HCA's port 1 is cabled to, as discovered.
  std::vector<std::pair<uint32_t, uint32_t>> cabledTo(obs.nodes.size(), {None, 0}); // node -> (switch node, port)
  for (const discovery::Link &L : obs.links)
    for (int side = 0; side < 2; ++side) {
      const discovery::End &h = side ? L.b : L.a, &s = side ? L.a : L.b;
      if (h.node != None && s.node != None && h.number == 1 && !obs.nodes[h.node].isSwitch &&
          obs.nodes[s.node].isSwitch && s.number)
        cabledTo[h.node] = {s.node, s.number};
    }
  // HCAs: each on the design port its description's label names, else on the port the
  // design cables to the switch port it is found on. One HCA a port.
  llvm::DenseMap<uint32_t, uint32_t> placed; // design port -> index in pins (None: two HCAs, reported)
  std::vector<ir::Fabric::HcaGuidPin> pins;
  std::vector<uint32_t> pinNode;
  unsigned unplaced = 0;
  auto notPlaced = [&](const discovery::Node &N, std::string_view name, const std::string &why,
                       const char *outcome = "its GUID is not pinned") {
    if (unplaced++ >= 20)
      return;
    Diagnostic *dg = diags.report(DiagCode::W0351, where(N), "discovered HCA '{}' (GUID 0x{:016x}) {}: {}", name,
                                  N.guid, why, outcome);
    DiagEngine::note(dg, {}, "cable it as the design plans (fabc verify --discovered says where), or describe it "
                             "'host port' with the design's port label");
  };
  for (uint32_t i = 0; i < obs.nodes.size(); ++i) {
    const discovery::Node &N = obs.nodes[i];
    if (!N.guid || N.isSwitch)
      continue;
    std::string_view name = obs.strings.str(N.name);
    size_t sp = name.rfind(' ');
    uint32_t d = sp == std::string_view::npos ? None : names.host(name.substr(0, sp));
    if (d == None || !ib::isEndSystem(F, d)) {
      notInDesign(N, name);
      continue;
    }
    uint32_t port = names.port(d, name.substr(sp + 1));
    if (port == None) {
      // rdma-ndd's "host mlx5_N": N is the adapter's PCI order, not the design's port
      // order; the cable says which port it is.
      auto [sn, sport] = cabledTo[i];
      uint32_t s = sn == None ? None : nodeDev[sn];
      if (s != None && sport <= F.layoutOf(s).ports) {
        uint32_t sw = F.devPortBase[s] + sport - 1, l = F.portLink[sw];
        uint32_t q = l == None ? None : F.otherEnd(l, sw);
        if (q != None && F.portDevice[q] == d)
          port = q;
      }
      if (port == None) {
        notPlaced(N, name,
                  sn == None ? "is cabled to no switch"
                  : s == None ? fmt::format("is cabled to '{}', a switch no GUID was pinned on",
                                            obs.strings.str(obs.nodes[sn].name))
                              : fmt::format("is cabled to {} port {}, which the design does not cable to '{}'",
                                            F.deviceName(s), sport, F.deviceName(d)));
        continue;
      }
    }
    if (!N.portGuid) {
      notPlaced(N, name, "states no port GUID (ibnetdiscover writes it after the port number: [1](guid))");
      continue;
    }
    if (clashes(N, name, d))
      continue;
    auto slot = placed.try_emplace(port, uint32_t(pins.size()));
    if (!slot.second) {
      if (slot.first->second != None) {
        const discovery::Node &P = obs.nodes[pinNode[slot.first->second]];
        notPlaced(N, name,
                  fmt::format("and '{}' (GUID 0x{:016x}) are both port {}", obs.strings.str(P.name), P.guid,
                              F.portName(port)),
                  "neither GUID is pinned");
        pins[slot.first->second].port = None; // dropped below
        slot.first->second = None;
      } else {
        notPlaced(N, name, fmt::format("is a third HCA on port {}", F.portName(port)));
      }
      continue;
    }
    pins.push_back({port, N.guid, N.portGuid});
    pinNode.push_back(i);
  }
  if (unplaced > 20)
    diags.report(DiagCode::W0351, {}, "{} more discovered HCAs are not placed on a port of the design", unplaced - 20);
  if (unknown > 20)
    diags.report(DiagCode::W0187, {}, "{} more discovered nodes are not devices of the design", unknown - 20);
  pins.erase(std::remove_if(pins.begin(), pins.end(), [](const ir::Fabric::HcaGuidPin &p) { return p.port == None; }),
             pins.end());
  std::sort(pins.begin(), pins.end(),
            [](const ir::Fabric::HcaGuidPin &a, const ir::Fabric::HcaGuidPin &b) { return a.port < b.port; });
  for (const ir::Fabric::HcaGuidPin &p : pins) {
    uint32_t d = F.portDevice[p.port];
    res.hosts += !pinned[d];
    pinned[d] = 1;
  }
  res.hcaPorts = pins.size();
  F.hcaPins = std::move(pins);
  // What stays unpinned: one summary.
  uint64_t left = 0, switchesLeft = 0;
  std::string first;
  for (uint32_t d = 0; d < n; ++d)
    if (member[d] && !pinned[d]) {
      if (!left++)
        first = F.deviceName(d);
      switchesLeft += ib::isSwitch(F, d);
    }
  if (left) {
    Diagnostic *dg = diags.report(DiagCode::W0188, {},
                                  "{} InfiniBand device{} of the design ({} switch{}) got no GUID from the discovery "
                                  "(the first: '{}'): {} compiled GUIDs",
                                  left, left == 1 ? "" : "s", switchesLeft, switchesLeft == 1 ? "" : "es", first,
                                  left == 1 ? "it keeps its" : "they keep their");
    DiagEngine::note(dg, {}, "discover the whole fabric, or name the devices as the design does");
  }
  return res;
}

} // namespace fabc::verify
