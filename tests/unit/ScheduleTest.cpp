// The pipeline on two cores (runPasses, passes/Pipeline.cpp): the walks and the addressing
// pass run beside the physical passes and the measures, and the addressing pass's
// diagnostics are adopted in its place or it runs again there. The result must be the
// passes' in order (runPasses with --stop-after at the last pass runs them so), whatever
// the diagnostics do: none, many (the addressing pass tallies past 20 of a kind), an
// error limit met before the addressing pass.
#include "CompareCompiles.h"
#include "passes/Passes.h"

#include <gtest/gtest.h>

using namespace fabc;
using fabc::test::describe;
using fabc::test::passFacts;

namespace {

// Ethernet leaves and spines: `dup` leaves that share an explicit ASN and loopback (each
// pair is FAB-E0103 and E0104: the addressing pass's); `clash` more leaves named as
// others but for a capital (the same hostname: FAB-E0107, the addressing pass's, which
// tallies past 20); `far`: the leaves placed 60 m from the spines, past the optic's
// reach (FAB-E0044, the media pass's: before the addressing pass, they meet the error
// limit).
std::string design(int leaves, int dup, int clash, bool far) {
  std::string s = R"(model SW : switch { vendor = "t"; sku = "S"; protocol = "ethernet"; power = 1 kW estimate "t";
  port p[64] { speed = 400 Gb/s; lanes = 4; form = "OSFP"; } }
model SR4 : optic { media = "MMF"; speed = 400 Gb/s; form = "OSFP"; reach = 50 m source "t"; power = 8 W source "t"; }
model MMF : cable { media = "MMF"; }
fabric f {
  building b { hall h { row_pitch = 3 m; rack_width = 0.6 m; tray_drop = 2 m; rack_units = 48; } }
)";
  for (int i = 0; i < leaves; ++i)
    s += i < dup ? fmt::format("  leaf{} : SW {{ tier = \"leaf\"; asn = 65001; loopback = \"10.1.0.1\"; }};\n", i)
                 : fmt::format("  leaf{} : SW {{ tier = \"leaf\"; }};\n", i);
  s += "  spine[2] : SW { tier = \"spine\"; };\n";
  for (int i = 0; i < clash; ++i)
    s += fmt::format("  Leaf{} : SW {{ tier = \"leaf\"; }};\n  link Leaf{}.p[0] -- spine[0].p[{}];\n", i, i, 32 + i);
  for (int i = 0; i < leaves; ++i)
    for (int k = 0; k < 2; ++k)
      s += fmt::format("  link leaf{}.p[{}] -- spine[{}].p[{}];\n", i, k, k, i);
  if (far)
    for (int i = 0; i < leaves; ++i)
      s += fmt::format("  place leaf{} in b.h {{ row = {}; rack = 0; }};\n", i, 40 * (i % 2));
  s += "  place spine[*] in b.h { row = 20; rack = 0; };\n}\n";
  return s;
}

std::unique_ptr<Compilation> compile(const std::string &text, unsigned errorLimit, bool inOrder) {
  CompileOptions o;
  o.standardSearchPath = false;
  if (inOrder)
    o.stopAfter = "addressing"; // the last pass: every pass, one after another
  auto c = std::make_unique<Compilation>(o);
  c->diags().setFormat(DiagFormat::Json);
  c->diags().setErrorLimit(errorLimit);
  c->run(CompileInput::source("t.fab", text));
  return c;
}

} // namespace

TEST(Schedule, AsThePassesInOrder) {
  ASSERT_EQ(passes::pipeline().back().name, std::string("addressing"));
  int cases = 0;
  for (int dup : {0, 2, 30})
    for (bool far : {false, true})
      for (unsigned limit : {0u, 3u, 50u}) {
        const int clash = dup == 30 ? 30 : 0;
        const std::string text = design(32, dup, clash, far);
        auto scheduled = compile(text, limit, false), inOrder = compile(text, limit, true);
        const std::string what = fmt::format("dup {} far {} limit {}", dup, far, limit);
        EXPECT_EQ(describe(*scheduled), describe(*inOrder)) << what;
        EXPECT_EQ(scheduled->diags().errors(), inOrder->diags().errors()) << what;
        EXPECT_EQ(scheduled->diags().warnings(), inOrder->diags().warnings()) << what;
        EXPECT_EQ(passFacts(scheduled->fabric()), passFacts(inOrder->fabric())) << what;
        EXPECT_EQ(scheduled->fabric().devAsn, inOrder->fabric().devAsn) << what;
        EXPECT_EQ(scheduled->fabric().devLoopback, inOrder->fabric().devLoopback) << what;
        EXPECT_EQ(scheduled->fabric().linkSubnet, inOrder->fabric().linkSubnet) << what;
        if (clash && !far && limit == 0) { // the addressing pass tallies: it ran again in place
          EXPECT_GT(scheduled->diags().mark().unshown, 0u) << describe(*scheduled);
        }
        if (dup == 2 && far && limit == 3) { // the limit met before the addressing pass
          EXPECT_TRUE(scheduled->diags().tooManyErrors()) << describe(*scheduled);
        }
        ++cases;
      }
  EXPECT_EQ(cases, 18);
}
