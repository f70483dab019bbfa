// `fabc parse-diff FILE...` (hidden): the differential test of the two parsers. Each file
// is parsed by the ANTLR parser generated from grammar/Fabric.g4 (the reference) and by
// the hand-written one of the compile path; the two must agree: where ANTLR's builds an
// AST without a diagnostic, the hand-written one builds the same AST (dumpAST, every
// node, field and range); where ANTLR's reports an error, the hand-written one rejects
// the file too (its messages are its own), reports it, and recovers a CST that holds the
// whole file. fmt's hand-written parse tree (compiler/ast/Cst.h) must be ANTLR's, node
// for node and token for token. Exit 1 on a mismatch.
// Driven by tests/lit/parse/differential.test over every .fab of the repository.
#include "Commands.h"
#include "ast/Parser.h"
#include "loader/Imports.h"

#include <cstdio>

namespace fabc::cli {

int parseDiffCommand(Options &o) {
  if (o.inputs.empty())
    return usageError("parse-diff takes one or more .fab files");
  static FILE *devNull = std::fopen("/dev/null", "w"); // the diagnostics are not the point here
  unsigned same = 0, rejected = 0, mismatches = 0, unreadable = 0;
  for (const std::string &path : o.inputs) {
    std::string text, err;
    if (!readSource(path, o.maxFileSize, text, err)) {
      ++unreadable; // past --max-file-size, a directory: neither parser sees it
      continue;
    }
    SourceManager sm;
    uint32_t id = sm.add(path, std::move(text));
    DiagEngine diags(sm);
    diags.setOutput(devNull ? devNull : stderr);
    ParseLimits limits;
    limits.maxTokens = std::max<uint64_t>(o.maxFileSize / 16, 1024);
    ParserComparison c = compareParsers(id, sm, diags, limits);
    if (c.result == ParserComparison::Same || c.result == ParserComparison::RejectedByBoth) {
      ++(c.result == ParserComparison::Same ? same : rejected);
      continue;
    }
    ++mismatches;
    if (c.result == ParserComparison::HandAccepts) {
      fmt::print("MISMATCH {}: the grammar rejects it ({}), the hand-written parser accepts it\n", path, c.antlrError);
      continue;
    }
    if (c.result == ParserComparison::RecoveryBroken) {
      fmt::print("MISMATCH {}: both parsers reject it, but {}\n  antlr:\n{}  hand:\n{}", path, c.antlrError,
                 c.antlrDump, c.handDump);
      continue;
    }
    if (c.result == ParserComparison::HandRejects) {
      fmt::print("MISMATCH {}: the grammar accepts it, the hand-written parser rejects it\n", path);
      continue;
    }
    const std::string &a = c.antlrDump, &b = c.handDump;
    size_t line = 1, i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i])
      line += a[i++] == '\n';
    auto lineAt = [&](const std::string &s) {
      size_t start = s.rfind('\n', i ? i - 1 : 0);
      start = start == std::string::npos || i == 0 ? 0 : start + 1;
      return s.substr(start, s.find('\n', start) - start);
    };
    fmt::print("MISMATCH {}: the ASTs differ at dump line {}\n  antlr: {}\n  hand:  {}\n", path, line, lineAt(a),
               lineAt(b));
  }
  fmt::print("parse-diff: {} files: {} same AST, {} rejected by both, {} unreadable, {} mismatches\n",
             o.inputs.size(), same, rejected, unreadable, mismatches);
  return mismatches ? ExitErrors : ExitOk;
}

} // namespace fabc::cli
