#pragma once
// Two pieces of work at once: `second` on a thread of its own, `first` on the caller's.
// For analyses that each read a finished IR and write only their own results (the
// million-GPU design's measures and output analyses take 30-150 ms each, and the
// machines fabc is measured on have two cores). Both finish before it returns; an
// exception (bad_alloc) from either is rethrown here, the first's before the second's.
// Without a thread to be had, the two run one after the other.
#include <llvm/ADT/STLFunctionalExtras.h>

namespace fabc {
void runConcurrently(llvm::function_ref<void()> first, llvm::function_ref<void()> second);
} // namespace fabc
