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

bool SyntaxWindow::make(std::string_view source, const hand::Rejection &r, uint32_t budget) {
  text_.clear();
  pieces_.clear();
  tail_ = cut_ = UINT32_MAX;
  if (r.limited || r.done.empty())
    return false;
  // Each open statement list's completed statements go; the headers that opened the
  // lists (`fabric f {`, `for i in 0..n {`) stay, so ANTLR's rule stack at the statement
  // the hand parser gave up in is the one it has there in the whole file.
  uint32_t pos = 0;
  bool leftOut = false;
  for (const auto &[begin, end] : r.done) {
    keep(source, pos, begin);
    if (end > begin) {
      skip(source, begin, end);
      leftOut = true;
    }
    pos = std::max(pos, end);
  }
  const uint32_t size = uint32_t(source.size());
  if (size - pos <= budget) {
    keep(source, pos, size);
    end(size);
    return leftOut;
  }
  // Cut at the first end of a statement (';' or '}' at the depth the statements start,
  // a '}' with its ';') at least `budget` bytes on and past the token it gave up at.
  ParseLimits unlimited;
  unlimited.maxTokens = UINT64_MAX;
  unlimited.maxDepth = 1u << 26;
  hand::Lexer lex(source.substr(pos), unlimited);
  const uint64_t least = std::max<uint64_t>(uint64_t(budget), r.at > pos ? r.at - pos : 0);
  size_t open = r.done.size() - 1; // blocks open where the statement starts
  uint32_t depth = 0, cut = 0;
  for (hand::Token t = lex.next(); t.kind != hand::End; t = lex.next()) {
    if (t.kind == hand::LBrace || t.kind == hand::LParen || t.kind == hand::LBrack) {
      ++depth;
      continue;
    }
    if (t.kind == hand::RBrace || t.kind == hand::RParen || t.kind == hand::RBrack) {
      if (depth == 0) { // closes a block open at the statement's start
        if (t.kind == hand::RBrace && open)
          --open;
        continue;
      }
      --depth;
      if (t.kind != hand::RBrace || depth != 0 || t.end < least)
        continue;
      cut = t.end;
      hand::Token after = lex.next();
      if (after.kind == hand::Semi)
        cut = after.end;
      break;
    }
    if (t.kind == hand::Semi && depth == 0 && t.end >= least) {
      cut = t.end;
      break;
    }
  }
  if (!cut) { // no boundary before the end of the file
    keep(source, pos, size);
    end(size);
    return leftOut;
  }
  keep(source, pos, pos + cut);
  cut_ = pos + cut;
  tail_ = uint32_t(text_.size());
  for (size_t i = 0; i < open; ++i)
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
