#pragma once
// What the reuse tests compare between a compilation that reused an earlier one and a
// fresh one of the same text (ReuseTest.cpp, ReuseElaborationTest.cpp).
#include "Compilation.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

namespace fabc::test {

// Every diagnostic: code, place, message, notes and fix-its.
inline std::string describe(Compilation &c) {
  std::string out;
  for (const Diagnostic &d : c.diags().all()) {
    out += fmt::format("{} {}:{}+{} {}\n", int(d.code), d.range.begin.file, d.range.begin.offset, d.range.length,
                       d.message);
    for (const DiagNote &n : d.notes)
      out += fmt::format("  note {}:{} {}\n", n.range.begin.file, n.range.begin.offset, n.message);
    for (const FixIt &f : d.fixits)
      out += fmt::format("  fix {}:{} {}\n", f.range.begin.file, f.range.begin.offset, f.replacement);
  }
  return out;
}

// The recorded values of let and param statements, by the statement's place.
inline std::map<uint32_t, std::string> valuesByPlace(const BindingValues &values) {
  std::map<uint32_t, std::string> out;
  for (const auto &kv : values.values)
    out[kv.first->range.begin.offset] = kv.second.text + " " + kv.second.type + " " + std::to_string(kv.second.times);
  return out;
}

// `text` with the first `from` replaced by `to` (a test failure if there is none).
inline std::string edit(std::string text, const std::string &from, const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

} // namespace fabc::test
