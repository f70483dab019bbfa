// fabc backends, fabc version and fabc completion.
#include "Commands.h"

#include "backends/Backend.h"

namespace fabc::cli {

int backendsCommand(Options &) {
  for (const Backend &b : backends())
    fmt::print("{:<10} {}{}\n", b.name, b.description, b.byDefault ? " [default]" : "");
  return ExitOk;
}

// Like clang's "InstalledDir:": where this fabc takes its stdlib from.
int versionCommand(Options &) {
  fmt::print("fabc {}\n", FABC_VERSION);
  std::vector<std::string> dirs = stdlibDirs();
  fmt::print("stdlib: {}\n", dirs.empty() ? std::string("(not found)") : dirs.front());
  return ExitOk;
}

int completionCommand(Options &o) {
  std::string script = o.inputs.size() == 1 ? completionScript(o.inputs[0]) : "";
  if (script.empty())
    return usageError("completion takes one shell: bash or zsh");
  fmt::print("{}", script);
  return ExitOk;
}

} // namespace fabc::cli
