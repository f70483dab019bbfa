// The symbol index: declarations first (models, templates, top-level bindings, each
// body's instances), then one walk of every body with the language's scopes, recording
// each name with the symbol it resolves to.
#include "lsp/Index.h"

#include "diag/Source.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace fabc::lsp {

const char *symbolKindName(SymbolKind k) {
  switch (k) {
  case SymbolKind::Model: return "model";
  case SymbolKind::PortGroup: return "port group";
  case SymbolKind::Template: return "template";
  case SymbolKind::TemplateParam: return "template parameter";
  case SymbolKind::Fabric: return "fabric";
  case SymbolKind::Param: return "param";
  case SymbolKind::Let: return "let";
  case SymbolKind::LoopVar: return "loop variable";
  case SymbolKind::Instance: return "instance";
  case SymbolKind::Building: return "building";
  case SymbolKind::Function: return "function";
  case SymbolKind::FunctionParam: return "function parameter";
  case SymbolKind::File: return "file";
  }
  return "symbol";
}

// The names a body sees: its container (template or fabric) and a stack of bindings.
struct Index::Scope {
  uint32_t container = NoSymbol;
  std::vector<std::pair<std::string_view, uint32_t>> names; // innermost last
};

uint32_t Index::add(SymbolKind kind, std::string_view name, SourceRange r, const void *node, uint32_t container) {
  symbols_.push_back({kind, std::string(name), r, node, container, r.begin.file});
  uint32_t id = uint32_t(symbols_.size() - 1);
  use(r, id, true);
  return id;
}

void Index::use(SourceRange r, uint32_t symbol, bool decl) {
  if (r.begin.valid() && symbol != NoSymbol)
    occ_.push_back({r, symbol, decl});
}

namespace {
SourceRange nameOf(const ast::Segment &s) { return {s.range.begin, uint32_t(s.name().size())}; }
bool isModelKindName(std::string_view k) {
  static const char *kinds[] = {"gpu", "system", "nic", "switch", "nvswitch", "optic", "cable"};
  return std::find_if(std::begin(kinds), std::end(kinds), [&](const char *x) { return k == x; }) != std::end(kinds);
}
// The last byte any statement of a block reaches.
void extentOf(const ast::Block &b, uint32_t &end) {
  for (const ast::Stmt *s : b) {
    end = std::max(end, s->range.begin.offset + s->range.length);
    extentOf(s->body(), end);
    extentOf(s->elseBody(), end);
  }
}
} // namespace

void Index::build(const LoadedProgram &prog, const SourceManager &sm) {
  prog_ = &prog;
  sm_ = &sm;
  // About one name per 10 bytes of source (a flat file: 9-10; loops fewer). Reserving
  // once spares the vector's copies and their page faults; untouched room costs nothing.
  size_t bytes = 0;
  for (const ast::File *f : prog.files)
    bytes += sm.text(f->fileId).size();
  // Rounded to 64k entries, so that a text a few characters longer asks the heap for a
  // block of the same size as the last compile's (the server reuses it: 0471's amendment).
  occ_.reserve((bytes / 8 / 65536 + 1) * 65536);
  // Files, and the global declarations of every file (the language has one namespace
  // for models and templates across the program; the first declaration is the one
  // the elaborator keeps, a second one is FAB-E0021).
  for (const ast::File *f : prog.files) {
    uint32_t id = add(SymbolKind::File, sm.path(f->fileId), {{f->fileId, 0}, 0}, f, NoSymbol);
    occ_.pop_back(); // a file has no name in the text
    fileSymbols_[f->fileId] = id;
  }
  for (const ast::File *f : prog.files) {
    for (const ast::Model *m : f->models) {
      uint32_t id = add(SymbolKind::Model, m->name, m->range, m, NoSymbol);
      models_.try_emplace(m->name, id);
      for (const ast::PortDecl &pd : m->ports)
        add(SymbolKind::PortGroup, pd.name, pd.range, &pd, id);
    }
    for (const ast::Template *t : f->templates) {
      uint32_t id = add(SymbolKind::Template, t->name, t->range, t, NoSymbol);
      templates_.try_emplace(t->name, id);
      byNode_[t] = id;
      for (const ast::Param &p : t->params)
        params_[id].push_back(add(SymbolKind::TemplateParam, p.name, p.range, &p, id));
    }
    for (const ast::Function *fn : f->functions) {
      uint32_t id = add(SymbolKind::Function, fn->name, fn->range, fn, NoSymbol);
      functions_.try_emplace(fn->name, id);
      for (const ast::Param &p : fn->params)
        params_[id].push_back(add(SymbolKind::FunctionParam, p.name, p.range, &p, id));
    }
    for (const ast::Stmt *s : f->topLevel)
      if (s->kind == ast::Stmt::Let || s->kind == ast::Stmt::Param)
        globals_[s->name()] = NoSymbol; // declared in order by the walk below
  }
  // Top-level bindings, in program order (a later one sees the earlier ones).
  Scope global;
  for (const ast::File *f : prog.files) {
    for (const ast::Import &imp : f->imports) {
      auto it = fileSymbols_.find(imp.file);
      if (imp.file != UINT32_MAX && it != fileSymbols_.end())
        use(imp.range, it->second);
    }
    for (const ast::Stmt *s : f->topLevel)
      walkStmt(s, global);
  }
  for (const ast::File *f : prog.files) {
    // A declaration's body runs to the next declaration of its file (the AST keeps the
    // name's range only): the extent completion uses to know where the cursor is.
    std::vector<uint32_t> starts;
    for (const ast::Model *m : f->models)
      starts.push_back(m->range.begin.offset);
    for (const ast::Template *t : f->templates)
      starts.push_back(t->range.begin.offset);
    for (const ast::Fabric *x : f->fabrics)
      starts.push_back(x->range.begin.offset);
    for (const ast::Import &imp : f->imports)
      starts.push_back(imp.range.begin.offset);
    for (const ast::Stmt *s : f->topLevel)
      starts.push_back(s->range.begin.offset);
    std::sort(starts.begin(), starts.end());
    // The last declaration runs to the end of the file, whatever its length now (the
    // index may be a few edits older than the text completion looks at).
    uint32_t fileEnd = UINT32_MAX;
    auto bodyEnd = [&](uint32_t begin, const ast::Block &b) {
      auto next = std::upper_bound(starts.begin(), starts.end(), begin);
      uint32_t end = next == starts.end() ? fileEnd : *next;
      uint32_t last = begin;
      extentOf(b, last);
      return std::max(end, last);
    };
    for (const ast::Model *m : f->models) {
      // A model derived from another names it as its kind.
      if (!isModelKindName(m->kind)) {
        auto it = models_.find(m->kind);
        if (it != models_.end())
          use(m->kindRange, it->second);
      }
      for (const ast::Prop &p : m->props)
        walkExpr(p.value, global);
      for (const ast::PortDecl &pd : m->ports) {
        walkExpr(pd.count, global);
        walkProps(pd.props, global);
      }
    }
    for (const ast::Function *fn : f->functions) {
      uint32_t self = functions_[fn->name];
      if (symbols_[self].node != fn)
        continue; // a second function of that name (an error the elaborator reports)
      Scope scope = global;
      for (uint32_t id : params_[self])
        scope.names.push_back({symbols_[id].name, id});
      walkExpr(fn->body, scope);
    }
    for (const ast::Template *t : f->templates) {
      uint32_t self = byNode_[t];
      Scope scope = global;
      scope.container = self;
      uint32_t end = bodyEnd(t->range.begin.offset, t->body);
      bodies_.push_back({f->fileId, t->range.begin.offset, end, self});
      for (uint32_t id : params_[self]) {
        const auto &p = *static_cast<const ast::Param *>(symbols_[id].node);
        walkExpr(p.deflt, global);
        scope.names.push_back({p.name, id});
        visible_.push_back({f->fileId, p.range.begin.offset, end, id});
      }
      declareInstances(t->body, self);
      walkBlock(t->body, scope);
    }
    for (const ast::Fabric *x : f->fabrics) {
      uint32_t self = add(SymbolKind::Fabric, x->name, x->range, x, NoSymbol);
      Scope scope = global;
      scope.container = self;
      bodies_.push_back({f->fileId, x->range.begin.offset, bodyEnd(x->range.begin.offset, x->body), self});
      declareInstances(x->body, self);
      walkBlock(x->body, scope);
    }
  }
  sortOccurrences();
}

// By (file, offset), equal places in the order the walk found them. The walk appends
// a few ascending runs (each file's declarations, then its uses, files in load order
// while the main file has id 0): merged pairwise, that is linear per level, whereas
// std::sort's median-of-three pivots degrade on such input to its heapsort fallback
// (a quarter of a 100k-link file's compile in the server went there).
void Index::sortOccurrences() {
  auto less = [](const Occurrence &a, const Occurrence &b) {
    return a.range.begin.file != b.range.begin.file ? a.range.begin.file < b.range.begin.file
                                                    : a.range.begin.offset < b.range.begin.offset;
  };
  std::vector<size_t> runs{0};
  for (size_t i = 1; i < occ_.size(); ++i)
    if (less(occ_[i], occ_[i - 1]))
      runs.push_back(i);
  runs.push_back(occ_.size());
  if (runs.size() > 256) {
    std::stable_sort(occ_.begin(), occ_.end(), less); // not the walk's shape: a plain merge sort
    return;
  }
  while (runs.size() > 2) {
    std::vector<size_t> next{0};
    for (size_t r = 0; r + 2 < runs.size(); r += 2) {
      std::inplace_merge(occ_.begin() + runs[r], occ_.begin() + runs[r + 1], occ_.begin() + runs[r + 2], less);
      next.push_back(runs[r + 2]);
    }
    if (next.back() != runs.back())
      next.push_back(runs.back());
    runs = std::move(next);
  }
}

void Index::declareInstances(const ast::Block &b, uint32_t container) {
  for (const ast::Stmt *s : b) {
    if (s->kind == ast::Stmt::Inst) {
      auto [it, fresh] = instances_.try_emplace({container, s->name()}, NoSymbol);
      if (fresh) {
        it->second = add(SymbolKind::Instance, s->name(), s->nameRange(), s, container);
        symbols_[it->second].target = resolveTarget(s->name2());
      } else {
        use(s->nameRange(), it->second, true); // the same array declared in two branches
      }
    } else if (s->kind == ast::Stmt::Building) {
      buildings_.try_emplace(s->name(), add(SymbolKind::Building, s->name(), s->nameRange(), s, container));
    }
    declareInstances(s->body(), container);
    declareInstances(s->elseBody(), container);
  }
}

uint32_t Index::lookup(std::string_view name, const Scope &scope) const {
  for (auto it = scope.names.rbegin(); it != scope.names.rend(); ++it)
    if (it->first == name)
      return it->second;
  auto g = globals_.find(name);
  if (g != globals_.end() && g->second != NoSymbol)
    return g->second;
  auto m = models_.find(name);
  if (m != models_.end())
    return m->second;
  auto t = templates_.find(name);
  return t != templates_.end() ? t->second : NoSymbol;
}

void Index::walkExpr(const ast::Expr *e, const Scope &scope) {
  if (!e)
    return;
  if (e->kind == ast::Expr::Name)
    use(e->range, lookup(e->text, scope));
  if (e->kind == ast::Expr::Call) {
    auto fn = functions_.find(e->text);
    if (fn != functions_.end())
      use(e->range, fn->second);
  }
  if (e->kind == ast::Expr::Comp && e->kids.size() == 4) {
    // [e for x in a..b if c]: a and b in the outer scope, e and c see x. The AST keeps
    // x's name only: its place is the name after the `for` that follows e.
    walkExpr(e->kids[1], scope);
    walkExpr(e->kids[2], scope);
    Scope inner = scope;
    SourceRange var = {e->range.begin, 1};
    if (sm_ && e->kids[0] && e->kids[1] && e->range.begin.file < sm_->size()) {
      std::string_view t = sm_->text(e->range.begin.file);
      uint32_t from = e->kids[0]->range.begin.offset + e->kids[0]->range.length;
      uint32_t to = std::min<uint32_t>(e->kids[1]->range.begin.offset, uint32_t(t.size()));
      size_t kw = t.substr(0, to).find("for", from);
      size_t p = kw == std::string_view::npos ? to : kw + 3;
      while (p < to && std::isspace((unsigned char)t[p]))
        ++p;
      if (p + e->text.size() <= to && t.compare(p, e->text.size(), e->text) == 0)
        var = {{e->range.begin.file, uint32_t(p)}, uint32_t(e->text.size())};
    }
    uint32_t id = add(SymbolKind::LoopVar, e->text, var, e, NoSymbol);
    inner.names.push_back({e->text, id});
    walkExpr(e->kids[0], inner);
    walkExpr(e->kids[3], inner);
    return;
  }
  for (const ast::Expr *k : e->kids)
    walkExpr(k, scope);
}

void Index::walkProps(const ast::List<ast::Prop> &props, const Scope &scope) {
  for (const ast::Prop &p : props)
    walkExpr(p.value, scope);
}

void Index::walkPath(const ast::Path &p, const Scope &scope) {
  uint32_t cur = NoSymbol;
  for (size_t i = 0; i < p.segs.size(); ++i) {
    const ast::Segment &s = p.segs[i];
    walkExpr(s.index(), scope);
    if (i == 0) {
      cur = findInstance(scope.container, s.name());
    } else if (cur != NoSymbol && symbols_[cur].kind == SymbolKind::Instance) {
      uint32_t target = targetOf(cur);
      if (target == NoSymbol)
        cur = NoSymbol;
      else if (symbols_[target].kind == SymbolKind::Template)
        cur = findInstance(target, s.name());
      else
        cur = findPortGroup(target, s.name());
    } else {
      cur = NoSymbol;
    }
    use(nameOf(s), cur);
  }
}

void Index::walkBlock(const ast::Block &b, Scope &scope) {
  size_t mark = scope.names.size();
  for (const ast::Stmt *s : b)
    walkStmt(s, scope);
  scope.names.resize(mark);
}

void Index::walkStmt(const ast::Stmt *s, Scope &scope) {
  using K = ast::Stmt;
  auto bodyEndOf = [&]() {
    for (const Extent &x : bodies_)
      if (x.symbol == scope.container && scope.container != NoSymbol)
        return x.end;
    return UINT32_MAX;
  };
  switch (s->kind) {
  case K::Let:
  case K::Param: {
    walkExpr(s->e1, scope);
    uint32_t id = add(s->kind == K::Let ? SymbolKind::Let : SymbolKind::Param, s->name(), s->nameRange(), s,
                      scope.container);
    if (scope.container == NoSymbol && scope.names.empty())
      globals_[s->name()] = id;
    else
      scope.names.push_back({s->name(), id});
    visible_.push_back({s->nameRange().begin.file, s->nameRange().begin.offset, bodyEndOf(), id});
    break;
  }
  case K::Option: walkExpr(s->e1, scope); break;
  case K::Inst: {
    walkExpr(s->e1, scope);
    walkExpr(s->e2(), scope);
    uint32_t target = lookup(s->name2(), scope);
    if (target != NoSymbol && symbols_[target].kind != SymbolKind::Model &&
        symbols_[target].kind != SymbolKind::Template)
      target = NoSymbol;
    use(s->name2Range(), target);
    size_t mark = scope.names.size();
    if (!s->name3().empty()) {
      uint32_t id = add(SymbolKind::LoopVar, s->name3(), s->name3Range(), s, scope.container);
      scope.names.push_back({s->name3(), id});
    }
    const ast::Template *t = target != NoSymbol && symbols_[target].kind == SymbolKind::Template
                                 ? static_cast<const ast::Template *>(symbols_[target].node)
                                 : nullptr;
    for (const ast::Arg &a : s->args()) {
      walkExpr(a.value, scope);
      if (t && !a.name.empty())
        for (uint32_t i : params_[target])
          if (symbols_[i].name == a.name)
            use({a.range.begin, uint32_t(a.name.size())}, i);
    }
    walkProps(s->props, scope);
    scope.names.resize(mark);
    break;
  }
  case K::For: {
    walkExpr(s->e1, scope);
    walkExpr(s->e2(), scope);
    size_t mark = scope.names.size();
    uint32_t id = add(SymbolKind::LoopVar, s->name(), s->nameRange(), s, scope.container);
    scope.names.push_back({s->name(), id});
    walkBlock(s->body(), scope);
    scope.names.resize(mark);
    break;
  }
  case K::If:
    walkExpr(s->e1, scope);
    walkBlock(s->body(), scope);
    walkBlock(s->elseBody(), scope);
    break;
  case K::Link:
  case K::Group:
    walkExpr(s->e1, scope);
    for (const ast::Path &p : s->paths)
      walkPath(p, scope);
    walkProps(s->props, scope);
    break;
  case K::Place:
  case K::Span: {
    for (const ast::Path &p : s->paths)
      walkPath(p, scope);
    // `place x in B.hall` and `span A -- B` name buildings.
    auto building = [&](std::string_view n) {
      auto it = buildings_.find(n);
      return it == buildings_.end() ? NoSymbol : it->second;
    };
    if (s->kind == K::Place)
      use(s->name2Range(), building(s->name2()));
    else {
      use(s->nameRange(), building(s->name()));
      use(s->name2Range(), building(s->name2()));
    }
    walkProps(s->props, scope);
    break;
  }
  case K::Building:
    walkProps(s->props, scope);
    for (const ast::Hall &h : s->halls())
      walkProps(h.props, scope);
    break;
  case K::Policy: walkProps(s->props, scope); break;
  case K::Assert: walkExpr(s->e1, scope); break;
  }
}

const Occurrence *Index::at(SourceLoc loc) const {
  auto it = std::upper_bound(occ_.begin(), occ_.end(), loc, [](SourceLoc l, const Occurrence &o) {
    return l.file != o.range.begin.file ? l.file < o.range.begin.file : l.offset < o.range.begin.offset;
  });
  // The cursor may sit just after the name (an editor's cursor at a word's end).
  while (it != occ_.begin()) {
    --it;
    if (it->range.begin.file != loc.file)
      return nullptr;
    if (loc.offset <= it->range.begin.offset + it->range.length)
      return &*it;
    return nullptr;
  }
  return nullptr;
}

std::vector<const Occurrence *> Index::occurrencesOf(uint32_t symbol) const {
  std::vector<const Occurrence *> r;
  for (const Occurrence &o : occ_)
    if (o.symbol == symbol)
      r.push_back(&o);
  return r;
}

uint32_t Index::findGlobal(SymbolKind kind, std::string_view name) const {
  const auto &map = kind == SymbolKind::Model      ? models_
                    : kind == SymbolKind::Template ? templates_
                    : kind == SymbolKind::Function ? functions_
                                                   : globals_;
  auto it = map.find(name);
  return it == map.end() ? NoSymbol : it->second;
}

uint32_t Index::findInstance(uint32_t container, std::string_view name) const {
  auto it = instances_.find({container, name});
  return it == instances_.end() ? NoSymbol : it->second;
}

std::vector<uint32_t> Index::portGroups(uint32_t model) const {
  std::vector<uint32_t> r;
  // A derived model has its base's groups (the chain is bounded: a cycle is FAB-E0021).
  for (int depth = 0; model != NoSymbol && depth < 16; ++depth) {
    for (uint32_t i = model + 1; i < symbols_.size() && symbols_[i].kind == SymbolKind::PortGroup &&
                                 symbols_[i].container == model;
         ++i)
      r.push_back(i);
    const auto *m = static_cast<const ast::Model *>(symbols_[model].node);
    auto base = models_.find(m->kind);
    model = base == models_.end() || base->second == model ? NoSymbol : base->second;
  }
  return r;
}

uint32_t Index::findPortGroup(uint32_t model, std::string_view name) const {
  // portGroups()'s walk without its vector: every path's port segment comes here.
  for (int depth = 0; model != NoSymbol && depth < 16; ++depth) {
    for (uint32_t i = model + 1; i < symbols_.size() && symbols_[i].kind == SymbolKind::PortGroup &&
                                 symbols_[i].container == model;
         ++i)
      if (symbols_[i].name == name)
        return i;
    const auto *m = static_cast<const ast::Model *>(symbols_[model].node);
    auto base = models_.find(m->kind);
    model = base == models_.end() || base->second == model ? NoSymbol : base->second;
  }
  return NoSymbol;
}

unsigned Index::InstanceKeyInfo::getHashValue(const InstanceKey &k) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t(k.container) << 32) ^ k.name.size();
  size_t i = 0;
  for (; i + 8 <= k.name.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, k.name.data() + i, 8);
    h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  uint64_t w = 0;
  if (i < k.name.size()) // memcpy from a null view is undefined even for 0 bytes
    std::memcpy(&w, k.name.data() + i, k.name.size() - i);
  h = (h ^ w) * 0x94D049BB133111EBull;
  return unsigned(h ^ (h >> 32));
}

uint32_t Index::targetOf(uint32_t instance) const { return symbols_[instance].target; }

// Models and templates of every file are declared before any instance (build()).
uint32_t Index::resolveTarget(std::string_view name) const {
  auto m = models_.find(name);
  if (m != models_.end())
    return m->second;
  auto t = templates_.find(name);
  return t == templates_.end() ? NoSymbol : t->second;
}

std::vector<uint32_t> Index::instancesOf(uint32_t container) const {
  std::vector<uint32_t> r; // in declaration order, which is id order
  for (uint32_t i = 0; i < symbols_.size(); ++i)
    if (symbols_[i].kind == SymbolKind::Instance && symbols_[i].container == container)
      r.push_back(i);
  return r;
}

uint32_t Index::containerAt(SourceLoc loc) const {
  for (const Extent &x : bodies_)
    if (x.file == loc.file && loc.offset >= x.begin && loc.offset <= x.end)
      return x.symbol;
  return NoSymbol;
}

std::vector<uint32_t> Index::bindingsAt(SourceLoc loc) const {
  std::vector<uint32_t> r;
  for (auto &kv : globals_)
    if (kv.second != NoSymbol)
      r.push_back(kv.second);
  for (const Extent &x : visible_)
    if (x.file == loc.file && loc.offset >= x.begin && loc.offset <= x.end)
      r.push_back(x.symbol);
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

} // namespace fabc::lsp
