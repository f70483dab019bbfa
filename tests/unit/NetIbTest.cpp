// InfiniBand GUIDs and the host-name helpers the InfiniBand, Slurm and DOT outputs share.
#include "diag/DiagCodes.h"
#include "backends/Hostnames.h"
#include "checks/HostNames.h"
#include "checks/OutputChecks.h"
#include "passes/Addressing.h"
#include "TestCompile.h"
#include "diag/Diag.h"
#include "ir/InfiniBand.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace fabc;

namespace {
using test::Built;

std::unique_ptr<Built> build(const std::string &text) { return test::compileText(text); }

// A two-tier fat tree of `leaves` 32-port leaves, 16 hosts of 2 ports on each (one per
// rail leaf pair), 16 uplinks per leaf spread over `spines` spines.
std::string fatTree(int leaves, int spines) {
  return R"(
model L : switch { protocol = "infiniband"; port p[32] { speed = 400 Gb/s; form = "OSFP"; } }
model S : switch { protocol = "infiniband"; port p[64] { speed = 400 Gb/s; form = "OSFP"; } }
model H : system { gpus = 2; port cx[2] { speed = 400 Gb/s; form = "OSFP"; } }
model AOC : cable { media = "AOC"; speed = 400 Gb/s; form = "OSFP"; reach = 30 m; }
option default_cable_length = 5 m;
fabric f {
  leaf[)" + std::to_string(leaves) + R"(] : L { tier = "leaf"; };
  spine[)" + std::to_string(spines) + R"(] : S { tier = "spine"; };
  h[)" + std::to_string(leaves / 2 * 16) + R"(] : H;
  for i in 0 .. )" + std::to_string(leaves / 2 * 16) + R"( {
    link h[i].cx[0] -- leaf[2 * floor(i / 16)].p[i % 16];
    link h[i].cx[1] -- leaf[2 * floor(i / 16) + 1].p[i % 16];
  }
  for l in 0 .. )" + std::to_string(leaves) + R"( {
    for k in 0 .. 16 { link leaf[l].p[16 + k] -- spine[k % )" + std::to_string(spines) + R"(]; }
  }
}
)";
}
} // namespace

TEST(Hostnames, HostlistFoldsTrailingNumbers) {
  using names::hostlist;
  EXPECT_EQ(hostlist({"n3", "n1", "n2", "n7"}), "n[1-3,7]");
  EXPECT_EQ(hostlist({"su1-dgx0", "su0-dgx1", "su0-dgx0", "su1-dgx1"}), "su0-dgx[0-1],su1-dgx[0-1]");
  EXPECT_EQ(hostlist({"mgmt", "n0", "n0"}), "mgmt,n0");
  EXPECT_EQ(hostlist({"n9", "n10", "n11"}), "n[9-11]");
  // Zero-padded numbers keep their width and do not mix with unpadded ones.
  EXPECT_EQ(hostlist({"r01", "r02", "r03", "r4"}), "r4,r[01-03]");
  EXPECT_EQ(hostlist({}), "");
}

TEST(Hostnames, RuleAndCollisions) {
  auto b = build(R"(
model S : switch { port p[2] { speed = 400 Gb/s; } }
fabric f { Pod_A[2] : S; x[12] : S; x1[2] : S; }
)");
  // The addressing pass, which always runs, reports the switch hostname collision too.
  ASSERT_FALSE(b->ok);
  ASSERT_FALSE(b->diags->all().empty());
  EXPECT_EQ(b->diags->all()[0].code, DiagCode::E0107);
  EXPECT_EQ(passes::hostName(b->F, 1), "pod-a1");
  std::vector<std::string> out;
  EXPECT_TRUE(checks::checkHostNames(b->F, *b->diags, {0, 1, 2}, &out));
  // x[11] and x1[1] are both "x11".
  std::vector<uint32_t> all(b->F.numDevices());
  for (uint32_t d = 0; d < all.size(); ++d)
    all[d] = d;
  EXPECT_FALSE(checks::checkHostNames(b->F, *b->diags, all, &out));
  EXPECT_EQ(b->diags->all().back().code, DiagCode::E0107); // the one host-name rule
}

// The output checks run on the checked IR, without a build: the InfiniBand plan the
// backend writes is the one checked, and an output's option rule fires in `check`.
TEST(OutputChecks, PlanWithoutABuild) {
  auto b = build(fatTree(4, 2));
  ASSERT_TRUE(b->ok);
  Analyses an(b->F);
  EXPECT_TRUE(checks::checkOutput("infiniband", b->F, an, *b->diags));
  EXPECT_TRUE(an.infiniband.checked);
  EXPECT_FALSE(an.infiniband.empty);
  EXPECT_EQ(an.infiniband.switches.size(), 6u);
  EXPECT_EQ(an.infiniband.hcaPorts.size(), an.infiniband.hcaDescriptions.size());
  EXPECT_EQ(an.infiniband.hcaDescriptions[0], "h0 cx0");
  EXPECT_TRUE(checks::checkOutput("summary", b->F, an, *b->diags)); // no rule of its own

  // An option's value is the design's: dot_max_nodes = 0 fails elaboration, before any
  // output is chosen (elab/Ranges.def).
  auto z = build("model S : switch { port p[2] { speed = 400 Gb/s; } }\n"
                 "fabric f { option dot_max_nodes = 0; s : S; }\n");
  EXPECT_FALSE(z->ok);
  EXPECT_EQ(z->diags->all().back().code, DiagCode::E0136);
}

TEST(Guids, UniqueDeterministicAndInPrefix) {
  std::string text = fatTree(16, 8);
  auto a = build(text), b = build(text);
  ASSERT_TRUE(a->ok);
  const ir::Fabric &F = a->F;
  EXPECT_EQ(F.devGuid, b->F.devGuid); // deterministic
  std::set<uint64_t> seen;
  size_t expected = 0;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    ASSERT_NE(F.devGuid[d], 0u) << F.deviceName(d);
    EXPECT_EQ(F.devGuid[d] >> 40, 0x02fabcu); // the default prefix
    if (ir::ib::isSwitch(F, d)) {
      EXPECT_TRUE(seen.insert(F.devGuid[d]).second);
      ++expected;
    }
  }
  for (uint32_t l = 0; l < F.numLinks(); ++l)
    for (uint32_t p : {F.linkA[l], F.linkB[l]})
      if (!ir::ib::isSwitch(F, F.portDevice[p])) {
        EXPECT_TRUE(seen.insert(ir::ib::hcaGuid(F, p)).second);
        EXPECT_TRUE(seen.insert(ir::ib::hcaGuid(F, p) + 1).second);
        expected += 2;
      }
  EXPECT_EQ(seen.size(), expected);
  // Devices in declaration order: the leaves first, GUIDs 1 to 16.
  EXPECT_EQ(F.devGuid[0], 0x02fabc0000000001u);
  EXPECT_EQ(F.devGuid[15], 0x02fabc0000000010u);
}

TEST(Guids, PrefixOverflowIsAnError) {
  // 8 leaves, 4 spines and 64 hosts need 12 + 64 x 4 = 268 GUIDs; 14 digits leave 8 bits, 255.
  std::string text = fatTree(8, 4);
  text.replace(text.find("fabric f {"), 10, "fabric f {\n  policy addressing { guid_prefix = \"0x0002c9000000aa\"; }");
  auto b = build(text);
  EXPECT_FALSE(b->ok);
  bool found = false;
  for (const Diagnostic &d : b->diags->all())
    found |= d.code == DiagCode::E0131;
  EXPECT_TRUE(found);
}

// Planes of InfiniBand switches split the fabric into subnets: every HCA port in the plane
// of its switch, a host in each plane it has a port in, and the SM port by the rule
// (a compute HCA port; port 0 of the first switch where the plane has no HCA).
TEST(OutputChecks, InfinibandPlanesAreSubnets) {
  auto b = build(R"(
model L : switch { protocol = "infiniband"; port p[8] { speed = 400 Gb/s; form = "OSFP"; } }
model H : system { gpus = 2; port cx[2] { speed = 400 Gb/s; form = "OSFP"; } }
model AOC : cable { media = "AOC"; speed = 400 Gb/s; form = "OSFP"; reach = 30 m; }
option default_cable_length = 5 m;
fabric f {
  h[2] : H;
  a[2] : L { tier = "leaf"; };
  b[2] : L { tier = "leaf"; };
  c : L;
  for i in 0 .. 2 {
    link h[i].cx[0] -- a[i].p[0];
    link h[i].cx[1] -- b[i].p[0];
  }
  link a[0].p[1] -- a[1].p[1];
  link b[0].p[1] -- b[1].p[1];
  group plane pa { a[*]; }
  group plane pB { b[*]; }
  group plane pc { c; }
}
)");
  ASSERT_TRUE(b->ok);
  Analyses an(b->F);
  ASSERT_TRUE(checks::checkOutput("infiniband", b->F, an, *b->diags));
  const InfinibandPlan &P = an.infiniband;
  ASSERT_EQ(P.planes.size(), 3u);
  EXPECT_EQ(P.planes[1].dir, "pb");
  size_t ports = 0;
  std::set<uint32_t> seen;
  for (const InfinibandPlane &p : P.planes) {
    ports += p.hcaPorts.size();
    for (uint32_t q : p.hcaPorts) {
      EXPECT_TRUE(seen.insert(q).second);
      uint32_t s = b->F.portDevice[b->F.otherEnd(b->F.portLink[q], q)];
      EXPECT_TRUE(std::count(p.switches.begin(), p.switches.end(), s)) << b->F.portName(q);
    }
  }
  EXPECT_EQ(ports, P.hcaPorts.size());
  // Both hosts in planes pa and pB, with one port each there.
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(P.planes[i].devs.size(), 4u);
    EXPECT_EQ(P.planes[i].hcaPorts.size(), 2u);
    EXPECT_EQ(P.planes[i].links, 3u);
    EXPECT_EQ(P.planes[i].smFrom, InfinibandPlane::SmFrom::Compute);
    EXPECT_EQ(P.planes[i].smPort, P.planes[i].cnPorts[0]);
    EXPECT_EQ(P.planes[i].smGuid, ir::ib::hcaPortGuid(b->F, P.planes[i].smPort));
  }
  EXPECT_EQ(b->F.portName(P.planes[1].smPort), "h[0]/cx[1]");
  const InfinibandPlane &c = P.planes[2];
  EXPECT_TRUE(c.hcaPorts.empty());
  EXPECT_EQ(c.smFrom, InfinibandPlane::SmFrom::Switch);
  EXPECT_EQ(c.smGuid, b->F.devGuid[c.switches[0]]);
  EXPECT_EQ(c.routingEngine, "minhop");
}
