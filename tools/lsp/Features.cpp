// The requests about a document's contents. Each compiles the document first if it has
// pending edits, then asks the index and the queries of compiler/lsp/.
#include "tools/lsp/Features.h"

#include "ast/Format.h"
#include "lsp/Queries.h"

#include <algorithm>
#include <cctype>
#include <dirent.h>
#include <set>
#include <sys/stat.h>

namespace fabc::lsp {

namespace json = llvm::json;
std::string safeText(std::string s);

namespace {

QueryContext queryOf(Document &d) {
  // While the worker checks the text, the parse's index without the IR and the values.
  return {*d.index, d.comp->sources(), d.full ? &d.comp->fabric() : nullptr, d.full ? d.values.get() : nullptr};
}

// LSP SymbolKind numbers.
int lspSymbolKind(SymbolKind k) {
  switch (k) {
  case SymbolKind::Model: return 5;          // Class
  case SymbolKind::Template: return 12;      // Function
  case SymbolKind::Function: return 12;      // Function
  case SymbolKind::Fabric: return 2;         // Module
  case SymbolKind::PortGroup: return 8;      // Field
  case SymbolKind::Instance: return 13;      // Variable
  case SymbolKind::Param: return 14;         // Constant
  case SymbolKind::Let: return 13;           // Variable
  case SymbolKind::TemplateParam: return 26; // TypeParameter
  case SymbolKind::Building: return 19;      // Object
  default: return 13;
  }
}

// A symbol's identity across programs: the real path of the file that declares it and
// the offset of its name there.
struct Identity {
  std::string file;
  uint32_t offset;
  std::string name;
  SymbolKind kind;
};

Identity identityOf(Server &s, Document &d, uint32_t sym) {
  const Symbol &x = d.index->symbol(sym);
  std::string path = d.comp->sources().path(x.nameRange.begin.file);
  return {x.nameRange.begin.file == d.mainFile ? d.realPath : s.realPathOf(path), x.nameRange.begin.offset, x.name,
          x.kind};
}

// The symbol of `id` in another document's index, NoSymbol if its program does not
// load the declaring file.
uint32_t findIdentity(Server &s, Document &d, const Identity &id) {
  const SourceManager &sm = d.comp->sources();
  for (const Symbol &x : d.index->symbols()) {
    // A file is named by the path it was found at, which differs between programs.
    if (x.kind != id.kind || (x.kind != SymbolKind::File && x.name != id.name) || x.nameRange.begin.offset != id.offset)
      continue;
    uint32_t f = x.nameRange.begin.file;
    std::string real = f == d.mainFile ? d.realPath : s.realPathOf(sm.path(f));
    if (real == id.file)
      return uint32_t(&x - d.index->symbols().data());
  }
  return NoSymbol;
}

// The .fab files of the workspace folders (bounded), skipping hidden and build folders.
void workspaceFiles(const std::string &dir, int depth, size_t max, std::vector<std::string> &out) {
  if (depth > 8 || out.size() >= max)
    return;
  DIR *dd = ::opendir(dir.c_str());
  if (!dd)
    return;
  std::vector<std::string> names;
  while (dirent *e = ::readdir(dd))
    names.push_back(e->d_name);
  ::closedir(dd);
  std::sort(names.begin(), names.end());
  for (const std::string &n : names) {
    if (n.empty() || n[0] == '.' || n == "node_modules" || n.rfind("build", 0) == 0)
      continue;
    std::string full = dir + "/" + n;
    struct stat st;
    if (::lstat(full.c_str(), &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode))
      workspaceFiles(full, depth + 1, max, out);
    else if (S_ISREG(st.st_mode) && n.size() > 4 && n.compare(n.size() - 4, 4, ".fab") == 0 && out.size() < max)
      out.push_back(full);
  }
}

// Every occurrence of the symbol at the cursor: in this document's program, the other
// open documents' and the workspace files' (parsed, not elaborated).
struct Found {
  std::string uri;
  json::Value range;
  uint32_t file, offset;
  bool declaration;
};

std::vector<Found> occurrences(Server &s, Document &d, uint32_t sym) {
  Identity id = identityOf(s, d, sym);
  std::vector<Found> out;
  std::set<std::pair<std::string, uint32_t>> seen;
  auto collect = [&](Document &doc, uint32_t x) {
    for (const Occurrence *o : doc.index->occurrencesOf(x)) {
      std::string uri = s.uriOf(doc, o->range.begin.file);
      if (seen.insert({uri, o->range.begin.offset}).second)
        out.push_back({uri, s.range(doc, o->range), o->range.begin.file, o->range.begin.offset, o->declaration});
    }
  };
  collect(d, sym);
  std::set<std::string> done{d.realPath};
  for (auto &kv : s.documents()) {
    Document &o = *kv.second;
    if (&o == &d || !done.insert(o.realPath).second)
      continue;
    if (o.dirty)
      s.compile(o);
    uint32_t x = findIdentity(s, o, id);
    if (x != NoSymbol)
      collect(o, x);
  }
  std::vector<std::string> files;
  for (const std::string &root : s.workspaceRoots())
    workspaceFiles(root, 0, s.options().maxWorkspaceFiles, files);
  for (const std::string &f : files) {
    std::string real = s.realPathOf(f);
    if (!done.insert(real).second)
      continue;
    Document w;
    w.open = false;
    w.path = f;
    w.realPath = real;
    w.uri = pathToFileUri(f);
    std::string err;
    if (!readSource(f, s.options().compile.maxFileSize, w.text, err))
      continue; // vanished or unreadable: not part of the workspace any more
    // Only a file that mentions the name (an import: the file's name) can refer to it.
    std::string word = id.kind == SymbolKind::File ? id.file.substr(id.file.rfind('/') + 1) : id.name;
    if (w.text.find(word) == std::string::npos)
      continue;
    CompileOptions co = s.options().compile;
    co.parseOnly = true;
    w.comp = std::make_unique<Compilation>(co);
    w.comp->diags().setFormat(DiagFormat::Json);
    size_t slash = f.rfind('/');
    w.comp->run(CompileInput::source(f, w.text, f.substr(0, slash)));
    if (!w.comp->program().main)
      continue; // does not parse: it refers to nothing
    w.mainFile = w.comp->program().main->fileId;
    w.index = std::make_unique<Index>();
    w.index->build(w.comp->program(), w.comp->sources());
    uint32_t x = findIdentity(s, w, id);
    if (x != NoSymbol)
      collect(w, x);
  }
  return out;
}

uint32_t symbolAt(Server &s, Document &d, const json::Object *params) {
  uint32_t off = s.offsetOf(d, params);
  const Occurrence *o = d.index->at({d.mainFile, off});
  return o ? o->symbol : NoSymbol;
}

bool isIdentifier(const std::string &n) {
  static const std::set<std::string> keywords = {
      "import", "model", "port", "source", "estimate", "template", "fabric", "let", "param", "option", "for", "in",
      "if", "else", "link", "group", "place", "building", "span", "policy", "assert", "hall", "true", "false", "fn"};
  if (n.empty() || !(std::isalpha((unsigned char)n[0]) || n[0] == '_') || keywords.count(n))
    return false;
  return std::all_of(n.begin(), n.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
}

// The symbol a rename at the cursor would change, or a RequestError saying why not.
uint32_t renameTarget(Server &s, Document &d, const json::Object *params) {
  uint32_t sym = symbolAt(s, d, params);
  if (sym == NoSymbol)
    throw RequestError{RequestFailed, "no model, template or parameter at this position"};
  const Symbol &x = d.index->symbol(sym);
  if (x.kind != SymbolKind::Model && x.kind != SymbolKind::Template && x.kind != SymbolKind::Param &&
      x.kind != SymbolKind::TemplateParam && x.kind != SymbolKind::Let && x.kind != SymbolKind::Function &&
      x.kind != SymbolKind::FunctionParam)
    throw RequestError{RequestFailed, std::string("a ") + symbolKindName(x.kind) +
                                          " is not renamed here (models, templates, functions, params and lets are)"};
  for (const ast::File *f : d.comp->program().files)
    if (f->fileId == x.nameRange.begin.file && f->catalog)
      throw RequestError{RequestFailed, "'" + x.name + "' is declared in the stdlib (" +
                                            d.comp->sources().path(f->fileId) + "): the catalog is not renamed"};
  return sym;
}

json::Value hover(Server &s, const json::Object *params) {
  Document &d = s.document(params);
  uint32_t off = s.offsetOf(d, params);
  std::string_view text = d.comp->sources().text(d.mainFile);
  std::string md;
  json::Value range = nullptr;
  // A diagnostic code written in the text (a comment, -Wno-...): what `fabc explain` says.
  size_t b = off, e = off;
  auto word = [](char c) { return std::isalnum((unsigned char)c) || c == '-'; };
  while (b > 0 && word(text[b - 1]))
    --b;
  while (e < text.size() && word(text[e]))
    ++e;
  if (auto ex = hoverDiagnosticCode(text.substr(b, e - b))) {
    md = "```\n" + *ex + "```\n";
    range = s.range(d, {{d.mainFile, uint32_t(b)}, uint32_t(e - b)});
  } else if (auto h = hoverAt(queryOf(d), {d.mainFile, off})) {
    md = h->markdown;
    range = s.range(d, h->range);
  }
  // The diagnostics under the cursor, explained.
  std::set<std::string> codes;
  for (const Document::Published &p : d.published)
    if (off >= p.begin && off <= p.end && codes.insert(p.code).second)
      if (auto ex = hoverDiagnosticCode(p.code))
        md += (md.empty() ? "" : "\n---\n") + std::string("```\n") + *ex + "```\n";
  if (md.empty())
    return nullptr;
  json::Object r{{"contents", json::Object{{"kind", "markdown"}, {"value", safeText(md)}}}};
  if (range.kind() != json::Value::Null)
    r["range"] = std::move(range);
  return r;
}

json::Value definition(Server &s, const json::Object *params) {
  Document &d = s.document(params);
  uint32_t sym = symbolAt(s, d, params);
  if (sym == NoSymbol)
    return nullptr;
  const Symbol &x = d.index->symbol(sym);
  if (x.kind == SymbolKind::File)
    return json::Object{{"uri", s.uriOf(d, x.file)}, {"range", s.range(d, {{x.file, 0}, 0})}};
  return s.location(d, x.nameRange);
}

json::Value references(Server &s, const json::Object *params) {
  Document &d = s.document(params);
  uint32_t sym = symbolAt(s, d, params);
  if (sym == NoSymbol)
    return json::Array{};
  bool withDecl = true;
  if (const json::Object *ctx = params->getObject("context"))
    withDecl = ctx->getBoolean("includeDeclaration").getValueOr(true);
  json::Array out;
  for (Found &f : occurrences(s, d, sym))
    if (withDecl || !f.declaration)
      out.push_back(json::Object{{"uri", f.uri}, {"range", std::move(f.range)}});
  return out;
}

json::Value completion(Server &s, const json::Object *params) {
  Document &d = s.document(params);
  uint32_t off = s.offsetOf(d, params);
  std::string_view text = d.comp->sources().text(d.mainFile);
  json::Array items;
  // The statement being typed may not parse: the names come from the last text that did.
  bool stale = d.syntaxErrors && d.lastParsed.index;
  QueryContext q = stale ? QueryContext{*d.lastParsed.index, d.lastParsed.comp->sources(),
                                        &d.lastParsed.comp->fabric(), d.lastParsed.values.get()}
                         : queryOf(d);
  uint32_t file = stale ? d.lastParsed.mainFile : d.mainFile;
  for (Completion &c : completeAt(q, file, text, off, s.searchPathOf(d))) {
    json::Object item{{"label", safeText(c.label)}, {"kind", int(c.kind)}, {"detail", c.detail}};
    if (c.replaceFrom != UINT32_MAX && c.replaceFrom <= off)
      item["textEdit"] = json::Object{{"range", s.range(d, {{d.mainFile, c.replaceFrom}, off - c.replaceFrom})},
                                      {"newText", safeText(c.label)}};
    items.push_back(std::move(item));
  }
  return json::Object{{"isIncomplete", false}, {"items", std::move(items)}};
}

json::Value outlineJson(Server &s, Document &d, const std::vector<OutlineItem> &items) {
  json::Array out;
  for (const OutlineItem &i : items) {
    json::Value r = s.range(d, i.range);
    json::Object o{{"name", safeText(i.name.empty() ? "?" : i.name)},
                   {"detail", safeText(i.detail)},
                   {"kind", lspSymbolKind(i.kind)},
                   {"range", r},
                   {"selectionRange", r}};
    if (!i.children.empty())
      o["children"] = outlineJson(s, d, i.children);
    out.push_back(std::move(o));
  }
  return out;
}

json::Value formatting(Server &s, const json::Object *params) {
  Document &d = s.document(params);
  SourceManager sm;
  DiagEngine diags(sm);
  diags.setFormat(DiagFormat::Json);
  uint32_t id = sm.add(d.path, d.text);
  FormatOptions fo;
  fo.width = s.options().fmtWidth;
  fo.parse.maxTokens = std::max<uint64_t>(s.options().compile.maxFileSize / CompileOptions::kBytesPerToken, 1024);
  std::string out;
  if (d.text.size() > s.options().compile.maxFileSize)
    throw RequestError{RequestFailed, "fabc fmt: the document is larger than --max-file-size"};
  if (!formatSource(id, sm, diags, out, fo)) {
    std::string why = diags.all().empty() ? "it does not parse" : diags.all().front().message;
    throw RequestError{RequestFailed, "fabc fmt: " + why};
  }
  if (out == d.text)
    return json::Array{};
  LineTable lt(d.text);
  Position end = lt.position(d.text, uint32_t(d.text.size()), s.encoding());
  json::Object range{{"start", json::Object{{"line", 0}, {"character", 0}}},
                     {"end", json::Object{{"line", int64_t(end.line)}, {"character", int64_t(end.character)}}}};
  return json::Array{json::Object{{"range", std::move(range)}, {"newText", std::move(out)}}};
}

json::Value rename(Server &s, const json::Object *params) {
  Document &d = s.document(params);
  auto newName = params->getString("newName");
  if (!newName)
    throw RequestError{InvalidParams, "missing newName"};
  if (!isIdentifier(newName->str()))
    throw RequestError{InvalidParams, "'" + newName->str() + "' is not an identifier (or is a keyword)"};
  uint32_t sym = renameTarget(s, d, params);
  const Symbol &x = d.index->symbol(sym);
  if ((x.kind == SymbolKind::Model || x.kind == SymbolKind::Template) &&
      (d.index->findGlobal(SymbolKind::Model, *newName) != NoSymbol ||
       d.index->findGlobal(SymbolKind::Template, *newName) != NoSymbol))
    throw RequestError{RequestFailed, "a model or template named '" + newName->str() + "' exists already"};
  std::map<std::string, json::Array> byUri;
  for (Found &f : occurrences(s, d, sym))
    byUri[f.uri].push_back(json::Object{{"range", std::move(f.range)}, {"newText", newName->str()}});
  json::Object changes;
  for (auto &kv : byUri)
    changes[kv.first] = std::move(kv.second);
  return json::Object{{"changes", std::move(changes)}};
}

json::Value prepareRename(Server &s, const json::Object *params) {
  Document &d = s.document(params);
  uint32_t off = s.offsetOf(d, params);
  const Occurrence *o = d.index->at({d.mainFile, off});
  if (!o)
    return nullptr;
  renameTarget(s, d, params);
  return json::Object{{"range", s.range(d, o->range)}, {"placeholder", d.index->symbol(o->symbol).name}};
}

} // namespace

bool Features::handle(Server &s, const std::string &method, const json::Object *params, json::Value &result) {
  if (method == "textDocument/hover") result = hover(s, params);
  else if (method == "textDocument/definition") result = definition(s, params);
  else if (method == "textDocument/references") result = references(s, params);
  else if (method == "textDocument/completion") result = completion(s, params);
  else if (method == "textDocument/documentSymbol") {
    Document &d = s.document(params);
    result = outlineJson(s, d, outline(*d.index, d.mainFile));
  } else if (method == "textDocument/formatting") result = formatting(s, params);
  else if (method == "textDocument/rename") result = rename(s, params);
  else if (method == "textDocument/prepareRename") result = prepareRename(s, params);
  else return handleIndex(s, method, params, result);
  return true;
}

} // namespace fabc::lsp
