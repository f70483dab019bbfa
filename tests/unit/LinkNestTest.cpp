// Link nests (compiler/elab/LinkNest.cpp): a loop nest of links run with compiled indices
// gives the IR and the diagnostics that running each iteration as a statement gives, in
// the same order, whatever fails in which iteration.
#include "SameIR.h"
#include "TestCompile.h"
#include "diag/Diag.h"

#include <gtest/gtest.h>

using namespace fabc;

namespace {

const char *kModels = R"(
model SW : switch { power = 500 W; latency = 100 ns; port p[64] { speed = 400 Gb/s; form = "OSFP"; } }
model SRV : system { gpus = 4; power = 2 kW; port nic[4] { speed = 400 Gb/s; form = "OSFP"; } }
model SLOW : switch { power = 300 W; latency = 100 ns; port p[8] { speed = 100 Gb/s; form = "QSFP28"; } }
model SR4 : optic { media = "MMF"; speed = 400 Gb/s; form = "OSFP"; reach = 50 m; ports = 1; power = 8 W; }
model MMF : cable { media = "MMF"; }
)";

std::string render(const DiagEngine &d) {
  std::string out;
  for (const Diagnostic &x : d.all()) {
    out += fmt::format("{} {}:{}+{} {}\n", diagInfo(x.code).code, x.range.begin.file, x.range.begin.offset,
                       x.range.length, x.message);
    for (const DiagNote &n : x.notes)
      out += fmt::format("  note {}+{} {}\n", n.range.begin.offset, n.range.length, n.message);
  }
  return out;
}

// Builds `body` with link nests on and off; both must agree. Returns the first build.
std::unique_ptr<test::Built> expectSame(const std::string &body, CompileOptions o = {}) {
  const std::string text = std::string(kModels) + body;
  o.linkNests = true;
  auto on = test::compileText(text, o);
  o.linkNests = false;
  auto off = test::compileText(text, o);
  EXPECT_EQ(on->ok, off->ok);
  const std::string d = render(*on->diags);
  EXPECT_EQ(d, render(*off->diags));
  test::expectSameIR(on->F, off->F);
  EXPECT_EQ(on->F.strings.size(), off->F.strings.size()); // no name interned in another order
  return on;
}

TEST(LinkNest, EveryKindOfIndex) {
  auto b = expectSame(R"(
fabric f {
  srv[40] : SRV;
  leaf[4] : SW;
  spine : SW;
  for t in 0 .. 40 {
    for r in 0 .. 2 {
      link srv[t].nic[r] -- leaf[floor(t / 10)].p[(t % 10) * 2 + r];
    }
  }
  for k in 0 .. 4 { for j in 0 .. 2 { link leaf[k].p[40 + j] -- spine; } }
  for t in 0 .. 40 { link srv[39 - t].nic[2] -- leaf[ceil((t + 1) / 10) - 1].p[20 + t % 10]; }
  for t in -20 .. 20 { link srv[t + 20].nic[3] -- leaf[3 + floor(-(t + 21) / 10) + 1].p[44 + (t + 20) % 10]; }
  extra[3] : SRV;
  for t in 0 .. 3 { link extra[t].nic[0] -- spine.p[10 + round((2 * t + 1) / 2)]; }
  for t in 0 .. 3 { link extra[t].nic[1] -- spine.p[20 + round(-(2 * t + 1) / 2) + 3]; }
  for t in 0 .. 3 { link extra[t].nic[2] -- spine.p[30 + ceil(-t / 2) + floor(2 * t)]; }
}
)");
  EXPECT_EQ(b->F.numLinks(), 177u); // every link made: none of its indices fails
  EXPECT_EQ(b->diags->errors(), 0u) << render(*b->diags);
}

TEST(LinkNest, IterationsThatFailReportAsStatements) {
  expectSame(R"(
fabric f {
  srv[10] : SRV;
  leaf[2] : SW;
  slow : SLOW;
  for t in 0 .. 12 { link srv[t].nic[0] -- leaf[t % 2].p[t]; }
  for t in 0 .. 6 { link srv[t].nic[1] -- leaf[0].p[t / 2 + 20]; }
  for t in 0 .. 4 { link srv[t].nic[2] -- leaf[1].p[10 / (t - 2) + 30]; }
  for t in 0 .. 3 { link leaf[0].p[30 + t] -- leaf[0].p[40 + t]; }
  for t in 0 .. 3 { link srv[t + 5].nic[2] -- leaf[1].p[t % 2]; }
  for t in 0 .. 3 { for u in 0 .. 4 / (t - 1) { link srv[u + 4].nic[3] -- leaf[0].p[50 + u + t]; } }
  for t in 0 .. 2 { link slow.p[t] -- leaf[1].p[60 + t]; }
  for t in 0 .. 2 { link leaf[t].nic[0] -- slow.p[4 + t]; }
  for t in 0 .. 2 { link leaf[t].p[70] -- slow.p[6 + t]; }
  for t in 0 .. 2 { link srv[t + 8].nic[9223372036854775807 + t] -- leaf[1].p[62]; }
}
)");
}

TEST(LinkNest, TemplatesStampingAndUnusedParameters) {
  expectSame(R"(
template pod(n) {
  leaf : SW;
  srv[n] : SRV;
  for i in 0 .. n { for j in 0 .. 2 { link srv[i].nic[j] -- leaf.p[i * 2 + j]; } }
}
template idle(n, m) { leaf : SW; for i in 0 .. n { link leaf.p[m] -- leaf.p[m + 1]; } }
template outside(k) { for i in 0 .. 2 { link top[k].p[i] -- top[k + 1].p[i + 8]; } }
fabric f {
  p[3] : pod(4);
  q : pod(2);
  z : idle(0, 5);
  top[4] : SW;
  o[2] : outside(1);
}
)");
}

TEST(LinkNest, ShadowedAndNeverInternedNames) {
  expectSame(R"(
let i = 3;
let width = 2;
fabric f {
  s[8] : SW;
  hub : SW;
  for i in 0 .. width { for i in 4 .. 6 { link s[i].p[i] -- hub.p[i + width]; } }
  for zz in 0 .. 2 { for qq in zz .. zz + 2 { link s[zz].p[qq + 10] -- s[7 - qq].p[zz + 20]; } }
  for n in 0 .. 2 { link s[n].p[30] -- nowhere[n].p[0]; }
}
)");
}

TEST(LinkNest, PropertiesAndSeveralLinksABody) {
  auto b = expectSame(R"(
let up = 2;
let fibre = 30 m;
fabric f {
  srv[8] : SRV;
  leaf[2] : SW;
  spine[2] : SW;
  for t in 0 .. 8 {
    link srv[t].nic[0] -- leaf[t % 2].p[t] { length = 3 m; optic = SR4; }
    link srv[t].nic[1] -- leaf[1 - t % 2].p[t + 8] { length = fibre; media = "MMF"; cable = MMF; }
  }
  for k in 0 .. 2 { for s in 0 .. 2 { link leaf[k] -- spine[s].p[60 + k] { length = 30 m; } link leaf[k] -- spine[s] { count = up; length = 30 m; } } }
}
)");
  EXPECT_EQ(b->F.numLinks(), 28u);
  EXPECT_EQ(b->diags->errors(), 0u) << render(*b->diags);
  EXPECT_EQ(b->F.linkLength[0], 3.0f);
  EXPECT_EQ(b->F.linkLength[1], 30.0f);
}

TEST(LinkNest, PropertiesThatReportDoSoEveryIteration) {
  std::string d = render(*expectSame(R"(
fabric f {
  srv[4] : SRV;
  leaf : SW;
  for t in 0 .. 4 { link srv[t].nic[0] -- leaf.p[t] { length = -3 m; } }
  for t in 0 .. 4 { link srv[t].nic[1] -- leaf.p[t + 8] { colour = "blue"; } }
  for t in 0 .. 4 { link srv[t].nic[2] -- leaf.p[t + 16] { count = 2; } }
  for t in 0 .. 4 { link srv[t].nic[3] -- leaf { count = 2; optic = MMF; media = "copper"; } }
  for t in 0 .. 2 { link leaf.p[40 + t] -- srv[t + 10].nic[0] { length = 1 m; } link srv[t].nic[3] -- leaf { pattern = "pairwise"; } }
}
)")
                             ->diags);
  EXPECT_NE(d.find("is not a real cable"), std::string::npos) << d;
  EXPECT_NE(d.find("unknown property 'colour'"), std::string::npos) << d;
}

TEST(LinkNest, LimitsStopInTheSamePlace) {
  CompileOptions o;
  o.limits.maxSteps = 40;
  std::string d = render(*expectSame(R"(
fabric f {
  srv[20] : SRV;
  leaf : SW;
  for t in 0 .. 20 { for r in 0 .. 2 { link srv[t].nic[r] -- leaf.p[t * 2 + r]; } }
}
)",
                                         o)->diags);
  EXPECT_NE(d.find("steps"), std::string::npos) << d;
  CompileOptions few;
  few.limits.maxLinks = 7;
  d = render(*expectSame(R"(
fabric f {
  srv[20] : SRV;
  leaf : SW;
  for t in 0 .. 20 { for r in 0 .. 2 { link srv[t].nic[r] -- leaf.p[t * 2 + r]; } }
}
)",
                             few)->diags);
  EXPECT_NE(d.find("more than 7 links"), std::string::npos) << d;
}

} // namespace
