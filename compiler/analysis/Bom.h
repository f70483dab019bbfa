#pragma once
// The bill-of-materials roll-up, an analysis computed once from the IR
// (Analyses::bom()): devices by model, transceivers by optic and where they sit, cables
// by SKU and order length, links by tier pair and media, and the spares a
// `policy spares` asks for. The bom, cabling and summary outputs, the report and diff
// read it; none recounts.
#include "ir/Fabric.h"

#include <map>
#include <string>
#include <tuple>

namespace fabc {

struct XcvrCount {
  uint64_t total = 0, atSwitch = 0, atCompute = 0;
};
struct CableKey {
  std::string sku;
  ir::Media media;
  double length; // order length, m (standardLength)
  bool operator<(const CableKey &o) const {
    return std::tie(media, sku, length) < std::tie(o.media, o.sku, o.length);
  }
};

// What `policy spares` orders on top of the design's counts, per BOM category: a
// percent of each SKU's count, rounded up, and at least `min_per_sku` of every SKU in a
// category the policy names. A category the policy does not name gets no spares.
enum class SpareCategory : uint8_t { Switch, System, Transceiver, Cable, Count };
const char *spareCategoryName(SpareCategory c); // "switch", ... (policy key: NAME_percent)
struct SparesPolicy {
  bool set = false;
  double percent[size_t(SpareCategory::Count)] = {};
  bool named[size_t(SpareCategory::Count)] = {};
  uint64_t minPerSku = 0;
  uint64_t spares(SpareCategory c, uint64_t count) const;
  static SparesPolicy of(const ir::Fabric &F);
};
// Devices: switches (and NVLink switches) vs systems (and NICs).
SpareCategory deviceCategory(const ir::Model &m);

struct BomSummary {
  uint64_t gpus = 0, systems = 0, computeSystems = 0, switches = 0;
  uint64_t switchesByTier[5] = {};
  std::map<std::pair<uint8_t, uint8_t>, uint64_t> linksByTierPair;
  uint64_t computeLinks = 0;
  uint64_t linksByMedia[size_t(ir::Media::Count)] = {};
  double totalLength = 0;
  std::map<uint32_t, uint64_t> devices;       // model -> count
  std::map<uint32_t, XcvrCount> transceivers; // optic model -> counts
  std::map<CableKey, uint64_t> cables;
  uint64_t xcvrTotal = 0, xcvrSwitch = 0, xcvrCompute = 0;
  SparesPolicy spares;
  // Transceivers per GPU, the one definition every output uses: pluggable transceiver
  // modules ordered for the design (one per used cage, so a twin-port module serving two
  // links counts once, and a CPO port or a copper cable counts none; spares excluded),
  // divided by the GPUs. The label and note outputs print with it are below.
  double transceiversPerGpu() const { return gpus ? double(xcvrTotal) / double(gpus) : 0.0; }
  static constexpr const char *TransceiversPerGpuNote =
      "pluggable transceiver modules (one per used cage; a twin-port module counts once, a CPO port or copper "
      "cable none) over GPUs";
};
BomSummary summarize(const ir::Fabric &F);

// Cables are bought in the lengths their vendor sells: the order length of a run of
// `len` metres of cable model `cable` (None: generic fibre of media `m`). The model's
// `order_lengths` when it has them and one covers the run; otherwise the generic steps
// (copper 0.5 - 10 m, fibre 1 - 500 m, then the next 100 m, past 2 km the next km).
double standardLength(const ir::Fabric &F, uint32_t cable, ir::Media m, double len);
// The SKU a cable row of the BOM and the cabling plan prints: the model's sku, else its
// name, else "<media> fibre" for generic fibre; "" when the link has no media.
std::string cableSku(const ir::Fabric &F, uint32_t cable, ir::Media m);

} // namespace fabc
