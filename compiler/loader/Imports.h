#pragma once
// Loads the main file and everything it imports, in dependency order (imports first).
// Imports resolve on the search path only (-I dirs, FABC_PATH, the stdlib) and never
// leave it: absolute paths and '..' are rejected.
#include "ast/AST.h"
#include "ast/Parser.h"

#include <functional>
#include <string>
#include <vector>

namespace fabc {
class DiagEngine;
class SourceManager;

struct LoadOptions {
  std::vector<std::string> searchPath; // in order
  // The directories of searchPath that hold the catalog (the stdlib): files imported from
  // them are marked ast::File::catalog.
  std::vector<std::string> catalogDirs;
  uint64_t maxFileSize = 64ull << 20;
  ParseLimits parse;
  // The text of an imported file that an editor holds unsaved (the language server),
  // by the file's real path: true and `text` set to use it instead of the file on disk.
  // The file must still exist on the search path; the path rules are the same.
  std::function<bool(const std::string &realPath, std::string &text)> overlay;
  bool importsPastSyntaxErrors = false; // CompileOptions::importsPastSyntaxErrors
};

struct LoadedProgram {
  std::vector<ast::File *> files; // dependency order; the main file last
  ast::File *main = nullptr;
  ast::File *defines = nullptr; // -D name=value, as 'param' statements of a "<command line>" file
};

// Reads a file into text; false (and a diagnostic at `from`) on failure.
bool readSource(const std::string &path, uint64_t maxSize, std::string &out, std::string &error);

// -D NAME=VALUE overrides, as the 'param' statements of a "<command line>" file, one
// line each. A VALUE is one expression: text that would add statements, imports or
// declarations is FAB-E0014 (nullptr), never silently part of the design.
ast::File *parseDefines(const std::vector<std::pair<std::string, std::string>> &defines, SourceManager &sm,
                        DiagEngine &diags, ast::Context &ctx);

bool loadProgram(const std::string &mainPath, const LoadOptions &opts, SourceManager &sm,
                 DiagEngine &diags, ast::Context &ctx, LoadedProgram &out);
// The same, with the main file's text given (stdin, tests).
bool loadProgramText(const std::string &name, std::string text, const LoadOptions &opts,
                     SourceManager &sm, DiagEngine &diags, ast::Context &ctx, LoadedProgram &out);

} // namespace fabc
