#pragma once
// Private to compiler/ast/: what the ANTLR parse (AntlrParse.cpp) and the tree's AST
// builder (ASTBuilder.cpp) share. ANTLR types stay in compiler/ast/.
#include "ast/AST.h"
#include "ast/SyntaxWindow.h"

#include "FabricParser.h"

#include <string_view>
#include <vector>

namespace fabc::antlrparse {

// Byte offsets for ANTLR's code-point indices (identical for ASCII files).
class OffsetMap {
public:
  // `window`: `text` is a SyntaxWindow's, and offsets map back to the file's.
  explicit OffsetMap(std::string_view text, const SyntaxWindow *window = nullptr) : window_(window) {
    bool ascii = true;
    for (unsigned char c : text)
      if (c >= 0x80) {
        ascii = false;
        break;
      }
    if (ascii)
      return;
    for (uint32_t i = 0; i < text.size(); ++i)
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
        starts_.push_back(i);
    starts_.push_back(uint32_t(text.size()));
  }
  uint32_t byte(size_t cp) const {
    uint32_t b = inText(cp);
    return window_ ? window_->original(b) : b;
  }
  // The offset in the text parsed (not mapped to the file's).
  uint32_t inText(size_t cp) const {
    if (starts_.empty())
      return uint32_t(cp);
    return cp < starts_.size() ? starts_[cp] : starts_.back();
  }
  bool synthesized(size_t cp) const { return window_ && inText(cp) >= window_->synthesizedFrom(); }

private:
  const SyntaxWindow *window_;
  std::vector<uint32_t> starts_;
};

// The AST of `tree` (a file ANTLR parsed without an error) into `file`.
void build(uint32_t fileId, const OffsetMap &map, ast::Context &ctx, fabc_antlr::FabricParser::FileContext *tree,
           ast::File *file);

} // namespace fabc::antlrparse
