// The one IPv4, CIDR and GUID parser (ir/Address.h) that the elaborator and the passes share.
#include "ir/Address.h"

#include <gtest/gtest.h>

using namespace fabc;

TEST(Address, IPv4) {
  uint32_t a = 0;
  EXPECT_TRUE(ir::parseIPv4("10.0.0.1", a));
  EXPECT_EQ(a, 0x0A000001u);
  EXPECT_EQ(ir::ipv4String(a), "10.0.0.1");
  EXPECT_TRUE(ir::parseIPv4("255.255.255.255", a));
  EXPECT_EQ(a, 0xFFFFFFFFu);
  EXPECT_EQ(ir::ipv4String(a), "255.255.255.255");
  EXPECT_TRUE(ir::parseIPv4("0.0.0.0", a));
  EXPECT_EQ(a, 0u);
  // Leading zeros: up to three digits a part, read as decimal (not octal).
  EXPECT_TRUE(ir::parseIPv4("010.001.000.009", a));
  EXPECT_EQ(a, 0x0A010009u);
  // sscanf("%u.%u.%u.%u") accepted the first three; the strict parser does not.
  for (const char *bad : {"+10.0.0.1", "10. 0.0.1", " 10.0.0.1", "-1.0.0.1", "256.0.0.1", "1.2.3", "1.2.3.4.5",
                          "1.2.3.4 ", "", "a.b.c.d", "1..2.3", "1234.1.1.1", "0010.0.0.1", "1.2.3.", ".1.2.3",
                          "1.2.3.4/32", "0x1.2.3.4"})
    EXPECT_FALSE(ir::parseIPv4(bad, a)) << bad;
}

TEST(Address, Cidr) {
  uint32_t base = 0;
  unsigned len = 0;
  EXPECT_TRUE(ir::parseCidr("10.254.0.0/16", base, len));
  EXPECT_EQ(base, 0x0AFE0000u);
  EXPECT_EQ(len, 16u);
  EXPECT_TRUE(ir::parseCidr("0.0.0.0/0", base, len));
  EXPECT_EQ(len, 0u);
  EXPECT_TRUE(ir::parseCidr("10.0.0.1/32", base, len));
  EXPECT_EQ(base, 0x0A000001u);
  EXPECT_EQ(len, 32u);
  EXPECT_TRUE(ir::parseCidr("255.255.255.255/32", base, len));
  for (const char *bad : {"10.0.0.1/16", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0", "10.0.0.0/1a", "10.0.0.0/016",
                          "1.0.0.0/0", "+10.0.0.0/8", "10.0.0.0/+8", "10.0.0.0/ 8", "/8", "10.0.0.0/8/8"})
    EXPECT_FALSE(ir::parseCidr(bad, base, len)) << bad;
}

TEST(Address, Guid) {
  uint64_t g = 0;
  unsigned digits = 0;
  EXPECT_TRUE(ir::parseGuid("0x0002c90300a1b2c3", g, &digits));
  EXPECT_EQ(g, 0x0002c90300a1b2c3ull);
  EXPECT_EQ(digits, 16u);
  EXPECT_TRUE(ir::parseGuid("0XFFFFFFFFFFFFFFFF", g));
  EXPECT_EQ(g, ~0ull);
  EXPECT_TRUE(ir::parseGuid("0x02fabc", g, &digits));
  EXPECT_EQ(g, 0x02fabcull);
  EXPECT_EQ(digits, 6u);
  EXPECT_TRUE(ir::parseGuid("0x0", g)); // zero parses; callers that need a node GUID reject it
  EXPECT_EQ(g, 0u);
  for (const char *bad : {"0002c90300a1b2c3", "02fabc", "0x", "", "x12", "0x00000000000000001", "0x0002c90300a1b2c3f",
                          "0x12g4", "0x 12", "+0x12", "0x-12", "0x12 ", "00x12"})
    EXPECT_FALSE(ir::parseGuid(bad, g)) << bad;
}
