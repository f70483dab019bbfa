// The language server's pieces that a session test reaches only indirectly: framing
// resynchronization, positions in the three encodings, URIs, and the index's scoping.
#include "Compilation.h"
#include "lsp/Index.h"
#include "tools/lsp/Protocol.h"

#include <gtest/gtest.h>

using namespace fabc;
using namespace fabc::lsp;

TEST(LspProtocol, FramingSplitsAndResynchronizes) {
  MessageReader r(100);
  std::string body, err;
  std::string two = frame("{\"a\":1}") + frame("{}");
  // Fed a byte at a time: a message only once it is whole.
  size_t got = 0;
  for (char c : two) {
    r.feed(&c, 1);
    MessageReader::Result res;
    while ((res = r.next(body, err)) != MessageReader::NeedMore) {
      ASSERT_EQ(res, MessageReader::Message);
      EXPECT_EQ(body, got == 0 ? "{\"a\":1}" : "{}");
      ++got;
    }
  }
  EXPECT_EQ(got, 2u);
  // A length past the limit is refused, its body dropped as junk, the next one read.
  std::string s = "Content-Length: 1000\r\n\r\n" + std::string(50, 'x') + frame("{\"b\":2}");
  r.feed(s.data(), s.size());
  EXPECT_EQ(r.next(body, err), MessageReader::BadFraming);
  EXPECT_NE(err.find("more than the limit"), std::string::npos);
  EXPECT_EQ(r.next(body, err), MessageReader::Message);
  EXPECT_EQ(body, "{\"b\":2}");
  // Other headers before Content-Length are fine.
  s = "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}";
  r.feed(s.data(), s.size());
  EXPECT_EQ(r.next(body, err), MessageReader::Message);
  // Megabytes of garbage without a header end: one error, bounded memory.
  std::string junk(1 << 20, 'j');
  r.feed(junk.data(), junk.size());
  EXPECT_EQ(r.next(body, err), MessageReader::BadFraming);
  EXPECT_EQ(r.next(body, err), MessageReader::NeedMore);
  EXPECT_LT(r.buffered(), 10000u);
}

TEST(LspProtocol, PositionsInEachEncoding) {
  std::string text = "ab\n\xC3\xA9\xF0\x9D\x84\x9Ex\r\nlast";
  LineTable lt(text);
  uint32_t x = uint32_t(text.find('x'));
  EXPECT_EQ(lt.position(text, x, Encoding::Utf8).character, 6u);
  EXPECT_EQ(lt.position(text, x, Encoding::Utf16).character, 3u);
  EXPECT_EQ(lt.position(text, x, Encoding::Utf32).character, 2u);
  uint32_t off = 0;
  ASSERT_TRUE(lt.offset(text, {1, 3}, Encoding::Utf16, off));
  EXPECT_EQ(off, x);
  // Past the line's end: the end of the line (before its \r\n); past the last line: no.
  ASSERT_TRUE(lt.offset(text, {1, 99}, Encoding::Utf16, off));
  EXPECT_EQ(off, x + 1);
  EXPECT_FALSE(lt.offset(text, {3, 0}, Encoding::Utf16, off));
}

TEST(LspProtocol, FileUris) {
  EXPECT_EQ(uriToPath("file:///a/b%20c.fab"), "/a/b c.fab");
  EXPECT_EQ(uriToPath("file://localhost/x"), "/x");
  EXPECT_EQ(uriToPath("file://elsewhere/x"), "");
  EXPECT_EQ(uriToPath("untitled:1"), "");
  EXPECT_EQ(uriToPath("file:///a%00b"), "");
  EXPECT_EQ(pathToFileUri("/a/b c#.fab"), "file:///a/b%20c%23.fab");
}

TEST(LspIndex, ScopesAndPaths) {
  const char *src = "model M : switch { port p[4] { speed = 400 Gb/s; } }\n"
                    "template t(n) { leaf[n] : M; let k = n; }\n"
                    "fabric f { let k = 2; x[k] : t(k); link x[0].leaf[0].p[0] -- x[1].leaf[0].p[0]; }\n";
  CompileOptions co;
  co.standardSearchPath = false;
  co.parseOnly = true;
  Compilation c(co);
  c.diags().setFormat(DiagFormat::Json);
  c.run(CompileInput::source("t.fab", src));
  Index ix;
  ix.build(c.program(), c.sources());
  std::string_view text = src;
  auto at = [&](size_t nth, const char *word) {
    size_t p = 0;
    for (size_t i = 0; i <= nth; ++i)
      p = text.find(word, i ? p + 1 : 0);
    const Occurrence *o = ix.at({c.program().main->fileId, uint32_t(p)});
    return o ? &ix.symbol(o->symbol) : nullptr;
  };
  // `k` in the template is the template's let, in the fabric the fabric's.
  const Symbol *tk = at(0, "k = n"), *fk = at(0, "k = 2"), *use = at(0, "k]");
  ASSERT_TRUE(tk && fk && use);
  EXPECT_EQ(use, fk);
  EXPECT_NE(tk, fk);
  // A path: x (fabric instance) . leaf (the template's instance) . p (the model's group).
  const Symbol *leaf = at(1, "leaf"), *p = at(1, "p[0]");
  ASSERT_TRUE(leaf && p);
  EXPECT_EQ(leaf->kind, SymbolKind::Instance);
  EXPECT_EQ(leaf, at(0, "leaf"));
  EXPECT_EQ(p->kind, SymbolKind::PortGroup);
  EXPECT_EQ(ix.occurrencesOf(uint32_t(leaf - ix.symbols().data())).size(), 3u);
}

// The occurrences are in (file, offset) order over several files, each file's
// declarations and uses merged (the walk appends them as separate ascending runs).
TEST(LspIndex, OccurrencesInFileAndOffsetOrder) {
  std::string src = "model M : switch { port p[4] { speed = 400 Gb/s; } }\nfabric f {\n";
  for (int i = 0; i < 300; ++i)
    src += "  a" + std::to_string(i) + " : M;\n";
  for (int i = 0; i + 1 < 300; ++i)
    src += "  link a" + std::to_string(i) + ".p[0] -- a" + std::to_string(i + 1) + ".p[1];\n";
  src += "}\n";
  CompileOptions co;
  co.parseOnly = true; // the stdlib's files are imported by none: the main file only
  Compilation c(co);
  c.diags().setFormat(DiagFormat::Json);
  c.run(CompileInput::source("t.fab", src));
  Index ix;
  ix.build(c.program(), c.sources());
  const auto &occ = ix.occurrences();
  ASSERT_GT(occ.size(), 1500u);
  for (size_t i = 1; i < occ.size(); ++i) {
    const SourceLoc &a = occ[i - 1].range.begin, &b = occ[i].range.begin;
    ASSERT_TRUE(a.file < b.file || (a.file == b.file && a.offset <= b.offset)) << "at " << i;
  }
  // Each instance: its declaration, then its two link ends.
  const Occurrence *decl = ix.at({c.program().main->fileId, uint32_t(src.find("a7 :"))});
  ASSERT_TRUE(decl && decl->declaration);
  EXPECT_EQ(ix.occurrencesOf(decl->symbol).size(), 3u);
}

// Line starts with and without carriage returns (the scan takes a faster path without).
TEST(LspProtocol, LineTableBreaks) {
  for (std::string text : {std::string("a\nbc\n\nd"), std::string("a\r\nbc\r\rd"), std::string("a\nbc\r\n\rd")}) {
    LineTable lt(text);
    ASSERT_EQ(lt.lines(), 4u) << text;
    EXPECT_EQ(text[lt.start(3)], 'd');
    EXPECT_EQ(text[lt.start(1)], 'b');
  }
  EXPECT_EQ(LineTable("").lines(), 1u);
  EXPECT_EQ(LineTable("x\n").lines(), 2u);
  EXPECT_EQ(LineTable("x\r").lines(), 2u);
}
