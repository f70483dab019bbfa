// The one JSON writer (support/Json.h): escaping, layouts, numbers exactly as fmt
// formats them, non-finite numbers as null, and streaming through a sink. Every
// document is also read back with llvm's JSON parser.
#include "support/Json.h"

#include <gtest/gtest.h>
#include <llvm/Support/JSON.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace fabc;

namespace {
std::string str(const TextBuffer &b) { return std::string(b.data(), b.size()); }

// The escaping fabc has always written, spelled out byte by byte.
std::string reference(std::string_view s) {
  std::string r;
  for (unsigned char c : s) {
    switch (c) {
    case '"': r += "\\\""; break;
    case '\\': r += "\\\\"; break;
    case '\n': r += "\\n"; break;
    case '\r': r += "\\r"; break;
    case '\t': r += "\\t"; break;
    default: r += c < 0x20 ? fmt::format("\\u{:04x}", c) : std::string(1, char(c));
    }
  }
  return r;
}

llvm::json::Value parse(const std::string &doc) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(doc);
  if (!v) {
    ADD_FAILURE() << llvm::toString(v.takeError()) << "\n" << doc;
    return nullptr;
  }
  return std::move(*v);
}

const std::vector<std::string> &tricky() {
  static const std::vector<std::string> v = {
      "", "plain", "srv[0]/nic[0]", "a\"quote", "back\\slash", "new\nline", "cr\rlf", "tab\there",
      std::string("nul\0byte", 8), "\x01\x1f ctl", "\x08\x0c bs ff", "del\x7f", "caf\xc3\xa9", "emoji \xf0\x9f\x98\x80",
      "\xe6\x97\xa5\xe6\x9c\xac", "8 bytes!", "exactly8", "longer string without anything odd",
      "longer string with a \" in the middle", std::string(70, 'x') + "\n", "</script>", "'single'"};
  return v;
}
} // namespace

TEST(Json, EscapesControlCharactersAndKeepsUtf8) {
  for (const std::string &s : tricky()) {
    TextBuffer b;
    appendJsonEscaped(b, s);
    EXPECT_EQ(str(b), reference(s)) << s;
  }
  TextBuffer b;
  appendJsonEscaped(b, "a\"b\\\n\x01");
  EXPECT_EQ(str(b), "a\\\"b\\\\\\n\\u0001");
  b.clear();
  appendJsonEscaped(b, std::string("\x00\x01\x1f\x20", 4));
  EXPECT_EQ(str(b), "\\u0000\\u0001\\u001f ");
  b.clear();
  appendJsonEscaped(b, "caf\xc3\xa9 \xe2\x86\x92");
  EXPECT_EQ(str(b), "caf\xc3\xa9 \xe2\x86\x92"); // UTF-8 as is, not \u escapes
}

// Keys and strings of up to 64 bytes are checked 8 bytes at a time while copied, longer ones by
// appendJsonEscaped: the same bytes at every length around the limit, with a byte to
// escape at every position.
TEST(Json, KeysAndStringsEscapedAtEveryLength) {
  for (size_t n = 0; n <= 70; ++n) {
    std::string plain(n, 'x');
    std::vector<std::string> cases = {plain};
    for (size_t at = 0; at < n; ++at)
      // The bytes to escape, and their neighbours and high bytes, which must not be.
      for (char c : {'"', '\\', '\n', '\x1f', '\0', '\x7f', ' ', '!', '#', '[', ']', '\x80', '\xa2', '\xdc', '\xff'}) {
        cases.push_back(plain);
        cases.back()[at] = c;
      }
    for (const std::string &s : cases) {
      TextBuffer doc;
      JsonWriter j(doc);
      j.beginObject(JsonLayout::Inline);
      j.key(s).string(s);
      j.endObject();
      EXPECT_EQ(str(doc), "{\"" + reference(s) + "\": \"" + reference(s) + "\"}\n") << n;
    }
  }
}

// A JsonKey (quoted when fabc is compiled) writes what key() writes for its text, in
// every layout and position.
TEST(Json, CompiledKeysAsKeys) {
  static constexpr JsonKey one("a"), two("speed_gbps"), longest("abcdefghijklmnopqrstuvwxyz0");
  auto write = [](bool compiled) {
    TextBuffer b;
    JsonWriter j(b);
    j.beginObject();
    compiled ? j.key(one) : j.key("a");
    j.beginObject(JsonLayout::Inline);
    compiled ? j.key(two) : j.key("speed_gbps");
    j.integer(400);
    compiled ? j.key(longest) : j.key("abcdefghijklmnopqrstuvwxyz0");
    j.string("x");
    j.endObject();
    compiled ? j.key(two) : j.key("speed_gbps");
    j.null();
    j.endObject();
    return str(b);
  };
  EXPECT_EQ(write(true), write(false));
  EXPECT_EQ(write(true), "{\n  \"a\": {\"speed_gbps\": 400, \"abcdefghijklmnopqrstuvwxyz0\": \"x\"},\n  \"speed_gbps\": null\n}\n");
}

TEST(Json, StringsReadBackAsKeysAndValues) {
  for (const std::string &s : tricky()) {
    TextBuffer doc;
    JsonWriter j(doc);
    j.beginObject();
    j.key(s).beginObject(JsonLayout::Inline);
    j.key(s).string(s);
    j.endObject();
    j.key("list").beginArray(JsonLayout::Inline);
    j.string(s);
    j.endArray();
    j.endObject();
    llvm::json::Value v = parse(str(doc));
    const llvm::json::Object *top = v.getAsObject();
    ASSERT_NE(top, nullptr) << s;
    const llvm::json::Object *inner = top->getObject(s);
    ASSERT_NE(inner, nullptr) << s;
    llvm::Optional<llvm::StringRef> got = inner->getString(s);
    ASSERT_TRUE(got.hasValue()) << s;
    EXPECT_EQ(got->str(), s);
    EXPECT_EQ(top->getArray("list")->front().getAsString()->str(), s);
  }
}

TEST(Json, BlockAndInlineLayouts) {
  TextBuffer b;
  JsonWriter j(b);
  j.beginObject();
  j.key("name").string("f");
  j.key("rows").beginArray();
  for (int i = 0; i < 2; ++i) {
    j.beginObject(JsonLayout::Inline);
    j.key("n").integer(i);
    j.key("end").beginObject(JsonLayout::Inline);
    j.key("device").string("s0");
    j.key("rack").null();
    j.endObject();
    j.key("tags").beginArray(JsonLayout::Inline);
    j.string("a");
    j.boolean(true);
    j.endArray();
    j.endObject();
  }
  j.endArray();
  j.key("none").beginArray();
  j.endArray();
  j.key("nested").beginObject();
  j.key("inner").beginObject(JsonLayout::Inline);
  j.endObject();
  j.key("x").integer(-1);
  j.endObject();
  j.endObject();
  EXPECT_EQ(str(b), "{\n"
                    "  \"name\": \"f\",\n"
                    "  \"rows\": [\n"
                    "    {\"n\": 0, \"end\": {\"device\": \"s0\", \"rack\": null}, \"tags\": [\"a\", true]},\n"
                    "    {\"n\": 1, \"end\": {\"device\": \"s0\", \"rack\": null}, \"tags\": [\"a\", true]}\n"
                    "  ],\n"
                    "  \"none\": [],\n"
                    "  \"nested\": {\n"
                    "    \"inner\": {},\n"
                    "    \"x\": -1\n"
                    "  }\n"
                    "}\n");
  parse(str(b));
}

TEST(Json, LegacyLayouts) {
  // bom.json's empty lists keep their two lines; SARIF's rules close on the last line;
  // a Block inside an Inline array indents by Block levels only (SARIF's runs).
  TextBuffer b;
  JsonWriter j(b);
  j.beginObject();
  j.key("empty").beginArray(JsonLayout::BlockOpenWhenEmpty);
  j.endArray();
  j.key("one").beginArray(JsonLayout::BlockOpenWhenEmpty);
  j.integer(1);
  j.endArray();
  j.key("runs").beginArray(JsonLayout::Inline);
  j.beginObject();
  j.key("tool").beginObject(JsonLayout::Inline);
  j.key("rules").beginArray(JsonLayout::BlockCloseOnLastLine);
  j.string("r1");
  j.string("r2");
  j.endArray();
  j.endObject();
  j.key("results").beginArray();
  j.endArray();
  j.endObject();
  j.endArray();
  j.endObject();
  EXPECT_EQ(str(b), "{\n"
                    "  \"empty\": [\n"
                    "  ],\n"
                    "  \"one\": [\n"
                    "    1\n"
                    "  ],\n"
                    "  \"runs\": [{\n"
                    "    \"tool\": {\"rules\": [\n"
                    "      \"r1\",\n"
                    "      \"r2\"]},\n"
                    "    \"results\": []\n"
                    "  }]\n"
                    "}\n");
  parse(str(b));
}

TEST(Json, ConfigDbLayout) {
  TextBuffer b;
  JsonWriter j(b, 4);
  j.beginObject();
  j.key("T").beginObject();
  j.keyf("k|{}", 1).beginObject();
  j.key("a").string("x");
  j.key("n").quotedInteger(4200000000u);
  j.endObject();
  j.key("k|2").emptyObject();
  j.endObject();
  j.key("U").beginObject();
  j.endObject();
  j.endObject();
  EXPECT_EQ(str(b), "{\n    \"T\": {\n        \"k|1\": {\n            \"a\": \"x\",\n            \"n\": \"4200000000\"\n"
                    "        },\n        \"k|2\": {}\n    },\n    \"U\": {}\n}\n");
}

TEST(Json, NumbersAsFmtFormatsThem) {
  const std::vector<double> values = {0.0, -0.0, 1.0, 9.0, 10.0, 0.05, 0.15, 0.25, 2.5, 2.675, 0.4, 7.5, 400.0,
                                      800.0, 1.0 / 3, 2.0 / 3, 99999.95, 100000.0, 999999.0, 1e6, 1234567.0,
                                      123456789.0, 1e15 - 1, 1e15, 1e15 + 0.5, 1e16, 1e20, 1e22, 5e-7, 1e-300,
                                      -1.0, -2.5, -1e6, 4.2e9, 18446744073709551616.0, 0.1 + 0.2};
  for (double v : values) {
    for (int d = 0; d <= 10; ++d) {
      TextBuffer b;
      JsonWriter j(b);
      j.beginArray(JsonLayout::Inline);
      j.fixed(v, d);
      EXPECT_EQ(str(b), "[" + fmt::format("{:.{}f}", v, d)) << v << " with " << d << " decimals";
    }
    TextBuffer g, s;
    JsonWriter jg(g), js(s);
    jg.beginArray(JsonLayout::Inline);
    js.beginArray(JsonLayout::Inline);
    jg.general(v);
    js.shortest(v);
    EXPECT_EQ(str(g), "[" + fmt::format("{:g}", v)) << v;
    EXPECT_EQ(str(s), "[" + fmt::format("{}", v)) << v;
  }
  TextBuffer b;
  JsonWriter j(b);
  j.beginArray(JsonLayout::Inline);
  j.integer(uint64_t(0));
  j.integer(std::numeric_limits<uint64_t>::max());
  j.integer(std::numeric_limits<int64_t>::min());
  j.integer(int64_t(-42));
  j.integer(uint32_t(4294967295u));
  j.integer(int(-7));
  j.integer(size_t(12));
  j.endArray();
  EXPECT_EQ(str(b), "[0, 18446744073709551615, -9223372036854775808, -42, 4294967295, -7, 12]\n");
}

// fixed()'s fast path for values that are not whole (their product with 10^decimals
// exact, ties excluded) gives fmt's digits: every float a cable length can be (the diff's
// "{:.2f}" of a float), hundredths and their neighbours, and random doubles.
TEST(Json, FixedDecimalsAsFmtFormatsThem) {
  std::vector<double> values;
  for (int i = 0; i < 200000; i += 7) {
    float f = float(i) / 100;
    values.push_back(f);
    values.push_back(std::nextafter(f, 0.0f));
    values.push_back(std::nextafter(f, 1e9f));
    values.push_back(i / 100.0);
    values.push_back(i / 8.0 + 1.0 / 1024); // a tie at some decimals
  }
  uint64_t x = 88172645463325252ull; // xorshift: random bit patterns of floats and doubles
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    float f;
    uint32_t bits = uint32_t(x);
    std::memcpy(&f, &bits, 4);
    values.push_back(f);
    double d;
    std::memcpy(&d, &x, 8);
    if (i % 16 == 0) // most print hundreds of digits: fmt is slow on them
      values.push_back(d);
    values.push_back(double(x % 100000000) / 1000 + double(x >> 60) / 7);
  }
  for (double v : values)
    for (int d = 1; d <= 5; ++d) {
      TextBuffer b;
      appendFixed(b, v, d);
      ASSERT_EQ(str(b), fmt::format("{:.{}f}", v, d)) << fmt::format("{:a}", v) << " with " << d << " decimals";
    }
  for (float f : {0.1f, 5.6f, 125.0f, 2.675f, 0.005f, 0.015f, 1e-30f, 3.4e38f})
    for (int d = 1; d <= 4; ++d) {
      TextBuffer b;
      appendFixed(b, f, d);
      EXPECT_EQ(str(b), fmt::format("{:.{}f}", f, d)) << f; // the float's own formatting too
    }
}

TEST(Json, RawNumbersMustBeJsonNumbers) {
  for (const char *ok : {"0", "-0", "12.50", "1e+20", "-2.5E-3", "0.00"})
    EXPECT_TRUE(JsonWriter::isJsonNumber(ok)) << ok;
  for (const char *bad : {"", "-", "nan", "inf", "-inf", "01", "1.", ".5", "+1", "1e", "0x1f", "1 ", "12.5.1"})
    EXPECT_FALSE(JsonWriter::isJsonNumber(bad)) << bad;
  TextBuffer b;
  JsonWriter j(b);
  j.beginArray(JsonLayout::Inline);
  j.rawNumber("12.50");
  j.rawNumber("nan");
  j.endArray();
  EXPECT_EQ(str(b), "[12.50, null]\n");
}

TEST(Json, NonFiniteNumbersAreNull) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  TextBuffer b;
  JsonWriter j(b);
  j.beginObject(JsonLayout::Inline);
  j.key("nan").fixed(nan, 1);
  j.key("inf").general(inf);
  j.key("ninf").shortest(-inf);
  j.key("nan0").fixed(-nan, 0);
  j.key("after").integer(1);
  j.endObject();
  EXPECT_EQ(str(b), "{\"nan\": null, \"inf\": null, \"ninf\": null, \"nan0\": null, \"after\": 1}\n");
  llvm::json::Value v = parse(str(b));
  ASSERT_NE(v.getAsObject(), nullptr);
  EXPECT_EQ(v.getAsObject()->get("nan")->kind(), llvm::json::Value::Null);
}

TEST(Json, StreamsThroughASink) {
  // The same document with and without a sink; with one, the buffer stays small.
  auto write = [](JsonWriter &j) {
    j.beginObject();
    j.key("cables").beginArray();
    for (uint32_t i = 0; i < 20000; ++i) {
      j.beginObject(JsonLayout::Inline);
      j.key("cable").integer(i);
      j.key("length_m").fixed(i * 0.25, 2);
      j.endObject();
    }
    j.endArray();
    j.endObject();
  };
  TextBuffer whole;
  {
    JsonWriter j(whole);
    write(j);
  }
  std::string streamed;
  size_t largest = 0, calls = 0;
  TextBuffer small;
  {
    JsonWriter j(small, 2, [&](std::string_view s) {
      streamed.append(s);
      largest = std::max(largest, s.size());
      ++calls;
    });
    write(j);
  } // the destructor hands over the rest
  EXPECT_EQ(streamed, str(whole));
  EXPECT_GT(calls, 2u);
  EXPECT_LT(largest, JsonWriter::FlushAt + 256);
  EXPECT_EQ(small.size(), 0u);
}

#ifndef NDEBUG
TEST(JsonDeathTest, MisuseIsCaughtInDebugBuilds) {
  EXPECT_DEATH(
      {
        TextBuffer b;
        JsonWriter j(b);
        j.beginArray();
        j.key("k");
      },
      "key outside an object");
  EXPECT_DEATH(
      {
        TextBuffer b;
        JsonWriter j(b);
        j.beginObject();
        j.integer(1);
      },
      "without a key");
  EXPECT_DEATH(
      {
        TextBuffer b;
        JsonWriter j(b);
        j.beginObject();
        j.endArray();
      },
      "mismatched end");
}
#endif
