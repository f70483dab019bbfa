#pragma once
// The IR's structural invariants: the parallel arrays agree in length, every id is in
// range, link ends and port back-references agree. A broken one is a compiler bug, never
// a design error: builds with FABC_VERIFY_IR (Debug, FABC_SANITIZE) check after
// elaboration and after every pass, and abort.
#include "ir/Fabric.h"

#include <string>
#include <vector>

// On in builds without NDEBUG (Debug), with FABC_SANITIZE, or asked for (-DFABC_VERIFY_IR=ON).
#if !defined(FABC_VERIFY_IR) && (!defined(NDEBUG) || defined(FABC_SANITIZE))
#define FABC_VERIFY_IR 1
#endif

namespace fabc::ir {

// One line per broken invariant ("link 3: linkA's port 7 is linked to 5, not 3"), at most
// `limit`; empty when the IR is sound. Linear in devices, ports and links.
std::vector<std::string> verify(const Fabric &F, size_t limit = 20);

// verify(), and on a failure prints the invariants broken after `stage` to stderr and
// aborts.
void verifyOrAbort(const Fabric &F, const char *stage);

} // namespace fabc::ir
