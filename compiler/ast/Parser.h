#pragma once
// Parses one source buffer into the AST. The only entry point into ANTLR.
#include "ast/AST.h"

namespace fabc {
class DiagEngine;
class SourceManager;

struct ParseLimits {
  uint32_t maxDepth = 200; // nesting of expressions and blocks
};

// Returns nullptr only when the text cannot be tokenized at all; syntax errors are
// reported and yield a partial file (callers stop on errors).
ast::File *parseFile(uint32_t fileId, const SourceManager &sm, DiagEngine &diags,
                     ast::Context &ctx, const ParseLimits &limits = {});
} // namespace fabc
