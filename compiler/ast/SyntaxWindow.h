#pragma once
// What ANTLR parses for the diagnostics of a file the hand-written parser rejected: the
// file without the statements the hand parser completed before it gave up (and without
// the statements of the blocks those it keeps hold, but for their braces), and, in a
// large file, cut at a statement boundary about ParseLimits::syntaxWindow bytes past the
// statement it gave up in (closed with '}' per open block). A syntax error in line 3 M
// of a 150 MB file then costs ANTLR a few statements, not the file (~100 bytes of memory
// a source byte: 15 GB). docs/decisions/0060-syntax-errors-in-large-files.md, "Syntax errors in large files".
// compiler/ast/ only.
#include "ast/HandLexer.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fabc {

class SyntaxWindow {
public:
  // False when the window would be the whole file (nothing to leave out).
  bool make(std::string_view source, const hand::Rejection &r, uint32_t budget);

  const std::string &text() const { return text_; }
  // The source offset of an offset in text(); offsets in the synthesized closing braces
  // map to the end of the last piece.
  uint32_t original(uint32_t at) const;
  // Offsets in text() from here on were not in the file (the closing braces of a cut).
  uint32_t synthesizedFrom() const { return tail_; }
  bool cut() const { return cut_ != UINT32_MAX; }
  uint32_t cutAt() const { return cut_; } // the source offset where the window stops

private:
  void keep(std::string_view source, uint32_t from, uint32_t to);
  void skip(std::string_view source, uint32_t from, uint32_t to);
  void end(uint32_t size);

  struct Piece {
    uint32_t at, from, len; // text_[at, at + len) is the source's [from, from + len)
  };
  std::string text_;
  std::vector<Piece> pieces_;
  uint32_t tail_ = UINT32_MAX, cut_ = UINT32_MAX;
};

} // namespace fabc
