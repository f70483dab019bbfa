// hand::sameTokens (compiler/ast/HandLexer.h): the language server skips the check of an
// edit that changed no token, and maps the last check's places through the runs. The
// runs must map every token of the old text to the same token in the new one, and an
// unchanged line whole; a changed token is never "the same".
#include "ast/HandLexer.h"

#include <gtest/gtest.h>

using fabc::hand::sameTokens;
using fabc::hand::TextRun;

namespace {
// An old offset through the runs, as the server maps it; -1: inside an edit.
int64_t toNew(const std::vector<TextRun> &runs, uint32_t off) {
  for (const TextRun &r : runs)
    if (off >= r.oldBegin && off <= r.oldEnd)
      return int64_t(r.newBegin) + (off - r.oldBegin);
  return -1;
}

const char *kOld = "fabric f {\n  let x = 1 m + 1;\n}\n";
} // namespace

TEST(SameTokens, CommentsAndWhiteSpaceOnly) {
  std::vector<TextRun> runs;
  std::string now = "// about f\nfabric f {\n  /* metres */\n  let x = 1 m   + 1; // sum\n\n}\n";
  ASSERT_TRUE(sameTokens(kOld, now, &runs));
  std::string_view o = kOld;
  // Every token maps onto its twin.
  for (std::string_view tok : {"fabric", "f {", "let", "x", "1 m", "+ 1;", "}"}) {
    size_t at = o.find(tok);
    int64_t n = toNew(runs, uint32_t(at));
    ASSERT_GE(n, 0) << tok;
    EXPECT_EQ(now.substr(size_t(n), tok.size()), tok);
  }
  // The unchanged line "  let x = 1 m" maps from its indentation on.
  size_t line = o.find("  let");
  EXPECT_EQ(now.substr(size_t(toNew(runs, uint32_t(line))), 5), "  let");
  EXPECT_EQ(toNew(runs, uint32_t(o.size())), int64_t(now.size()));
}

TEST(SameTokens, ATokenChanged) {
  EXPECT_FALSE(sameTokens(kOld, "fabric f {\n  let x = 1 m + 2;\n}\n"));
  EXPECT_FALSE(sameTokens(kOld, "fabric f {\n  let xy = 1 m + 1;\n}\n"));
  EXPECT_FALSE(sameTokens(kOld, "fabric f {\n  let x = 1m + 1;\n}\n")); // 1m is one token, "1 m" too: spelt apart
  EXPECT_FALSE(sameTokens(kOld, "fabric f {\n  let x = 1 m + 1;\n}\n}"));
  EXPECT_FALSE(sameTokens(kOld, "fabric f {\n  let x = 1 m + 1;\n"));
  // Two tokens joined by removing the space between them.
  EXPECT_FALSE(sameTokens("let a = b c;", "let a = bc;"));
  // An edit that opens a comment hides the tokens after it.
  EXPECT_FALSE(sameTokens(kOld, "fabric f {\n  let x = 1 m // + 1;\n}\n"));
}

TEST(SameTokens, StringsAreTokens) {
  EXPECT_FALSE(sameTokens("import \"a b.fab\";", "import \"a  b.fab\";"));
  EXPECT_TRUE(sameTokens("import \"a b.fab\";", "import  \"a b.fab\" ;"));
}
