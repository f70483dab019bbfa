// fabc's operator new for large blocks (tools/fabc/HugePages.cpp): freed blocks kept and
// handed out again without new pages. The content a reused block still holds is what
// shows that its pages were moved, not faulted in and zeroed.
#include "HugePages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

#include <sys/resource.h>

namespace {
using namespace fabc::cli;
constexpr std::size_t MiB = std::size_t(1) << 20;

// A large block from operator new, written whole.
char *alloc(std::size_t n, char fill) {
  auto *p = static_cast<char *>(::operator new(n));
  std::memset(p, fill, n);
  return p;
}

// A block freed, and its address: compared afterwards, never read.
uintptr_t freeBlock(char *p) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  ::operator delete(p);
  return a;
}
uintptr_t address(const char *p) { return reinterpret_cast<uintptr_t>(p); }

class Heap : public ::testing::Test {
protected:
  void SetUp() override {
    if (!largeBlocksMapped())
      GTEST_SKIP() << "operator new is the sanitizer's";
    releaseKeptBlocks();
  }
  void TearDown() override {
    keepFreedBlocks(0);
    releaseKeptBlocks();
  }
  static bool filled(const char *p, std::size_t n, char fill) {
    for (std::size_t i = 0; i < n; i += 4096)
      if (p[i] != fill)
        return false;
    return p[n - 1] == fill;
  }
};

TEST_F(Heap, LargeBlocksAreAlignedToHugePages) {
  char *p = alloc(3 * MiB, 1);
  EXPECT_EQ(address(p) % (2 * MiB), 0u);
  ::operator delete(p);
  EXPECT_EQ(keptBlockBytes(), 0u) << "nothing is kept unless asked";
}

TEST_F(Heap, AFreedBlockServesTheNextRequestOfItsSize) {
  keepFreedBlocks(64 * MiB);
  const uintptr_t freed = freeBlock(alloc(4 * MiB, 7));
  EXPECT_EQ(keptBlockBytes(), 4 * MiB);
  char *q = static_cast<char *>(::operator new(3 * MiB + 1)); // rounds up to 4 MiB
  EXPECT_EQ(address(q), freed);
  EXPECT_TRUE(filled(q, 3 * MiB + 1, 7)) << "the same pages, not fresh ones";
  EXPECT_EQ(keptBlockBytes(), 0u);
  ::operator delete(q);
}

TEST_F(Heap, ALargerKeptBlockIsSplit) {
  keepFreedBlocks(64 * MiB);
  const uintptr_t freed = freeBlock(alloc(8 * MiB, 3));
  char *q = static_cast<char *>(::operator new(2 * MiB));
  EXPECT_EQ(address(q), freed);
  EXPECT_EQ(keptBlockBytes(), 6 * MiB) << "the rest stays kept";
  char *r = static_cast<char *>(::operator new(6 * MiB));
  EXPECT_EQ(address(r), freed + 2 * MiB);
  EXPECT_TRUE(filled(r, 6 * MiB, 3));
  ::operator delete(q);
  ::operator delete(r);
  EXPECT_EQ(keptBlockBytes(), 8 * MiB);
}

TEST_F(Heap, SmallerKeptBlocksAreMovedIntoALargerOne) {
  keepFreedBlocks(64 * MiB);
  char *a = alloc(4 * MiB, 'a');
  char *b = alloc(2 * MiB, 'b');
  ::operator delete(a);
  ::operator delete(b);
  char *c = static_cast<char *>(::operator new(10 * MiB));
  EXPECT_EQ(keptBlockBytes(), 0u);
  EXPECT_TRUE(filled(c, 4 * MiB, 'a')) << "the largest first";
  EXPECT_TRUE(filled(c + 4 * MiB, 2 * MiB, 'b'));
  std::memset(c, 0, 10 * MiB); // all of it usable, the fresh part too
  ::operator delete(c);
}

TEST_F(Heap, TheLimitIsKept) {
  keepFreedBlocks(6 * MiB);
  char *a = alloc(4 * MiB, 1), *b = alloc(4 * MiB, 1);
  ::operator delete(a);
  ::operator delete(b);
  EXPECT_EQ(keptBlockBytes(), 4 * MiB);
  releaseKeptBlocks();
  EXPECT_EQ(keptBlockBytes(), 0u);
}

// Kept blocks hold address space: under a `ulimit -v` that leaves no room for a request
// besides them, they are given back and the request is served. Exits 0 when so.
[[noreturn]] void allocateUnderALimit() {
  keepFreedBlocks(512 * MiB);
  ::operator delete(alloc(64 * MiB, 1));
  if (keptBlockBytes() != 64 * MiB)
    std::exit(2);
  std::size_t vmKb = 0;
  if (FILE *f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f))
      if (std::sscanf(line, "VmSize: %zu kB", &vmKb) == 1)
        break;
    std::fclose(f);
  }
  rlimit lim{vmKb * 1024 + 40 * MiB, RLIM_INFINITY};
  if (vmKb == 0 || setrlimit(RLIMIT_AS, &lim) != 0)
    std::exit(3);
  alloc(100 * MiB, 2); // fits once the 64 MiB are returned
  std::exit(keptBlockBytes() == 0 ? 0 : 4);
}

TEST_F(Heap, KeptBlocksYieldToAnAddressSpaceLimit) {
  EXPECT_EXIT(allocateUnderALimit(), ::testing::ExitedWithCode(0), "");
}

TEST_F(Heap, SmallBlocksAndVectorsAreUnaffected) {
  keepFreedBlocks(64 * MiB);
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < 3'000'000; ++i) // grows through blocks of 2 MiB and more
    v.push_back(i);
  for (uint32_t i = 0; i < v.size(); i += 4099)
    ASSERT_EQ(v[i], i);
  std::vector<int> small(100, 5);
  EXPECT_EQ(small[99], 5);
}

// work('x') on a thread of its own while work('y') runs here: both must hold.
template <class Work> void inTwoThreads(Work work) {
  bool first = false, second = false;
  std::thread t([&] { first = work('x'); });
  second = work('y');
  t.join();
  EXPECT_TRUE(first);
  EXPECT_TRUE(second);
}

// Blocks of 64 KiB to 1 MiB are slots of a size class in slabs of huge pages.
TEST_F(Heap, AMediumBlockIsASlotOfItsClass) {
  constexpr std::size_t KiB = 1024;
  char *p = alloc(100 * KiB, 'm'); // the 128 KiB class
  EXPECT_EQ(address(p) % (128 * KiB), 0u) << "a slot is aligned to its size";
  const uintptr_t freed = freeBlock(p);
  char *q = static_cast<char *>(::operator new(120 * KiB));
  EXPECT_EQ(address(q), freed) << "the freed slot serves the next request of its class";
  // (past its first bytes, which held the free list's link)
  EXPECT_TRUE(filled(q + 4096, 100 * KiB - 4096, 'm')) << "the same pages, not fresh ones";
  char *other = alloc(300 * KiB, 'o'); // the 512 KiB class: never the 128 KiB slot
  EXPECT_EQ(address(other) % (512 * KiB), 0u);
  EXPECT_NE(address(other) & ~uintptr_t(2 * MiB - 1), address(q) & ~uintptr_t(2 * MiB - 1))
      << "each slab holds one class";
  EXPECT_EQ(keptBlockBytes(), 0u) << "slots are not kept blocks";
  ::operator delete(q);
  ::operator delete(other);
}

TEST_F(Heap, PastTheLargestClassABlockHasHugePagesOfItsOwn) {
  char *p = alloc(MiB + 1, 1);
  EXPECT_EQ(address(p) % (2 * MiB), 0u);
  ::operator delete(p);
  char *below = alloc(64 * 1024 - 16, 2); // below the smallest class: the C library's
  EXPECT_TRUE(filled(below, 64 * 1024 - 16, 2));
  ::operator delete(below);
}

TEST_F(Heap, ThreadsShareTheSlabs) {
  auto work = [](char fill) {
    std::vector<char *> live;
    bool ok = true;
    for (int round = 0; round < 2000; ++round) {
      std::size_t n = (std::size_t(64) << (round % 5)) * 1024 - std::size_t(round % 3) * 1000;
      char *p = static_cast<char *>(::operator new(n));
      std::memset(p, fill, n);
      live.push_back(p);
      if (live.size() > 8) { // free an older one, after checking nobody wrote over it
        for (std::size_t i = 0; i < 4096 && ok; i += 512)
          ok = live.front()[i] == fill;
        ::operator delete(live.front());
        live.erase(live.begin());
      }
    }
    for (char *p : live)
      ::operator delete(p);
    return ok;
  };
  inTwoThreads(work);
}

TEST_F(Heap, ThreadsShareTheKeptBlocks) {
  keepFreedBlocks(256 * MiB);
  auto work = [](char fill) {
    for (int round = 0; round < 200; ++round) {
      std::size_t n = (std::size_t(round % 7) + 1) * MiB + 12345;
      char *p = static_cast<char *>(::operator new(n));
      std::memset(p, fill, n);
      bool ok = true;
      for (std::size_t i = 0; i < n; i += 4096)
        ok &= p[i] == fill;
      ::operator delete(p);
      if (!ok)
        return false;
    }
    return true;
  };
  inTwoThreads(work);
}
} // namespace
