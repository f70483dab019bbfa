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

#include "diag/Diag.h"
#include "ir/Address.h"
#include "ir/InfiniBand.h"

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

// The pinned GUIDs, as the blocks devices pin (an end system's is two per port: 64 for
// a DGX) and the discovered HCAs' single GUIDs. Kept as sorted blocks, not GUID by
// GUID: an imported million-GPU fabric pins 8M GUIDs, which a hash set held in 128 MiB.
class PinnedBlocks {
public:
  void add(uint64_t first, uint64_t last) { blocks_.push_back({first, last}); }
  // Call once, after the last add().
  void seal() {
    std::sort(blocks_.begin(), blocks_.end());
    maxLast_.resize(blocks_.size());
    uint64_t m = 0;
    for (size_t i = 0; i < blocks_.size(); ++i)
      maxLast_[i] = m = std::max(m, blocks_[i].second);
  }
  // Is `g` pinned? If so, every GUID from g to `last` is (the blocks that hold g run
  // on to there).
  bool covers(uint64_t g, uint64_t *last = nullptr) const {
    size_t n = startingBy(g);
    if (!n || maxLast_[n - 1] < g)
      return false;
    if (last)
      *last = maxLast_[n - 1]; // that block starts at or before g, so it holds g..last
    return true;
  }
  // The lowest pinned GUID in (g, to], given that g is not pinned.
  bool firstAfter(uint64_t g, uint64_t to, uint64_t &first) const {
    size_t n = startingBy(g);
    if (n == blocks_.size() || blocks_[n].first > to)
      return false;
    first = blocks_[n].first;
    return true;
  }

private:
  // How many blocks start at or before g.
  size_t startingBy(uint64_t g) const {
    return size_t(std::upper_bound(blocks_.begin(), blocks_.end(), g,
                                   [](uint64_t v, const std::pair<uint64_t, uint64_t> &b) { return v < b.first; }) -
                  blocks_.begin());
  }
  std::vector<std::pair<uint64_t, uint64_t>> blocks_; // first, last
  std::vector<uint64_t> maxLast_;                     // the highest last of blocks_[0..i]
};
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
  PinnedBlocks pinned; // any 64-bit GUID is legal, ~0 included
  bool anyPinned = !F.hcaPins.empty();
  for (uint32_t d = 0; d < n; ++d) {
    uint64_t g = F.devGuid[d];
    if (!g)
      continue;
    anyPinned = true;
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
    pinned.add(g, g + (blk - 1));
  }
  for (const ir::Fabric::HcaGuidPin &p : F.hcaPins) { // discovered HCA GUIDs (--guids-from)
    pinned.add(p.node, p.node);
    pinned.add(p.portGuid, p.portGuid);
  }
  pinned.seal();

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
      if (!pinned.covers(F.devGuid[d]))
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
    // The lowest counter from `next` whose block holds no pinned GUID: past the lowest
    // pinned GUID in the block, and on, while the new start is pinned too.
    for (;;) {
      if (next > capacity - blk) {
        exhausted(need + next - 1);
        return;
      }
      uint64_t at = prefix.value | next, to;
      if (pinned.covers(at, &to)) {
        // Pinned on to `to`: each start up to there is; the first start past the space's
        // end is where the counter gives out.
        to -= prefix.value;
        next = to >= capacity - blk ? capacity - blk + 1 : to + 1;
      } else if (pinned.firstAfter(at, prefix.value | (next + blk - 1), to)) {
        next = to - prefix.value + 1;
      } else {
        break;
      }
    }
    F.devGuid[d] = prefix.value | next;
    next += blk;
  }

  // GUIDs the counter gave are distinct, and step over every pinned block: only a design
  // with pinned GUIDs can hold a GUID twice (most pin none; the check below sorts every
  // GUID of the fabric, 5 % of checking the 100k-link explicit file).
  if (!anyPinned)
    return;
  // Every GUID in use, once: switch node GUIDs, and node and port GUIDs of every HCA.
  // Counted first, so that the array (2M entries for a million GPUs) is allocated once
  // at its size: grown by doubling, it peaked at three times that during a copy.
  std::vector<std::pair<uint64_t, uint32_t>> used; // guid, device
  auto eachGuid = [&](auto &&take) {
    for (uint32_t d = 0; d < n; ++d)
      if (ir::ib::isSwitch(F, d) && F.devGuid[d])
        take(F.devGuid[d], d);
    for (uint32_t l = 0; l < F.numLinks(); ++l) {
      if (!ir::ib::isLink(F, l))
        continue;
      for (uint32_t p : {F.linkA[l], F.linkB[l]}) {
        uint32_t d = F.portDevice[p];
        if (ir::ib::isSwitch(F, d) || !F.devGuid[d])
          continue;
        // A discovered ConnectX-4 or later reports its node GUID as its port GUID too.
        uint64_t g = ir::ib::hcaGuid(F, p), pg = ir::ib::hcaPortGuid(F, p);
        take(g, d);
        if (pg != g)
          take(pg, d);
      }
    }
  };
  size_t count = 0;
  eachGuid([&](uint64_t, uint32_t) { ++count; });
  used.reserve(count);
  eachGuid([&](uint64_t g, uint32_t d) { used.push_back({g, d}); });
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
