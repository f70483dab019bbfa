#pragma once
// `fabc fmt`: the canonical layout of a Fabric source, computed from the token stream
// (comments included: they live on the lexer's hidden channel) and the parse tree.
// The layout is documented in docs/fmt.md. Formatting is idempotent and never changes
// the meaning: the result is re-lexed and its tokens compared with the input's before
// it is returned.
#include "ast/Parser.h"

#include <cstdint>
#include <string>

namespace fabc {
class DiagEngine;
class SourceManager;

struct FormatOptions {
  unsigned width = 100; // a brace list goes on one line only if the line fits
  unsigned indent = 2;  // spaces per nesting level
  ParseLimits parse;
};

// Formats file `fileId`. False (with diagnostics) if the file does not parse, or if the
// self-check finds that the result would not be the same program (FAB-E0160).
bool formatSource(uint32_t fileId, const SourceManager &sm, DiagEngine &diags, std::string &out,
                  const FormatOptions &opts = {});

} // namespace fabc
