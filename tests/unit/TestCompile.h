#pragma once
// The unit tests compile source text through the library's one entry point.
#include "Compilation.h"

#include <cstdio>
#include <memory>
#include <string>

namespace fabc::test {

struct Built {
  explicit Built(CompileOptions o) : c(std::move(o)), diags(&c.diags()), F(c.mutableFabric()) {}
  Compilation c;
  DiagEngine *diags;
  ir::Fabric &F;
  bool ok = false;
};

// Compiles `text` as "t.fab": no search path (imports fail), diagnostics kept, not printed.
inline std::unique_ptr<Built> compileText(const std::string &text, CompileOptions o = {}) {
  o.standardSearchPath = false;
  auto b = std::make_unique<Built>(std::move(o));
  b->diags->setOutput(std::tmpfile());
  b->ok = b->c.run(CompileInput::source("t.fab", text));
  return b;
}

} // namespace fabc::test
