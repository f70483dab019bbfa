#pragma once
// Parses one source buffer into the AST. The only entry point into ANTLR.
#include "ast/AST.h"

namespace fabc {
class DiagEngine;
class SourceManager;

struct ParseLimits {
  uint32_t maxDepth = 200; // nesting of expressions and blocks
  uint64_t maxTokens = (64ull << 20) / 16; // per file: the parser needs ~0.5 KB a token (FAB-E0005)
};

// Returns nullptr only when the text cannot be tokenized at all; syntax errors are
// reported and yield a partial file (callers stop on errors).
ast::File *parseFile(uint32_t fileId, const SourceManager &sm, DiagEngine &diags,
                     ast::Context &ctx, const ParseLimits &limits = {});

// The length of the number at the start of a QUANTITY token ("400 Gb/s" -> 3, "2.5e-3ms"
// -> 6): where the AST builder and the formatter split the value from its unit.
size_t quantityNumberLength(const std::string &token);
} // namespace fabc
