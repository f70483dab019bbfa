// fabc's replacement of the global operator new: a block of 2 MiB or more (the IR's
// per-device, per-port and per-link arrays, the elaborator's tables) is taken aligned to
// 2 MiB, rounded up to whole 2 MiB, and advised to the kernel as transparent huge pages,
// so that filling it takes one page fault per 2 MiB instead of one per 4 KiB. At a
// million GPUs the page faults were a quarter of the CPU time. The language server turns
// it off: there a long-lived heap kept twice the memory. Measurements and alternatives:
// docs/decisions/0471-huge-pages-for-large-blocks.md.
//
// The memory still comes from the C library (posix_memalign, malloc) and goes back
// through free, so every operator delete stays as it is. Under a sanitizer, which brings
// its own operator new, the replacement is left out.
#include "HugePages.h"

#include <atomic>
#include <climits>
#include <cstdlib>
#include <new>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define FABC_HUGE_PAGES 1
#include <sys/mman.h>
#endif

namespace fabc::cli {
namespace {
std::atomic<bool> hugePages{true};
// The size operator new rounds and aligns a large block to, and from which the command
// line maps a block for itself.
constexpr std::size_t kHugePage = std::size_t(2) << 20;
} // namespace

void setHugePages(bool on) { hugePages.store(on, std::memory_order_relaxed); }

// A server compiles the same design again and again. With glibc's defaults its worker
// thread gets an arena of its own, every block past the (dynamic) mmap threshold is
// mapped anew, and free memory is trimmed: each compile of the million-GPU bench design
// took ~50,000 fresh page faults. Kept in one heap, the next compile reuses the pages the
// last one freed (5,000 faults; 0471's amendment has the measurements). The heap then
// stays at its high-water mark while the editor works; releaseFreeMemory, when the
// server is idle, gives it back.
void useServerHeap() {
#ifdef __GLIBC__
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's upper bound on 64-bit
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

// One compile, then exit: a block of 2 MiB or more is mapped for itself and unmapped when
// freed, instead of glibc's dynamic threshold, which after the first such free serves
// blocks up to its size from the heap, where freed ones are left as holes the later,
// larger arrays do not fit. The million-GPU check's peak RSS: 322-329 -> 256-263 MiB, page
// faults 14,753 -> 11,484 (decision 0471, second amendment).
void useCommandLineHeap() {
#if defined(__GLIBC__) && defined(FABC_HUGE_PAGES)
  mallopt(M_MMAP_THRESHOLD, int(kHugePage));
#endif
}

void releaseFreeMemory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}
} // namespace fabc::cli

#ifdef FABC_HUGE_PAGES
namespace {
using fabc::cli::kHugePage;

void *allocateHuge(std::size_t n) {
  n = (n + kHugePage - 1) & ~(kHugePage - 1);
  void *p = nullptr;
  if (posix_memalign(&p, kHugePage, n) != 0)
    return nullptr;
  (void)madvise(p, n, MADV_HUGEPAGE); // best effort: without THP (EINVAL), small pages
  return p;
}

} // namespace

void *operator new(std::size_t n) {
  if (n == 0)
    n = 1;
  for (;;) {
    bool huge = n >= kHugePage && fabc::cli::hugePages.load(std::memory_order_relaxed);
    if (void *p = huge ? allocateHuge(n) : std::malloc(n))
      return p;
    std::new_handler h = std::get_new_handler();
    if (!h)
      throw std::bad_alloc();
    h();
  }
}

void *operator new[](std::size_t n) { return ::operator new(n); }
#endif
