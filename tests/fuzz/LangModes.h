#pragma once
// The fuzz target's modes for the language's values and the language server's rename
// and edits (issue 30, classes 2, 7 and 8): tests/fuzz/LangModes.cpp.
#include <cstddef>
#include <cstdint>
#include <string>

namespace fabc_fuzz {
[[noreturn]] void bug(const char *what, const std::string &detail = {});
// CPU seconds this thread has used: the budgets that catch superlinear work are CPU time,
// not wall time, so a loaded machine (CI's, or a build beside the fuzzer) does not trip
// them (a 2.6 s didChange under ASan took over 5 s of wall time beside a 2-core build).
double threadSeconds();
// 0x05: functions and comprehensions that grow values inside the step and depth limits.
void valueGrowthOne(const uint8_t *data, size_t size);
// 0x06: renames of a generated design's lets, parameters and functions; every rename the
// server accepts must elaborate, applied as the client applies it, to the same IR.
void renameOne(const uint8_t *data, size_t size);
// 0x07: didChange with many ranged changes; the server's text must be what applying them
// one by one gives.
void editsOne(const uint8_t *data, size_t size);
// 0x09: edits of a generated design; a compilation that reuses the check before the edit
// (compiler/reuse/) must give what compiling the edited text afresh gives.
void reuseOne(const uint8_t *data, size_t size);
// 0x0a: a generated loop nest of links; run with compiled indices (compiler/elab/LinkNest.cpp)
// it must give the diagnostics and the IR its iterations give as statements.
void linkNestOne(const uint8_t *data, size_t size);
} // namespace fabc_fuzz
