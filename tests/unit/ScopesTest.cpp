// Scoped policies (analysis/Scopes.h, decision 0321): what a scope name resolves to, and
// each element's boundary, from source text.
#include "TestCompile.h"
#include "analysis/Scopes.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace fabc;

namespace {
// Two pods of 2 servers (8 x 400G each way) and a leaf with 2 x 400G to a spine; a
// second group kind (segment) holding pod 0's leaf only; a hall with pod 0 placed.
const char *kDesign = R"(
model SW : switch { port p[16] { speed = 400 Gb/s; } }
model SRV : system { gpus = 4; port nic[4] { speed = 400 Gb/s; } }
model DAC : cable { media = "DAC"; speed = 400 Gb/s; reach = 50 m; }
template zone_t() : pod {
  srv[2] : SRV;
  leaf : SW { tier = "leaf"; };
  for i in 0..2 { for r in 0..4 { link srv[i].nic[r] -- leaf { length = 2 m; } } }
}
fabric f {
  building b { hall h { } }
  zone[2] : zone_t();
  spine : SW { tier = "spine"; };
  for z in 0..2 { link zone[z].leaf -- spine { count = 2; length = 20 m; } }
  group segment s0 { zone[0].leaf; }
  place zone[0].srv[*] in b.h { row = 0; rack = 0; };
  policy oversubscription { per = "pod"; max = 4; }
}
)";
} // namespace

TEST(Scopes, RatioTextBothWays) {
  EXPECT_EQ(ir::downUpText(7), "7:1");
  EXPECT_EQ(ir::upDownText(7), "1:7");
  EXPECT_EQ(ir::downUpText(48.0 / 7), "6.86:1");
  EXPECT_EQ(ir::upDownText(48.0 / 7), "1:6.86");
  EXPECT_EQ(ir::downUpText(1.5), "1.5:1");
  EXPECT_EQ(ir::upDownText(0.5), "1:0.5");
}

TEST(Scopes, ResolvesKindsArraysAndPlacements) {
  auto b = test::compileText(kDesign);
  ASSERT_TRUE(b->ok);
  const ir::Fabric &F = b->F;
  analysis::ScopePartition P;
  // The template `: pod` makes each zone a pod group.
  ASSERT_TRUE(analysis::resolveScope(F, "pod", P));
  EXPECT_EQ(P.kind, "pod");
  ASSERT_EQ(P.names.size(), 2u);
  EXPECT_EQ(P.names[1], "zone[1]");
  // The instance array: the same partition.
  analysis::ScopePartition A;
  ASSERT_TRUE(analysis::resolveScope(F, "zone", A));
  EXPECT_EQ(A.kind, "array");
  EXPECT_EQ(A.owner, P.owner);
  // Another group kind, and a placement.
  ASSERT_TRUE(analysis::resolveScope(F, "segment", P));
  EXPECT_EQ(P.kind, "group");
  EXPECT_EQ(P.names, std::vector<std::string>{"s0"});
  ASSERT_TRUE(analysis::resolveScope(F, "rack", P));
  EXPECT_EQ(P.kind, "placement");
  EXPECT_EQ(P.names.size(), 1u);
  EXPECT_FALSE(analysis::resolveScope(F, "zones", P));
  std::vector<std::string> names = analysis::scopeNames(F);
  EXPECT_NE(std::find(names.begin(), names.end(), "segment"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "zone"), names.end());
}

TEST(Scopes, PodBoundaryIsInFromBelowOverOutUpwards) {
  auto b = test::compileText(kDesign);
  ASSERT_TRUE(b->ok);
  const ir::Fabric &F = b->F;
  ASSERT_EQ(F.metrics.scopes.size(), 1u);
  const ir::ScopeStats &S = F.metrics.scopes[0];
  ASSERT_TRUE(S.known);
  ASSERT_EQ(S.elements.size(), 2u);
  const ir::ScopeElement &e = S.elements[0];
  EXPECT_EQ(e.gpus, 8u);
  EXPECT_EQ(e.switches, 1u);
  EXPECT_EQ(e.links, 8u);
  EXPECT_EQ(e.boundaryLinks, 2u);
  EXPECT_DOUBLE_EQ(e.down, 8 * 400e9);
  EXPECT_DOUBLE_EQ(e.up, 2 * 400e9);
  // 4:1 passes max = 4.
  EXPECT_EQ(b->diags->errors(), 0u);
}
