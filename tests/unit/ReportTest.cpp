// The latency pass's pod and cross-building paths, the shared energy model, and the
// report's escaping and number formatting.
#include "analysis/Analyses.h"
#include "backends/report/ReportKit.h"
#include "TestCompile.h"
#include "diag/Diag.h"

#include <gtest/gtest.h>

using namespace fabc;

namespace {
using test::Built;

std::unique_ptr<Built> build(const std::string &text) { return test::compileText(text); }

// Switch 100 ns, NIC 50 ns: latencies add up by hand.
const char *kModels = R"(
model SW : switch { power = 500 W; latency = 100 ns; port p[16] { speed = 400 Gb/s; form = "OSFP"; } }
model N : system { gpus = 2; power = 2 kW; latency = 50 ns; rack_units = 2; port nic[2] { speed = 400 Gb/s; form = "OSFP"; } }
model SR : optic { media = "MMF"; speed = 400 Gb/s; form = "OSFP"; reach = 50 m; ports = 1; power = 8 W; }
model LR : optic { media = "SMF"; speed = 400 Gb/s; form = "OSFP"; reach = 2 km; ports = 1; power = 12 W; }
model OM4 : cable { media = "MMF"; }
model OS2 : cable { media = "SMF"; }
)";

// Two groups of KIND, one per building (b1, b2), each a leaf and two systems; two
// spines, one per building, every leaf linked to both (the remote one over 1 km).
std::string twoSites(const char *kind, bool place = true) {
  std::string s = std::string(kModels) + "template site(b) " + (kind[0] ? std::string(": ") + kind : "") + R"( {
  leaf : SW { tier = "leaf"; };
  n[2] : N;
  for i in 0 .. 2 { for r in 0 .. 2 { link n[i].nic[r] -- leaf { length = 10 m; }; } }
)";
  if (place)
    s += R"(  if b == 1 { place n[*] in b1.h1 { row = 0; rack = 0; }; place leaf in b1.h1 { row = 0; rack = 1; }; }
  else { place n[*] in b2.h1 { row = 0; rack = 0; }; place leaf in b2.h1 { row = 0; rack = 1; }; }
)";
  s += R"(}
fabric f {
  building b1 { hall h1 { } }
  building b2 { hall h1 { } }
  a : site(b = 1);
  z : site(b = 2);
  spine[2] : SW { tier = "spine"; };
)";
  if (place)
    s += "  place spine[0] in b1.h1 { row = 1; rack = 0; };\n  place spine[1] in b2.h1 { row = 1; rack = 0; };\n";
  s += R"(  link a.leaf -- spine[0] { length = 20 m; };
  link a.leaf -- spine[1] { length = 1000 m; };
  link z.leaf -- spine[0] { length = 1000 m; };
  link z.leaf -- spine[1] { length = 20 m; };
}
)";
  return s;
}
} // namespace

TEST(LatencyPaths, PodAndCrossBuilding) {
  auto b = build(twoSites("pod"));
  ASSERT_TRUE(b->ok);
  const ir::Metrics &M = b->F.metrics;
  EXPECT_EQ(M.podKind, ir::GroupKind::Pod);
  EXPECT_EQ(M.pods, 2u);
  // GPU -10 m- leaf -10 m- GPU: 2 x 50 + 100 + 20 x 4.9 ns.
  EXPECT_NEAR(M.podPath.latency, 298e-9, 1e-12);
  EXPECT_EQ(M.podPath.hops, 1u);
  EXPECT_NEAR(M.podPath.fibre, 20, 1e-6);
  EXPECT_EQ(b->F.deviceName(M.podPath.via), "a.leaf");
  // b1 GPU up to the local spine (30 m), down the 1 km link to b2 (1010 m).
  EXPECT_NEAR(M.crossBuildingPath.latency, 5496e-9, 1e-12);
  EXPECT_EQ(M.crossBuildingPath.hops, 3u);
  EXPECT_NEAR(M.crossBuildingPath.fibre, 1040, 1e-6);
  // The worst pair stays in b2 but turns at b1's spine: the span twice.
  EXPECT_NEAR(M.worstLatency, 10298e-9, 1e-12);
  EXPECT_EQ(M.worstHops, 3u);
  EXPECT_EQ(b->F.deviceName(M.worstVia), "spine[0]");
}

TEST(LatencyPaths, SuGroupsWhenThereAreNoPods) {
  auto b = build(twoSites("su"));
  ASSERT_TRUE(b->ok);
  EXPECT_EQ(b->F.metrics.podKind, ir::GroupKind::Su);
  EXPECT_EQ(b->F.metrics.pods, 2u);
  EXPECT_NEAR(b->F.metrics.podPath.latency, 298e-9, 1e-12);
}

TEST(LatencyPaths, NoGroupsIsOnePodAndUnplacedIsNoBuilding) {
  auto b = build(twoSites("", false));
  ASSERT_TRUE(b->ok);
  const ir::Metrics &M = b->F.metrics;
  EXPECT_EQ(M.podKind, ir::GroupKind::Other);
  EXPECT_EQ(M.pods, 0u);
  // Every switch serves the one pod: the pod's worst path is the fabric's.
  EXPECT_NEAR(M.podPath.latency, M.worstLatency, 1e-15);
  EXPECT_EQ(M.crossBuildingPath.latency, 0);
  EXPECT_EQ(M.crossBuildingPath.via, ir::None);
}

TEST(LatencyPaths, ASwitchServingTwoPodsIsNotInsideOne) {
  // One leaf serves both pods' systems: no switch serves a single pod.
  auto b = build(std::string(kModels) + R"(
template p() : pod { n : N; }
fabric f {
  x[2] : p();
  leaf : SW { tier = "leaf"; };
  for k in 0 .. 2 { for r in 0 .. 2 { link x[k].n.nic[r] -- leaf { length = 5 m; }; } }
}
)");
  ASSERT_TRUE(b->ok);
  EXPECT_EQ(b->F.metrics.pods, 2u);
  EXPECT_EQ(b->F.metrics.podPath.latency, 0);
  EXPECT_GT(b->F.metrics.worstLatency, 0);
}

TEST(EnergyModel, CategoriesAddUpToTheTotals) {
  auto b = build(twoSites("pod"));
  ASSERT_TRUE(b->ok);
  Analyses an(b->F);
  const EnergyModel &E = an.energy();
  EXPECT_EQ(&E, &an.energy()); // computed once
  double sumTiers = 0, sumBuildings = 0;
  for (const PowerBucket &t : E.tiers) {
    double c = 0;
    for (double v : t.byCategory)
      c += v;
    EXPECT_NEAR(c, t.total(), 1e-9);
    sumTiers += t.total();
  }
  for (const PowerBucket &bb : E.buildings)
    sumBuildings += bb.total();
  EXPECT_NEAR(sumTiers, E.it, 1e-9);
  EXPECT_NEAR(sumBuildings + E.unplaced.total(), E.it, 1e-9);
  // 4 systems of 2 kW, 4 switches of 500 W; 20 SR (16 on system links, 4 on the 20 m
  // spine links) and 4 LR on the 1 km links.
  EXPECT_DOUBLE_EQ(E.all[PowerCategory::GpuSystems], 8000);
  EXPECT_DOUBLE_EQ(E.all[PowerCategory::Switches], 2000);
  EXPECT_DOUBLE_EQ(E.all[PowerCategory::Optics], 20 * 8 + 4 * 12);
  EXPECT_DOUBLE_EQ(E.buildings[0][PowerCategory::Switches], 1000);
  EXPECT_DOUBLE_EQ(E.interconnect, 2000 + 20 * 8 + 4 * 12);
}

TEST(ReportKit, EscapesEverythingMarkupCanUse) {
  EXPECT_EQ(report::esc("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(report::esc(std::string_view("a\0b", 3)), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(report::esc("µs é"), "µs é");
}

TEST(ReportKit, ReadableFigures) {
  EXPECT_EQ(report::power(699212), "699.2 kW");
  EXPECT_EQ(report::power(1408652), "1.41 MW");
  EXPECT_EQ(report::power(8), "8.00 W");
  EXPECT_EQ(report::power(144), "144 W");
  EXPECT_EQ(report::power(-96), "-96.0 W");
  EXPECT_EQ(report::power(0), "0 W");
  EXPECT_EQ(report::count(1234567), "1,234,567");
  EXPECT_EQ(report::count(999), "999");
  EXPECT_EQ(report::number(-1234.5, 1), "-1,234.5");
  EXPECT_EQ(report::duration(13.4497e-6), "13.4 \xC2\xB5s");
  EXPECT_EQ(report::duration(298e-9), "298 ns");
  EXPECT_EQ(report::bandwidth(115.2e12), "115.2 Tb/s");
  EXPECT_EQ(report::length(2542.8), "2.54 km");
}
