#pragma once
// The checks made on a file's whole token stream before it is parsed: more tokens than
// the limit (FAB-E0005), bad characters (FAB-E0003), brackets or an expression nested
// past the limit (FAB-E0006). The ANTLR driver makes them on ANTLR's tokens; when the
// hand-written parser's lexer refuses a token, the hand-written lexer makes them on the
// whole file (fast, keeping no token), so that they are reported as the whole file's
// parse always has (the first three bad characters, not only the first). compiler/ast/ only.
#include "ast/Parser.h"

#include <cstdint>
#include <string>

namespace fabc {

class DiagEngine;

// How a token counts towards the nesting limit: a recursive descent (ANTLR's) recurses
// once per open bracket and once per operator of a statement's expression.
enum class NestClass : uint8_t { Other, Open, Close, Op, Semi, LBrace, RBrace };

struct NestingCount {
  uint32_t depth = 0, ops = 0;
  enum Over : uint8_t { No, Brackets, Expression };
  Over add(NestClass c, uint32_t maxDepth) {
    if (c == NestClass::Open || c == NestClass::LBrace)
      ++depth;
    else if ((c == NestClass::Close || c == NestClass::RBrace) && depth)
      --depth;
    if (c == NestClass::Semi || c == NestClass::LBrace || c == NestClass::RBrace)
      ops = 0;
    else if (c == NestClass::Op)
      ++ops;
    if (depth > maxDepth)
      return Brackets;
    return ops > maxDepth * 20 ? Expression : No;
  }
};

// What the checks found, at source offsets, in the order the tokens come; report() says
// it the way the parse of the whole file always has: the token limit first, else the
// first three bad characters, else the first nesting past the limit.
struct LexicalFindings {
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t tooMany = kNone; // the first token past the limit
  struct Bad {
    uint32_t at;
    std::string text; // one code point
  };
  Bad bad[3];
  uint32_t badCount = 0;
  uint32_t nested = kNone; // the first token past the nesting limit
  NestingCount::Over nestedHow = NestingCount::No;

  void addBad(uint32_t at, std::string_view text) {
    if (badCount < 3)
      bad[badCount] = {at, std::string(text)};
    ++badCount;
  }
  // True when it reported something (nothing is to be parsed then).
  bool report(DiagEngine &diags, uint32_t file, const ParseLimits &limits) const;
};

namespace hand {
// The checks, by the hand-written lexer, over the whole of `text`.
LexicalFindings scanLexical(std::string_view text, const ParseLimits &limits);
} // namespace hand

} // namespace fabc
