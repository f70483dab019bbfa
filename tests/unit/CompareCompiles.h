#pragma once
// What the reuse tests compare between a compilation that reused an earlier one and a
// fresh one of the same text (ReuseTest.cpp, ReuseElaborationTest.cpp).
#include "Compilation.h"
#include "backends/ir/Ir.h"

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

// Everything the passes computed, with the metrics the IR dump leaves out (the paths, the
// scopes, the pods).
inline std::string passFacts(const ir::Fabric &F) {
  std::string out;
  dumpIr(F, [&](std::string_view s) { out += s; });
  const ir::Metrics &M = F.metrics;
  auto path = [](const ir::PathStats &p) {
    return fmt::format("{} s {} hops {} m via {} nic {}", p.latency, p.hops, p.fibre, p.via, p.nic);
  };
  out += fmt::format("\nworst {} {} {} via {}; pods {} of {}; pod path {}; cross {}\n", M.worstLatency, M.worstHops,
                     M.worstFibre, M.worstVia, M.pods, int(M.podKind), path(M.podPath), path(M.crossBuildingPath));
  for (const ir::PlacePath &p : M.buildingPaths)
    out += fmt::format("building {} {}: {}\n", p.a, p.b, path(p.path));
  for (const ir::PlacePath &p : M.sitePaths)
    out += fmt::format("site {} {}: {}\n", p.a, p.b, path(p.path));
  for (const ir::ScopeStats &s : M.scopes)
    for (const ir::ScopeElement &e : s.elements)
      out += fmt::format("scope {} {}: {} gpus {} switches {} links {} W {} down {} up\n", s.name, e.name, e.gpus,
                         e.switches, e.links, e.power, e.down, e.up);
  out += fmt::format("bisection {} groups {} reach {}\n", M.bisection, M.groupStats.size(),
                     M.resilience.gpusBehindSinglePoints);
  return out;
}

} // namespace fabc::test
