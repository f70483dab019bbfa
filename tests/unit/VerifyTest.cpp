// ir::verify catches each broken invariant, and the pass table is consistent.
#include "TestCompile.h"
#include "ir/Verify.h"
#include "passes/Passes.h"

#include <gtest/gtest.h>

#include <set>

using namespace fabc;

namespace {

// Two switches, a host on each, one uplink: 3 devices, 3 links, every array filled.
std::unique_ptr<test::Built> small() {
  return test::compileText(R"(
model SW : switch { power = 500 W; latency = 100 ns; port p[4] { speed = 400 Gb/s; form = "OSFP"; } }
model SRV : system { gpus = 4; power = 2 kW; port nic[2] { speed = 400 Gb/s; form = "OSFP"; } }
model SR4 : optic { media = "MMF"; speed = 400 Gb/s; form = "OSFP"; reach = 50 m; ports = 1; power = 8 W; }
model MMF : cable { media = "MMF"; }
template unit() : su { leaf[2] : SW; }
fabric f {
  u : unit();
  srv : SRV;
  link srv.nic[0] -- u.leaf[0];
  link srv.nic[1] -- u.leaf[1];
  link u.leaf[0] -- u.leaf[1];
}
)");
}

// Every problem verify reports contains `what`.
::testing::AssertionResult catches(const ir::Fabric &F, const std::string &what) {
  std::vector<std::string> p = ir::verify(F);
  if (p.empty())
    return ::testing::AssertionFailure() << "verify found nothing";
  for (const std::string &s : p)
    if (s.find(what) != std::string::npos)
      return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "verify said: " << p[0];
}

} // namespace

TEST(Verify, SoundFabricPasses) {
  auto b = small();
  ASSERT_TRUE(b->ok);
  ASSERT_EQ(b->F.numLinks(), 3u);
  EXPECT_TRUE(ir::verify(b->F).empty()) << ir::verify(b->F)[0];
}

TEST(Verify, ArrayLengths) {
  auto b = small();
  b->F.devRack.pop_back();
  EXPECT_TRUE(catches(b->F, "array length: devRack"));
  b = small();
  b->F.linkLength.push_back(1);
  EXPECT_TRUE(catches(b->F, "array length: linkLength"));
  b = small();
  b->F.portLink.pop_back();
  EXPECT_TRUE(catches(b->F, "array length: portLink"));
  // A pass's array may be empty (not produced yet), not short.
  b = small();
  b->F.linkMedia.clear();
  b->F.devPower.clear();
  EXPECT_TRUE(ir::verify(b->F).empty());
  b->F.linkCable.pop_back();
  EXPECT_TRUE(catches(b->F, "array length: linkCable"));
}

TEST(Verify, IdsInRange) {
  auto b = small();
  b->F.devModel[1] = uint32_t(b->F.models.size());
  EXPECT_TRUE(catches(b->F, "device's model"));
  b = small();
  b->F.devLayout[0] = 99;
  EXPECT_TRUE(catches(b->F, "device's layout"));
  b = small();
  b->F.devNode[2] = 1000;
  EXPECT_TRUE(catches(b->F, "device's node"));
  b = small();
  b->F.devRack[0] = 5; // no racks at all
  EXPECT_TRUE(catches(b->F, "device's rack"));
  b = small();
  ASSERT_FALSE(b->F.groups.empty());
  b->F.groups[0].contiguous = false;
  b->F.groups[0].members = {0, 7};
  EXPECT_TRUE(catches(b->F, "group's member"));
  b = small();
  b->F.groups[0].end = 9;
  EXPECT_TRUE(catches(b->F, "group 0: devices"));
  b = small();
  b->F.linkA[2] = uint32_t(b->F.numPorts());
  EXPECT_TRUE(catches(b->F, "link's port"));
  b = small();
  b->F.linkOpticA[0] = 1000;
  EXPECT_TRUE(catches(b->F, "link's optic A"));
  b = small();
  b->F.layouts[0].model = 1000;
  EXPECT_TRUE(catches(b->F, "layout's model"));
}

TEST(Verify, LinkEndsSymmetric) {
  auto b = small();
  ir::Fabric &F = b->F;
  // Link 0's end A says it belongs to link 1.
  F.portLink[F.linkA[0]] = 1;
  EXPECT_TRUE(catches(F, "link ends: link 0"));
}

TEST(Verify, PortBackReference) {
  auto b = small();
  ir::Fabric &F = b->F;
  // A free port claims a link whose ends are elsewhere.
  uint32_t freePort = ir::None;
  for (uint32_t p = 0; p < F.numPorts() && freePort == ir::None; ++p)
    if (F.portLink[p] == ir::None)
      freePort = p;
  ASSERT_NE(freePort, ir::None);
  F.portLink[freePort] = 2;
  EXPECT_TRUE(catches(F, "port back-reference"));
}

TEST(Verify, NoPortInTwoLinks) {
  auto b = small();
  ir::Fabric &F = b->F;
  F.linkB[1] = F.linkA[0]; // links 0 and 1 share a port
  EXPECT_TRUE(catches(F, "port used twice"));
}

TEST(Verify, PortsFollowDevices) {
  auto b = small();
  b->F.devPortBase[1] += 1;
  EXPECT_TRUE(catches(b->F, "device 1: ports"));
  b = small();
  b->F.portDevice[0] = 2;
  EXPECT_TRUE(catches(b->F, "port 0: belongs to device 2"));
}

TEST(Pipeline, NamesAndFacts) {
  std::set<std::string> names;
  uint32_t have = passes::fact::Elaborated;
  for (const passes::Pass &p : passes::pipeline()) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    EXPECT_EQ(passes::findPass(p.name), &p);
    // Each pass needs only what elaboration or an earlier pass produced.
    EXPECT_EQ(p.needs & ~have, 0u) << p.name << " needs " << passes::factNames(p.needs & ~have);
    have |= p.produces;
  }
  EXPECT_EQ(passes::findPass("nosuch"), nullptr);
  // The --time-stages labels bench/run.py reads.
  EXPECT_EQ(passes::passNames(), "tiers, lengths, media, transceivers, power, validate, guids, addressing");
}

TEST(Pipeline, StopAfter) {
  CompileOptions o;
  o.stopAfter = "lengths";
  auto b = test::compileText("model SW : switch { port p[2] { speed = 400 Gb/s; } }\nfabric f { a : SW; b : SW; link a -- b; }",
                             o);
  ASSERT_TRUE(b->ok);
  EXPECT_EQ(b->F.linkLength.size(), 1u);
  EXPECT_TRUE(b->F.linkMedia.empty()); // the media pass did not run
  EXPECT_TRUE(ir::verify(b->F).empty());
}
