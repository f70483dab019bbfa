// The one parser's concrete syntax tree (compiler/ast/Cst.h): lossless (the file back byte
// for byte from its tokens and their trivia) and walkable in source order.
#include "ast/AST.h"
#include "ast/Cst.h"
#include "ast/HandLexer.h"
#include "ast/Parser.h"
#include "diag/Diag.h"
#include "diag/Source.h"

#include <gtest/gtest.h>

#include <iterator>
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

// A file with syntax errors still gives the whole tree (docs/decisions/0301-syntax-error-recovery.md):
// every token once, the broken statements as Error nodes, one error per broken statement.
TEST(Cst, RecoversAtStatementsWithErrorNodes) {
  const std::string src = "fabric f {\n  let a = ;\n  link x -- y { speed = ; length = 2 m; }\n"
                          "  leaf : SW\n  spine : SW;\n}\n}}};\nfabric g { let b = 1; }\n";
  cst::Tree t;
  std::vector<hand::SyntaxError> errors;
  EXPECT_FALSE(cst::parse(src, ParseLimits{}, t, true, &errors));
  EXPECT_EQ(t.print(), src);
  ASSERT_FALSE(t.nodes.empty());
  EXPECT_EQ(t.rule(t.root), cst::File);
  // let a = ; | speed = ; | the ';' missing after SW | the stray "}}};" (once)
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(src.substr(errors[0].begin, 1), ";");
  EXPECT_EQ(errors[0].expected, hand::SyntaxError::Expr);
  EXPECT_EQ(src.substr(errors[2].prevBegin, errors[2].prevEnd - errors[2].prevBegin), "SW");
  EXPECT_EQ(src.substr(errors[3].begin, 1), "}");
  uint32_t errorNodes = 0, tokens = 0, links = 0, fabrics = 0;
  t.walk(
      [&](uint32_t n) {
        errorNodes += t.rule(n) == cst::Error;
        links += t.rule(n) == cst::LinkStmt; // its bad property is an Error in its block
        fabrics += t.rule(n) == cst::FabricDecl;
      },
      [&](uint32_t, uint32_t) { ++tokens; }, [](uint32_t) {});
  EXPECT_EQ(errorNodes, 4u);
  EXPECT_EQ(links, 1u);
  EXPECT_EQ(fabrics, 2u);
  EXPECT_EQ(tokens, t.tokens.size());
}

// A file that ends inside a block (typing at its end): one error, and the block is still
// its statement's, with the statements that parse.
TEST(Cst, ABlockTheFileEndsInIsKept) {
  const std::string src = "fabric f {\n  let a = 1;\n  for i in 0..2 {\n    link x.";
  cst::Tree t;
  std::vector<hand::SyntaxError> errors;
  EXPECT_FALSE(cst::parse(src, ParseLimits{}, t, true, &errors));
  EXPECT_EQ(t.print(), src);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].found, hand::End);
  uint32_t fabrics = 0, fors = 0, lets = 0, errorNodes = 0;
  t.walk(
      [&](uint32_t n) {
        fabrics += t.rule(n) == cst::FabricDecl;
        fors += t.rule(n) == cst::ForStmt;
        lets += t.rule(n) == cst::LetStmt;
        errorNodes += t.rule(n) == cst::Error;
      },
      [](uint32_t, uint32_t) {}, [](uint32_t) {});
  EXPECT_EQ(fabrics, 1u);
  EXPECT_EQ(fors, 1u);
  EXPECT_EQ(lets, 1u);
  EXPECT_EQ(errorNodes, 1u); // the link being typed
}

// Recovery always moves on and stays within the nesting limit, whatever the input.
TEST(Cst, RecoveryEndsOnJunk) {
  for (std::string src : {std::string(5000, '}'), std::string(5000, ';'), std::string("fabric f {") + std::string(150, '{'),
                          std::string("let = = = ( [ { ) ] }"), std::string("else else if for in .. --"),
                          // (an error at a token recovery stops at, met again there, once lost both)
                          std::string("fabric f {\n  for l in 0..4 { for fabric s in 0..4 { } }\n}\n")}) {
    cst::Tree t;
    std::vector<hand::SyntaxError> errors;
    EXPECT_FALSE(cst::parse(src, ParseLimits{}, t, true, &errors));
    EXPECT_EQ(t.print(), src);
    EXPECT_FALSE(errors.empty());
  }
}

} // namespace

// The AST sink reads a plain-digits index itself (the explicit files' every index) and
// leaves other spellings to lit::; both parsers must fold each index the same way
// (inline literal of 0..2^32-1, else an Expr), whichever path read it.
TEST(AstLower, IndexLiteralsFoldAlike) {
  const char *src = "fabric f { link a.p[0] -- a.p[4294967295]; link a.p[4294967296] -- a.p[1_000];\n"
                    "  link a.p[007] -- a.p[1e3]; link a.p[12345678901] -- a.p[0042]; }\n";
  struct Want {
    bool inlined;
    uint32_t value;
  } want[] = {{true, 0}, {true, 4294967295u}, {false, 0}, {true, 1000},
              {true, 7}, {false, 0},          {false, 0}, {true, 42}};
  for (ParserEngine engine : {ParserEngine::Auto, ParserEngine::AntlrOnly}) {
    SourceManager sm;
    DiagEngine diags(sm);
    ast::Context ctx;
    uint32_t id = sm.add("t.fab", src);
    ParseLimits limits;
    limits.engine = engine;
    ast::File *f = parseFile(id, sm, diags, ctx, limits);
    ASSERT_TRUE(f && !diags.hasErrors());
    size_t i = 0;
    for (const ast::Stmt *s : f->fabrics[0]->body)
      for (const ast::Path &p : s->paths) {
        const ast::Segment &seg = p.segs[1];
        ASSERT_LT(i, std::size(want));
        EXPECT_EQ(seg.hasLiteral(), want[i].inlined) << "index " << i;
        EXPECT_EQ(seg.index() == nullptr, want[i].inlined) << "index " << i;
        if (want[i].inlined) {
          EXPECT_EQ(seg.literal(), want[i].value) << "index " << i;
        }
        ++i;
      }
    EXPECT_EQ(i, std::size(want));
  }
}

// A block the file ends in, without its '}', keeps its statements (for the editor) and is
// a syntax error; with no statement in it (`{` the last token) the AST sink counted -1
// statements and aborted (found by the mutation parse-diff run).
TEST(AstLower, ABlockCutAtTheEndOfTheFile) {
  for (const char *src : {"fabric f { for k in 0..4 {\n", "fabric f { for k in 0..4 { let a = 1;\n", "fabric f {"}) {
    SourceManager sm;
    DiagEngine diags(sm);
    diags.setFormat(DiagFormat::Json); // collected, not printed
    ast::Context ctx;
    uint32_t id = sm.add("t.fab", src);
    ast::File *f = parseFile(id, sm, diags, ctx, ParseLimits{});
    ASSERT_TRUE(f) << src;
    EXPECT_TRUE(diags.hasErrors()) << src;
    ASSERT_EQ(f->fabrics.size(), 1u) << src;
  }
}

// The AST sink folds a block's statements as they close (the parser keeps no slot per
// statement); a CST replayed through the same sink (lowerTree) hands it every child. Both
// must give the same AST, on broken files too: a block abandoned by a declaration in
// column 1 (its statements go into an Error node), errors inside nested blocks, a block
// cut by the end of the file. The same holds paths, which come to it directly.
TEST(AstLower, FoldedBlocksLowerAsTheWholeTree) {
  const char *srcs[] = {
      kSource,
      "fabric f {\n  a : S;\n  b : S;\n  for i in 0..2 { c[i] : S; link a.p -- b.p; }\n  d : S;\n}\n",
      "fabric f {\n  a : S;\n  b : S;\n  c : S;\nmodel M : switch { }\nfabric g { x : S; y : S; }\n",
      "fabric f {\n  a : S;\n  for i in 0..2 {\n    b : S;\n    c : S;\nfabric g { x : S; }\n  let z = 1;\n",
      "fabric f {\n  a : S;\n  link a.p -- ;\n  b : S;\n  if x { c : S; d e f; g : S; } else { h : S; }\n}\n",
      "let t = 1;\nfabric f { a : S; b : S; for k in 0..4 { let a = 1; let b = 2;\n",
      "template T(n) { for i in 0..n { s[i] : S; } broken ) ; ok : S; }\nfabric f { t : T(2); }\n",
      // Paths, which the parser hands the AST sink directly (pathDirect), every index form.
      "fabric f { link a.p[*] -- b[i + 1].q[1_000]; link a[0].b[x].c -- d.p[12]; group g x = [a.p[(3)], b]; }\n",
      "fabric f { link a.p[ -- b.q; link a. -- b; link a.p[1 -- c; link a.p[1]] -- c; ok : S; }\n",
      "fabric f { place a.p[2] in r.u[4]; link a.p[1e3] -- b.p[12345678901]; link x -- y { len = 3 m; } }\n",
      "fabric f { for i in 0..2 { link a.p[", "fabric f { if x { link a.b.c -- d.p[3", "fabric f { link a.p[2] --",
  };
  for (const char *src : srcs) {
    ast::Context ctx;
    std::vector<hand::SyntaxError> errors;
    ast::File *folded = parseHand(0, src, ctx, ParseLimits{}, errors);
    ASSERT_TRUE(folded) << src;
    cst::Tree t;
    cst::parse(src, ParseLimits{}, t);
    ast::File *whole = ctx.file();
    lowerTree(0, t, ctx, whole);
    EXPECT_EQ(dumpAST(*folded), dumpAST(*whole)) << src;
  }
}
