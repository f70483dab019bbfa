#include "ast/SyntaxWindow.h"

#include <algorithm>

namespace fabc {

void SyntaxWindow::keep(std::string_view source, uint32_t from, uint32_t to) {
  if (to <= from)
    return;
  pieces_.push_back({uint32_t(text_.size()), from, to - from});
  text_.append(source.substr(from, to - from));
}

// A statement the hand parser completed is left out, but not its lines: ANTLR's line
// numbers (the missing-';' rule compares them) stay the file's.
void SyntaxWindow::skip(std::string_view source, uint32_t from, uint32_t to) {
  text_.append(size_t(std::count(source.begin() + from, source.begin() + to, '\n')), '\n');
}

// The end of the text is the end of the file (ANTLR's EOF token), also when the last
// statements were left out.
void SyntaxWindow::end(uint32_t size) { pieces_.push_back({uint32_t(text_.size()), size, 0}); }

namespace {
// Where the window stops: the first end of a statement (';' or '}' at the depth the
// statements start, a '}' with its ';') past the token the parser gave up at and at least
// `budget` bytes past `pos`, not counting the `skipped` bytes of the blocks left out
// there; with the blocks still open there. The end of the file when nothing but the end
// follows it.
struct Stop {
  uint32_t at;
  size_t open;
};
Stop windowEnd(std::string_view source, const hand::Rejection &r, uint32_t pos, uint64_t budget,
               uint64_t skipped) {
  const uint32_t size = uint32_t(source.size());
  size_t open = r.done.size() - 1; // blocks open where the statement starts
  if (size - pos <= budget + skipped)
    return {size, open};
  const ParseLimits unlimited = ParseLimits::unlimited();
  hand::Lexer lex(source.substr(pos), unlimited);
  const uint64_t least = std::max<uint64_t>(budget + skipped, r.at > pos ? r.at - pos : 0);
  uint32_t depth = 0;
  for (hand::Token t = lex.next(); t.kind != hand::End; t = lex.next()) {
    uint32_t cut = 0;
    if (t.kind == hand::LBrace || t.kind == hand::LParen || t.kind == hand::LBrack) {
      ++depth;
    } else if (t.kind == hand::RBrace || t.kind == hand::RParen || t.kind == hand::RBrack) {
      if (depth == 0) { // closes a block open at the statement's start
        if (t.kind == hand::RBrace && open)
          --open;
        continue;
      }
      if (--depth == 0 && t.kind == hand::RBrace && t.end >= least)
        cut = t.end;
    } else if (t.kind == hand::Semi && depth == 0 && t.end >= least) {
      cut = t.end;
    }
    if (!cut)
      continue;
    hand::Token after = lex.next();
    if (after.kind == hand::Semi && source[pos + cut - 1] == '}') {
      cut = after.end;
      after = lex.next();
    }
    return {after.kind == hand::End ? size : pos + cut, open};
  }
  return {size, open}; // no boundary before the end of the file
}
} // namespace

bool SyntaxWindow::make(std::string_view source, const hand::Rejection &r, uint32_t budget) {
  text_.clear();
  pieces_.clear();
  tail_ = cut_ = UINT32_MAX;
  if (r.limited || r.done.empty())
    return false;
  // Each open statement list's completed statements go; the headers that opened the
  // lists (`fabric f {`, `for i in 0..n {`) stay, so ANTLR's rule stack at the statement
  // the hand parser gave up in is the one it has there in the whole file. The blocks of
  // the statements kept go too, but for their braces.
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 8> gaps;
  uint32_t pos = 0; // where the statement list the parser gave up in goes on
  for (const auto &[begin, end] : r.done) {
    if (end > begin)
      gaps.push_back({begin, end});
    pos = std::max(pos, end);
  }
  uint64_t skipped = 0; // after pos
  for (const auto &[begin, end] : r.holes) {
    gaps.push_back({begin, end});
    if (begin >= pos)
      skipped += end - begin;
  }
  std::sort(gaps.begin(), gaps.end());
  const uint32_t size = uint32_t(source.size());
  const Stop stop = windowEnd(source, r, pos, budget, skipped);
  if (gaps.empty() && stop.at == size)
    return false;
  uint32_t at = 0;
  for (const auto &[begin, end] : gaps) {
    keep(source, at, begin);
    skip(source, begin, end);
    at = std::max(at, end);
  }
  keep(source, at, stop.at);
  if (stop.at == size) {
    end(size);
    return true;
  }
  cut_ = stop.at;
  tail_ = uint32_t(text_.size());
  for (size_t i = 0; i < stop.open; ++i)
    text_ += "\n}";
  return true;
}

uint32_t SyntaxWindow::original(uint32_t at) const {
  if (pieces_.empty())
    return at;
  auto it = std::upper_bound(pieces_.begin(), pieces_.end(), at,
                             [](uint32_t x, const Piece &p) { return x < p.at; });
  const Piece &p = it == pieces_.begin() ? pieces_.front() : *(it - 1);
  if (at >= tail_)
    return pieces_.back().from + pieces_.back().len;
  return p.from + std::min(at > p.at ? at - p.at : 0u, p.len);
}

} // namespace fabc
