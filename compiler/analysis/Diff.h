#pragma once
#include "analysis/Analyses.h"
// What changes between two compiled revisions of a design (fabc diff, docs/diff.md): the
// comparison as data, which tools/fabc prints as a recabling plan (text or JSON). Reads
// two IRs only. Matching is by name, through hash joins: devices by their full name,
// cables by the names of their two port ends (either orientation), moved cables by the
// names of their two devices. Linear in devices and links; every list is in IR order
// (deterministic, like the IR itself).
#include "ir/Fabric.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace fabc::analysis {

struct DiffStats {
  uint64_t devicesAdded = 0, devicesRemoved = 0, devicesChanged = 0;
  uint64_t cablesAdded = 0, cablesRemoved = 0, cablesMoved = 0, cablesChanged = 0, cablesUnchanged = 0;
  uint64_t settingsChanged = 0, bomLines = 0;
  bool any() const {
    return devicesAdded || devicesRemoved || devicesChanged || cablesAdded || cablesRemoved || cablesMoved ||
           cablesChanged || settingsChanged || bomLines;
  }
};

// A line of a bill of materials, keyed by what is ordered.
struct BomKey {
  std::string category, sku, media;
  double length = -1; // cables: the order length, m
  bool operator<(const BomKey &o) const {
    return std::tie(category, sku, media, length) < std::tie(o.category, o.sku, o.media, o.length);
  }
};
using BomLines = std::vector<std::pair<BomKey, uint64_t>>;

// One end of a cable and a cable, as the plan names them.
struct DiffEnd {
  std::string device, port, rack, xcvr;
  unsigned u = 0;
};
struct DiffCable {
  DiffEnd a, b; // oriented: a's full port name sorts first
  std::string media, sku, length;
  double gbps = 0;
};
struct DiffDevice {
  std::string name, model, tier, role, rack, asn, loopback;
  unsigned u = 0;
  bool isSwitch = false;
};
// What differs: (field, old, new), "" for none.
using DiffChanges = std::vector<std::tuple<const char *, std::string, std::string>>;

DiffCable diffCable(const ir::Fabric &F, uint32_t link);
DiffDevice diffDevice(const ir::Fabric &F, uint32_t dev);
DiffChanges cableChanges(const DiffCable &o, const DiffCable &n, bool sameEnds);
DiffChanges deviceChanges(const DiffDevice &o, const DiffDevice &n);
// A model's SKU, else its name; "" for None.
std::string skuOf(const ir::Fabric &F, uint32_t model);

// What a switch's configuration has to follow: its re-cabled ports.
struct SwitchTouch {
  uint32_t unplugged = 0, plugged = 0, moved = 0, replaced = 0;
};

struct FabricDiff {
  // The joins: a new id's old id (None: added), and the device join's inverse.
  std::vector<uint32_t> devNewToOld, devOldToNew, linkNewToOld;
  // Devices removed (old ids), added and changed in place (new ids).
  std::vector<uint32_t> devRemoved, devAdded, devChanged;
  // Cables removed (old ids), added and replaced on the same ports (new ids), moved
  // between the same two devices (old id, new id).
  std::vector<uint32_t> cabRemoved, cabAdded, cabChanged;
  std::vector<std::pair<uint32_t, uint32_t>> cabMoved;
  // Switches to reconfigure (new ids), what touches each (by new id), changed devices.
  std::vector<uint32_t> switches;
  std::vector<SwitchTouch> touch;
  std::vector<bool> changedDev;
  // Options and policies by name (setting, old, new; "" for none), sorted.
  std::vector<std::tuple<std::string, std::string, std::string>> settings;
  // Bill-of-materials lines whose counts differ: (old, new).
  std::map<BomKey, std::pair<uint64_t, uint64_t>> bom;
  double powerOld = 0, powerNew = 0; // W, IT power
  bool powerEstimate = false;        // rests on catalog figures marked 'estimate'
  DiffStats stats;
};

// The plan from `a` (old) to `b` (new), from each side's analyses: the BOM roll-up and
// the energy model's IT power are read, not recomputed.
FabricDiff compareFabrics(const Analyses &a, const Analyses &b);

// One side's bill of materials as the diff keys it.
BomLines bomLines(const Analyses &an);

} // namespace fabc::analysis
