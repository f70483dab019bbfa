#pragma once
// A unified diff of two texts, line by line (diff -u's format, for `fabc fmt --diff`).
#include <string>

namespace fabc::cli {

// The hunks turning `before` into `after` under the headers "--- oldName" and "+++ newName",
// with `context` unchanged lines around each change; empty if the texts are equal. A text
// that does not end in a newline gets diff's "\ No newline at end of file" marker, so
// patch(1) rebuilds `after` byte for byte.
std::string unifiedDiff(const std::string &before, const std::string &after, const std::string &oldName,
                        const std::string &newName, unsigned context = 3);

} // namespace fabc::cli
