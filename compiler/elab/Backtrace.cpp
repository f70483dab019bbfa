// The instantiation backtrace: notes on a diagnostic reported while elaborating a
// template instance or a loop body, innermost first, like clang's "in instantiation of
// template ... requested here". Frames are pushed by Elab::instantiate and the for loop.
#include "elab/ElabState.h"

namespace fabc::elab {

void Elab::backtrace(Diagnostic *d) {
  if (frames_.empty() || !d || DiagEngine::isFolded(d))
    return;
  size_t n = frames_.size();
  size_t head = n > kBacktraceLimit ? kBacktraceLimit / 2 : n; // innermost shown
  size_t tail = n > kBacktraceLimit ? kBacktraceLimit - head : 0; // outermost shown
  for (size_t k = 0; k < n; ++k) {
    if (k == head && tail) {
      DiagEngine::note(d, {}, fmt::format("(skipping {} contexts in the backtrace)", n - head - tail));
      k = n - tail;
    }
    const Frame &f = frames_[n - 1 - k];
    if (f.tmpl)
      DiagEngine::note(d, f.stmt->name2Range(),
                       fmt::format("in instantiation of template '{}' as '{}' requested here", f.tmpl->name,
                                   ir::shortInstancePath(F.nodeName(f.node))));
    else
      DiagEngine::note(d, f.stmt->nameRange, fmt::format("in iteration {} = {} of this loop", f.stmt->name, f.index));
  }
}

} // namespace fabc::elab
