#pragma once
// The bill-of-materials roll-up, an analysis computed once from the IR
// (Analyses::bom()): devices by model, transceivers by optic and where they sit, cables
// by SKU and standard order length, links by tier pair and media. The bom, cabling and
// summary outputs, the report and diff read it; none recounts.
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
  double length; // standard order length, m
  bool operator<(const CableKey &o) const {
    return std::tie(media, sku, length) < std::tie(o.media, o.sku, o.length);
  }
};
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
  double transceiversPerGpu() const { return gpus ? double(xcvrTotal) / double(gpus) : 0.0; }
};
BomSummary summarize(const ir::Fabric &F);

// Cables are bought in standard lengths: the order length of a run of `len` metres.
double standardLength(ir::Media m, double len);

} // namespace fabc
