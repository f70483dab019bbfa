#pragma once
// A reusable output buffer and the number formatting the writers share. Outputs that
// are many short strings (a cabling plan, a config file per switch) append here, with no
// allocation per item, and hand the buffer to a file in large pieces.
#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <string_view>

namespace fabc {

using TextBuffer = fmt::memory_buffer;

// Appends bytes: one resize and a memcpy (fmt's own append goes through its generic
// growth path for every call, which dominates when a file is many short strings).
inline void append(TextBuffer &b, std::string_view s) {
  size_t n = b.size();
  b.resize(n + s.size());
  std::memcpy(b.data() + n, s.data(), s.size());
}
inline void append(TextBuffer &b, char c) { b.push_back(c); }
inline std::string_view view(const TextBuffer &b) { return {b.data(), b.size()}; }

void appendUint(TextBuffer &b, uint64_t v);
void appendInt(TextBuffer &b, int64_t v);
// Exactly fmt's "{:.0f}", "{:.Nf}", "{:g}" and "{}" (shortest round trip), with fast
// paths for whole numbers (port speeds, metres, counts), which are most of them.
void appendFixed0(TextBuffer &b, double v);
void appendFixed(TextBuffer &b, double v, int decimals);
void appendShortest(TextBuffer &b, double v);  // "{:g}": 6 significant digits
void appendRoundTrip(TextBuffer &b, double v); // "{}": the shortest text that reads back exactly

} // namespace fabc
