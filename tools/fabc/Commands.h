#pragma once
// The commands of the command line, one file each, and what they share.
#include "Options.h"

#include <string>
#include <vector>

namespace fabc::cli {

int buildCommand(Options &o);    // Build.cpp
int checkCommand(Options &o);    // Build.cpp
int exportCommand(Options &o);   // Build.cpp
int diffCommand(Options &o);     // Diff.cpp
int verifyCommand(Options &o);   // Verify.cpp
int importCommand(Options &o);   // Import.cpp
int fmtCommand(Options &o);      // Fmt.cpp
int explainCommand(Options &o);  // Explain.cpp
int backendsCommand(Options &o); // Info.cpp
int versionCommand(Options &o);  // Info.cpp
int completionCommand(Options &o); // Info.cpp
int parseDiffCommand(Options &o); // ParseDiff.cpp (hidden: the differential test of the parsers)
int lspCommand(Options &o);      // Lsp.cpp
int sweepCommand(Options &o);    // Sweep.cpp
// The figures sweep can tabulate, space-separated (--columns and its completion).
const char *sweepColumnNames();

// Diagnostics in colour: --color, else on a terminal unless NO_COLOR or TERM=dumb says not.
bool useColor(const Options &o);

// The diagnostic engine as the options ask (format, colour, -Werror, -Wno-, limit).
void setupDiags(const Options &o, DiagEngine &diags);
// The library's options for compiling with these command-line options.
CompileOptions compileOptions(const Options &o, bool allowLibrary);

// Replaces `path` with `text`: writes a temporary file in the same directory, keeps the
// file's permission bits, and renames it over the original. False, with `err`, on failure
// (the original is untouched and the temporary removed).
bool replaceFileAtomically(const std::string &path, const std::string &text, std::string &err);

} // namespace fabc::cli
