// fabc's replacement of the global operator new: a block past 1 MiB (the IR's
// per-device, per-port and per-link arrays, the elaborator's tables) is mapped for
// itself, aligned to 2 MiB, rounded up to whole 2 MiB and advised to the kernel as
// transparent huge pages, so that filling it takes one page fault per 2 MiB instead of
// one per 4 KiB, and reading it at random misses the TLB far less. At a million GPUs the
// page faults were a quarter of the CPU time. Measurements and alternatives:
// docs/decisions/0471-huge-pages-for-large-blocks.md.
//
// A freed block is kept, up to the bytes keepFreedBlocks allows, and handed to the next
// large request: the smallest kept block that holds it, else a fresh block into which
// mremap moves kept ones, so that their pages are neither copied nor faulted and zeroed
// again. A block of 64 KiB to 1 MiB is a slot of a slab (below): huge pages too, shared.
// Smaller blocks come from malloc. Under a sanitizer, which brings its own operator new,
// the replacement is left out.
#include "HugePages.h"

#include <atomic>
#include <climits>
#include <cstdlib>
#include <cstdint>
#include <mutex>
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
// The size operator new rounds and aligns a large block to, and from which the command
// line's malloc maps a block for itself.
constexpr std::size_t kHugePage = std::size_t(2) << 20;
// Bytes of freed large blocks kept for reuse.
std::atomic<std::size_t> keepLimit{0};
} // namespace

void keepFreedBlocks(std::size_t bytes) { keepLimit.store(bytes, std::memory_order_relaxed); }

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

// One compile, then exit: a block of 2 MiB or more is mapped for itself, instead of
// glibc's dynamic threshold, which after the first such free serves blocks up to its size
// from the heap, where freed ones are left as holes the later, larger arrays do not fit.
// The million-GPU check's peak RSS: 322-329 -> 256-263 MiB (decision 0471, second
// amendment). Up to 256 MiB of freed large blocks are kept for the later passes' arrays:
// the million-GPU check zeroes 206 MiB of fresh huge pages instead of 352, at the same
// peak (third amendment).
void useCommandLineHeap() {
#if defined(__GLIBC__) && defined(FABC_HUGE_PAGES)
  mallopt(M_MMAP_THRESHOLD, int(kHugePage));
#endif
  keepFreedBlocks(std::size_t(256) << 20);
}

void releaseFreeMemory() {
  releaseKeptBlocks();
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}
} // namespace fabc::cli

#ifdef FABC_HUGE_PAGES
namespace {
using fabc::cli::kHugePage;

// The blocks allocateHuge mapped, and the freed ones kept. Fixed arrays: allocating here
// would call operator new again. A request that finds the table full is served by the C
// library as before, and its block freed there.
struct Block {
  char *p;
  std::size_t n;
};
constexpr std::size_t kMaxLive = 4096, kMaxKept = 256;
std::mutex blocksMutex;
Block live[kMaxLive];
std::size_t nLive = 0;
Block kept[kMaxKept];
std::size_t nKept = 0, keptBytes = 0;

// Fresh memory of n bytes (a multiple of kHugePage), aligned to kHugePage and advised as
// huge pages; nullptr when the system has none.
char *mapAligned(std::size_t n) {
  void *r = mmap(nullptr, n + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (r == MAP_FAILED)
    return nullptr;
  char *base = static_cast<char *>(r);
  char *p = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(base) + kHugePage - 1) & ~(kHugePage - 1));
  if (p > base)
    munmap(base, std::size_t(p - base));
  if (std::size_t tail = kHugePage - std::size_t(p - base))
    munmap(p + n, tail);
  (void)madvise(p, n, MADV_HUGEPAGE); // best effort: without THP (EINVAL), small pages
  return p;
}

// Keeps a freed block, or a part of one (blocksMutex held); false when the table is full.
bool keep(Block b) {
  if (nKept == kMaxKept)
    return false;
  kept[nKept++] = b;
  keptBytes += b.n;
  return true;
}

Block takeKept(std::size_t i) {
  const Block b = kept[i];
  kept[i] = kept[--nKept];
  keptBytes -= b.n;
  return b;
}

// A block of n bytes made from the kept ones (blocksMutex held), so that their pages are
// neither faulted nor zeroed again: the smallest that holds n, the rest of it kept; else
// a fresh block of n with the kept ones moved into it, largest first, as many as fit.
// nullptr when none is kept.
char *reuseKept(std::size_t n) {
  if (nKept == 0)
    return nullptr;
  std::size_t fit = nKept;
  for (std::size_t i = 0; i < nKept; ++i)
    if (kept[i].n >= n && (fit == nKept || kept[i].n < kept[fit].n))
      fit = i;
  if (fit != nKept) {
    const Block b = takeKept(fit);
    if (b.n > n && !keep({b.p + n, b.n - n}))
      munmap(b.p + n, b.n - n);
    return b.p;
  }
  char *p = mapAligned(n);
  if (!p)
    return nullptr;
  std::size_t used = 0;
  for (;;) { // every kept block is smaller than n here
    std::size_t best = nKept;
    for (std::size_t i = 0; i < nKept; ++i)
      if (kept[i].n <= n - used && (best == nKept || kept[i].n > kept[best].n))
        best = i;
    if (best == nKept)
      break;
    const Block b = takeKept(best);
    if (mremap(b.p, b.n, b.n, MREMAP_MAYMOVE | MREMAP_FIXED, p + used) == MAP_FAILED) {
      munmap(b.p, b.n); // that stretch of p keeps its fresh pages
      continue;
    }
    used += b.n;
  }
  return p;
}

// Medium blocks, 64 KiB to 1 MiB: the arrays of a design of a few hundred thousand
// devices, and every IR array on its way to 2 MiB by doubling. From the C library they
// were small pages: at a million GPUs 7,000 of the compile's 9,800 page faults, each
// 5-15 us on this project's VMs (decision 0471, fourth amendment). Here a block is a slot
// of its size class (the power of two that holds it) in a slab, a 2 MiB block on huge
// pages cut into slots of one class; a freed slot goes back to its class's list for the
// next request of the class. Slabs are never unmapped: the slots of a class are reused,
// so the slabs hold the most medium blocks ever live at once, in whole huge pages.
constexpr std::size_t kMediumMin = std::size_t(64) << 10, kMediumMax = std::size_t(1) << 20;
constexpr unsigned kClasses = 5; // 64, 128, 256, 512 KiB, 1 MiB
struct FreeSlot {
  FreeSlot *next;
};
FreeSlot *freeSlots[kClasses];
char *slabNext[kClasses], *slabEnd[kClasses];
// The slabs: a slab's base (a multiple of kHugePage) -> its class, open addressing; at
// most half full, so a lookup ends at an empty entry soon. 4,096 slabs are 8 GiB.
constexpr std::size_t kSlabTable = 8192, kMaxSlabs = kSlabTable / 2;
uintptr_t slabBase[kSlabTable];
uint8_t slabClass[kSlabTable];
std::size_t nSlabs = 0;

std::size_t slabHome(uintptr_t base) { return std::size_t((base >> 21) * 0x9E3779B97F4A7C15ull >> 51) % kSlabTable; }

unsigned classOf(std::size_t n) {
  unsigned c = 0;
  while ((kMediumMin << c) < n)
    ++c;
  return c;
}

// A slot for a request of n bytes (kMediumMin <= n <= kMediumMax; blocksMutex held);
// nullptr when no slab can be had (the table is full, or mmap failed).
void *allocateMedium(std::size_t n) {
  const unsigned c = classOf(n);
  const std::size_t size = kMediumMin << c;
  if (FreeSlot *f = freeSlots[c]) {
    freeSlots[c] = f->next;
    return f;
  }
  if (slabNext[c] == slabEnd[c]) {
    if (nSlabs == kMaxSlabs)
      return nullptr;
    char *slab = mapAligned(kHugePage);
    if (!slab)
      return nullptr;
    std::size_t i = slabHome(uintptr_t(slab));
    while (slabBase[i])
      i = (i + 1) % kSlabTable;
    slabBase[i] = uintptr_t(slab);
    slabClass[i] = uint8_t(c);
    ++nSlabs;
    slabNext[c] = slab;
    slabEnd[c] = slab + kHugePage;
  }
  void *p = slabNext[c];
  slabNext[c] += size;
  return p;
}

// True when p is a slot of a slab: it then goes back to its class's list.
bool freeMedium(void *p) {
  const uintptr_t base = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(kHugePage - 1);
  std::lock_guard<std::mutex> lock(blocksMutex);
  for (std::size_t i = slabHome(base); slabBase[i]; i = (i + 1) % kSlabTable)
    if (slabBase[i] == base) {
      auto *f = static_cast<FreeSlot *>(p);
      f->next = freeSlots[slabClass[i]];
      freeSlots[slabClass[i]] = f;
      return true;
    }
  return false;
}

void *allocateHuge(std::size_t n) {
  n = (n + kHugePage - 1) & ~(kHugePage - 1);
  std::lock_guard<std::mutex> lock(blocksMutex);
  if (nLive == kMaxLive) {
    void *p = nullptr;
    if (posix_memalign(&p, kHugePage, n) != 0)
      return nullptr;
    (void)madvise(p, n, MADV_HUGEPAGE);
    return p;
  }
  char *p = reuseKept(n);
  if (!p)
    p = mapAligned(n);
  if (p)
    live[nLive++] = {p, n};
  return p;
}

// True when p is one of allocateHuge's blocks: it is then kept, within the limit, or
// returned to the system.
bool freeHuge(void *p) {
  std::lock_guard<std::mutex> lock(blocksMutex);
  for (std::size_t i = nLive; i-- > 0;) {
    if (live[i].p != p)
      continue;
    const Block b = live[i];
    live[i] = live[--nLive];
    if (keptBytes + b.n > fabc::cli::keepLimit.load(std::memory_order_relaxed) || !keep(b))
      munmap(b.p, b.n);
    return true;
  }
  return false;
}

} // namespace

namespace fabc::cli {
void releaseKeptBlocks() {
  std::lock_guard<std::mutex> lock(blocksMutex);
  for (std::size_t i = 0; i < nKept; ++i)
    munmap(kept[i].p, kept[i].n);
  nKept = keptBytes = 0;
}

std::size_t keptBlockBytes() {
  std::lock_guard<std::mutex> lock(blocksMutex);
  return keptBytes;
}

bool largeBlocksMapped() { return true; }
} // namespace fabc::cli

namespace {
// Past the largest class a block has huge pages of its own (rounded to 2 MiB, at most
// twice the request, as the slots of a class are).
void *allocate(std::size_t n) {
  if (n > kMediumMax)
    return allocateHuge(n);
  if (n >= kMediumMin) {
    std::lock_guard<std::mutex> lock(blocksMutex);
    if (void *p = allocateMedium(n))
      return p;
  }
  return std::malloc(n);
}
} // namespace

void *operator new(std::size_t n) {
  if (n == 0)
    n = 1;
  for (;;) {
    if (void *p = allocate(n))
      return p;
    // Kept blocks hold address space, which a `ulimit -v` counts: give them back first.
    if (fabc::cli::keptBlockBytes() > 0) {
      fabc::cli::releaseKeptBlocks();
      continue;
    }
    std::new_handler h = std::get_new_handler();
    if (!h)
      throw std::bad_alloc();
    h();
  }
}

void *operator new[](std::size_t n) { return ::operator new(n); }

// Only a block aligned to 64 KiB can be a slot (each is aligned to its size), and only one
// aligned to kHugePage allocateHuge's; the C library's rarely are, and those miss the
// tables and go to free().
void operator delete(void *p) noexcept {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (p && !(a & (kMediumMin - 1)) && (freeMedium(p) || (!(a & (kHugePage - 1)) && freeHuge(p))))
    return;
  std::free(p);
}
void operator delete[](void *p) noexcept { ::operator delete(p); }
void operator delete(void *p, std::size_t) noexcept { ::operator delete(p); }
void operator delete[](void *p, std::size_t) noexcept { ::operator delete(p); }
#else
namespace fabc::cli {
void releaseKeptBlocks() {}
std::size_t keptBlockBytes() { return 0; }
bool largeBlocksMapped() { return false; }
} // namespace fabc::cli
#endif
