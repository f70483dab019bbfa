// The instantiation backtrace of the passes' diagnostics: the template instances a device
// is in (ir/Instances.h), as notes in the words of the elaborator's (elab/Backtrace.cpp).
#include "diag/Diag.h"
#include "passes/Passes.h"

#include <fmt/format.h>

namespace fabc::passes {

SourceRange devRange(const ir::Fabric &F, uint32_t d) { return {F.devLoc[d], 1}; }

void noteInstances(Diagnostic *dg, const ir::Fabric &F, uint32_t d) {
  if (!dg || DiagEngine::isFolded(dg) || d >= F.devNode.size())
    return;
  const ir::InstanceTree &T = F.instances;
  // The chain, innermost first; at most kLimit notes (the innermost and outermost halves).
  constexpr size_t kLimit = 10;
  std::vector<uint32_t> chain;
  for (uint32_t i = T.instanceOfDevice(d); i != UINT32_MAX; i = T.instances[i].parent)
    chain.push_back(i);
  size_t n = chain.size(), head = n > kLimit ? kLimit / 2 : n, tail = n > kLimit ? kLimit - head : 0;
  for (size_t k = 0; k < n; ++k) {
    if (k == head && tail) {
      DiagEngine::note(dg, {}, fmt::format("(skipping {} contexts in the backtrace)", n - head - tail));
      k = n - tail;
    }
    const ir::TemplateInstance &t = T.instances[chain[k]];
    DiagEngine::note(dg, t.at, fmt::format("in instantiation of template '{}' as '{}' requested here",
                                           F.strings.str(t.tmpl), ir::shortInstancePath(F.nodeName(t.node))));
  }
}

} // namespace fabc::passes
