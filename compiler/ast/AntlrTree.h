#pragma once
// Private to compiler/ast/: what the ANTLR parse (AntlrParse.cpp) and the tree's AST
// builder (ASTBuilder.cpp) share. ANTLR types stay in compiler/ast/.
#include "ast/AST.h"

#include "FabricParser.h"

#include <string_view>
#include <vector>

namespace fabc::antlrparse {

// Byte offsets for ANTLR's code-point indices (identical for ASCII files).
class OffsetMap {
public:
  explicit OffsetMap(std::string_view text) {
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
    if (starts_.empty())
      return uint32_t(cp);
    return cp < starts_.size() ? starts_[cp] : starts_.back();
  }

private:
  std::vector<uint32_t> starts_;
};

// The AST of `tree` (a file ANTLR parsed without an error) into `file`.
void build(uint32_t fileId, const OffsetMap &map, ast::Context &ctx, fabc_antlr::FabricParser::FileContext *tree,
           ast::File *file);

} // namespace fabc::antlrparse
