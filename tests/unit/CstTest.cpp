// The one parser's concrete syntax tree (compiler/ast/Cst.h): lossless (the file back byte
// for byte from its tokens and their trivia) and walkable in source order.
#include "ast/Cst.h"

#include <gtest/gtest.h>

#include <string>

using namespace fabc;

namespace {

const char *kSource = "// header\nmodel S : switch {  port p[4] { speed = 400 Gb/s; }\n}\r\n"
                      "fabric f {\n  s[2] : S; /* two */\n  link s[0].p -- s[1].p;\n"
                      "  if 1 < 2 { let a = 1; } else if true { } else { }\n}\n\t// tail\n  ";

TEST(Cst, PrintsTheFileBackByteForByte) {
  cst::Tree t;
  ASSERT_TRUE(cst::parse(kSource, ParseLimits{}, t));
  EXPECT_EQ(t.print(), kSource);
  EXPECT_EQ(t.trivia(uint32_t(t.tokens.size() - 1)), "\n  "); // End's: the tail after the last comment
}

TEST(Cst, WalksInSourceOrder) {
  cst::Tree t;
  ASSERT_TRUE(cst::parse(kSource, ParseLimits{}, t));
  std::vector<uint32_t> open;
  uint32_t lastToken = 0, tokensSeen = 0, comments = 0;
  bool ordered = true;
  t.walk([&](uint32_t n) { open.push_back(n); },
         [&](uint32_t tok, uint32_t parent) {
           ordered &= tokensSeen == 0 || tok > lastToken;
           ordered &= !open.empty() && open.back() == parent;
           lastToken = tok;
           ++tokensSeen;
         },
         [&](uint32_t n) {
           ordered &= !open.empty() && open.back() == n;
           open.pop_back();
         });
  for (const cst::Token &k : t.tokens)
    comments += cst::isComment(k.kind);
  EXPECT_TRUE(ordered);
  EXPECT_TRUE(open.empty());
  EXPECT_EQ(tokensSeen + comments, t.tokens.size()); // every token but the comments is a child
  EXPECT_EQ(t.rule(t.root), cst::File);
}

} // namespace
