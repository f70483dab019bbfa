// The instantiation backtrace: notes on a diagnostic reported while elaborating a
// template instance or a loop body, innermost first, like clang's "in instantiation of
// template ... requested here". Frames are pushed by Elab::instantiate and the for loop.
#include "elab/ElabState.h"

namespace fabc::elab {

void Elab::backtrace(Diagnostic *d) {
  size_t n = frames_.size();
  DiagEngine::backtrace(d, n, [&](size_t k) {
    const Frame &f = frames_[n - 1 - k];
    if (f.tmpl)
      DiagEngine::note(d, f.stmt->name2Range(),
                       fmt::format("in instantiation of template '{}' as '{}' requested here", f.tmpl->name,
                                   ir::shortInstancePath(F.nodeName(f.node))));
    else
      DiagEngine::note(d, f.stmt->nameRange(), fmt::format("in iteration {} = {} of this loop", f.stmt->name(), f.index));
  });
}

} // namespace fabc::elab
