#pragma once
// The requests about a document's contents: hover, definition, references, completion,
// document symbols, formatting and rename.
#include "tools/lsp/Server.h"

namespace fabc::lsp {

struct Features {
  // Answers `method` into `result`; false if the method is not one of these (the server
  // then answers MethodNotFound). Throws RequestError.
  static bool handle(Server &s, const std::string &method, const llvm::json::Object *params,
                     llvm::json::Value &result);
  // Symbols.cpp: semantic tokens and workspace symbols, over the index as a whole.
  static bool handleIndex(Server &s, const std::string &method, const llvm::json::Object *params,
                          llvm::json::Value &result);
  static llvm::json::Value semanticTokensLegend(); // initialize's semanticTokensProvider
  // Actions.cpp: code actions (the diagnostics' fix-its) and folding ranges.
  static bool handleActions(Server &s, const std::string &method, const llvm::json::Object *params,
                            llvm::json::Value &result);
};

} // namespace fabc::lsp
