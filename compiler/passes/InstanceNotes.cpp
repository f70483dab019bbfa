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
  std::vector<uint32_t> chain; // innermost first
  for (uint32_t i = T.instanceOfDevice(d); i != UINT32_MAX; i = T.instances[i].parent)
    chain.push_back(i);
  DiagEngine::backtrace(dg, chain.size(), [&](size_t k) {
    const ir::TemplateInstance &t = T.instances[chain[k]];
    DiagEngine::note(dg, t.at, fmt::format("in instantiation of template '{}' as '{}' requested here",
                                           F.strings.str(t.tmpl), ir::shortInstancePath(F.nodeName(t.node))));
  });
}

} // namespace fabc::passes
