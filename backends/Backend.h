#pragma once
// The backend interface. A backend reads the Fabric IR and the analyses (never the AST),
// holds no rule (its checks are in compiler/checks/, run before it), and streams its
// files through an OutputDir (backends/OutputDir.h), which stages them and puts them in
// place only when the whole build succeeded: no half-written output, ever.
#include "analysis/Analyses.h"
#include "backends/OutputDir.h"
#include "ir/Fabric.h"

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fabc {
class DiagEngine;

struct BuildInfo {
  std::string input;   // the main source file, as given
  std::string version; // fabc version
};

struct BackendContext {
  const ir::Fabric &F;
  const Analyses &an; // computed once; the backend's output checks have run (checks/OutputChecks.h)
  OutputDir &out;
  DiagEngine &diags;
  const BuildInfo &info;
  const SourceManager *sources = nullptr; // the design's source text, to quote diagnostics (report)
};

struct Backend {
  const char *name;
  const char *description;
  bool (*run)(BackendContext &ctx);
  bool byDefault; // part of the default --emit set
  bool inAll = true; // part of --emit=all (the IR dump is not: it is for testing passes)
  unsigned reads = 0; // the analyses it reads (Analyses::Need), computed ahead together
};

// Every backend, in a fixed order.
const std::vector<Backend> &backends();
const Backend *findBackend(std::string_view name);

// Shared by backends: CSV field quoting, and JSON streamed into a file.
std::string csvField(std::string_view s);
inline JsonWriter::Sink sinkTo(OutFile &f) {
  return [&f](std::string_view s) { f.write(s); };
}

} // namespace fabc
