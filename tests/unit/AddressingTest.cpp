// The addressing pass and its helpers, on small fabrics elaborated from source text.
#include "diag/DiagCodes.h"
#include "TestCompile.h"
#include "diag/Diag.h"
#include "ir/Address.h"
#include "passes/Addressing.h"
#include "passes/Passes.h"
#include "passes/Roce.h"

#include <gtest/gtest.h>

using namespace fabc;

namespace {
using test::Built;

std::unique_ptr<Built> build(const std::string &text) { return test::compileText(text); }

bool has(const Built &b, DiagCode c) {
  for (const Diagnostic &d : b.diags->all())
    if (d.code == c)
      return true;
  return false;
}

uint32_t dev(const ir::Fabric &F, const std::string &name) {
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    if (F.deviceName(d) == name)
      return d;
  return ir::None;
}

const char *kSwitch = R"(
model SW : switch { protocol = "ethernet"; power = 1 kW; port p[16] { speed = 400 Gb/s; lanes = 4; } }
model IB : switch { protocol = "infiniband"; power = 1 kW; port p[16] { speed = 400 Gb/s; lanes = 4; } }
model DAC : cable { media = "DAC"; speed = 400 Gb/s; reach = 3 m; }
)";
} // namespace

TEST(Addressing, HostnamesFromInstancePaths) {
  auto b = build(std::string(kSwitch) + R"(
template pod() : pod { leaf_sw[2] : SW { tier = "leaf"; }; }
fabric f { Pod[2] : pod(); }
)");
  ASSERT_TRUE(b->ok);
  EXPECT_EQ(passes::hostName(b->F, dev(b->F, "Pod[1].leaf_sw[0]")), "pod1-leaf-sw0");
}

TEST(Addressing, SpineTiersShareAnAsnPerPodAndInfiniBandIsLeftAlone) {
  auto b = build(std::string(kSwitch) + R"(
template pod() : pod {
  leaf[2] : SW { tier = "leaf"; };
  spine[2] : SW { tier = "spine"; };
  for l in 0..2 { for s in 0..2 { link leaf[l] -- spine[s] { length = 1 m; }; } }
}
fabric f {
  pod[2] : pod();
  core[2] : SW { tier = "core"; };
  for p in 0..2 { for s in 0..2 { for c in 0..2 { link pod[p].spine[s] -- core[c] { length = 1 m; }; } } }
  ib : IB { tier = "leaf"; };
}
)");
  ASSERT_TRUE(b->ok);
  const ir::Fabric &F = b->F;
  auto asn = [&](const char *n) { return F.devAsn[dev(F, n)]; };
  EXPECT_EQ(asn("pod[0].leaf[0]"), 4200000000u);
  EXPECT_EQ(asn("pod[0].leaf[1]"), 4200000001u);
  EXPECT_EQ(asn("pod[1].leaf[0]"), 4200000002u);
  EXPECT_EQ(asn("pod[0].spine[0]"), asn("pod[0].spine[1]"));
  EXPECT_EQ(asn("pod[1].spine[0]"), asn("pod[1].spine[1]"));
  EXPECT_NE(asn("pod[0].spine[0]"), asn("pod[1].spine[0]"));
  EXPECT_EQ(asn("core[0]"), 4202000000u);
  EXPECT_EQ(asn("core[1]"), 4202000000u);
  EXPECT_EQ(asn("ib"), 0u);
  EXPECT_EQ(F.devLoopback[dev(F, "ib")], 0u);
  EXPECT_EQ(ir::ipv4String(F.devLoopback[dev(F, "pod[0].leaf[0]")]), "10.0.0.1");
  EXPECT_EQ(ir::ipv4String(F.devLoopback[dev(F, "core[1]")]), "10.0.0.10");
  for (uint32_t l = 0; l < F.numLinks(); ++l)
    EXPECT_EQ(F.linkSubnet[l], 0u) << "unnumbered by default";
}

TEST(Addressing, NumberedLinksTakeConsecutiveSlash31s) {
  auto b = build(std::string(kSwitch) + R"(
fabric f {
  option bgp_unnumbered = false;
  policy addressing { p2p_pool = "192.168.0.0/29"; }
  a : SW { tier = "leaf"; };
  b : SW { tier = "spine"; };
  link a -- b { count = 4; length = 1 m; };
}
)");
  ASSERT_TRUE(b->ok);
  ASSERT_EQ(b->F.numLinks(), 4u);
  for (uint32_t l = 0; l < 4; ++l)
    EXPECT_EQ(b->F.linkSubnet[l], 0xC0A80000u + 2 * l);
  auto full = build(std::string(kSwitch) + R"(
fabric f {
  option bgp_unnumbered = false;
  policy addressing { p2p_pool = "192.168.0.0/29"; }
  a : SW { tier = "leaf"; };
  b : SW { tier = "spine"; };
  link a -- b { count = 5; length = 1 m; };
}
)");
  EXPECT_FALSE(full->ok);
  EXPECT_TRUE(has(*full, DiagCode::E0102));
}

TEST(Addressing, RoceDefaultsAreTheCommonLosslessProfile) {
  auto b = build(std::string(kSwitch) + "fabric f { policy roce { dscp = 24; } a : SW { tier = \"leaf\"; }; }");
  ASSERT_TRUE(b->ok);
  passes::RoceSettings r = passes::roceSettings(b->F);
  EXPECT_TRUE(r.enabled);
  EXPECT_EQ(r.pfcPriority, 3u);
  EXPECT_EQ(r.dscp, 24u);
  EXPECT_EQ(r.cnpDscp, 48u);
  EXPECT_TRUE(r.ecn);
  EXPECT_EQ(r.ecnMin, 150000u);
  EXPECT_EQ(r.ecnMax, 1500000u);
}

// The host side of policy roce (docs/decisions/0271, 0272): the ToS byte, the NICs' MTU
// and the RDMA MTU a RoCE NIC derives from it (Linux's iboe_get_mtu: 88 bytes of headers).
TEST(Addressing, RoceHostSettings) {
  passes::RoceSettings r;
  EXPECT_EQ(passes::roceTos(r), 106u); // DSCP 26 << 2 | ECT(0)
  r.ecn = false;
  EXPECT_EQ(passes::roceTos(r), 104u);
  EXPECT_TRUE(passes::defaultDscpMap(r)); // 26 -> 3, 48 -> 6
  r.dscp = 24, r.pfcPriority = 4;
  EXPECT_FALSE(passes::defaultDscpMap(r));
  EXPECT_EQ(passes::rdmaMtu(9100), 4096u);
  EXPECT_EQ(passes::rdmaMtu(4184), 4096u);
  EXPECT_EQ(passes::rdmaMtu(4183), 2048u);
  EXPECT_EQ(passes::rdmaMtu(1500), 1024u);
  EXPECT_EQ(passes::rdmaMtu(300), 0u);

  auto withMtu = build(std::string(kSwitch) + "fabric f { option mtu = 9216; policy roce { mtu = 9100; nic_type = "
                                              "\"A2DC\"; } a : SW { tier = \"leaf\"; }; }");
  ASSERT_TRUE(withMtu->ok);
  EXPECT_EQ(passes::hostMtu(withMtu->F), 9100u);
  EXPECT_EQ(passes::roceSettings(withMtu->F).nicType, "a2dc");
  auto plain = build(std::string(kSwitch) + "fabric f { option mtu = 9216; policy roce { } a : SW { tier = \"leaf\"; }; }");
  ASSERT_TRUE(plain->ok);
  EXPECT_EQ(passes::hostMtu(plain->F), 9216u);
}

// Bonds (passes/Bonds.h): an MC-LAG pair numbers a GPU's bond alike on both ToRs, its MLAG
// id is the bond's number in the group, the links between the ToRs are the peer link, and
// the pair shares one host subnet: the gateway .1, the ToRs' own .2 and .3, one address
// per bond from .4 on both member links.
TEST(Addressing, McLagBondsNumberAlikeAndShareASubnet) {
  auto b = build(std::string(kSwitch) + R"(
model H : system { gpus = 2; ports_per_gpu = 2; bond = "mc-lag"; power = 1 kW;
                   port nic[4] { speed = 400 Gb/s; lanes = 4; } }
fabric f {
  policy addressing { host_pool = "172.16.0.0/24"; host_scheme = "leaf"; }
  t[2] : SW { tier = "leaf"; };
  s : SW { tier = "spine"; };
  h : H;
  for g in 0..2 {
    link h.nic[2 * g] -- t[0] { length = 1 m; };
    link h.nic[2 * g + 1] -- t[1] { length = 1 m; };
  }
  link t[0] -- t[1] { count = 2; length = 1 m; };
  link t[0] -- s { length = 1 m; };
  link t[1] -- s { length = 1 m; };
}
)");
  ASSERT_TRUE(b->ok);
  const ir::Fabric &F = b->F;
  ASSERT_EQ(F.bonds.size(), 2u);
  ASSERT_EQ(F.bondGroups.size(), 1u);
  EXPECT_EQ(F.bondGroups[0].kind, uint8_t(ir::Model::Bond::McLag));
  EXPECT_EQ(F.bonds[1].local, 2u);
  // Links 0..3: GPU 0 to t[0] and t[1], GPU 1 to t[0] and t[1]; 4 and 5 the peer link.
  EXPECT_EQ(F.linkBondNo[0], 1u);
  EXPECT_EQ(F.linkBondNo[1], 1u);
  EXPECT_EQ(F.linkBondNo[2], 2u);
  EXPECT_EQ(F.linkBondNo[3], 2u);
  EXPECT_TRUE(F.isPeerLink(4) && F.isPeerLink(5));
  EXPECT_FALSE(F.isPeerLink(6));
  EXPECT_EQ(F.linkHostAddr[0], 0xAC100004u);
  EXPECT_EQ(F.linkHostAddr[1], 0xAC100004u);
  EXPECT_EQ(F.linkHostAddr[2], 0xAC100005u);
  ASSERT_EQ(F.hostNets.size(), 2u); // the subnet, and its copy on t[1]
  EXPECT_EQ(F.hostNets[0].base, F.hostNets[1].base);
  EXPECT_EQ(F.hostNets[0].shared, 2u);
  EXPECT_TRUE(F.hostNets[1].copy);
  EXPECT_EQ(F.hostNets[F.linkHostNet[1]].leaf, dev(F, "t[1]"));
  // Without the peer link: FAB-E0400.
  auto lone = build(std::string(kSwitch) + R"(
model H : system { gpus = 1; ports_per_gpu = 2; bond = "mc-lag"; power = 1 kW;
                   port nic[2] { speed = 400 Gb/s; lanes = 4; } }
fabric f {
  t[2] : SW { tier = "leaf"; };
  h : H;
  link h.nic[0] -- t[0] { length = 1 m; };
  link h.nic[1] -- t[1] { length = 1 m; };
}
)");
  EXPECT_FALSE(lone->ok);
  EXPECT_TRUE(has(*lone, DiagCode::E0400));
}
