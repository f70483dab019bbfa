// Completion and the outline. The candidates come from the index (models, templates,
// port groups, instances, bindings), the elaborator's key table (elab/PropertyKeys.h)
// and the unit table; the text before the cursor only says which of them fit there,
// because the statement being typed does not parse yet.
#include "lsp/Queries.h"

#include "ast/HandLexer.h"
#include "elab/PropertyKeys.h"
#include "ir/Units.h"

#include <algorithm>
#include <cctype>
#include <dirent.h>
#include <set>
#include <sys/stat.h>

namespace fabc::lsp {
namespace {

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> r;
  std::string w;
  for (char c : s) {
    if (hand::isIdChar(c) || c == '<' || c == '>') {
      w += c;
    } else if (!w.empty()) {
      r.push_back(w);
      w.clear();
    }
  }
  if (!w.empty())
    r.push_back(w);
  return r;
}

// A key list such as keys::kDeviceModel: clauses split by ';', a clause's "who: " label
// says which model kinds it is for.
std::vector<std::string> keysFor(std::string_view list, std::string_view modelKind = {}) {
  std::vector<std::string> r;
  size_t p = 0;
  while (p <= list.size()) {
    size_t semi = list.find(';', p);
    std::string_view clause = list.substr(p, semi == std::string_view::npos ? std::string_view::npos : semi - p);
    size_t colon = clause.find(':');
    bool applies = true;
    if (colon != std::string_view::npos) {
      std::string_view who = clause.substr(0, colon);
      applies = (modelKind == "switch" && who.find("switches") != std::string_view::npos) ||
                (modelKind == "nic" && who.find("NICs") != std::string_view::npos) ||
                (modelKind == "system" && who.find("systems") != std::string_view::npos) ||
                (modelKind == "optic" && who.find("optics") != std::string_view::npos) ||
                (modelKind == "cable" && who.find("cables") != std::string_view::npos);
      clause = clause.substr(colon + 1);
    }
    if (applies)
      for (std::string &w : words(clause))
        r.push_back(std::move(w));
    if (semi == std::string_view::npos)
      break;
    p = semi + 1;
  }
  return r;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace((unsigned char)s[b]))
    ++b;
  while (e > b && std::isspace((unsigned char)s[e - 1]))
    --e;
  return std::string(s.substr(b, e - b));
}

// The .fab files below `dir`, as import paths relative to it (bounded: a search
// directory could be a home directory).
void fabFiles(const std::string &dir, const std::string &rel, int depth, std::set<std::string> &out) {
  if (depth > 4 || out.size() > 2000)
    return;
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return;
  while (dirent *e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name.empty() || name[0] == '.')
      continue;
    std::string full = dir + "/" + name, r = rel.empty() ? name : rel + "/" + name;
    struct stat st;
    if (::stat(full.c_str(), &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode))
      fabFiles(full, r, depth + 1, out);
    else if (name.size() > 4 && name.compare(name.size() - 4, 4, ".fab") == 0)
      out.insert(r);
  }
  ::closedir(d);
}

struct Collector {
  const Index &ix;
  std::vector<Completion> out;
  std::set<std::string> seen;
  void add(std::string label, CompletionKind k, std::string detail = {}, uint32_t from = UINT32_MAX) {
    if (!label.empty() && seen.insert(label).second)
      out.push_back({std::move(label), k, std::move(detail), from});
  }
  // The file's own declarations first, then the imported ones (the stdlib's).
  void symbols(SymbolKind kind, CompletionKind ck, uint32_t file) {
    for (int pass = 0; pass < 2; ++pass)
      for (const Symbol &s : ix.symbols())
        if (s.kind == kind && (s.nameRange.begin.file == file) == (pass == 0))
          add(s.name, ck, symbolKindName(kind));
  }
};

// The model an instance head names ("spine[8] : QM9700 (...)"), as a symbol.
uint32_t headModel(const Index &ix, const std::string &head) {
  size_t colon = head.find(':');
  if (colon == std::string::npos)
    return NoSymbol;
  std::vector<std::string> w = words(head.substr(colon + 1));
  return w.empty() ? NoSymbol : ix.findGlobal(SymbolKind::Model, w[0]);
}

// Keys for the block whose head (the text from the statement's start to its '{') is `head`.
void blockKeys(Collector &c, const std::string &head) {
  std::vector<std::string> w = words(head);
  if (w.empty())
    return;
  const std::string &first = w[0];
  auto keys = [&](std::string_view list, std::string_view kind = {}) {
    for (std::string &k : keysFor(list, kind))
      c.add(k, CompletionKind::Property, "property");
  };
  if (first == "link") keys(elab::keys::kLink);
  else if (first == "place") keys(elab::keys::kPlace);
  else if (first == "span") keys(elab::keys::kSpan);
  else if (first == "building") { keys(elab::keys::kBuilding); c.add("hall", CompletionKind::Keyword, "keyword"); }
  else if (first == "hall") keys(elab::keys::kHall);
  else if (first == "port") keys(elab::keys::kPortGroup);
  else if (first == "policy" && w.size() > 1) {
    if (const char *k = elab::keys::policyKeys(w[1]))
      keys(k);
  } else if (first == "model" && w.size() > 2) {
    std::string kind = w[2];
    uint32_t base = c.ix.findGlobal(SymbolKind::Model, kind);
    for (int i = 0; base != NoSymbol && i < 16; ++i) { // a derived model: its base's kind
      kind = static_cast<const ast::Model *>(c.ix.symbol(base).node)->kind;
      uint32_t next = c.ix.findGlobal(SymbolKind::Model, kind);
      base = next == base ? NoSymbol : next;
    }
    keys(kind == "optic" || kind == "cable" ? elab::keys::kMediaModel
         : kind == "gpu"                    ? elab::keys::kGpuModel
                                            : elab::keys::kDeviceModel,
         kind);
    c.add("port", CompletionKind::Keyword, "keyword");
  } else if (head.find(':') != std::string::npos && first != "template") {
    // An instance: its model's kind picks the list; <group> stands for each port group.
    uint32_t m = headModel(c.ix, head);
    if (m == NoSymbol)
      return;
    const auto *am = static_cast<const ast::Model *>(c.ix.symbol(m).node);
    for (const std::string &k : keysFor(am->kind == "switch" ? elab::keys::kSwitchInstance : elab::keys::kInstance)) {
      size_t g = k.find("<group>");
      if (g == std::string::npos) {
        c.add(k, CompletionKind::Property, "property");
        continue;
      }
      for (uint32_t pg : c.ix.portGroups(m))
        c.add(k.substr(0, g) + c.ix.symbol(pg).name, CompletionKind::Property, "property of port group");
    }
  }
}

} // namespace

std::vector<Completion> completeAt(const QueryContext &q, uint32_t file, std::string_view text, uint32_t offset,
                                   const std::vector<std::string> &searchPath) {
  Collector c{q.index, {}, {}};
  offset = std::min<uint32_t>(offset, uint32_t(text.size()));
  size_t lineStart = text.rfind('\n', offset ? offset - 1 : 0);
  lineStart = lineStart == std::string_view::npos || offset == 0 ? 0 : lineStart + 1;
  std::string_view line = text.substr(lineStart, offset - lineStart);

  // import "...: the .fab files on the search path.
  size_t imp = line.find("import");
  size_t quote = line.find('"');
  if (imp != std::string_view::npos && quote != std::string_view::npos && quote > imp &&
      line.find('"', quote + 1) == std::string_view::npos) {
    std::set<std::string> files;
    for (const std::string &d : searchPath)
      fabFiles(d, "", 0, files);
    for (const std::string &f : files)
      c.add(f, CompletionKind::File, "import", uint32_t(lineStart + quote + 1));
    return c.out;
  }
  size_t wordStart = offset;
  while (wordStart > lineStart && hand::isIdChar(text[wordStart - 1]))
    --wordStart;
  // "400 G" or "400G": a unit after a number.
  size_t numEnd = wordStart;
  while (numEnd < offset && std::isdigit((unsigned char)text[numEnd]))
    ++numEnd;
  std::string before = trim(text.substr(lineStart, wordStart - lineStart));
  if (numEnd > wordStart || (!before.empty() && std::isdigit((unsigned char)before.back()) &&
                             (before.size() < 2 || !hand::isIdChar(before[before.size() - 2]) ||
                              std::isdigit((unsigned char)before[before.size() - 2])))) {
    std::string units = unitList();
    for (const std::string &u : words(units))
      c.add(u, CompletionKind::Unit, "unit", uint32_t(numEnd > wordStart ? numEnd : UINT32_MAX));
    // "b/s" units: words() splits at '/', so add them whole.
    size_t p = 0;
    while (p < units.size()) {
      size_t sp = units.find(' ', p);
      std::string u = units.substr(p, sp == std::string::npos ? std::string::npos : sp - p);
      if (u.find('/') != std::string::npos)
        c.add(u, CompletionKind::Unit, "unit", uint32_t(numEnd > wordStart ? numEnd : UINT32_MAX));
      p = sp == std::string::npos ? units.size() : sp + 1;
    }
    return c.out;
  }
  SourceLoc here{file, uint32_t(offset)};
  // a.b[1].<here>: the instances of a template, or the port groups of a model.
  if (wordStart > lineStart && text[wordStart - 1] == '.') {
    std::vector<std::string> segs;
    size_t p = wordStart - 1;
    while (p > lineStart && text[p] == '.') {
      size_t e = p;
      if (text[e - 1] == ']') { // skip an index
        int depth = 0;
        while (e > lineStart) {
          --e;
          if (text[e] == ']') ++depth;
          else if (text[e] == '[' && --depth == 0) break;
        }
      }
      size_t b = e;
      while (b > lineStart && hand::isIdChar(text[b - 1]))
        --b;
      if (b == e)
        break;
      segs.insert(segs.begin(), std::string(text.substr(b, e - b)));
      p = b - 1;
      if (b == lineStart || text[p] != '.')
        break;
    }
    uint32_t cur = segs.empty() ? NoSymbol : q.index.findInstance(q.index.containerAt(here), segs[0]);
    for (size_t i = 1; i < segs.size() && cur != NoSymbol; ++i) {
      uint32_t t = q.index.targetOf(cur);
      cur = t == NoSymbol ? NoSymbol
            : q.index.symbol(t).kind == SymbolKind::Template ? q.index.findInstance(t, segs[i])
                                                               : NoSymbol; // a port group ends a path
    }
    uint32_t t = cur == NoSymbol ? NoSymbol : q.index.targetOf(cur);
    if (t != NoSymbol && q.index.symbol(t).kind == SymbolKind::Template)
      for (uint32_t i : q.index.instancesOf(t))
        c.add(q.index.symbol(i).name, CompletionKind::Field, "instance");
    else if (t != NoSymbol)
      for (uint32_t g : q.index.portGroups(t))
        c.add(q.index.symbol(g).name, CompletionKind::Field, "port group");
    return c.out;
  }
  // "name[..] : <here>" and "model X : <here>": what an instance instantiates, what a
  // model derives from.
  if (!before.empty() && before.back() == ':' && before.find('=') == std::string::npos &&
      before.find('?') == std::string::npos) {
    if (before.rfind("model", 0) == 0)
      for (const char *k : {"gpu", "system", "nic", "switch", "nvswitch", "optic", "cable"})
        c.add(k, CompletionKind::Keyword, "model kind");
    c.symbols(SymbolKind::Model, CompletionKind::Class, file);
    if (before.rfind("model", 0) != 0 && before.rfind("template", 0) != 0)
      c.symbols(SymbolKind::Template, CompletionKind::Function, file);
    return c.out;
  }
  if (before == "option") {
    for (const std::string &o : words(elab::keys::optionNames()))
      c.add(o, CompletionKind::Property, "option");
    return c.out;
  }
  if (before == "policy") {
    for (const std::string &k : words(elab::keys::policyKinds()))
      c.add(k, CompletionKind::Keyword, "policy");
    return c.out;
  }
  // At a statement's start inside a block: the keys of that block.
  char prev = 0;
  for (size_t i = wordStart; i > 0; --i)
    if (!std::isspace((unsigned char)text[i - 1])) {
      prev = text[i - 1];
      break;
    }
  if (prev == '{' || prev == ';' || prev == '}') {
    int depth = 0;
    size_t open = std::string_view::npos;
    for (size_t i = wordStart; i > 0; --i) {
      char ch = text[i - 1];
      if (ch == '}') ++depth;
      else if (ch == '{' && depth-- == 0) {
        open = i - 1;
        break;
      }
    }
    if (open != std::string_view::npos) {
      size_t hs = text.find_last_of(";{}", open ? open - 1 : 0);
      hs = hs == std::string_view::npos || open == 0 ? 0 : hs + 1;
      std::string head = trim(text.substr(hs, open - hs));
      // Strip comments from the head: a `// ...` line before the statement.
      while (head.rfind("//", 0) == 0) {
        size_t nl = head.find('\n');
        head = nl == std::string::npos ? "" : trim(head.substr(nl + 1));
      }
      blockKeys(c, head);
      if (!c.out.empty())
        return c.out;
    }
    for (const char *k : {"let", "param", "option", "for", "if", "link", "group", "place", "building", "span",
                          "policy", "assert", "import", "model", "template", "fabric"})
      c.add(k, CompletionKind::Keyword, "keyword");
    return c.out;
  }
  // An expression: the bindings in scope, then models (a model is a value: optic = X).
  for (uint32_t b : q.index.bindingsAt(here))
    c.add(q.index.symbol(b).name, CompletionKind::Variable, symbolKindName(q.index.symbol(b).kind));
  c.symbols(SymbolKind::Model, CompletionKind::Class, file);
  c.symbols(SymbolKind::Function, CompletionKind::Function, file);
  for (const char *f : {"min", "max", "ceil", "floor", "round", "abs", "log2", "sqrt", "len", "str", "sum"})
    c.add(f, CompletionKind::Function, "builtin");
  return c.out;
}

std::vector<OutlineItem> outline(const Index &ix, uint32_t file) {
  std::vector<OutlineItem> r;
  std::vector<int> at(ix.symbols().size(), -1);
  for (uint32_t i = 0; i < ix.symbols().size(); ++i) {
    const Symbol &s = ix.symbol(i);
    if (s.nameRange.begin.file != file)
      continue;
    if (s.kind == SymbolKind::Model || s.kind == SymbolKind::Template || s.kind == SymbolKind::Fabric ||
        s.kind == SymbolKind::Function) {
      std::string detail = symbolKindName(s.kind);
      if (s.kind == SymbolKind::Model)
        detail = static_cast<const ast::Model *>(s.node)->kind;
      at[i] = int(r.size());
      r.push_back({s.name, detail, s.kind, s.nameRange, {}});
    } else if ((s.kind == SymbolKind::PortGroup || s.kind == SymbolKind::Instance) && s.container != NoSymbol &&
               at[s.container] >= 0) {
      std::string detail = s.kind == SymbolKind::PortGroup ? "port group"
                                                           : std::string(static_cast<const ast::Stmt *>(s.node)->name2());
      r[size_t(at[s.container])].children.push_back({s.name, detail, s.kind, s.nameRange, {}});
    }
  }
  std::sort(r.begin(), r.end(),
            [](const OutlineItem &a, const OutlineItem &b) { return a.range.begin.offset < b.range.begin.offset; });
  return r;
}

} // namespace fabc::lsp
