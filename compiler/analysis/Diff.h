#pragma once
#include "analysis/Analyses.h"
// What changes between two compiled revisions of a design (fabc diff, docs/diff.md): the
// comparison as data, which tools/fabc prints as a recabling plan (text or JSON). Reads
// two IRs only. Matching is by name: devices by their full name (one hash join on the
// names, each composed once), ports by their device's match and their group name and
// index, cables through their ports (a port holds one cable, so no cable is hashed), and
// moved cables by their two devices (a sort-merge join on 64-bit device-pair keys). Linear
// in devices and links but for that sort of the unmatched cables; every list is in IR
// order (deterministic, like the IR itself).
//
// The comparison is a sequence of sections, one per analysis (devices, cables, moved
// cables, settings, bill of materials, switches, groups, power), each a function of its own that
// fills its part of FabricDiff; the printer has one function per section too. Adding an
// analysis to the diff: its fields in FabricDiff, a diffX(FabricDiff &, ...) called from
// compareFabrics under a stage name of its own ("diff X"), and a printX (text and JSON)
// called from printDiff in tools/fabc/Diff.cpp.
#include "ir/Fabric.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
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

// One design's names as the diff reads and prints them, each composed once: every
// device's full name (in one buffer), every rack's name, every model's SKU. Ports are
// named from these on demand ("leaf[3]" + "/" + "p[17]").
class DiffNames {
public:
  explicit DiffNames(const ir::Fabric &F);
  const ir::Fabric &fabric() const { return F_; }
  std::string_view device(uint32_t dev) const { return {text_.data() + devOff_[dev], devOff_[dev + 1] - devOff_[dev]}; }
  // The device's rack, "" when unplaced.
  std::string_view rack(uint32_t dev) const;
  // A model's SKU, else its name; "" for None.
  std::string_view sku(uint32_t model) const;
  // A cable's SKU as the plan names it: the catalog's, else "<media> fibre", else "".
  std::string_view cableSku(uint32_t link) const;
  // "p[17]": the port's group and index on its device.
  void appendPort(uint32_t port, std::string &out) const;

private:
  const ir::Fabric &F_;
  std::string text_; // device names, back to back
  std::vector<uint32_t> devOff_;
  std::vector<std::string> racks_;
};

// One end of a cable and a cable, as the plan names them. Views into DiffNames or the
// IR's string pool; the short texts (a port, a length) fit std::string's inline buffer.
struct DiffEnd {
  std::string_view device, rack, xcvr;
  std::string port;
  unsigned u = 0;
};
struct DiffCable {
  DiffEnd a, b; // oriented: a's full port name sorts first
  std::string_view media, sku;
  std::string length; // "{:.2f}" m
  double gbps = 0;
};
struct DiffDevice {
  std::string_view name, model, tier, role, rack;
  std::string asn, loopback;
  unsigned u = 0;
  bool isSwitch = false;
};
// What differs: (field, old, new), "" for none.
using DiffChanges = std::vector<std::tuple<const char *, std::string, std::string>>;

DiffCable diffCable(const DiffNames &N, uint32_t link);
DiffDevice diffDevice(const DiffNames &N, uint32_t dev);
DiffChanges cableChanges(const DiffCable &o, const DiffCable &n, bool sameEnds);
DiffChanges deviceChanges(const DiffDevice &o, const DiffDevice &n);

// What a switch's configuration has to follow: its re-cabled ports.
struct SwitchTouch {
  uint32_t unplugged = 0, plugged = 0, moved = 0, replaced = 0;
};

// A declared group (summary.json's `groups`: a pod, a plane, an su, ...) whose counts
// differ between the two designs, matched by its kind and name. An absent side is
// `present = false` (the group was added or removed).
struct GroupSide {
  bool present = false;
  uint64_t gpus = 0, links = 0, boundaryLinks = 0;
  uint32_t switches = 0;
  double bisectionGbps = -1; // planes only; -1: not a plane
  bool operator==(const GroupSide &o) const {
    return present == o.present && gpus == o.gpus && links == o.links && boundaryLinks == o.boundaryLinks &&
           switches == o.switches && bisectionGbps == o.bisectionGbps;
  }
};
struct GroupDelta {
  std::string_view kind; // the IR's string pool
  std::string name;
  GroupSide old, now;
};

struct FabricDiff {
  FabricDiff(const ir::Fabric &a, const ir::Fabric &b) : oldNames(a), newNames(b) {}
  DiffNames oldNames, newNames;
  // The joins: a new id's old id (None: added), and the old id's new id (None: gone).
  std::vector<uint32_t> devNewToOld, devOldToNew, linkNewToOld, linkOldToNew;
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
  ReliabilityFigures reliabilityOld, reliabilityNew; // each side's (issue 18)
  // Groups whose counts differ: the new design's in declaration order, then the groups
  // only the old design has, in its order.
  std::vector<GroupDelta> groups;
  DiffStats stats;
};

// Called with each section's name before it runs (--time-stages).
using DiffStageFn = std::function<void(const char *)>;

// The plan from `a` (old) to `b` (new), from each side's analyses: the BOM roll-up and
// the energy model's IT power are read, not recomputed.
FabricDiff compareFabrics(const Analyses &a, const Analyses &b, const DiffStageFn &stage = nullptr);

// The sections, in the order compareFabrics runs them (each reads what the ones before
// it filled: the device join first, the switches last).
void diffDevices(FabricDiff &D);
void diffCables(FabricDiff &D);   // the cable join, replaced cables
void diffMoved(FabricDiff &D);    // moved, added and removed cables
void diffSettings(FabricDiff &D);
void diffBom(FabricDiff &D, const Analyses &a, const Analyses &b);
void diffSwitches(FabricDiff &D);
void diffGroups(FabricDiff &D);

// One side's bill of materials as the diff keys it.
BomLines bomLines(const Analyses &an);

} // namespace fabc::analysis
