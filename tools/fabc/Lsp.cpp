// fabc lsp: the language server over stdin/stdout (tools/lsp/, docs/lsp.md). The
// command line's compile options (-I, -D, -Werror, -Wno-CODE, limits) apply to every
// document, and the output rules are those `fabc check` runs: the default backends'.
#include "Commands.h"
#include "HugePages.h"

#include "backends/Backend.h"
#include "tools/lsp/Server.h"

#include <unistd.h>

namespace fabc::cli {

int lspCommand(Options &o) {
  if (!o.inputs.empty())
    return usageError("lsp takes no input files (it speaks the Language Server Protocol on stdin and stdout)");
  // A server compiles again and again: the next compile takes the large blocks the last
  // one freed, huge pages and all (decision 0471, third amendment).
  keepFreedBlocks(std::size_t(1) << 30);
  useServerHeap();
  lsp::ServerOptions so;
  so.compile = compileOptions(o, /*allowLibrary=*/true);
  for (const Backend &b : backends())
    if (b.byDefault)
      so.compile.outputs.push_back(b.name);
  so.compile.outputs.insert(so.compile.outputs.end(), o.emit.begin(), o.emit.end());
  // An editor compiles on every pause in typing: unless the command line sets a limit,
  // elaboration stops at a tenth of the batch limits, so that a runaway loop in the
  // buffer answers in about a second (FAB-E0030 says which limit to raise).
  if (!o.limitsSet) {
    so.compile.limits.maxSteps /= 10;
    so.compile.limits.maxDevices /= 10;
    so.compile.limits.maxLinks /= 10;
  }
  so.fmtWidth = o.width;
  so.timeStages = o.timeStages;
  so.configureDiags = [&o](DiagEngine &d) { setupDiags(o, d); };
  so.onIdle = releaseFreeMemory;
  // stdout is the protocol's: nothing else may print there.
  return lsp::runServer(std::move(so), STDIN_FILENO, STDOUT_FILENO);
}

} // namespace fabc::cli
