// fabc explain: what a diagnostic code means (docs/diagnostics.md has the examples).
#include "Commands.h"

#include <cctype>

namespace fabc::cli {

int explainCommand(Options &o) {
  if (o.list) {
    // One line per code, in DiagCodes.def order: CODE SEVERITY SUMMARY.
    if (!o.inputs.empty())
      return usageError("explain --list takes no code");
    for (size_t i = 0; i < diagCount(); ++i) {
      const DiagInfo &d = diagInfo(DiagCode(i));
      fmt::print("FAB-{} {:<7} {}\n", d.code, d.severity == Severity::Error ? "error" : "warning", d.summary);
    }
    return ExitOk;
  }
  if (o.inputs.size() != 1)
    return usageError("explain takes one diagnostic code, e.g. fabc explain E0042, or --list");
  const DiagInfo *d = findDiag(o.inputs[0]);
  if (!d)
    return usageError("unknown diagnostic code '" + o.inputs[0] + "' (fabc explain --list shows them all)");
  fmt::print("{}", explainText(*d));
  return ExitOk;
}

} // namespace fabc::cli
