#pragma once
// Parses one source buffer into the AST. The only entry point into ANTLR.
#include "ast/AST.h"

#include <cstdint>
#include <string>

namespace fabc {
class DiagEngine;
class SourceManager;

// Which parser builds the AST. Both build the same AST from a file the grammar accepts
// and reject the same files (`fabc parse-diff` and the fuzz target prove it); each words
// its syntax errors its own way.
enum class ParserEngine : uint8_t {
  Auto,      // the hand-written parser (SyntaxParser.h), with its syntax errors
  HandOnly,  // the hand-written parser only: nullptr, without a diagnostic, on a file it rejects
  AntlrOnly, // the ANTLR parser generated from grammar/Fabric.g4 (--parser=antlr)
};

struct ParseLimits {
  uint32_t maxDepth = 200; // nesting of expressions and blocks
  uint64_t maxTokens = (64ull << 20) / 16; // per file: ANTLR's parser needs ~0.5 KB a token (FAB-E0005)
  ParserEngine engine = ParserEngine::Auto;

  // No token or nesting limit (maxDepth * 20 still fits): for a lexer pass over a whole
  // file that keeps nothing per token. hand::Lexer keeps a reference: name the value.
  static ParseLimits unlimited() {
    ParseLimits l;
    l.maxTokens = UINT64_MAX;
    l.maxDepth = UINT32_MAX / 64;
    return l;
  }
};

// Returns nullptr only when the text cannot be tokenized at all; syntax errors are
// reported and yield the file's statements that parse (callers stop on errors; the
// language server indexes them).
ast::File *parseFile(uint32_t fileId, const SourceManager &sm, DiagEngine &diags,
                     ast::Context &ctx, const ParseLimits &limits = {});

// The AST as text, every field and range of every node: what `fabc parse-diff` compares.
std::string dumpAST(const ast::File &file);

// The differential test of the two parsers on one file (`fabc parse-diff`, the fuzz
// target): ANTLR's is the reference. Where it builds an AST without an error the
// hand-written one must build the same (dumpAST); where it reports one, the hand-written
// one must reject the file too (the messages may differ). fmt's parse tree (Cst.h) is
// compared the same way: the hand-written CST parser's with ANTLR's tree, converted
// (appended to the dumps). The hand parser's recovery is held to its own rules: on a file
// both reject, the compile path reports a syntax error (or a lexical one) and its CST
// still prints the file back byte for byte. `limits.engine` is ignored.
struct ParserComparison {
  // RecoveryBroken: both reject it, but the compile path reports no syntax error, or the
  // recovered CST does not print the file back.
  enum Result : uint8_t { Same, RejectedByBoth, HandRejects, HandAccepts, AstsDiffer, RecoveryBroken } result;
  std::string antlrError;           // HandAccepts: ANTLR's first diagnostic
  std::string antlrDump, handDump;  // AstsDiffer: the two dumps; RecoveryBroken: what is wrong
};
ParserComparison compareParsers(uint32_t fileId, const SourceManager &sm, DiagEngine &diags, ParseLimits limits);

// The length of the number at the start of a QUANTITY token ("400 Gb/s" -> 3, "2.5e-3ms"
// -> 6): where the AST builder and the formatter split the value from its unit.
size_t quantityNumberLength(std::string_view token);

// Well-formed UTF-8 (RFC 3629), no NUL; else false and the offset of the first bad byte.
bool validUtf8(std::string_view s, size_t *bad);
} // namespace fabc
