// InfiniBand GUIDs: prefix, sequential allocation in device order, uniqueness.
//
// A GUID is the prefix's digits as its high bits and a counter below them. Devices are
// numbered in elaboration order (deterministic, source order), each taking a block:
// one GUID for a switch, two per port for an end system (node and port GUID of the
// single-port HCA behind each port; see ir/InfiniBand.h). GUIDs a design pins with the
// `guid` instance property are kept, and the counter steps over their blocks.
#include "diag/DiagCodes.h"
#include "passes/Guids.h"
#include "passes/Passes.h"
#include "ir/DenseKeys.h"

#include "diag/Diag.h"
#include "ir/Address.h"
#include "ir/InfiniBand.h"

#include <llvm/ADT/DenseSet.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace fabc::passes {
using ir::None;

namespace {

struct Prefix {
  uint64_t value = 0; // the fixed high bits, in place
  unsigned bits = 0;  // how many high bits are fixed
  std::string text;
  SourceRange loc;
};

bool parsePrefix(const ir::Fabric &F, DiagEngine &diags, Prefix &out) {
  out.text = DefaultGuidPrefix;
  const ir::PolicyBlock *pb = F.policyBlock("addressing");
  const ir::Setting *s = pb ? pb->get(F.strings, "guid_prefix") : nullptr;
  if (s) {
    out.loc = s->loc;
    if (s->type != ir::Setting::String) {
      Diagnostic *d = diags.report(DiagCode::E0130, s->loc, "guid_prefix must be a string of hex digits");
      DiagEngine::note(d, {}, "write it as a string so that leading zeros count: guid_prefix = \"0x0002c9\"");
      return false;
    }
    out.text = std::string(F.strings.str(s->str));
  }
  const std::string &t = out.text;
  uint64_t v = 0;
  unsigned digits = 0;
  if (!ir::parseGuid(t, v, &digits) || digits > 15) {
    Diagnostic *d = diags.report(DiagCode::E0130, out.loc, "guid_prefix '{}' is not \"0x\" and 1 to 15 hex digits", t);
    DiagEngine::note(d, {}, "the digits are the fixed high bits of every GUID: 6 digits (an OUI) leave 40 bits to "
                            "number the devices");
    return false;
  }
  out.bits = 4 * digits;
  out.value = v << (64 - out.bits);
  return true;
}
} // namespace

void assignGuids(ir::Fabric &F, DiagEngine &diags) {
  const size_t n = F.numDevices();
  F.devGuid.resize(n, 0);
  std::vector<uint8_t> member(n, 0); // 1: part of the InfiniBand fabric
  bool anySwitch = false;
  for (uint32_t d = 0; d < n; ++d)
    if (ir::ib::isSwitch(F, d)) {
      member[d] = 1;
      anySwitch = true;
    }

  if (anySwitch) {
    // Who is linked to an InfiniBand switch; switches of another network are outside.
    std::vector<uint8_t> reported(n, 0);
    for (uint32_t l = 0; l < F.numLinks(); ++l) {
      uint32_t a = F.portDevice[F.linkA[l]], b = F.portDevice[F.linkB[l]];
      for (int side = 0; side < 2; ++side) {
        uint32_t s = side ? b : a, o = side ? a : b;
        if (!ir::ib::isSwitch(F, s) || ir::ib::isSwitch(F, o))
          continue;
        if (ir::ib::isEndSystem(F, o)) {
          member[o] = 1;
          continue;
        }
        const ir::Model &om = F.modelOf(o);
        if (om.kind != ir::ModelKind::Switch || reported[o])
          continue;
        reported[o] = 1;
        if (om.protocol == ir::Protocol::Ethernet) {
          // Outside the fabric; the link itself is FAB-E0115 (the RoCE lint's protocol check).
        } else {
          Diagnostic *d = diags.report(DiagCode::W0150, devRange(F, o),
                                       "switch '{}' is linked to InfiniBand switch '{}' but its model '{}' states no "
                                       "protocol; the InfiniBand outputs leave it out",
                                       F.deviceName(o), F.deviceName(s), F.strings.str(om.name));
          noteInstances(d, F, o);
          DiagEngine::note(d, om.loc, "add protocol = \"infiniband\" (or \"ethernet\") to the model");
        }
      }
    }
    // Port numbers are 8 bits.
    std::vector<uint8_t> layoutReported(F.layouts.size(), 0);
    for (uint32_t d = 0; d < n; ++d) {
      uint32_t ports = F.layoutOf(d).ports;
      if (!ir::ib::isSwitch(F, d) || ports <= ir::ib::MaxSwitchPorts || layoutReported[F.devLayout[d]])
        continue;
      layoutReported[F.devLayout[d]] = 1;
      Diagnostic *dg = diags.report(DiagCode::E0134, devRange(F, d),
                                    "InfiniBand switch '{}' has {} logical ports; InfiniBand numbers at most {}",
                                    F.deviceName(d), ports, ir::ib::MaxSwitchPorts);
      noteInstances(dg, F, d);
      uint32_t native = 0;
      for (const ir::PortGroup &g : F.modelOf(d).ports)
        native += g.count;
      DiagEngine::note(dg, F.modelOf(d).loc, ports > native && native <= ir::ib::MaxSwitchPorts
                                                 ? "reduce the breakout of its port groups"
                                                 : "model the switch as its switch ASICs, each of at most 254 ports");
    }
  }

  // Pinned GUIDs outside the fabric are unused.
  unsigned unused = 0;
  for (uint32_t d = 0; d < n; ++d)
    if (F.devGuid[d] && !member[d]) {
      if (unused++ < 20) {
        Diagnostic *dg = diags.report(DiagCode::W0151, devRange(F, d), "'{}' has a guid but no InfiniBand link",
                                      F.deviceName(d));
        noteInstances(dg, F, d);
        DiagEngine::note(dg, {}, "remove the guid, or link the device to a switch whose model says protocol = "
                                 "\"infiniband\"");
      } else {
        diags.tally(DiagCode::W0151, devRange(F, d));
      }
      F.devGuid[d] = 0;
    }
  if (!anySwitch)
    return;

  Prefix prefix;
  if (!parsePrefix(F, diags, prefix))
    return;

  // Blocks of pinned GUIDs, which the counter steps over.
  ir::U64Set pinned; // any 64-bit GUID is legal, ~0 included
  for (uint32_t d = 0; d < n; ++d) {
    uint64_t g = F.devGuid[d];
    if (!g)
      continue;
    uint64_t blk = ir::ib::guidBlock(F, d);
    if (g > UINT64_MAX - (blk - 1)) {
      Diagnostic *dg = diags.report(DiagCode::E0132, devRange(F, d),
                                    "guid 0x{:016x} of '{}' leaves no room for the {} GUIDs of its ports", g,
                                    F.deviceName(d), blk);
      noteInstances(dg, F, d);
      DiagEngine::note(dg, {}, "an end system reserves two GUIDs per port, counting up from its guid");
      F.devGuid[d] = 0;
      continue;
    }
    for (uint64_t k = 0; k < blk; ++k)
      pinned.insert(g + k);
  }
  for (const ir::Fabric::HcaGuidPin &p : F.hcaPins) { // discovered HCA GUIDs (--guids-from)
    pinned.insert(p.node);
    pinned.insert(p.portGuid);
  }

  // Sequential allocation below the prefix; counter 0 is skipped so that no GUID has
  // all-zero low bits.
  const unsigned freeBits = 64 - prefix.bits; // 4 to 60
  const uint64_t capacity = uint64_t(1) << freeBits;
  uint64_t need = 0;
  for (uint32_t d = 0; d < n; ++d)
    if (member[d] && !F.devGuid[d])
      need += ir::ib::guidBlock(F, d);
  auto exhausted = [&](uint64_t needed) {
    Diagnostic *dg = diags.report(DiagCode::E0131, prefix.loc,
                                  "guid_prefix '{}' leaves {} bits ({} GUIDs), but the InfiniBand fabric needs {}",
                                  prefix.text, freeBits, capacity - 1, needed);
    DiagEngine::note(dg, {}, "shorten the prefix: each hex digit less multiplies the space by 16");
    for (uint32_t d = 0; d < n; ++d)
      if (!pinned.count(F.devGuid[d]))
        F.devGuid[d] = 0;
  };
  if (need > capacity - 1) {
    exhausted(need);
    return;
  }
  uint64_t next = 1;
  for (uint32_t d = 0; d < n; ++d) {
    if (!member[d] || F.devGuid[d])
      continue;
    uint64_t blk = ir::ib::guidBlock(F, d);
    for (;;) {
      if (next > capacity - blk) {
        exhausted(need + next - 1);
        return;
      }
      uint64_t clash = 0;
      if (!pinned.empty())
        for (uint64_t k = 0; k < blk && !clash; ++k)
          if (pinned.count(prefix.value | (next + k)))
            clash = next + k + 1;
      if (!clash)
        break;
      next = clash;
    }
    F.devGuid[d] = prefix.value | next;
    next += blk;
  }

  // Every GUID in use, once: switch node GUIDs, and node and port GUIDs of every HCA.
  std::vector<std::pair<uint64_t, uint32_t>> used; // guid, device
  for (uint32_t d = 0; d < n; ++d)
    if (ir::ib::isSwitch(F, d) && F.devGuid[d])
      used.push_back({F.devGuid[d], d});
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    if (!ir::ib::isLink(F, l))
      continue;
    for (uint32_t p : {F.linkA[l], F.linkB[l]}) {
      uint32_t d = F.portDevice[p];
      if (ir::ib::isSwitch(F, d) || !F.devGuid[d])
        continue;
      // A discovered ConnectX-4 or later reports its node GUID as its port GUID too.
      uint64_t g = ir::ib::hcaGuid(F, p), pg = ir::ib::hcaPortGuid(F, p);
      used.push_back({g, d});
      if (pg != g)
        used.push_back({pg, d});
    }
  }
  std::sort(used.begin(), used.end());
  unsigned dups = 0;
  for (size_t i = 1; i < used.size(); ++i) {
    if (used[i].first != used[i - 1].first)
      continue;
    uint32_t a = std::min(used[i].second, used[i - 1].second), b = std::max(used[i].second, used[i - 1].second);
    if (dups++ >= 20) {
      diags.tally(DiagCode::E0132, devRange(F, b));
      continue;
    }
    Diagnostic *dg = diags.report(DiagCode::E0132, devRange(F, b), "GUID 0x{:016x} of '{}' is also a GUID of '{}'",
                                  used[i].first, F.deviceName(b), F.deviceName(a));
    noteInstances(dg, F, b);
    DiagEngine::note(dg, devRange(F, a), "'" + F.deviceName(a) + "' is declared here");
    DiagEngine::note(dg, {}, "an end system takes two GUIDs per port from its guid; a switch takes one");
  }
}

} // namespace fabc::passes
