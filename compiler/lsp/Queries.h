#pragma once
// What the language server asks the compiler: hover text, completion candidates and the
// outline of a file, from the index (compiler/lsp/Index.h), the IR and the values the
// elaborator recorded. Plain results in byte offsets; the server (lsp/) converts them to
// the protocol's positions and JSON.
#include "lsp/Index.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabc {
struct BindingValues;
class SourceManager;
namespace ir {
struct Fabric;
}
} // namespace fabc

namespace fabc::lsp {

// What a query may read beyond the index: the compiled IR (null when elaboration did not
// get far enough) and the recorded values.
struct QueryContext {
  const Index &index;
  const SourceManager &sm;
  const ir::Fabric *fabric = nullptr; // models declared and devices created
  const BindingValues *values = nullptr;
  // Where the IR's text differs from the index's (a compilation reused across an edit:
  // Compilation::shift); places are mapped through it to compare with the IR's.
  TextShift shift = {};
};

struct Hover {
  std::string markdown;
  SourceRange range; // the name hovered
};
// The hover of the name at `loc`, if it names a symbol.
std::optional<Hover> hoverAt(const QueryContext &q, SourceLoc loc);
// The hover of a diagnostic code written as text ("FAB-E0042", "E0042", "W0101").
std::optional<std::string> hoverDiagnosticCode(std::string_view word);

// LSP's CompletionItemKind numbers, kept here so that the server only copies them.
enum class CompletionKind : uint8_t {
  Text = 1, Function = 3, Field = 5, Variable = 6, Class = 7, Module = 9, Property = 10, Unit = 11, Value = 12,
  Keyword = 14, File = 17, Struct = 22,
};
struct Completion {
  std::string label;
  CompletionKind kind;
  std::string detail;
  uint32_t replaceFrom = UINT32_MAX; // byte offset the item replaces from (else the word)
};
// Candidates at byte `offset` of file `file`, whose text is `text` (the editor's buffer:
// the index may be one edit behind it), with `searchPath` for import paths.
std::vector<Completion> completeAt(const QueryContext &q, uint32_t file, std::string_view text, uint32_t offset,
                                   const std::vector<std::string> &searchPath);

struct OutlineItem {
  std::string name, detail;
  SymbolKind kind;
  SourceRange range;
  std::vector<OutlineItem> children;
};
// The templates, fabrics and models of one file, with their instances and port groups.
std::vector<OutlineItem> outline(const Index &index, uint32_t file);

} // namespace fabc::lsp
