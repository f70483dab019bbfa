// The discovery parsers (ibnetdiscover, lldpctl JSON, SONiC's LLDP table) and fabc
// verify's comparison, on text: bad input is a diagnostic, never a crash.
#include "TestCompile.h"
#include "diag/Diag.h"
#include "discovery/Observed.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace fabc;
using namespace fabc::discovery;

namespace {

struct Parsed {
  SourceManager sm;
  DiagEngine diags{sm};
  Observed obs;
  ReadLimits limits;
  bool ok = false;
  std::vector<std::string> codes() const {
    std::vector<std::string> r;
    for (const Diagnostic &d : diags.all())
      r.push_back(diagInfo(d.code).code);
    return r;
  }
};

enum class Kind { Ib, Json, Sonic };

std::unique_ptr<Parsed> parse(const std::string &text, Kind k, const std::string &host = "leaf0",
                              const ReadLimits &limits = {}) {
  auto p = std::make_unique<Parsed>();
  p->limits = limits;
  p->diags.setOutput(std::tmpfile());
  p->obs.files.push_back(k == Kind::Ib ? "t.net" : k == Kind::Json ? "t.json" : "t.txt");
  p->obs.formats.push_back(Format::Ibnetdiscover);
  Reader r{p->obs, p->sm, p->diags, p->limits, 0};
  if (k == Kind::Json) {
    p->ok = parseLldpJson(text, host, r);
  } else {
    std::string copy = text;
    std::FILE *in = fmemopen(copy.data(), copy.size(), "r");
    p->ok = k == Kind::Ib ? parseIbnetdiscover(in, r) : parseSonicLldpTable(in, host, r);
    std::fclose(in);
  }
  p->ok &= r.ok;
  return p;
}

const char *kNet = "vendid=0x0\n"
                   "switchguid=0x10(10)\n"
                   "Switch\t8 \"S-0000000000000010\"\t\t# \"leaf0\" base port 0 lid 1 lmc 0\n"
                   "[1]\t\"H-0000000000000020\"[1](21) \t\t# \"node0 cx0\" lid 3 4xNDR\n"
                   "[2]\t\"S-0000000000000011\"[5]\t\t# \"spine0\" lid 2 2xNDR\n"
                   "\n"
                   "Switch\t8 \"S-0000000000000011\"\t\t# \"spine0\" base port 0 lid 2 lmc 0\n"
                   "[5]\t\"S-0000000000000010\"[2]\t\t# \"leaf0\" lid 1 2xNDR\n"
                   "\n"
                   "caguid=0x20\n"
                   "Ca\t1 \"H-0000000000000020\"\t\t# \"node0 cx0\"\n"
                   "[1](21) \t\"S-0000000000000010\"[1]\t\t# lid 3 lmc 0 \"leaf0\" lid 1 4xNDR\n";

TEST(Discovery, IbnetdiscoverLinksOnceWithWidthAndRate) {
  auto p = parse(kNet, Kind::Ib);
  ASSERT_TRUE(p->ok) << ::testing::PrintToString(p->codes());
  ASSERT_EQ(p->obs.nodes.size(), 3u);
  ASSERT_EQ(p->obs.links.size(), 2u); // each seen from both ends, kept once
  EXPECT_TRUE(p->obs.links[0].confirmed);
  EXPECT_EQ(p->obs.links[0].width, 4);
  EXPECT_NEAR(p->obs.links[0].laneRate, 106.25e9, 1);
  EXPECT_EQ(p->obs.links[1].width, 2);
  EXPECT_EQ(p->obs.strings.str(p->obs.nodes[p->obs.findGuid(0x20)].name), "node0 cx0");
  EXPECT_TRUE(p->obs.nodes[p->obs.findGuid(0x11)].isSwitch);
}

TEST(Discovery, IbnetdiscoverBadInput) {
  std::string net = kNet;
  // Cut in the middle of a line.
  EXPECT_EQ(parse(net.substr(0, net.size() - 10), Kind::Ib)->codes(), std::vector<std::string>{"E0182"});
  // Cut at a line: spine0 and node0 are linked to but never listed.
  auto cut = parse(net.substr(0, net.find("\n\n") + 1), Kind::Ib);
  EXPECT_FALSE(cut->ok);
  EXPECT_EQ(cut->codes(), std::vector<std::string>{"E0182"});
  // A garbled line, a port line outside a record, a port number past 254 (255 is
  // reserved), a peer's port 0 (a switch's management port) or GUID 0 (issue 30).
  for (const char *bad : {"[1]\tgarbage\n", "Switch\tx \"S-1\"\n", "[999]\t\"S-0000000000000011\"[5]\n",
                          "[255]\t\"S-0000000000000011\"[5]\n", "[1]\t\"S-0000000000000011\"[0]\n",
                          "[1]\t\"S-0000000000000000\"[1]\n"}) {
    std::string t = std::string("Switch\t8 \"S-0000000000000010\"\t\t# \"leaf0\"\n") + bad;
    auto p = parse(t, Kind::Ib);
    EXPECT_FALSE(p->ok) << bad;
    EXPECT_EQ(p->codes().at(0), "E0181") << bad;
  }
  // Two records of one GUID.
  auto dup = parse(net + "\nSwitch\t8 \"S-0000000000000010\"\t\t# \"other\"\n", Kind::Ib);
  EXPECT_EQ(dup->codes(), std::vector<std::string>{"E0183"});
  // A line of a megabyte, and nothing but binary: diagnostics, no crash.
  auto longLine = parse(net + std::string(1 << 20, 'x') + "\n", Kind::Ib);
  EXPECT_EQ(longLine->codes().at(0), "E0181");
  std::string binary;
  for (int i = 0; i < 5000; ++i)
    binary += char(i * 37 % 256);
  EXPECT_FALSE(parse(binary, Kind::Ib)->ok);
}

// fabc import has no design to bound a discovery by: its node limit stops the reader at
// the first node past it, whatever the file holds after (a 1.2 GB file: 2 M nodes, 0.5 GiB).
TEST(Discovery, NodeLimitStopsTheReader) {
  std::string net;
  for (int i = 0; i < 50; ++i) {
    int j = i ^ 1;
    net += fmt::format("Switch\t2 \"S-{:016x}\"\t\t# \"sw{}\" base port 0 lid {} lmc 0\n"
                       "[1]\t\"S-{:016x}\"[1]\t\t# \"sw{}\" lid {} 4xNDR\n\n",
                       0x100 + i, i, i + 1, 0x100 + j, j, j + 1);
  }
  ReadLimits limits;
  limits.maxPorts = 1 << 20;
  limits.maxNodes = 10;
  auto p = parse(net, Kind::Ib, "leaf0", limits);
  EXPECT_FALSE(p->ok);
  EXPECT_EQ(p->codes(), std::vector<std::string>{"E0189"});
  EXPECT_LE(p->obs.nodes.size(), 11u);
  // Without the node limit, maxPorts bounds nodes too (fabc verify's rule).
  limits.maxNodes = 0;
  auto q = parse(net, Kind::Ib, "leaf0", limits);
  EXPECT_TRUE(q->ok);
  EXPECT_EQ(q->obs.nodes.size(), 50u);
}

TEST(Discovery, NonUtf8NamesAreEscaped) {
  std::string net = kNet;
  size_t at = net.find("leaf0");
  net.replace(at, 5, "le\xff\xfe");
  auto p = parse(net, Kind::Ib);
  EXPECT_EQ(p->codes().at(0), "W0183");
  EXPECT_EQ(p->obs.strings.str(p->obs.nodes[p->obs.findGuid(0x10)].name), "le\\xff\\xfe");
}

TEST(Discovery, LldpJsonAndJson0) {
  const char *json = R"({"lldp": {"interface": [
    {"swp1": {"via": "LLDP", "chassis": {"spine0": {"id": {"type": "mac", "value": "aa"}}},
              "port": {"id": {"type": "ifname", "value": "swp7"}, "descr": "swp7"}}},
    {"swp2": {"via": "LLDP", "chassis": {"spine1": {}}, "port": {"id": {"type": "mac", "value": "bb"}, "descr": "swp8"}}}]}})";
  auto p = parse(json, Kind::Json);
  ASSERT_TRUE(p->ok) << ::testing::PrintToString(p->codes());
  ASSERT_EQ(p->obs.links.size(), 2u);
  EXPECT_EQ(p->obs.strings.str(p->obs.links[0].b.name), "swp7");
  EXPECT_EQ(p->obs.strings.str(p->obs.links[1].b.name), "swp8"); // the description when the id is a MAC
  const char *json0 = R"({"lldp": [{"interface": [{"name": "swp1", "via": "LLDP",
    "chassis": [{"id": [{"type": "mac", "value": "aa"}], "name": [{"value": "spine0"}]}],
    "port": [{"id": [{"type": "ifname", "value": "swp7"}]}]}]}]})";
  // The local host from a "local-chassis" document in the same file.
  std::string both = std::string(R"({"local-chassis": {"chassis": {"leafX": {}}}})") + "\n" + json0;
  auto q = parse(both, Kind::Json);
  ASSERT_TRUE(q->ok) << ::testing::PrintToString(q->codes());
  ASSERT_EQ(q->obs.links.size(), 1u);
  EXPECT_EQ(q->obs.strings.str(q->obs.nodes[q->obs.links[0].a.node].name), "leafX");
  EXPECT_EQ(q->obs.strings.str(q->obs.nodes[q->obs.links[0].b.node].name), "spine0");
  // Cut, garbled, not lldpctl's.
  EXPECT_EQ(parse(std::string(json).substr(0, 80), Kind::Json)->codes(), std::vector<std::string>{"E0182"});
  EXPECT_EQ(parse("{\"lldp\": {\"interface\" 3}}", Kind::Json)->codes(), std::vector<std::string>{"E0181"});
  EXPECT_EQ(parse("{\"x\": 1}", Kind::Json)->codes().at(0), "E0181");
}

TEST(Discovery, SonicLldpTable) {
  const char *table = "Capability codes: (R) Router, (B) Bridge, (O) Other\n"
                      "LocalPort    RemoteDevice    RemotePortID    Capability    RemotePortDescr\n"
                      "-----------  --------------  --------------  ------------  -----------------\n"
                      "Ethernet0    spine0          Ethernet8       BR            some description\n"
                      "Ethernet4    srv0            nic0            O\n"
                      "--------------------------------------------------\n"
                      "Total entries: 2\n";
  auto p = parse(table, Kind::Sonic);
  ASSERT_TRUE(p->ok) << ::testing::PrintToString(p->codes());
  ASSERT_EQ(p->obs.links.size(), 2u);
  EXPECT_EQ(p->obs.strings.str(p->obs.links[0].a.name), "Ethernet0");
  EXPECT_EQ(p->obs.strings.str(p->obs.nodes[p->obs.links[1].b.node].name), "srv0");
  std::string t = table;
  EXPECT_EQ(parse(t.substr(0, t.find("----------------------------------------------")), Kind::Sonic)->codes(),
            std::vector<std::string>{"E0182"});
  std::string wrong = t;
  wrong.replace(wrong.find("entries: 2"), 10, "entries: 3");
  EXPECT_EQ(parse(wrong, Kind::Sonic)->codes(), std::vector<std::string>{"E0182"});
}

// fabc verify on a compiled design and a hand-written discovery.
using test::Built;
std::unique_ptr<Built> build(const std::string &text) { return test::compileText(text); }

const char *kLeafSpine = R"(
model SW : switch { protocol = "ethernet"; port p[8] { speed = 400 Gb/s; lanes = 4; form = "OSFP"; } }
model SRV : system { gpus = 1; port nic[1] { speed = 400 Gb/s; form = "OSFP"; } }
model AOC : cable { media = "AOC"; speed = 400 Gb/s; form = "OSFP"; reach = 30 m; }
option default_cable_length = 5 m;
fabric f {
  leaf : SW { tier = "leaf"; };
  spine : SW { tier = "spine"; };
  srv[4] : SRV;
  for i in 0 .. 4 { link srv[i].nic[0] -- leaf.p[i]; }
  link leaf.p[4] -- spine.p[0];
  link leaf.p[5] -- spine.p[1];
}
)";

verify::Result verifyTable(const Built &b, const std::string &table) {
  auto p = parse(table, Kind::Sonic, "leaf");
  EXPECT_TRUE(p->ok) << ::testing::PrintToString(p->codes());
  verify::Result res;
  std::string err;
  Built &m = const_cast<Built &>(b);
  EXPECT_TRUE(verify::verifyFabric(m.F, p->obs, {}, m.c.sources(), *m.diags, res, err)) << err;
  return res;
}

std::string sonicTable(const std::vector<std::string> &rows) {
  std::string t = "LocalPort  RemoteDevice  RemotePortID  Capability  RemotePortDescr\n---------  ----\n";
  for (const std::string &r : rows)
    t += r + "\n";
  return t + "---------\nTotal entries: " + std::to_string(rows.size()) + "\n";
}

TEST(FabricVerify, SwapMoveMissingUnexpected) {
  auto b = build(kLeafSpine);
  ASSERT_TRUE(b->ok);
  // Clean: SONiC names on the leaf, Cumulus names on the spine, the design's on servers.
  auto clean = verifyTable(*b, sonicTable({"Ethernet0 srv0 nic0 O", "Ethernet4 srv1 nic0 O", "Ethernet8 srv2 nic0 O",
                                           "Ethernet12 srv3 nic0 O", "Ethernet16 spine swp1 BR",
                                           "Ethernet20 spine swp2 BR"}));
  EXPECT_EQ(clean.planned, 6u);
  EXPECT_EQ(clean.matched, 6u);
  EXPECT_TRUE(clean.faults.empty());
  // Servers that name their ports their own way (ens1f0): the port the leaf's planned
  // cable goes to on that server.
  auto own = verifyTable(*b, sonicTable({"Ethernet0 srv0 ens1f0 O", "Ethernet4 srv1 ens1f0 O", "Ethernet8 srv2 eth9 O",
                                         "Ethernet12 srv3.example.com nic0 O", "Ethernet16 spine swp1 BR",
                                         "Ethernet20 spine swp2 BR"}));
  EXPECT_EQ(own.matched, 6u);
  EXPECT_TRUE(own.faults.empty());
  // srv0 and srv1 swapped at the leaf; srv2 moved to a free port; srv3 unplugged; an
  // extra cable from a free leaf port to the spine.
  auto bad = verifyTable(*b, sonicTable({"Ethernet0 srv1 nic0 O", "Ethernet4 srv0 nic0 O", "Ethernet24 srv2 nic0 O",
                                         "Ethernet16 spine swp1 BR", "Ethernet20 spine swp2 BR",
                                         "Ethernet28 spine swp3 BR"}));
  ASSERT_EQ(bad.faults.size(), 4u);
  EXPECT_EQ(bad.faults[0].action, "swap the cables in leaf Ethernet0 and Ethernet4");
  EXPECT_EQ(bad.faults[1].action, "move the cable in leaf Ethernet24 to Ethernet8");
  EXPECT_EQ(bad.faults[2].kind, verify::FaultKind::Unexpected);
  EXPECT_EQ(bad.faults[3].kind, verify::FaultKind::Missing);
  EXPECT_EQ(bad.faults[3].action, "install a cable from srv3 nic0 to leaf Ethernet12");
  EXPECT_EQ(bad.errors(), 4u);
}

TEST(FabricVerify, ScopeAndForeign) {
  auto b = build(kLeafSpine);
  ASSERT_TRUE(b->ok);
  auto p = parse(sonicTable({"Ethernet0 other0 x O", "Ethernet4 other1 y O"}), Kind::Sonic, "stranger");
  verify::Result res;
  std::string err;
  ASSERT_TRUE(verify::verifyFabric(b->F, p->obs, {}, b->c.sources(), *b->diags, res, err));
  EXPECT_TRUE(res.foreign);
  EXPECT_FALSE(verify::verifyFabric(b->F, p->obs, {"nowhere"}, b->c.sources(), *b->diags, res, err));
  EXPECT_NE(err.find("neither a group nor a building"), std::string::npos);
}

} // namespace
