// The requests about a document's contents. Each compiles the document first if it has
// pending edits, then asks the index and the queries of compiler/lsp/.
#include "tools/lsp/Features.h"

#include "ast/Format.h"
#include "backends/ir/Ir.h"
#include "lsp/Queries.h"

#include <llvm/Support/raw_ostream.h>

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
  return {*d.index, d.comp->sources(), d.full ? &d.comp->fabric() : nullptr, d.full ? d.values.get() : nullptr,
          d.comp->shift()};
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
    w.index = std::make_shared<Index>();
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
  Document &d = s.documentOrStale(params);
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
  Document &d = s.documentOrStale(params);
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
  std::vector<Found> found = occurrences(s, d, sym);
  out.reserve(found.size()); // a growing json::Array deep-copies its elements (Server::publish)
  for (Found &f : found)
    if (withDecl || !f.declaration)
      out.push_back(json::Object{{"uri", f.uri}, {"range", std::move(f.range)}});
  return out;
}

json::Value completion(Server &s, const json::Object *params) {
  Document &d = s.documentOrStale(params);
  uint32_t off = s.offsetOf(d, params);
  std::string_view text = d.comp->sources().text(d.mainFile);
  json::Array items;
  // The statement being typed may not parse: the names come from the statements that do
  // (the parser's recovered tree), or, when the lexer refused the text (an open string),
  // from the last text that parsed.
  bool stale = d.syntaxErrors && d.lastParsed.index && !d.comp->program().main;
  QueryContext q = stale ? QueryContext{*d.lastParsed.index, d.lastParsed.comp->sources(),
                                        &d.lastParsed.comp->fabric(), d.lastParsed.values.get(),
                                        d.lastParsed.comp->shift()}
                         : queryOf(d);
  uint32_t file = stale ? d.lastParsed.mainFile : d.mainFile;
  std::vector<Completion> candidates = completeAt(q, file, text, off, s.searchPathOf(d));
  items.reserve(candidates.size()); // a growing json::Array deep-copies its elements (Server::publish)
  for (Completion &c : candidates) {
    json::Object item{{"label", safeText(c.label)}, {"kind", int(c.kind)}, {"detail", c.detail}};
    if (c.replaceFrom != UINT32_MAX && c.replaceFrom <= off)
      item["textEdit"] = json::Object{{"range", s.range(d, {{d.mainFile, c.replaceFrom}, off - c.replaceFrom})},
                                      {"newText", safeText(c.label)}};
    items.push_back(std::move(item));
  }
  return json::Object{{"isIncomplete", false}, {"items", std::move(items)}};
}

// Written as a stream (Server::rawResult): an explicit file's outline has an item per
// instance, and llvm::json's DOM costs kilobytes an object.
void writeOutline(json::OStream &j, Server &s, Document &d, const std::vector<OutlineItem> &items) {
  j.array([&] {
    for (const OutlineItem &i : items)
      j.object([&] {
        if (!i.children.empty()) {
          j.attributeBegin("children");
          writeOutline(j, s, d, i.children);
          j.attributeEnd();
        }
        j.attribute("detail", safeText(i.detail));
        j.attribute("kind", lspSymbolKind(i.kind));
        j.attribute("name", safeText(i.name.empty() ? "?" : i.name));
        j.attributeBegin("range");
        s.writeRange(j, d, i.range);
        j.attributeEnd();
        j.attributeBegin("selectionRange");
        s.writeRange(j, d, i.range);
        j.attributeEnd();
      });
  });
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

// A digest of the IR dump (backends/ir: every array, no source locations), reading a JSON
// string equal to `from` as `to`: a model or template rename changes those names only.
class IrDigest {
public:
  IrDigest(std::string from, std::string to) : from_(std::move(from)), to_(std::move(to)) {}
  void feed(std::string_view t) {
    for (char c : t) {
      if (!inString_) {
        if (c == '"') {
          inString_ = true;
          cur_.clear();
        } else {
          mix(c);
        }
      } else if (escape_) {
        cur_ += c;
        escape_ = false;
      } else if (c == '\\') {
        cur_ += c;
        escape_ = true;
      } else if (c == '"') {
        inString_ = false;
        const std::string &v = !from_.empty() && cur_ == from_ ? to_ : cur_;
        mix('"');
        for (char x : v)
          mix(x);
        mix('"');
      } else {
        cur_ += c;
      }
    }
  }
  bool operator==(const IrDigest &o) const { return a_ == o.a_ && b_ == o.b_ && n_ == o.n_; }

private:
  void mix(char c) {
    a_ = (a_ ^ uint8_t(c)) * 0x100000001b3ULL;              // FNV-1a
    b_ = (b_ + uint8_t(c) + 1) * 0x9E3779B97F4A7C15ULL + (b_ >> 29); // another, independent
    ++n_;
  }
  std::string from_, to_, cur_;
  bool inString_ = false, escape_ = false;
  uint64_t a_ = 0xcbf29ce484222325ULL, b_ = 0, n_ = 0;
};

std::vector<std::pair<int, int>> diagnosticCodes(Compilation &c) {
  std::vector<std::pair<int, int>> r;
  for (const Diagnostic &dg : c.diags().all())
    r.push_back({int(dg.code), int(dg.severity)});
  std::sort(r.begin(), r.end());
  return r;
}

// Refuses a rename that would change what a name refers to (LSP rename must keep the
// design's meaning): first what the scopes show at once, then the real check, the
// design with the edits applied in memory compiled again: it must elaborate to the same
// IR, with the same diagnostics (by code).
void checkRename(Server &s, Document &d, uint32_t sym, const std::string &newName) {
  const Index &ix = *d.index;
  const Symbol &x = ix.symbol(sym);
  auto refuse = [&](const std::string &why) {
    throw RequestError{RequestFailed, "renaming '" + x.name + "' to '" + newName + "' would change the design: " + why};
  };
  auto lineOf = [&](SourceRange r) { return std::to_string(d.comp->sources().lineCol(r.begin).line); };
  static const std::set<std::string> builtins = {"min", "max", "sum", "ceil", "floor", "round",
                                                 "abs", "log2", "sqrt", "len", "str", "inf"};
  if (newName == x.name)
    return;
  if (x.kind == SymbolKind::Function) {
    if (builtins.count(newName))
      refuse("'" + newName + "' is a built-in function");
    if (ix.findGlobal(SymbolKind::Function, newName) != NoSymbol)
      refuse("a function named '" + newName + "' exists already");
  }
  if (x.kind == SymbolKind::FunctionParam || x.kind == SymbolKind::TemplateParam)
    for (const Symbol &y : ix.symbols())
      if (y.kind == x.kind && y.container == x.container && y.name == newName)
        refuse("another parameter is named '" + newName + "' (line " + lineOf(y.nameRange) + ")");
  if (x.kind != SymbolKind::Model && x.kind != SymbolKind::Template && x.kind != SymbolKind::Function) {
    // Capture: a binding named newName visible at a use would take it over, or this one,
    // renamed, would take over a use of a binding named newName. Bounded: the IR check
    // below sees every case; these only say why sooner.
    size_t budget = 2000;
    auto isGlobal = [&](uint32_t y) {
      const Symbol &s = ix.symbol(y);
      return ix.findGlobal(s.kind, s.name) == y;
    };
    // A binding shadows this one where both are visible if it is the inner one: declared
    // later in the file, and not a global when this one is local.
    auto shadows = [&](uint32_t b) {
      const Symbol &y = ix.symbol(b);
      if (isGlobal(b) && !isGlobal(sym))
        return false;
      return y.nameRange.begin.file != x.nameRange.begin.file || y.nameRange.begin.offset > x.nameRange.begin.offset;
    };
    for (const Occurrence *o : ix.occurrencesOf(sym)) {
      if (o->declaration || budget-- == 0)
        continue;
      for (uint32_t b : ix.bindingsAt(o->range.begin))
        if (b != sym && ix.symbol(b).name == newName && shadows(b))
          refuse("the use on line " + lineOf(o->range) + " would refer to the " + symbolKindName(ix.symbol(b).kind) +
                 " '" + newName + "' of line " + lineOf(ix.symbol(b).nameRange));
    }
    for (uint32_t y = 0; y < ix.symbols().size() && budget > 0; ++y) {
      if (y == sym || ix.symbol(y).name != newName)
        continue;
      for (const Occurrence *o : ix.occurrencesOf(y)) {
        if (o->declaration || budget-- == 0)
          continue;
        std::vector<uint32_t> vis = ix.bindingsAt(o->range.begin);
        if (std::binary_search(vis.begin(), vis.end(), sym))
          refuse("the use of '" + newName + "' on line " + lineOf(o->range) + " would refer to this " +
                 symbolKindName(x.kind) + " instead");
      }
    }
  }
  // The real check. The edits of this document's program, per file, as byte offsets.
  const SourceManager &sm = d.comp->sources();
  std::map<uint32_t, std::vector<uint32_t>> edits;
  for (const Occurrence *o : ix.occurrencesOf(sym))
    edits[o->range.begin.file].push_back(o->range.begin.offset);
  std::map<std::string, std::string> overlay; // real path -> edited text
  std::string mainText;
  for (auto &[file, offs] : edits) {
    std::sort(offs.begin(), offs.end());
    std::string_view t = sm.text(file);
    std::string out;
    size_t pos = 0;
    for (uint32_t off : offs) {
      if (off < pos || off + x.name.size() > t.size() || t.substr(off, x.name.size()) != x.name)
        refuse("the text at an occurrence is not the name (the file changed under the request)");
      out.append(t.substr(pos, off - pos));
      out += newName;
      pos = off + x.name.size();
    }
    out.append(t.substr(pos));
    if (file == d.mainFile)
      mainText = std::move(out);
    else
      overlay[s.realPathOf(sm.path(file))] = std::move(out);
  }
  if (!edits.count(d.mainFile))
    mainText = d.text;
  CompileOptions co = s.options().compile;
  co.allowLibrary = true;
  co.overlay = [&](const std::string &real, std::string &text) {
    auto it = overlay.find(real);
    if (it != overlay.end()) {
      text = it->second;
      return true;
    }
    for (auto &kv : s.documents())
      if (kv.second->realPath == real && !kv.second->oversize) {
        text = kv.second->text;
        return true;
      }
    return false;
  };
  Compilation after(std::move(co));
  if (s.options().configureDiags)
    s.options().configureDiags(after.diags());
  after.diags().setFormat(DiagFormat::Json);
  after.diags().setReport(nullptr);
  size_t slash = d.path.rfind('/');
  try {
    after.run(CompileInput::source(d.path, mainText, slash == std::string::npos ? std::string() : d.path.substr(0, slash)));
  } catch (const std::bad_alloc &) {
    refuse("out of memory compiling the renamed design, so the rename cannot be checked");
  }
  if (diagnosticCodes(after) != diagnosticCodes(*d.comp))
    refuse("the renamed design compiles with other diagnostics (a name now refers to another declaration, or "
           "clashes with one)");
  // A design with errors has no complete IR to compare (elaboration stopped part-way):
  // the same diagnostics are then the check.
  if (d.comp->diags().hasErrors())
    return;
  // A model's name is in the IR (a template's is not): the dump before the rename is
  // also read with the old name as the new one. A string that merely equals the old name
  // (a model named "rack" and power per "rack") can make that reading differ: then the
  // plain one must match.
  bool global = x.kind == SymbolKind::Model || x.kind == SymbolKind::Template;
  IrDigest before("", ""), mapped(global ? x.name : std::string(), newName), now("", "");
  dumpIr(d.comp->fabric(), [&](std::string_view t) {
    before.feed(t);
    mapped.feed(t);
  });
  dumpIr(after.fabric(), [&](std::string_view t) { now.feed(t); });
  if (!(before == now) && !(mapped == now))
    refuse("the renamed design elaborates to another fabric (a name now refers to another declaration)");
}

json::Value rename(Server &s, const json::Object *params) {
  Document &d = s.checkedDocument(params);
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
  checkRename(s, d, sym, newName->str());
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
    Document &d = s.documentOrStale(params);
    llvm::raw_string_ostream os(s.rawResult);
    json::OStream j(os);
    writeOutline(j, s, d, outline(*d.index, d.mainFile));
    os.flush();
  } else if (method == "textDocument/formatting") result = formatting(s, params);
  else if (method == "textDocument/rename") result = rename(s, params);
  else if (method == "textDocument/prepareRename") result = prepareRename(s, params);
  else return handleIndex(s, method, params, result);
  return true;
}

} // namespace fabc::lsp
