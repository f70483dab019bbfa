// Large blocks on transparent huge pages (HugePages.cpp, decision 0471).
#pragma once

#include <cstddef>

namespace fabc::cli {
// Up to this many bytes of freed large blocks are kept for the next large requests
// instead of going back to the system (0, the default: none). The command line keeps
// 256 MiB, the language server 1 GiB (a compilation's worth at a million GPUs and more).
void keepFreedBlocks(std::size_t bytes);
// The language server's heap (docs/decisions/0471-huge-pages-for-large-blocks.md, amendment): one arena, blocks up to
// 32 MiB from the heap and freed pages kept, so that each compile reuses the last one's
// pages instead of faulting in new ones. Call before any thread starts.
void useServerHeap();
// The command line's heap: blocks past 1 MiB mapped on their own, and up to 256 MiB of
// freed ones kept; blocks of 64 KiB to 1 MiB are slots in slabs of huge pages (both
// always, in the server too: HugePages.cpp). Call before any thread starts; useServerHeap
// replaces it.
void useCommandLineHeap();
// Returns the kept blocks to the system.
void releaseKeptBlocks();
// For tests: the bytes kept, and whether operator new is fabc's (not under a sanitizer).
std::size_t keptBlockBytes();
bool largeBlocksMapped();
// Returns the kept blocks and the heap's free pages to the system (the server calls it
// when idle).
void releaseFreeMemory();
} // namespace fabc::cli
