// The streaming YAML writer of backends/Stream.h: its strings must read back as written
// (by yaml-cpp), and its layout must be the one yaml-cpp's emitter writes, byte for byte.
// The JSON writer's tests are in JsonTest.cpp.
#include "backends/Stream.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

using namespace fabc;

namespace {
std::string str(const TextBuffer &b) { return std::string(b.data(), b.size()); }

// Strings a design could carry into a description or a name, and worse.
const std::vector<std::string> &tricky() {
  static const std::vector<std::string> v = {
      "", "plain", "spine0 swp3", "srv[0]/nic[0]", "a\"quote", "back\\slash", "new\nline", "cr\rlf", "tab\there",
      std::string("nul\0byte", 8), "\x01\x1f ctl", "del\x7f", "caf\xc3\xa9", "emoji \xf0\x9f\x98\x80",
      "colon: space", "trailing colon:", "hash # comment", "a#b", "- dash", "-dash", "? q", ":x", "[flow]", "{map}",
      "x, y", "*alias", "&anchor", "!tag", "%pct", "@at", "`tick", "'single'", "\"double\"", "trailing space ",
      " leading", "null", "Null", "NULL", "~", "true", "on", "yes", "no", "off", "123", "1e5", "0x1f", "0.5", "-1",
      ".5", "/path", "a b c", "x|y", ">fold", "|lit", "8 bytes!", "exactly8", "longer string without anything odd",
      "longer string with a \" in the middle", std::string(70, 'x') + "\n"};
  return v;
}
} // namespace

TEST(YamlWriter, ScalarsAreWhatYamlCppWritesAndReadBack) {
  for (const std::string &s : tricky()) {
    // As a value and as a key, inside a sequence item's map, as NVUE files have them.
    YAML::Emitter e;
    e << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "k" << YAML::Value << s << YAML::Key << s << YAML::Value
      << "v" << YAML::EndMap << YAML::EndSeq;
    TextBuffer b;
    YamlWriter y(b);
    y.beginSeqItem();
    y.scalar("k", s);
    y.scalar(s, "v");
    y.endSeqItem();
    EXPECT_EQ(str(b), std::string(e.c_str(), e.size())) << "string: " << s;
    YAML::Node n = YAML::Load(str(b));
    ASSERT_TRUE(n.IsSequence());
    EXPECT_EQ(n[0]["k"].as<std::string>(), s);
    EXPECT_EQ(n[0][s].as<std::string>(), "v");
  }
}

TEST(YamlWriter, FastPathOnlyForStringsYamlCppLeavesPlain) {
  for (const std::string &s : tricky()) {
    if (!YamlWriter::simplePlain(s))
      continue;
    YAML::Emitter e;
    e << s;
    EXPECT_EQ(std::string(e.c_str(), e.size()), s) << "yaml-cpp quotes '" << s << "'";
  }
}

TEST(YamlWriter, NestedLayoutMatchesYamlCpp) {
  YAML::Emitter e;
  e << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "set" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "system" << YAML::Value << YAML::BeginMap << YAML::Key << "hostname" << YAML::Value << "leaf0"
    << YAML::EndMap;
  e << YAML::Key << "interface" << YAML::Value << YAML::BeginMap << YAML::Key << "swp1" << YAML::Value
    << YAML::BeginMap << YAML::Key << "link" << YAML::Value << YAML::BeginMap << YAML::Key << "mtu" << YAML::Value
    << 9216u << YAML::Key << "state" << YAML::Value << YAML::BeginMap << YAML::Key << "up" << YAML::Value << YAML::Flow
    << YAML::BeginMap << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap;
  e << YAML::Key << "neighbor" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::EndMap;
  e << YAML::EndMap << YAML::EndMap << YAML::EndSeq;

  TextBuffer b;
  YamlWriter y(b);
  y.beginSeqItem();
  y.beginMap("set");
  y.beginMap("system");
  y.scalar("hostname", "leaf0");
  y.endMap();
  y.beginMap("interface");
  y.beginMap("swp1");
  y.beginMap("link");
  y.scalar("mtu", uint64_t(9216));
  y.member("state", "up");
  y.endMap();
  y.endMap();
  y.endMap();
  y.emptyMap("neighbor");
  y.endMap();
  y.endSeqItem();
  EXPECT_EQ(str(b), std::string(e.c_str(), e.size()));
}

TEST(Stream, NumbersAsFmtWritesThem) {
  for (double v : {0.0, 1.0, 9.0, 10.0, 400.0, 800.0, 100000.0, 999999.0, 1e6, 2.5, 0.4, 1e20, 123456789.0, 7.5}) {
    TextBuffer a, b;
    appendFixed0(a, v);
    appendShortest(b, v);
    EXPECT_EQ(str(a), fmt::format("{:.0f}", v)) << v;
    EXPECT_EQ(str(b), fmt::format("{:g}", v)) << v;
  }
  for (uint32_t a : {0u, 1u, 0x0A000001u, 0xFFFFFFFFu, 0x0AFE0102u}) {
    TextBuffer b;
    appendIpv4(b, a);
    EXPECT_EQ(str(b), fmt::format("{}.{}.{}.{}", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255));
  }
}
