#pragma once
// Private to compiler/ast/: ANTLR's parse (AntlrParse.cpp) hands its tree to CstAntlr.cpp's
// conversion, whose CST the AST sink lowers (AstLower.cpp's lowerTree): the oracle's AST
// comes from ANTLR's tree through the one lowering. ANTLR types stay in compiler/ast/.
#include "ast/Cst.h"

#include "FabricParser.h"

#include <string_view>
#include <vector>

namespace fabc::cst {

// ANTLR's tokens and tree (a file it parsed without an error) as a CST, node for node.
void fromAntlr(std::string_view text, const std::vector<antlr4::Token *> &tokens,
               fabc_antlr::FabricParser::FileContext *tree, Tree &out);

} // namespace fabc::cst
