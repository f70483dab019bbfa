// Requests over the index as a whole: semantic tokens (every resolved name of a document
// with what it names) and workspace symbols (the declarations of the open documents'
// programs). docs/lsp.md.
#include "tools/lsp/Features.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace fabc::lsp {

namespace json = llvm::json;
std::string safeText(std::string s);

namespace {

// The legend (initialize's semanticTokensProvider) and each symbol kind's type in it.
const char *const kTokenTypes[] = {"class", "property", "function", "parameter", "namespace", "variable", "enumMember"};
const char *const kTokenModifiers[] = {"declaration", "readonly", "defaultLibrary"};

int tokenType(SymbolKind k) {
  switch (k) {
  case SymbolKind::Model: return 0;
  case SymbolKind::PortGroup: return 1;
  case SymbolKind::Template: case SymbolKind::Function: return 2;
  case SymbolKind::TemplateParam: case SymbolKind::FunctionParam: case SymbolKind::Param: return 3;
  case SymbolKind::Fabric: return 4;
  case SymbolKind::Let: case SymbolKind::LoopVar: case SymbolKind::Instance: return 5;
  case SymbolKind::Building: return 6;
  default: return -1; // files (an import's string): the grammar colours strings
  }
}

int lspSymbolKindOf(SymbolKind k) {
  switch (k) {
  case SymbolKind::Model: return 5;         // Class
  case SymbolKind::Template: case SymbolKind::Function: return 12; // Function
  case SymbolKind::Fabric: return 2;        // Module
  case SymbolKind::PortGroup: return 8;     // Field
  case SymbolKind::Param: return 14;        // Constant
  case SymbolKind::Building: return 19;     // Object
  default: return 13;                       // Variable
  }
}

json::Value semanticTokens(Server &s, const json::Object *params) {
  Document &d = s.documentOrStale(params);
  const Index &ix = *d.index;
  // From an older parse (Server::answerStale): its places mapped into the current text.
  const bool stale = d.stale.on;
  std::string_view text = stale ? std::string_view(d.text) : d.comp->sources().text(d.mainFile);
  LineTable own;
  if (!stale)
    own = LineTable(text);
  const LineTable &lt = stale ? d.stale.lines : own;
  std::set<uint32_t> catalogFiles;
  for (const ast::File *f : d.comp->program().files)
    if (f->catalog)
      catalogFiles.insert(f->fileId);
  json::Array data;
  // Five numbers a token, at most one token an occurrence: reserved, as a growing
  // json::Array deep-copies its elements (Server::publish).
  data.reserve(5 * ix.occurrences().size());
  uint32_t prevLine = 0, prevChar = 0;
  for (const Occurrence &o : ix.occurrences()) {
    if (o.range.begin.file != d.mainFile || o.range.length == 0)
      continue;
    const Symbol &sym = ix.symbol(o.symbol);
    int type = tokenType(sym.kind);
    if (type < 0)
      continue;
    uint32_t b = o.range.begin.offset, e = b + o.range.length;
    if (stale && !(d.stale.toNew(b, b) && d.stale.toNew(o.range.begin.offset + o.range.length, e)))
      throw StaleMiss{};
    if (e > text.size() || text.substr(b, e - b).find('\n') != std::string_view::npos)
      continue; // a token is on one line
    Position p = lt.position(text, b, s.encoding()), q = lt.position(text, e, s.encoding());
    if (p.line < prevLine || (p.line == prevLine && p.character < prevChar))
      continue; // overlapping (a name indexed twice): the first one holds
    uint32_t mods = (o.declaration ? 1u : 0u) |
                    (sym.kind == SymbolKind::Param || sym.kind == SymbolKind::Let ? 2u : 0u) |
                    (catalogFiles.count(sym.nameRange.begin.file) ? 4u : 0u);
    data.push_back(int64_t(p.line - prevLine));
    data.push_back(int64_t(p.line == prevLine ? p.character - prevChar : p.character));
    data.push_back(int64_t(q.character - p.character));
    data.push_back(type);
    data.push_back(int64_t(mods));
    prevLine = p.line;
    prevChar = p.character;
  }
  return json::Object{{"data", std::move(data)}};
}

// Case-insensitive: every character of the query in order (what editors' pickers match).
bool fuzzy(std::string_view query, std::string_view name) {
  size_t i = 0;
  for (char c : name)
    if (i < query.size() && std::tolower((unsigned char)c) == std::tolower((unsigned char)query[i]))
      ++i;
  return i == query.size();
}

json::Value workspaceSymbols(Server &s, const json::Object *params) {
  auto q = params ? params->getString("query") : llvm::None;
  if (!q)
    throw RequestError{InvalidParams, "missing 'query'"};
  constexpr size_t kMax = 1000;
  json::Array out;
  std::set<std::pair<std::string, uint32_t>> seen; // (path, offset): a file imported by several documents
  std::vector<std::string> uris;
  for (auto &kv : s.documents())
    uris.push_back(kv.first);
  for (const std::string &uri : uris) {
    json::Object p{{"textDocument", json::Object{{"uri", uri}}}};
    Document &d = s.documentOrStale(&p);
    const Index &ix = *d.index;
    for (const Symbol &sym : ix.symbols()) {
      if (out.size() >= kMax)
        break;
      if (sym.kind == SymbolKind::File || sym.kind == SymbolKind::LoopVar || sym.name.empty() ||
          !fuzzy(*q, sym.name))
        continue;
      std::string path = d.comp->sources().path(sym.nameRange.begin.file);
      if (!seen.insert({path, sym.nameRange.begin.offset}).second)
        continue;
      json::Object o{{"name", safeText(sym.name)},
                     {"kind", lspSymbolKindOf(sym.kind)},
                     {"location", s.location(d, sym.nameRange)}};
      if (sym.container != NoSymbol)
        o["containerName"] = safeText(ix.symbol(sym.container).name);
      out.push_back(std::move(o));
    }
  }
  return out;
}

} // namespace

json::Value Features::semanticTokensLegend() {
  json::Array types, mods;
  for (const char *t : kTokenTypes)
    types.push_back(t);
  for (const char *m : kTokenModifiers)
    mods.push_back(m);
  return json::Object{{"legend", json::Object{{"tokenTypes", std::move(types)}, {"tokenModifiers", std::move(mods)}}},
                      {"full", true}};
}

bool Features::handleIndex(Server &s, const std::string &method, const json::Object *params, json::Value &result) {
  if (method == "textDocument/semanticTokens/full")
    result = semanticTokens(s, params);
  else if (method == "workspace/symbol")
    result = workspaceSymbols(s, params);
  else
    return handleActions(s, method, params, result);
  return true;
}

} // namespace fabc::lsp
