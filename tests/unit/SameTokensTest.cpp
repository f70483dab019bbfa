// hand::sameTokens (compiler/ast/HandLexer.h): the language server skips the check of an
// edit that changed no token, and maps the last check's places through the runs. The
// runs must map every token of the old text to the same token in the new one, and an
// unchanged line whole; a changed token is never "the same".
#include "ast/AST.h"
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

// The language server resumes the comparison at the parser's last token mark before an
// edit (ast::File::tokenMarks). It must give what the comparison from the start gives,
// runs and all, for any edit: inside a token, a comment opened or closed by it, a string,
// at either end of the text.
namespace {
std::string design() {
  std::string s = "// a design\nfabric f {\n";
  for (int i = 0; i < 600; ++i) {
    s += "  leaf" + std::to_string(i) + " : SN5600; /* block\n comment */ let v" + std::to_string(i) +
         " = " + std::to_string(i) + " m + 1;\n";
    if (i % 7 == 0)
      s += "  // a line comment \"with a quote\n  import \"x" + std::to_string(i) + ".fab\";\n";
  }
  return s + "}\n";
}
} // namespace

TEST(SameTokens, FromTheMarksAsFromTheStart) {
  std::string a = design();
  fabc::ast::Context ctx;
  std::vector<fabc::hand::SyntaxError> errors;
  fabc::ast::File *f = fabc::parseHand(0, a, ctx, fabc::ParseLimits{}, errors);
  ASSERT_NE(f, nullptr);
  llvm::ArrayRef<uint32_t> marks = f->tokenMarks;
  ASSERT_GT(marks.size(), 10u);
  // Every mark is the start of a token the lexer gives from the text's start.
  {
    const fabc::ParseLimits unlimited = fabc::ParseLimits::unlimited();
    fabc::hand::Lexer lx(a, unlimited);
    size_t m = 0;
    for (fabc::hand::Token t = lx.next(); t.kind != fabc::hand::End && m < marks.size(); t = lx.next())
      if (t.begin == marks[m])
        ++m;
    EXPECT_EQ(m, marks.size());
  }
  const char *inserts[] = {" ", "\n", "// x", "/*", "*/", "\"", "x", "1", "  /* c */ ", ";", "m"};
  uint64_t seed = 12345;
  auto rnd = [&](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  int same = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string b = a;
    size_t at = i < 4 ? (i % 2 ? a.size() : 0) : rnd(a.size());
    size_t cut = i % 3 == 0 ? std::min<size_t>(rnd(8), b.size() - at) : 0;
    b.replace(at, cut, i % 5 == 4 ? std::string() : inserts[rnd(std::size(inserts))]);
    std::vector<TextRun> slow, fast;
    bool s = sameTokens(a, b, &slow), q = sameTokens(a, b, &fast, marks);
    ASSERT_EQ(s, q) << "edit at " << at;
    EXPECT_EQ(sameTokens(a, b, nullptr, marks), s);
    if (!s)
      continue;
    ++same;
    ASSERT_EQ(slow.size(), fast.size()) << "edit at " << at;
    for (size_t r = 0; r < slow.size(); ++r) {
      EXPECT_EQ(slow[r].oldBegin, fast[r].oldBegin);
      EXPECT_EQ(slow[r].oldEnd, fast[r].oldEnd);
      EXPECT_EQ(slow[r].newBegin, fast[r].newBegin);
    }
  }
  EXPECT_GT(same, 300); // trivia edits are a good part of the sample
}
