// fabc backends and fabc version.
#include "Commands.h"

#include "backends/Backend.h"

namespace fabc::cli {

int backendsCommand(Options &) {
  for (const Backend &b : backends())
    fmt::print("{:<10} {}{}\n", b.name, b.description, b.byDefault ? " [default]" : "");
  return ExitOk;
}

int versionCommand(Options &) {
  fmt::print("fabc {}\n", FABC_VERSION);
  return ExitOk;
}

} // namespace fabc::cli
