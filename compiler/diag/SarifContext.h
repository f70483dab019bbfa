#pragma once
// What a SARIF log needs beside the diagnostics, set by the command line (Diag.cpp keeps
// it; a separate header so that Diag.h, which nearly every file includes, stays as is).
// Process-wide: the command line compiles one input at a time and prints one log.
#include <string>

namespace fabc {

// Artifact URIs become relative to `root` (an absolute, normalised directory) under the
// uriBaseId SRCROOT, which the run's originalUriBaseIds defines; files outside it get
// absolute file:// URIs. Empty (the default): URIs as the paths were given, no base.
void setSarifRoot(std::string root);

// The input file the diagnostics handed to a DiagReport by the next DiagEngine::finish()
// are about: the artifact of those that have no file (an unreadable input, a -D value).
void setDiagInput(std::string input);

} // namespace fabc
