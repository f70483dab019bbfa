#pragma once
// The media pass's private types (Media.cpp chooses, Cages.cpp makes the ports of a cage
// agree). Not part of the passes' interface.
#include "ir/Fabric.h"

#include <functional>
#include <string>
#include <tuple>
#include <vector>

namespace fabc {
class DiagEngine;
namespace passes::media {

// One end of a link as the media pass sees it: a logical port after breakout.
struct End {
  double speed = 0;    // b/s per logical port
  double laneRate = 0; // b/s per lane, 0 = the model does not say
  uint32_t lanes = 0;  // after breakout, 0 = the model does not say
  uint32_t form = 0;   // interned form factor, 0 = any
  uint32_t cage = 1;   // logical ports per cage (after breakout)
  bool cpo = false;
  uint32_t optic = ir::None; // chosen optic, None = the pass chooses
  auto tie() const { return std::tie(speed, laneRate, lanes, form, cage, cpo, optic); }
};

// What the options of a link depend on: both ends, the chosen cable, the media asked
// for, and whether lanes and interfaces are ignored (only to explain FAB-E0059).
struct Key {
  End a, b;
  uint32_t cable = ir::None;
  ir::Media req = ir::Media::None;
  bool ignoreLanes = false;
  auto tie() const { return std::tuple_cat(a.tie(), b.tie(), std::tie(cable, req, ignoreLanes)); }
  bool operator<(const Key &o) const { return tie() < o.tie(); }
  bool operator==(const Key &o) const { return tie() == o.tie(); }
};

// One way to build a link: a cable assembly, or fibre with a transceiver per pluggable end.
struct Option {
  ir::Media media;
  double reach;
  uint32_t cable, opticA, opticB;
};

// The catalog's ways to build a link of this kind, in the order of the choice rule
// (MediaOptions.cpp, with the helpers below).
std::vector<Option> options(const ir::Fabric &F, const Key &k);
// "8 x 100 Gb/s".
std::string lanesText(uint32_t lanes, double rate);
// A model's name.
std::string name(const ir::Fabric &F, uint32_t model);
// Why an optic cannot sit in an end's cage, or a cable join two ends; empty when it can.
std::string opticMisfit(const ir::Fabric &F, const ir::Model &o, const End &e, bool ignoreLanes);
std::string cableMisfit(const ir::Fabric &F, const ir::Model &c, const End &a, const End &b, bool ignoreLanes);
// The CPO engine behind a CPO port (None: the catalog has none).
uint32_t engineFor(const ir::Fabric &F, const End &e);

// Raises the links of a cage to what its most demanding link needs (Cages.cpp).
// `optionsOf(l)`: the options link l's part was chosen from (asked only for links with a part).
void harmonizeCages(ir::Fabric &F, DiagEngine &diags,
                    const std::function<const std::vector<Option> &(uint32_t)> &optionsOf);

} // namespace passes::media
} // namespace fabc
