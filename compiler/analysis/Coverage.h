#pragma once
// What a figure summed over parts covers (issue 26: no silent zeros). The reliability and
// energy analyses fill one each; summary.json, energy.json and the report print it
// beside the figure.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fabc {

// What a sum over parts covers: the categories with rated parts, and per category the
// parts it leaves out. Every figure summed over parts says this next to it (issue 26).
struct Coverage {
  struct Left {
    std::string category; // label: "switches", "NICs", ...
    std::string key;      // JSON key: "switches", "nics", ...
    uint64_t parts = 0;   // units without the figure
    std::vector<uint32_t> models; // their models, ascending
  };
  uint64_t parts = 0, counted = 0; // units summed; units with a figure
  std::vector<std::pair<std::string, uint64_t>> covers; // category label ("12 of 40 switches" if partly), rated units
  std::vector<Left> notCounted;
  bool complete() const { return counted == parts; }
  // "covers: cables; not counted: 1,671 switches (no rate), ..." (`why`: "no rate").
  std::string headline(const char *why) const;
};

// 1671 -> "1,671".
std::string formatCount(uint64_t n);

} // namespace fabc
