// The instantiation backtrace of the passes' diagnostics: the template instances a device
// is in, or whose bodies made a link (ir/Instances.h), as notes in the words of the
// elaborator's (elab/Backtrace.cpp).
#include "diag/Diag.h"
#include "passes/Passes.h"

#include <fmt/format.h>

namespace fabc::passes {

SourceRange devRange(const ir::Fabric &F, uint32_t d) { return {F.devLoc[d], 1}; }

SourceRange linkRange(const ir::Fabric &F, uint32_t l) { return {F.linkLoc(l), 4}; }

namespace {
// The notes for the instance `inner` and the instances around it, innermost first.
void noteChain(Diagnostic *dg, const ir::Fabric &F, uint32_t inner) {
  const ir::InstanceTree &T = F.instances;
  std::vector<uint32_t> chain; // innermost first
  for (uint32_t i = inner; i != UINT32_MAX; i = T.instances[i].parent)
    chain.push_back(i);
  DiagEngine::backtrace(dg, chain.size(), [&](size_t k) {
    const ir::TemplateInstance &t = T.instances[chain[k]];
    DiagEngine::note(dg, t.at, fmt::format("in instantiation of template '{}' as '{}' requested here",
                                           F.strings.str(t.tmpl), ir::shortInstancePath(F.nodeName(t.node))));
  });
}
} // namespace

void noteInstances(Diagnostic *dg, const ir::Fabric &F, uint32_t d) {
  if (!dg || DiagEngine::isFolded(dg) || d >= F.devNode.size())
    return;
  noteChain(dg, F, F.instances.instanceOfDevice(d));
}

void noteLinkInstances(Diagnostic *dg, const ir::Fabric &F, uint32_t l) {
  if (!dg || DiagEngine::isFolded(dg) || l >= F.numLinks())
    return;
  noteChain(dg, F, F.instances.instanceOfLink(l));
}

} // namespace fabc::passes
