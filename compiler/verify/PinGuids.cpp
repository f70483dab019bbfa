// fabc build --guids-from (PinGuids.h).
#include "diag/DiagCodes.h"
#include "verify/PinGuids.h"

#include "checks/HostNames.h"
#include "discovery/LineReader.h"
#include "ir/InfiniBand.h"
#include "passes/Addressing.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringMap.h>

#include <cctype>
#include <map>

namespace fabc::verify {
namespace {
using ir::None;
namespace ib = ir::ib;

std::string lowerHost(std::string_view name) {
  std::string h(name.substr(0, name.find('.')));
  for (char &c : h)
    c = char(std::tolower((unsigned char)c));
  return h;
}
} // namespace

PinResult pinGuids(ir::Fabric &F, const discovery::Observed &obs, SourceManager &sm, DiagEngine &diags) {
  PinResult res;
  const uint32_t n = F.numDevices();
  // The InfiniBand devices: switches, and end systems with an InfiniBand link.
  std::vector<uint8_t> member(n, 0);
  for (uint32_t d = 0; d < n; ++d)
    member[d] = ib::isSwitch(F, d);
  for (uint32_t l = 0; l < F.numLinks(); ++l)
    if (ib::isLink(F, l))
      for (uint32_t p : {F.linkA[l], F.linkB[l]})
        member[F.portDevice[p]] = 1;
  llvm::StringMap<uint32_t> byHost;
  for (uint32_t d = 0; d < n; ++d)
    if (member[d])
      byHost.try_emplace(passes::hostName(F, d), d);
  auto host = [&](std::string_view name) {
    auto it = byHost.find(name);
    if (it == byHost.end())
      it = byHost.find(lowerHost(name));
    return it == byHost.end() ? None : it->second;
  };
  // The design's own pins, which a discovered GUID must not repeat on another device.
  discovery::KeyMap<uint32_t> pinnedBy;
  for (uint32_t d = 0; d < n; ++d)
    if (F.devGuid[d] && F.devGuid[d] < discovery::FirstReservedKey)
      pinnedBy[F.devGuid[d]] = d;

  std::vector<uint8_t> pinned(n, 0);
  llvm::DenseMap<uint32_t, uint32_t> pinnedNode; // switch device -> the node pinned on it (None: two, reported)
  llvm::DenseMap<uint32_t, uint64_t> designGuid; // switch device -> its guid before the pin
  // Hosts: the HCA GUIDs seen per port index.
  std::map<uint32_t, std::vector<std::pair<uint32_t, uint64_t>>> hcas; // device -> (port index, GUID)
  std::map<uint32_t, llvm::StringMap<uint32_t>> ports;                 // device -> port label -> index
  unsigned unknown = 0;
  auto where = [&](const discovery::Node &N) {
    return obs.atLine(sm, diags, N.at);
  };
  for (uint32_t i = 0; i < obs.nodes.size(); ++i) {
    const discovery::Node &N = obs.nodes[i];
    if (!N.guid)
      continue;
    std::string_view name = obs.strings.str(N.name);
    uint32_t d = None, portIdx = None;
    if (N.isSwitch) {
      size_t semi = name.find(';'), colon = name.find(':', semi == std::string_view::npos ? 0 : semi);
      d = host(name);
      if (d == None && semi != std::string_view::npos && colon != std::string_view::npos)
        d = host(name.substr(semi + 1, colon - semi - 1));
      if (d != None && !ib::isSwitch(F, d))
        d = None;
    } else {
      size_t sp = name.rfind(' ');
      if (sp != std::string_view::npos)
        d = host(name.substr(0, sp));
      if (d != None && ib::isEndSystem(F, d)) {
        auto &m = ports[d];
        if (m.empty())
          for (uint32_t p = F.devPortBase[d]; p < F.devPortBase[d] + F.layoutOf(d).ports; ++p)
            m.try_emplace(names::portLabel(F, p), p - F.devPortBase[d]);
        auto it = m.find(name.substr(sp + 1));
        portIdx = it == m.end() ? None : it->second;
      }
      if (portIdx == None)
        d = None;
    }
    if (d == None) {
      if (unknown++ < 20) {
        Diagnostic *dg = diags.report(DiagCode::W0187, where(N),
                                      "discovered {} '{}' (GUID 0x{:016x}) is not a device of the design: its GUID "
                                      "is not pinned",
                                      N.isSwitch ? "switch" : "HCA", name, N.guid);
        DiagEngine::note(dg, {}, N.isSwitch ? "name the switch as the design does (its host name)"
                                            : "an HCA's description must be 'host port' with the design's host name "
                                              "and port label (su0-node7 cx2)");
      }
      continue;
    }
    auto clash = pinnedBy.find(N.guid);
    if (clash != pinnedBy.end() && clash->second != d) {
      Diagnostic *dg = diags.report(DiagCode::E0190, where(N), "GUID 0x{:016x} of '{}' is already the guid of '{}'",
                                    N.guid, name, F.deviceName(clash->second));
      DiagEngine::note(dg, {F.devLoc[clash->second], 1}, "remove the guid from the design, or fix the device's GUID");
      continue;
    }
    if (N.isSwitch) {
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
          --res.switches;
          first.first->second = None; // reported once a device
        }
        continue;
      }
      designGuid.try_emplace(d, F.devGuid[d]);
      F.devGuid[d] = N.guid;
      pinned[d] = 1;
      pinnedBy[N.guid] = d;
      ++res.switches;
    } else {
      hcas[d].push_back({portIdx, N.guid});
    }
  }
  if (unknown > 20)
    diags.report(DiagCode::W0187, {}, "{} more discovered nodes are not devices of the design", unknown - 20);
  // A host: its base GUID when its HCAs follow the layout.
  unsigned irregular = 0;
  std::string firstIrregular;
  for (auto &h : hcas) {
    uint32_t d = h.first;
    uint64_t base = 0;
    bool ok = true;
    for (size_t k = 0; k < h.second.size() && ok; ++k) {
      uint64_t idx = h.second[k].first, g = h.second[k].second;
      ok = g >= 2 * idx && (k == 0 || g - 2 * idx == base);
      base = g - 2 * idx;
    }
    if (!ok || !base) {
      if (!irregular++)
        firstIrregular = F.deviceName(d);
      continue;
    }
    F.devGuid[d] = base;
    pinned[d] = 1;
    ++res.hosts;
  }
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
    if (irregular)
      DiagEngine::note(dg, {}, fmt::format("{} host{}' HCA GUIDs do not follow fabc's layout (base + 2 per port), "
                                           "starting with '{}': pin them with `guid` where they do",
                                           irregular, irregular == 1 ? "" : "s", firstIrregular));
    DiagEngine::note(dg, {}, "discover the whole fabric, or name the devices as the design does");
  }
  return res;
}

} // namespace fabc::verify
