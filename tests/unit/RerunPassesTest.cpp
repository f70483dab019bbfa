// The passes that read the route lengths, run again on a checked IR (rerunPasses,
// analysis::measurePhysical; docs/decisions/0651): the IR, metrics and diagnostics they
// leave must be what the whole pipeline gives from the start.
#include "CompareCompiles.h"
#include "analysis/Measure.h"
#include "diag/DiagCodes.h"
#include "passes/Passes.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

using namespace fabc;
using fabc::test::describe;
using fabc::test::edit;
using fabc::test::passFacts;

namespace {

// The campus example (two buildings and a span: the latency matrix has a pair; racks
// placed in halls: the lengths are routes plus the slack; SR4 inside a building and FR4
// across it, picked by reach, so that a longer slack changes the media, the transceivers
// and the power), with power policies per rack and per su (the scopes' power), a rail
// policy (whose check, run beside the physical passes, reports rail misalignment) and the
// slack set.
std::string design() {
  std::ifstream in(FABC_EXAMPLES_DIR "/campus/two_buildings.fab");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  text = edit(text, "  policy nvlink { max = 72; }",
              "  policy nvlink { max = 72; }\n  policy power { per = \"rack\"; max = 150 kW; }\n"
              "  group su su0 { east.nvl[*]; east.leaf[*]; }\n  group su su1 { west.nvl[*]; west.leaf[*]; }\n"
              "  policy power { per = \"su\"; max = 600 kW; }\n  policy rail_optimized { }");
  // Last: a longer slack moves no place the diagnostics name.
  return edit(text, "  policy latency { max = slo; }\n", "  policy latency { max = slo; }\n  option cable_slack = 1 m;\n");
}

struct Compiled {
  std::unique_ptr<Compilation> c;
};

Compiled compile(const std::string &text) {
  CompileOptions o;
  o.standardSearchPath = false;
  o.includes = {FABC_STDLIB_DIR};
  auto c = std::make_unique<Compilation>(o);
  c->diags().setFormat(DiagFormat::Json);
  c->run(CompileInput::source("t.fab", text));
  return {std::move(c)};
}

} // namespace

TEST(RerunPasses, AsTheWholePipelineWould) {
  // From the 1 m slack's checked IR, each slack's: the optics change with the reach (SR4
  // to 50 m, then single-mode; none past 2 km: the media pass reports), and so the power
  // and the latency.
  const std::string kDesign = design();
  Compiled base = compile(kDesign);
  ASSERT_EQ(describe(*base.c).find("\"error\""), std::string::npos) << describe(*base.c);
  int mediaChanged = 0;
  for (const char *slack : {"1 m", "2 m", "30 m", "60 m", "400 m", "1000 m"}) {
    Compiled fresh = compile(edit(kDesign, "cable_slack = 1 m", std::string("cable_slack = ") + slack));
    ir::Fabric F = base.c->fabric();
    F.options.cableSlack = fresh.c->fabric().options.cableSlack;
    DiagEngine rerun(fresh.c->sources());
    rerun.setFormat(DiagFormat::Json);
    std::vector<std::string> ran;
    rerunPasses(passes::fact::Lengths, F, rerun, [&](const char *name) { ran.push_back(name); });
    EXPECT_EQ(ran, (std::vector<std::string>{"lengths", "media", "transceivers", "power", "validate"})) << slack;
    EXPECT_EQ(passFacts(F), passFacts(fresh.c->fabric())) << slack;
    mediaChanged += F.linkMedia != base.c->fabric().linkMedia;
    // The diagnostics of the passes run again: the fresh compile's from the lengths pass
    // to the validate pass's end (this design has none elsewhere).
    std::string rerunText;
    for (const Diagnostic &d : rerun.all())
      rerunText += fmt::format("{} {} {}\n", int(d.code), d.range.begin.offset, d.message);
    std::string freshText;
    for (const Diagnostic &d : fresh.c->diags().all())
      freshText += fmt::format("{} {} {}\n", int(d.code), d.range.begin.offset, d.message);
    EXPECT_EQ(rerunText, freshText) << slack;
    EXPECT_NE(rerunText.find(std::to_string(int(DiagCode::W0102)) + " "), std::string::npos) << rerunText;
  }
  EXPECT_GE(mediaChanged, 3) << "the slacks should change the optics";
}

TEST(MeasurePhysical, WhatAFullMeasureGives) {
  // measurePhysical leaves the metrics measure() does on an IR whose lengths and power
  // changed: a measure added to measure() that reads them, but not to measurePhysical,
  // fails here.
  Compiled base = compile(design());
  ASSERT_FALSE(base.c->fabric().metrics.buildingPaths.empty());
  ASSERT_FALSE(base.c->fabric().metrics.scopes.empty());
  std::mt19937 rng(7);
  for (int round = 0; round < 5; ++round) {
    ir::Fabric a = base.c->fabric();
    std::uniform_real_distribution<float> len(0.5f, 900.f), watts(0.f, 3000.f);
    for (float &l : a.linkLength)
      l = len(rng);
    for (float &w : a.devPower)
      w = watts(rng);
    for (float &w : a.devOpticPower)
      w = watts(rng) / 10;
    ir::Fabric b = a;
    b.metrics = ir::Metrics();
    analysis::measure(b);
    b.metrics.transceivers = a.metrics.transceivers; // the passes' own, not measured
    b.metrics.cpoPorts = a.metrics.cpoPorts;
    b.metrics.usesEstimates = a.metrics.usesEstimates;
    analysis::measurePhysical(a);
    EXPECT_EQ(passFacts(a), passFacts(b)) << round;
    EXPECT_NE(a.metrics.worstLatency, base.c->fabric().metrics.worstLatency) << round;
  }
}

TEST(TopologyChecks, ReadNoPhysicalFact) {
  // The checks rerunPasses runs beside the physical passes give the same diagnostics
  // whatever those passes and measurePhysical computed: a check marked topology in
  // passes/Pipeline.cpp that reads them would differ here (and race there).
  Compiled base = compile(design());
  const ir::Fabric &F0 = base.c->fabric();
  auto diagsOf = [&](ir::Fabric &F) {
    DiagEngine d(base.c->sources());
    passes::runTopologyChecks(F, d);
    std::string out;
    for (const Diagnostic &dg : d.all())
      out += fmt::format("{} {} {}\n", int(dg.code), dg.range.begin.offset, dg.message);
    return out;
  };
  ir::Fabric a = F0;
  const std::string before = diagsOf(a);
  EXPECT_NE(before.find(std::to_string(int(DiagCode::W0102))), std::string::npos) << before;
  std::mt19937 rng(11);
  for (int round = 0; round < 3; ++round) {
    ir::Fabric b = F0;
    std::uniform_real_distribution<float> len(0.5f, 900.f), watts(0.f, 3000.f);
    std::uniform_int_distribution<uint32_t> model(0, uint32_t(b.models.size() - 1));
    for (size_t l = 0; l < b.numLinks(); ++l) {
      b.linkLength[l] = len(rng);
      b.linkMedia[l] = ir::Media(rng() % uint32_t(ir::Media::Count));
      b.linkCable[l] = rng() % 3 ? model(rng) : ir::None;
      b.linkOpticA[l] = rng() % 3 ? model(rng) : ir::None;
      b.linkOpticB[l] = rng() % 3 ? model(rng) : ir::None;
      b.linkXcvrA[l] = uint8_t(rng() & 1);
      b.linkXcvrB[l] = uint8_t(rng() & 1);
      b.linkCableUnits[l] = uint8_t(rng() & 1);
    }
    for (float &w : b.devPower)
      w = watts(rng);
    for (float &w : b.devOpticPower)
      w = watts(rng);
    analysis::measurePhysical(b);
    b.metrics.transceivers = rng();
    b.metrics.usesEstimates = !b.metrics.usesEstimates;
    EXPECT_EQ(diagsOf(b), before) << round;
  }
}
