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
};

} // namespace fabc::lsp
