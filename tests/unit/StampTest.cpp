// Stamped template instances (compiler/elab/Stamp.cpp): a body copied from an earlier
// instance with the same arguments gives the IR evaluating it gives, id for id; a body
// that reaches outside its instance is evaluated every time.
#include "SameIR.h"
#include "TestCompile.h"
#include "diag/Diag.h"

#include <gtest/gtest.h>

using namespace fabc;

namespace {

std::unique_ptr<test::Built> build(const std::string &text, bool stamp) {
  CompileOptions o;
  o.stampInstances = stamp;
  return test::compileText(text, o);
}

const char *kModels = R"(
model SW : switch { power = 500 W; latency = 100 ns; port p[8] { speed = 400 Gb/s; form = "OSFP"; } }
model SRV : system { gpus = 4; power = 2 kW; port nic[2] { speed = 400 Gb/s; form = "OSFP"; } }
model SR4 : optic { media = "MMF"; speed = 400 Gb/s; form = "OSFP"; reach = 50 m; ports = 1; power = 8 W; }
model MMF : cable { media = "MMF"; }
)";

// A pod: a leaf, n servers on its next free ports, a group; two pods of three nest in a row.
const char *kPods = R"(
template pod(n) : pod {
  leaf : SW;
  srv[n] : SRV;
  for i in 0..n { link srv[i].nic[0] -- leaf; }
  group nvlink dom { srv[*]; }
}
template row(n) { p[2] : pod(n); sp : SW; }
)";

} // namespace

TEST(Stamp, CopiesOffsetIdsPortsAndNames) {
  std::string src = std::string(kModels) + kPods + R"(
fabric f {
  r[3] : row(3);
  extra : pod(2);
  for k in 0..3 { link r[k].p[0].leaf -- r[k].sp; link r[k].p[1].leaf.p[7] -- r[k].sp; }
}
)";
  auto on = build(src, true), off = build(src, false);
  ASSERT_TRUE(on->ok);
  ASSERT_TRUE(off->ok);
  test::expectSameIR(on->F, off->F);
  const ir::Fabric &F = on->F;
  // r[0] is evaluated (and p[1] inside it stamped from p[0]); r[1], r[2] are stamped from r[0].
  EXPECT_EQ(F.numDevices(), 3u * 9 + 3);
  EXPECT_EQ(F.deviceName(9), "r[1].p[0].leaf");
  EXPECT_EQ(F.deviceName(13), "r[1].p[1].leaf");
  EXPECT_EQ(F.devPortBase[13], F.devPortBase[4] + (F.devPortBase[9] - F.devPortBase[0]));
  // The next-free-port cursor carries over: the copied pod's servers took leaf p[0..2],
  // so the row's first link takes p[3] of r[2].p[0].leaf.
  EXPECT_EQ(F.portName(F.linkA[3 * 6 + 2 + 4]), "r[2].p[0].leaf/p[3]");
  EXPECT_EQ(F.portName(F.linkA[7]), "r[1].p[0].srv[1]/nic[0]");
  const ir::InstanceTree &T = F.instances;
  ASSERT_EQ(T.instances.size(), 3u * 3 + 1);
  EXPECT_EQ(T.instances[0].stampOf, ir::None);  // r[0]
  EXPECT_EQ(T.instances[2].stampOf, 1u);        // r[0].p[1], from r[0].p[0]
  EXPECT_EQ(T.instances[3].stampOf, 0u);        // r[1], from r[0]
  EXPECT_EQ(T.instances[4].parent, 3u);         // r[1].p[0] is a child of r[1]
  EXPECT_EQ(T.instances[4].stampOf, 1u);
  EXPECT_EQ(F.nodeName(T.instances[4].node), "r[1].p[0]");
  EXPECT_EQ(T.instances[9].stampOf, ir::None);  // extra: other arguments
  EXPECT_NE(T.instances[9].argSet, T.instances[1].argSet);
  EXPECT_EQ(T.instances[1].argSet, T.instances[2].argSet);
  EXPECT_EQ(T.argSets[T.instances[9].argSet].text, "n = 2");
  EXPECT_EQ(T.stamped(), 7u);
  EXPECT_EQ(T.instanceOfDevice(13), 5u); // r[1].p[1]
  // The binary search against its definition: the last instance (in preorder) holding it.
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    uint32_t linear = ir::None;
    for (uint32_t i = 0; i < T.instances.size(); ++i)
      if (T.instances[i].devBegin <= d && d < T.instances[i].devEnd)
        linear = i;
    EXPECT_EQ(T.instanceOfDevice(d), linear) << F.deviceName(d);
  }
  EXPECT_EQ(T.instanceOfDevice(F.numDevices()), ir::None);
  // Links the same way: a pod's server links are its instance's; the row's links to its
  // spine are made by the fabric's body, in no instance.
  EXPECT_EQ(T.instanceOfLink(7), 3u + 1); // r[1].p[0].srv[1]
  EXPECT_EQ(T.instanceOfLink(uint32_t(F.numLinks() - 1)), ir::None);
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    uint32_t linear = ir::None;
    for (uint32_t i = 0; i < T.instances.size(); ++i)
      if (T.instances[i].linkBegin <= l && l < T.instances[i].linkEnd)
        linear = i;
    EXPECT_EQ(T.instanceOfLink(l), linear) << F.portName(F.linkA[l]);
  }
  // The group inside each copy holds the copy's servers.
  EXPECT_EQ(F.nodeName(F.groups[2].node), "r[0].p[1].dom");
}

TEST(Stamp, ABodyThatReachesOutsideIsEvaluated) {
  // The template links to a device of the enclosing scope: every instance is evaluated.
  std::string src = std::string(kModels) + R"(
template t() { s : SRV; link s.nic[0] -- spine; }
fabric f { spine : SW; a[4] : t(); }
)";
  auto on = build(src, true), off = build(src, false);
  ASSERT_TRUE(on->ok);
  ASSERT_TRUE(off->ok);
  test::expectSameIR(on->F, off->F);
  EXPECT_EQ(on->F.instances.stamped(), 0u);
  EXPECT_EQ(on->F.portName(on->F.linkB[3]), "spine/p[3]");
}

TEST(Stamp, PlacementAndDiagnosticsAreNotStamped) {
  std::string src = std::string(kModels) + R"(
template t() {
  s : SRV;
  place s in dc.h { row = 0; rack = 0; }
}
fabric f {
  building dc { hall h { row_pitch = 3 m; rack_width = 0.6 m; rack_units = 48; } }
  a[3] : t();
}
)";
  auto on = build(src, true), off = build(src, false);
  EXPECT_EQ(on->ok, off->ok);
  test::expectSameIR(on->F, off->F);
  EXPECT_EQ(on->F.instances.stamped(), 0u);
  // A body that reports is evaluated each time: each instance's error is reported.
  std::string bad = std::string(kModels) + R"(
template t(k) { s : SRV; link s.nic[0] -- s.nic[1] { length = k; } }
fabric f { a[3] : t(2 m); }
)";
  auto b1 = build(bad, true), b0 = build(bad, false);
  EXPECT_FALSE(b1->ok);
  EXPECT_EQ(b1->diags->errors(), b0->diags->errors());
  EXPECT_EQ(b1->F.instances.stamped(), 0u);
}

TEST(Stamp, PartChoicesElsewhereKeepTheirArrays) {
  // A link outside the template chooses parts between the recorded instance and its
  // copies: the copies still get their (none) entries.
  std::string src = std::string(kModels) + R"(
template t() { l : SW; s[2] : SRV; for i in 0..2 { link s[i].nic[0] -- l; } }
fabric f {
  x : SW; y : SW;
  a[2] : t();
  link x -- y { optic = SR4; }
  b[2] : t();
}
)";
  auto on = build(src, true), off = build(src, false);
  ASSERT_TRUE(on->ok);
  ASSERT_TRUE(off->ok);
  test::expectSameIR(on->F, off->F);
  EXPECT_EQ(on->F.instances.stamped(), 3u);
  EXPECT_EQ(on->F.linkChoice.size(), on->F.numLinks());
}

// The language server records the let and param values (hover); that no longer turns
// copying off. A copy adds the recorded counts, so every statement's first value, count
// and `varies` are what evaluating every body gives, nested copies included.
TEST(Stamp, RecordedValuesCountTheCopies) {
  std::string src = std::string(kModels) + R"(
template pod(n) : pod {
  let width = n * 2;
  let label = "pod of " + str(n);
  leaf : SW;
  srv[n] : SRV;
  for i in 0..n { let half = i / 2; link srv[i].nic[0] -- leaf; }
}
template row(n) { let rows = n; p[2] : pod(n); sp : SW; }
fabric f {
  r[3] : row(3);
  extra : pod(2);
  for k in 0..3 { link r[k].p[0].leaf -- r[k].sp; }
}
)";
  using Seen = std::map<uint32_t, std::tuple<std::string, std::string, uint64_t, bool>>;
  auto run = [&](bool stamp, Seen &out) {
    BindingValues values;
    CompileOptions o;
    o.stampInstances = stamp;
    o.values = &values;
    auto b = test::compileText(src, o);
    EXPECT_TRUE(b->ok);
    for (const auto &[s, seen] : values.values)
      out[s->range.begin.offset] = {seen.text, seen.type, seen.times, seen.varies};
    return b->F.instances.stamped();
  };
  Seen on, off;
  EXPECT_EQ(run(false, off), 0u);
  EXPECT_EQ(run(true, on), 7u); // copied although values are recorded
  EXPECT_EQ(on, off);
  // width: 6 pods of 3 and the extra pod of 2: seen 7 times, two values.
  size_t widthAt = src.find("let width");
  ASSERT_TRUE(on.count(uint32_t(widthAt)));
  EXPECT_EQ(std::get<2>(on[uint32_t(widthAt)]), 7u);
  EXPECT_TRUE(std::get<3>(on[uint32_t(widthAt)]));
  size_t rowsAt = src.find("let rows");
  EXPECT_EQ(std::get<2>(on[uint32_t(rowsAt)]), 3u);
  EXPECT_FALSE(std::get<3>(on[uint32_t(rowsAt)]));
}
