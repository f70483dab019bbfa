// support/JsonRead (issue 30, classes 1 and 3): the one JSON reader bounds nesting and
// the DOM's memory before llvm::json parses, and fabc import's self-check.
#include "Compilation.h"
#include "import/ImportState.h"
#include "support/JsonRead.h"

#include <gtest/gtest.h>

#include <malloc.h>

using namespace fabc;

namespace {

TEST(JsonRead, ParsesWhatLlvmJsonParses) {
  JsonError err;
  auto v = parseJson(R"({"a": [1, "x\"]", {"b": null}], "c": "{["})", JsonLimits{}, err);
  ASSERT_TRUE(v) << err.message;
  EXPECT_EQ(v->getAsObject()->getArray("a")->size(), 3u);
  EXPECT_EQ(*v->getAsObject()->getString("c"), "{[");
}

TEST(JsonRead, SyntaxErrorsKeepTheirOffset) {
  JsonError err;
  EXPECT_FALSE(parseJson("[1, 2,, 3]", JsonLimits{}, err));
  EXPECT_EQ(err.offset, 7u); // the second comma
  EXPECT_FALSE(err.message.empty());
}

// A few million levels overflowed llvm::json's recursive parser: refused by the pre-scan,
// at the bracket past the limit.
TEST(JsonRead, DeepNestingIsRefusedBeforeParsing) {
  std::string deep = std::string(4'000'000, '[') + std::string(4'000'000, ']');
  JsonError err;
  EXPECT_FALSE(parseJson(deep, JsonLimits{}, err));
  EXPECT_EQ(err.offset, 512u);
  EXPECT_EQ(err.message, "JSON nested more than 512 levels deep");
  JsonLimits l;
  l.maxDepth = 4;
  EXPECT_TRUE(parseJson("[[[[1]]]]", l, err));
  EXPECT_FALSE(parseJson("[[[[[1]]]]]", l, err));
  // Brackets inside strings are not nesting.
  EXPECT_TRUE(parseJson("[\"" + std::string(100, '[') + "\"]", l, err));
}

// `{"a":0}` is 7 bytes and about 4 KiB of DOM: a 64 MiB file of them was 37 GiB.
TEST(JsonRead, ManyOneKeyObjectsAreRefusedByTheBudget) {
  std::string many = "[";
  for (int i = 0; i < 100'000; ++i)
    many += i ? ",{\"a\":0}" : "{\"a\":0}";
  many += "]";
  JsonLimits l;
  l.maxDomBytes = 64 << 20;
  JsonError err;
  EXPECT_FALSE(parseJson(many, l, err));
  EXPECT_NE(err.message.find("more than 64 MiB in memory"), std::string::npos) << err.message;
  EXPECT_LT(err.offset, many.size() / 4); // stopped where the budget was passed
  l.maxDomBytes = 1ull << 30;
  EXPECT_TRUE(parseJson(many, l, err));
}

// The estimate's costs are upper bounds of what llvm::json allocates (docs/pipelines.md's
// limits table states them): measured here with glibc's allocator statistics.
#if !defined(__SANITIZE_ADDRESS__) && !(defined(__has_feature) && __has_feature(address_sanitizer))
TEST(JsonRead, TheEstimateBoundsTheDom) {
  std::string wide = "{"; // 193 keys: just past a growth of the map (the worst case per member)
  for (int k = 0; k < 193; ++k)
    wide += (k ? ",\"" : "\"") + std::to_string(k) + "\":0";
  wide += "}";
  for (const char *item : {wide.c_str(), "{\"a\":0}", "{\"k1\":1,\"k2\":\"a string of 30 characters....\",\"k3\":[1,2]}", "0",
                           "\"a string longer than the small-string buffer\"", "[]"}) {
    std::string doc = "[";
    for (int i = 0; i < 20'000; ++i)
      doc += std::string(i ? "," : "") + item;
    doc += "]";
    JsonShape shape;
    struct mallinfo2 before = mallinfo2();
    llvm::Expected<llvm::json::Value> v = llvm::json::parse(doc);
    ASSERT_TRUE(bool(v));
    struct mallinfo2 after = mallinfo2();
    uint64_t used = after.uordblks + after.hblkhd - before.uordblks - before.hblkhd;
    // Recount as the pre-scan does.
    for (size_t i = 0; i < doc.size(); ++i) {
      char c = doc[i];
      if (c == '"') {
        size_t b = ++i;
        while (doc[i] != '"')
          i += doc[i] == '\\' ? 2 : 1;
        shape.stringBytes += i - b;
      } else if (c == '{' || c == '[') {
        ++(c == '{' ? shape.objects : shape.arrays);
        ++shape.values;
      } else if (c == ',') {
        ++shape.values;
      }
    }
    EXPECT_LE(used, jsonDomEstimate(shape)) << item;
  }
}
#endif

// fabc import compiles its own output; a text that does not compile is FAB-E0191 at the
// discovery record the failing line came from, and the text is dropped.
TEST(ImportSelfCheck, ADesignThatDoesNotCompileIsAnInternalError) {
  discovery::Observed obs;
  obs.files.push_back("disc.net");
  obs.formats.push_back(discovery::Format::Ibnetdiscover);
  obs.nodeByGuid(1, "a", true, {0, 7});
  SourceManager sm;
  DiagEngine diags(sm);
  diags.setOutput(std::tmpfile());
  import::Catalog cat;
  import::Options opts;
  import::Importer imp(obs, cat, opts, sm, diags);
  imp.origins = {{3, {0, 7}}};
  CompileOptions co;
  co.standardSearchPath = false;
  std::string text = "model M : switch { protocol = \"infiniband\"; port p[1] { speed = 400 Gb/s; } }\n"
                     "fabric f {\n"
                     "  fn : M;\n" // a keyword as an instance name: a syntax error on line 3
                     "}\n";
  EXPECT_FALSE(import::checkImported(imp, co, text));
  EXPECT_TRUE(text.empty());
  ASSERT_EQ(diags.all().size(), 1u);
  const Diagnostic &d = diags.all()[0];
  EXPECT_STREQ(diagInfo(d.code).code, "E0191");
  EXPECT_NE(d.message.find("(line 3 of the design)"), std::string::npos) << d.message;
  EXPECT_EQ(sm.lineCol(d.range.begin).line, 7u); // the discovery record
  std::string good = "model M : switch { protocol = \"infiniband\"; port p[1] { speed = 400 Gb/s; } }\n"
                     "fabric f {\n  nfn : M;\n}\n";
  EXPECT_TRUE(import::checkImported(imp, co, good));
  EXPECT_FALSE(good.empty());
}

TEST(ImportNames, KeywordsComeFromTheLexerAndSuffixesFitIn63) {
  EXPECT_EQ(import::identifier("fn"), "nfn");
  EXPECT_EQ(import::identifier("hall"), "nhall");
  EXPECT_EQ(import::identifier(std::string(70, 'x')).size(), 63u);
  EXPECT_EQ(import::cutIdentifier(std::string(60, 'x') + "_y", 61), std::string(60, 'x'));
}

} // namespace
