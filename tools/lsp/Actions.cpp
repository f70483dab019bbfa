// Requests that edit or fold rather than ask: code actions (the quick fixes of the
// diagnostics' fix-its, docs/decisions/0311-fix-its.md) and folding ranges (blocks and
// comments, from the concrete syntax tree). docs/lsp.md.
#include "tools/lsp/Features.h"

#include "ast/Cst.h"
#include "ast/Parser.h"

#include <algorithm>

namespace fabc::lsp {

namespace json = llvm::json;

namespace {

// The byte offset of a protocol position (`key` of `o`: "start" or "end").
uint32_t offsetAt(Server &s, Document &d, const json::Object &o, const char *key) {
  const json::Object *pos = o.getObject(key);
  if (!pos)
    throw RequestError{InvalidParams, std::string("missing range.") + key};
  json::Object p{{"position", json::Object(*pos)}};
  return s.offsetOf(d, &p);
}

// textDocument/codeAction: a quick fix for each published diagnostic with fix-its whose
// range meets the requested one. Its edit applies all the diagnostic's fix-its at once.
json::Value codeActions(Server &s, const json::Object *params) {
  // Checked: the fix-its come from elaboration's diagnostics, which the worker writes
  // (or those of the last check, published again for a text behind by trivia only: their
  // fix-its were mapped to it then).
  Document &d = s.checkedDocumentOrTrivia(params);
  const json::Object *range = params->getObject("range");
  if (!range)
    throw RequestError{InvalidParams, "missing range"};
  uint32_t from = offsetAt(s, d, *range, "start"), to = offsetAt(s, d, *range, "end");
  if (to < from)
    std::swap(from, to);
  // context.only: the kinds the client wants; a quick fix is "quickfix" (or under it).
  if (const json::Object *ctx = params->getObject("context"))
    if (const json::Array *only = ctx->getArray("only")) {
      bool wanted = false;
      for (const json::Value &k : *only)
        if (auto kind = k.getAsString())
          wanted |= *kind == "quickfix" || *kind == "";
      if (!wanted)
        return json::Array{};
    }
  json::Array out;
  for (const Document::Published &p : d.published) {
    if (p.fixChanges.empty() || p.end < from || p.begin > to)
      continue;
    out.push_back(json::Object{{"title", p.fixTitle},
                               {"kind", "quickfix"},
                               {"diagnostics", json::Array{p.diagnostic}},
                               {"isPreferred", true},
                               {"edit", json::Object{{"changes", json::Object(p.fixChanges)}}}});
  }
  return out;
}

// textDocument/foldingRange: every brace block of the tree that spans lines (the closing
// brace's line stays visible), and comments over several lines (a block comment, or line
// comments on consecutive lines). Lines only: no position encoding is involved.
json::Value foldingRanges(Server &s, const json::Object *params) {
  // Read from the text itself: an older parse (Server::answerStale) serves, as its text
  // is not used.
  Document &d = s.documentOrStale(params);
  std::string_view text = d.stale.on ? std::string_view(d.text) : d.comp->sources().text(d.mainFile);
  cst::Tree tree;
  tree.source = text;
  // After a syntax error (a statement being typed) the tree is still whole, with Error
  // nodes where the text is wrong; only where the lexer stopped (a bad character) is there
  // none: then the braces of the tokens it read.
  cst::parse(text, ParseLimits{}, tree, true);
  bool parsed = !tree.nodes.empty();
  if (!parsed) {
    tree = cst::Tree{};
    tree.source = text;
    cst::lex(text, tree.tokens);
  }
  json::Array out;
  auto fold = [&](uint32_t first, uint32_t last, const char *kind) {
    if (last <= first)
      return;
    json::Object r{{"startLine", first - 1}, {"endLine", last - 1}};
    if (kind)
      r["kind"] = kind;
    out.push_back(std::move(r));
  };
  std::vector<uint32_t> open; // '{' tokens not yet closed
  auto brace = [&](uint32_t t) {
    const cst::Token &tok = tree.token(t);
    if (tok.kind == hand::LBrace)
      open.push_back(t);
    else if (tok.kind == hand::RBrace && !open.empty()) {
      fold(tree.token(open.back()).line, tok.line - 1, nullptr);
      open.pop_back();
    }
  };
  if (parsed)
    tree.walk([](uint32_t) {}, [&](uint32_t t, uint32_t) { brace(t); }, [](uint32_t) {});
  else
    for (uint32_t t = 0; t < tree.tokens.size(); ++t)
      brace(t);
  // Comments: tokens of the array, never children of a node.
  auto lastLine = [&](const cst::Token &t) {
    return t.line + uint32_t(std::count(text.begin() + t.begin, text.begin() + t.end, '\n'));
  };
  for (uint32_t t = 0; t < tree.tokens.size(); ++t) {
    const cst::Token &tok = tree.tokens[t];
    if (tok.kind == hand::BlockComment) {
      fold(tok.line, lastLine(tok), "comment");
    } else if (tok.kind == hand::LineComment) {
      uint32_t u = t;
      while (u + 1 < tree.tokens.size() && tree.tokens[u + 1].kind == hand::LineComment &&
             tree.tokens[u + 1].line == tree.tokens[u].line + 1)
        ++u;
      fold(tok.line, tree.tokens[u].line, "comment");
      t = u;
    }
  }
  // Sorted by start line, as clients fold nested ranges best when given outer first.
  std::stable_sort(out.begin(), out.end(), [](const json::Value &a, const json::Value &b) {
    return *a.getAsObject()->getInteger("startLine") < *b.getAsObject()->getInteger("startLine");
  });
  return out;
}

} // namespace

bool Features::handleActions(Server &s, const std::string &method, const json::Object *params,
                             json::Value &result) {
  if (method == "textDocument/codeAction")
    result = codeActions(s, params);
  else if (method == "textDocument/foldingRange")
    result = foldingRanges(s, params);
  else
    return false;
  return true;
}

} // namespace fabc::lsp
