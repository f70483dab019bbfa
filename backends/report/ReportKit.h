#pragma once
// The report's building blocks: HTML escaping, number formatting, and the inline SVG
// charts and topology drawing the compiler draws itself (no JavaScript, no fetches).
#include "ir/Fabric.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fabc::report {

// Text and attribute escaping: every string that comes from the design or the catalog.
std::string esc(std::string_view s);

// Readable figures: "699.2 kW", "1.05 MW", "12.8 Tb/s", "13.45 µs", "2.54 km", "1,024".
std::string power(double w);
std::string bandwidth(double bps);
std::string duration(double s);
std::string length(double m);
std::string count(uint64_t n);
std::string number(double v, int decimals); // with thousands separators
std::string share(double v);                // 0.2 -> "20.0 %"
// A value exactly as the JSON outputs print it, for data-value attributes.
std::string fixed(double v, int decimals);

// The data attributes that tie a shown figure to its JSON output: `key` is
// "FILE:PATH" (e.g. "energy:what_if.all_cpo.saved_w", "bom:cables[3].count"; several
// keys joined by '+' are summed), `value` the figure as that file prints it.
std::string dataAttrs(std::string_view key, std::string_view value);
// A string figure: data-json and data-text (the browser check compares the text).
std::string textAttrs(std::string_view key, std::string_view text);

struct Series {
  std::string label, color;
};
struct Segment {
  double value = 0;
  size_t series = 0;
  std::string key, value_text; // data attributes (may be empty)
  bool estimate = false;
};
struct Bar {
  std::string label;
  std::vector<Segment> segments;
  std::string totalKey, totalText; // data attributes of the total label
  bool estimate = false;
};
enum class Unit { Power, Count, Time, Rate }; // Rate: a plain figure with two decimals (failures per year)
std::string formatUnit(double v, Unit u);

// A horizontal stacked bar chart with a legend, axis and a total at each bar's end.
void stackedBars(std::string &out, std::string_view id, std::string_view title, const std::vector<Series> &series,
                 const std::vector<Bar> &bars, Unit unit);

// A vertical bar chart (a histogram over categories) with counts on the bars.
struct Column {
  std::string label;
  double value = 0;
  std::string key, value_text;
};
void columnChart(std::string &out, std::string_view id, std::string_view title, std::string_view color,
                 const std::vector<Column> &cols, std::string_view xLabel);

// The fabric drawn tier by tier: pods (or buildings) as columns, a pod larger than
// `collapse` devices (or a cell that does not fit) drawn as one block per model.
void topology(std::string &out, const ir::Fabric &F, uint32_t collapse);

// Colours of the media classes in drawings (fibre jacket conventions where there are
// some: OM4 aqua, OS2 yellow).
const char *mediaColor(ir::Media m);

} // namespace fabc::report
