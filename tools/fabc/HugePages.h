// Large blocks on transparent huge pages (HugePages.cpp, decision 0471).
#pragma once

namespace fabc::cli {
// On by default; the language server turns it off before it allocates anything large.
void setHugePages(bool on);
// The language server's heap (docs/decisions/0471-huge-pages-for-large-blocks.md, amendment): one arena, blocks up to
// 32 MiB from the heap and freed pages kept, so that each compile reuses the last one's
// pages instead of faulting in new ones. Call before any thread starts.
void useServerHeap();
// The command line's heap: blocks of 2 MiB or more mapped on their own and returned to
// the system when freed (HugePages.cpp). Call before any thread starts; useServerHeap
// replaces it.
void useCommandLineHeap();
// Returns the heap's free pages to the system (the server calls it when idle).
void releaseFreeMemory();
} // namespace fabc::cli
