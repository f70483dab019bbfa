// Large blocks on transparent huge pages (HugePages.cpp, decision 0471).
#pragma once

namespace fabc::cli {
// On by default; the language server turns it off before it allocates anything large.
void setHugePages(bool on);
} // namespace fabc::cli
