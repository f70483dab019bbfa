// What ANTLR is given for the diagnostics of a file the hand-written parser rejects
// (compiler/ast/SyntaxWindow.h): the statements the hand parser completed are left out,
// and so are the blocks of the statements kept, but for their lines and braces.
#include "ast/HandLexer.h"
#include "ast/SyntaxWindow.h"

#include <gtest/gtest.h>

#include <string>

using namespace fabc;

namespace {

SyntaxWindow windowOf(const std::string &src, uint32_t budget = 1u << 20, bool *made = nullptr) {
  ast::Context ctx;
  hand::Rejection why;
  EXPECT_EQ(parseHand(0, src, ctx, ParseLimits{}, &why), nullptr) << src;
  SyntaxWindow w;
  bool m = w.make(src, why, budget);
  if (made)
    *made = m;
  return w;
}

TEST(SyntaxWindow, LeavesOutTheBodyOfTheStatementBeforeTheError) {
  // The fabric is the last statement completed before the bad one: ANTLR needs its
  // braces (the token before the error), not the links in it.
  std::string src = "fabric f {\n  let a = 1;\n  let b = 2;\n}\nlink x -> ;\n";
  SyntaxWindow w = windowOf(src);
  EXPECT_EQ(w.text(), "fabric f {\n\n\n}\nlink x -> ;\n");
  EXPECT_FALSE(w.cut()); // nothing follows the bad statement: no "not looked for" note
  EXPECT_EQ(w.original(w.text().find('}')), src.find('}'));
  EXPECT_EQ(w.original(w.text().find("->")), src.find("->"));
}

TEST(SyntaxWindow, KeepsTheOpenBlocksAndEveryBranchsBraces) {
  std::string src = "fabric f {\n  let a = 1;\n  if a > 0 {\n    let b = 1;\n  } else {\n    let c = 2;\n  }\n"
                    "  for i in 0..2 {\n    let d = i;\n    link x -> ;\n  }\n}\n";
  SyntaxWindow w = windowOf(src);
  // `let a` is left out (completed before the last completed statement) but for its
  // line; the if/else is kept without its bodies; the open `for` keeps its header, its
  // last completed statement and the bad one. Every line stays where it was.
  EXPECT_EQ(w.text(), "fabric f {\n\nif a > 0 {\n\n} else {\n\n}\n  for i in 0..2 {\nlet d = i;\n"
                      "    link x -> ;\n  }\n}\n");
}

TEST(SyntaxWindow, CutsLargeFilesAtAStatementEndNotCountingLeftOutBlocks) {
  std::string body;
  for (int i = 0; i < 2000; ++i)
    body += "  let v" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  // The block of 2000 statements is left out; the budget counts from the bad statement.
  std::string tail;
  for (int i = 0; i < 100; ++i)
    tail += "fabric g" + std::to_string(i) + " { }\n";
  std::string src = "fabric f {\n" + body + "}\nlink x -> ;\n" + tail;
  bool made = false;
  SyntaxWindow w = windowOf(src, 100, &made);
  ASSERT_TRUE(made);
  ASSERT_TRUE(w.cut());
  // The first statement end 100 bytes past where the bad statement's list goes on.
  size_t g0 = src.find("fabric g0");
  EXPECT_GT(w.cutAt(), g0 + 50);
  EXPECT_LT(w.cutAt(), g0 + 150);
  EXPECT_EQ(w.text().find("let v1 "), std::string::npos);
  EXPECT_EQ(w.text().substr(w.synthesizedFrom()), ""); // no block open at the top level
}

} // namespace
