// didChange's content changes (tools/lsp/Protocol.h, applyChanges): the one-pass runs must
// give exactly what applying the changes one by one gives, whatever their order, line
// breaks ("\n", "\r\n", a lone "\r") and characters (1- to 4-byte UTF-8, in each
// position encoding); and a lone "\r" ends a line (LSP 3.17).
#include "tools/lsp/Protocol.h"

#include <gtest/gtest.h>

#include <random>

using namespace fabc::lsp;

namespace {
// The reference: each change applied to the text the previous one left.
std::string oneByOne(std::string text, const std::vector<TextChange> &changes, Encoding enc) {
  for (const TextChange &c : changes) {
    if (c.whole) {
      text = std::string(c.text);
      continue;
    }
    LineTable lt(text);
    uint32_t b, e;
    if (!lt.offset(text, c.start, enc, b))
      b = uint32_t(text.size());
    if (!lt.offset(text, c.end, enc, e))
      e = uint32_t(text.size());
    if (e < b)
      e = b;
    text.replace(b, e - b, c.text.data(), c.text.size());
  }
  return text;
}

const char *const kPieces[] = {"a", "bc", "\n", "\r\n", "\r", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", " ", "xyz"};

std::string randomText(std::mt19937 &rng, size_t n) {
  std::string t;
  for (size_t i = 0; i < n; ++i)
    t += kPieces[rng() % (sizeof kPieces / sizeof *kPieces)];
  return t;
}
} // namespace

TEST(LspEdits, ALoneCarriageReturnEndsALine) {
  std::string text = "a\rb\r\nc\nd";
  LineTable lt(text);
  EXPECT_EQ(lt.lines(), 4u);
  Position p = lt.position(text, 2, Encoding::Utf16); // 'b'
  EXPECT_EQ(p.line, 1u);
  EXPECT_EQ(p.character, 0u);
  uint32_t off;
  ASSERT_TRUE(lt.offset(text, {2, 0}, Encoding::Utf16, off));
  EXPECT_EQ(text[off], 'c');
  ASSERT_TRUE(lt.offset(text, {1, 5}, Encoding::Utf16, off)); // past the end: before "\r\n"
  EXPECT_EQ(off, 3u);
  ASSERT_TRUE(lt.offset(text, {0, 5}, Encoding::Utf16, off)); // before the lone "\r"
  EXPECT_EQ(off, 1u);
}

TEST(LspEdits, RunsGiveWhatOneByOneGives) {
  std::mt19937 rng(1234);
  for (int round = 0; round < 3000; ++round) {
    Encoding enc = Encoding(round % 3);
    std::string text = randomText(rng, rng() % 40);
    std::vector<std::string> texts;
    std::vector<TextChange> changes;
    size_t n = 1 + rng() % 8;
    texts.reserve(n);
    // Descending, ascending or random positions, some past a line's end or the text's.
    int order = round % 4;
    uint32_t line = order == 1 ? 12 : 0, ch = order == 1 ? 30 : 0;
    for (size_t i = 0; i < n; ++i) {
      TextChange c;
      texts.push_back(rng() % 3 ? randomText(rng, rng() % 4) : "");
      c.text = texts.back();
      if (order == 0) { // ascending
        line += rng() % 2;
        ch = rng() % 2 ? ch + rng() % 3 : rng() % 4;
      } else if (order == 1) { // descending
        line = line ? line - rng() % 2 : 0;
        ch = ch ? ch - rng() % std::min<uint32_t>(ch + 1, 4) : 0;
      } else {
        line = rng() % 8;
        ch = rng() % 8;
      }
      c.start = {line, ch};
      c.end = rng() % 2 ? c.start : Position{line + (rng() % 3 == 0), uint32_t(rng() % 6)};
      if (c.end.line == c.start.line && c.end.character < c.start.character)
        c.end.character = c.start.character;
      c.whole = rng() % 50 == 0;
      changes.push_back(c);
    }
    std::string got = text;
    ASSERT_TRUE(applyChanges(got, changes, enc));
    ASSERT_EQ(got, oneByOne(text, changes, enc)) << "round " << round;
  }
}

TEST(LspEdits, AReplaceAllOfManyRangesIsOnePass) {
  // 20,000 one-word edits on one 200 KB line and on 20,000 lines, in both orders: the
  // result is checked; the work is linear (a quadratic apply would take minutes).
  for (bool oneLine : {true, false})
    for (bool descending : {true, false}) {
      std::string text;
      for (int i = 0; i < 20000; ++i)
        text += oneLine ? "word " : "word\n";
      std::vector<TextChange> changes;
      for (int k = 0; k < 20000; ++k) {
        int i = descending ? 19999 - k : k;
        TextChange c;
        c.text = "term";
        // Ascending: the previous replacements are as long as the words, so positions
        // in the current text are the original ones.
        c.start = oneLine ? Position{0, uint32_t(5 * i)} : Position{uint32_t(i), 0};
        c.end = {c.start.line, c.start.character + 4};
        changes.push_back(c);
      }
      ASSERT_TRUE(applyChanges(text, changes, Encoding::Utf16));
      EXPECT_EQ(text.find("word"), std::string::npos);
      EXPECT_EQ(text.size(), size_t(20000 * 5));
    }
}

TEST(LspEdits, ARangeThatEndsBeforeItStartsIsRefused) {
  std::string text = "abc\ndef";
  TextChange c;
  c.start = {1, 2};
  c.end = {0, 1};
  EXPECT_FALSE(applyChanges(text, {c}, Encoding::Utf8));
  EXPECT_EQ(text, "abc\ndef");
}
