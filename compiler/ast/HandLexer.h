#pragma once
// The hand-written lexer of the compile path: grammar/Fabric.g4's lexer rules, by hand,
// over the source text in place (no copy, no token objects: a token is a kind and two
// offsets, and only the current one and one of lookahead exist). compiler/ast/ only.
// It follows ANTLR's rules exactly (longest match, the first rule on a tie, keywords
// before ID, QUANTITY's predicate at every candidate end): the differential test
// (`fabc parse-diff`, tests/lit/parse/differential.test) holds it to that.
#include "ast/LexicalChecks.h"
#include "ast/Parser.h"

#include <llvm/ADT/SmallVector.h>

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace fabc::hand {

enum Tok : uint8_t {
  End, Id, Number, Quantity, PercentLit, String, Bad,
  // Keywords (the grammar's literal tokens spelt like an ID).
  KwImport, KwFn, KwModel, KwPort, KwSource, KwEstimate, KwTemplate, KwFabric, KwLet, KwParam, KwOption, KwFor,
  KwIn, KwIf, KwElse, KwLink, KwGroup, KwPlace, KwBuilding, KwSpan, KwPolicy, KwAssert, KwHall, KwTrue,
  KwFalse,
  // Punctuation and operators.
  Semi, Colon, LBrace, RBrace, LBrack, RBrack, LParen, RParen, Comma, Assign, DotDot, Dot, DashDash,
  Minus, Bang, Star, Slash, Percent, Plus, Lt, Le, Gt, Ge, EqEq, Ne, AndAnd, OrOr, Question,
  // The hidden channel, returned only by a lexer made with `comments` (fmt).
  LineComment, BlockComment,
};

// A syntax error the one parser (SyntaxParser.h) met and recovered from: the token it did
// not expect, the token before it, and every token it tried there. reportSyntaxErrors
// words it (docs/decisions/0301-syntax-error-recovery.md).
struct SyntaxError {
  static constexpr uint64_t Many = uint64_t(1) << 63; // more alternatives than a message lists
  static constexpr uint64_t Expr = uint64_t(1) << 62; // an expression
  uint32_t begin, end;         // the unexpected token (End: the file's size, twice)
  uint32_t prevBegin, prevEnd; // the token before it (a missing ';' is reported after it)
  uint64_t expected;           // (1 << Tok) per token tried there, Expr, Many
  Tok found;
};

// A word the lexer reads as a keyword, not an ID (fabc import escapes these).
bool isKeyword(std::string_view word);
// A character an ID may hold: [a-zA-Z0-9_] (where a whole word starts and ends).
bool isIdChar(char c);

struct Token {
  Tok kind = End;
  uint32_t begin = 0, end = 0; // byte offsets, [begin, end)
};

// A binary operator's precedence in the grammar's left-recursive `expr`, whose
// alternatives ANTLR numbers from the tightest (unary 8 ... ?: 1); 0: not one. Both
// hand-written parsers climb by it.
inline int binaryPrecedence(Tok k) {
  switch (k) {
  case Star: case Slash: case Percent: return 7;
  case Plus: case Minus: return 6;
  case Lt: case Le: case Gt: case Ge: return 5;
  case EqEq: case Ne: return 4;
  case AndAnd: return 3;
  case OrOr: return 2;
  default: return 0;
  }
}

class Lexer {
public:
  Lexer(std::string_view text, const ParseLimits &limits, bool comments = false)
      : s_(text), limits_(limits), comments_(comments) {}
  // Resumes at `pos`, a token's start: the lexer keeps nothing else between tokens
  // (its counts only feed the limits).
  void seek(uint32_t pos) { pos_ = pos; }
  // The next token on the default channel (white space skipped; comments too, unless the
  // lexer was made with `comments`: then they come back as LineComment and BlockComment,
  // the grammar's hidden channel, which `fabc fmt` keeps). A token the
  // grammar would report (a bad character, too many tokens, too deep a nesting) comes
  // back as Bad: the caller leaves such a file to the ANTLR parser's diagnostics.
  Token next() {
    Tok k = lex();
    Token t{k, begin_, pos_};
    // The ANTLR driver's limits, counted the same way: scanLexical reports them.
    if (s_.size() >= limits_.maxTokens && tokens_ > limits_.maxTokens) {
      limited_ = true;
      t.kind = Bad;
      return t;
    }
    if (k != End && nesting_.add(nestClass(k), limits_.maxDepth) != NestingCount::No) {
      limited_ = true;
      t.kind = Bad;
    }
    return t;
  }
  // True once a Bad token came from a limit (tokens, nesting), not from the text.
  bool limited() const { return limited_; }

  // How a token counts towards the nesting limit (LexicalChecks.h).
  static NestClass nestClass(Tok k) {
    switch (k) {
    case LParen: case LBrack: return NestClass::Open;
    case RParen: case RBrack: return NestClass::Close;
    case LBrace: return NestClass::LBrace;
    case RBrace: return NestClass::RBrace;
    case Semi: return NestClass::Semi;
    case Minus: case Bang: case Question: case Plus: case Star: case Slash: case AndAnd: case OrOr:
      return NestClass::Op;
    default: return NestClass::Other;
    }
  }

private:
  // The next token's kind; the token is [begin_, pos_). Only the kind is returned: a
  // Token returned from this out-of-line call was stored in two pieces and reloaded
  // whole, a store-forwarding stall on every token (half the lexer's time).
  Tok lex();
  uint32_t quantityEnd(uint32_t begin, uint32_t numberEnd) const;

  std::string_view s_;
  uint32_t pos_ = 0;
  const ParseLimits &limits_;
  bool comments_ = false;
  uint64_t tokens_ = 0;         // every token, comments too (FAB-E0005 counts them)
  NestingCount nesting_; // as the ANTLR driver counts (FAB-E0006)
  bool limited_ = false;
  // The last token's start. Not beside pos_: next() read the two as one 8-byte load of
  // lex()'s two 4-byte stores, which cannot be forwarded (the same stall again).
  uint32_t begin_ = 0;
};

// A stretch of text at [oldBegin, oldEnd] in one text and at newBegin in another, the
// same length in both: offsets in it map by the difference of the two starts.
struct TextRun {
  uint32_t oldBegin, oldEnd, newBegin;
};

// The lengths of the longest common prefix of `a` and `b` and of the longest common
// suffix that does not overlap it: the one region where two texts differ (compared in
// blocks first: 4.6 MB in about a millisecond).
std::pair<size_t, size_t> commonEnds(std::string_view a, std::string_view b);

// True if `a` and `b` are the same tokens (kinds and spellings, comments and white space
// aside): the same program, its places shifted. False at a token the lexer refuses. The
// language server skips the check of an edit that only touched comments or white space.
// `runs`, if given, receives the tokens' places: each run, from a token's start to a
// later token's end, is where consecutive tokens keep one shift from `a` to `b`.
// `marks`, if given, are token starts in `a` where a lexer may resume (ast::File::
// tokenMarks): the tokens are then compared only from the last mark before the first byte
// that differs up to the first token inside the text both share at their ends, so an
// edit of a 4.6 MB text costs its neighbourhood, not two lexes of the whole (same result,
// same runs).
bool sameTokens(std::string_view a, std::string_view b, std::vector<TextRun> *runs = nullptr,
                llvm::ArrayRef<uint32_t> marks = {});

} // namespace fabc::hand

namespace fabc {
class DiagEngine;
namespace cst {
struct Tree;
}
// The one hand-written parser (SyntaxParser.h) with the AST sink (AstLower.cpp): the AST of
// every statement that parses, and in `errors` the syntax errors it recovered from (the
// statements they broke are left out). nullptr at a token the lexer refuses (a bad
// character, a limit: scanLexical reports those as the whole file's parse does).
ast::File *parseHand(uint32_t fileId, std::string_view text, ast::Context &ctx, const ParseLimits &limits,
                     std::vector<hand::SyntaxError> &errors);
// The AST of a CST (ANTLR's, converted: --parser=antlr) into `file`, through the same sink.
void lowerTree(uint32_t fileId, const cst::Tree &t, ast::Context &ctx, ast::File *file);
// Each error as FAB-E0002: "unexpected X, expected Y" at X, or "expected ';' after X".
void reportSyntaxErrors(uint32_t fileId, std::string_view text, const std::vector<hand::SyntaxError> &errors,
                        DiagEngine &diags);
} // namespace fabc
