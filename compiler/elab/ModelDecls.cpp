// Model declarations: names and kinds, derived models (`model X : BASE { overrides }`)
// and the order in which models are converted (a base before the models derived from it).
#include "diag/DiagCodes.h"
#include "elab/ElabState.h"

namespace fabc::elab {

bool Elab::modelKind(std::string_view k, ir::ModelKind &out) {
  static const std::pair<const char *, ir::ModelKind> kinds[] = {
      {"gpu", ir::ModelKind::Gpu},       {"system", ir::ModelKind::System}, {"nic", ir::ModelKind::Nic},
      {"switch", ir::ModelKind::Switch}, {"nvswitch", ir::ModelKind::NvSwitch},
      {"optic", ir::ModelKind::Optic},   {"cable", ir::ModelKind::Cable}};
  for (auto &kv : kinds)
    if (k == kv.first) {
      out = kv.second;
      return true;
    }
  return false;
}

SourceRange Elab::propRange(const ast::Prop &p) {
  SourceRange r = p.keyRange;
  if (p.value && p.value->range.begin.file == r.begin.file && p.value->range.begin.offset >= r.begin.offset)
    r.length = p.value->range.begin.offset + p.value->range.length - r.begin.offset;
  return r;
}

// Every model gets its kind: a kind name after the colon, or the kind of the model it
// derives from (followed to its root). A base that names no model, or a chain of bases
// that comes back to itself, is FAB-E0057 and the model is not declared.
void Elab::declareModels() {
  struct Decl {
    const ast::Model *m;
    bool catalog;
    uint32_t base = None; // index into decls
    int kind = -1;        // resolved kind, -1 = not yet, -2 = invalid
  };
  std::vector<Decl> decls;
  llvm::DenseMap<uint32_t, uint32_t> byName;
  for (const ast::File *f : prog_.files) {
    for (const ast::Model *m : f->models) {
      uint32_t name = F.strings.intern(m->name);
      if (byName.count(name) || templates_.count(name)) {
        Diagnostic *d = error(DiagCode::E0021, m->range, "redefinition of '{}'", m->name);
        auto it = byName.find(name);
        if (it != byName.end())
          DiagEngine::note(d, decls[it->second].m->range, "previous definition is here");
        continue;
      }
      byName[name] = uint32_t(decls.size());
      decls.push_back({m, f->catalog});
    }
    for (const ast::Template *t : f->templates) {
      uint32_t name = F.strings.intern(t->name);
      if (byName.count(name) || templates_.count(name)) {
        error(DiagCode::E0021, t->range, "redefinition of '{}'", t->name);
        continue;
      }
      templates_[name] = t;
    }
  }
  // Kinds: a kind name wins over a model of the same name.
  for (Decl &d : decls) {
    ir::ModelKind k;
    if (modelKind(d.m->kind, k)) {
      d.kind = int(k);
      continue;
    }
    auto it = byName.find(F.strings.intern(d.m->kind));
    if (it == byName.end()) {
      Diagnostic *dg = error(DiagCode::E0057, d.m->kindRange, "'{}' is neither a model kind nor a model", d.m->kind);
      DiagEngine::note(dg, {}, "kinds: gpu, system, nic, switch, nvswitch, optic, cable; a derived model names a model "
                               "declared in this file or its imports (model MyOptic : LinkX_800G_DR8 { ... })");
      d.kind = -2;
      continue;
    }
    d.base = it->second;
  }
  for (size_t i = 0; i < decls.size(); ++i) {
    // Follow the bases to a model whose kind is known; a chain longer than the models is a cycle.
    size_t j = i, steps = 0;
    while (decls[j].kind == -1 && steps++ <= decls.size())
      j = decls[j].base;
    int kind = decls[j].kind == -1 ? -2 : decls[j].kind;
    if (decls[j].kind == -1) {
      Diagnostic *dg = error(DiagCode::E0057, decls[i].m->kindRange, "model '{}' derives from itself", decls[i].m->name);
      DiagEngine::note(dg, {}, "a chain of derived models must end at a model declared with a kind");
    }
    for (size_t k = i; decls[k].kind == -1; k = decls[k].base)
      decls[k].kind = kind; // also marks every model on the chain (or the cycle)
  }
  std::vector<uint32_t> index(decls.size(), None);
  for (size_t i = 0; i < decls.size(); ++i) {
    const Decl &d = decls[i];
    if (d.kind < 0)
      continue;
    uint32_t name = F.strings.intern(d.m->name);
    index[i] = uint32_t(F.models.size());
    modelAst_[name] = d.m;
    modelIndex_[name] = index[i];
    F.models.emplace_back();
    ir::Model &m = F.models.back();
    m.name = name;
    m.kind = ir::ModelKind(d.kind);
    m.loc = d.m->range;
    m.catalog = d.catalog;
  }
  // Properties after all names exist, so models may refer to each other (gpu = B200);
  // a base before the models derived from it. They are evaluated later, in
  // convertModels(), once the global bindings they may use exist.
  std::vector<uint8_t> done(decls.size(), 0);
  for (size_t i = 0; i < decls.size(); ++i) {
    if (index[i] == None || done[i])
      continue;
    llvm::SmallVector<size_t, 4> chain;
    for (size_t j = i; j != None && !done[j]; j = decls[j].base)
      chain.push_back(j);
    for (size_t c = chain.size(); c-- > 0;) {
      size_t j = chain[c];
      done[j] = 1;
      pendingModels_.push_back({decls[j].m, index[j], decls[j].base == None ? None : index[decls[j].base]});
    }
  }
}

// Model properties see the global bindings (top-level let and param, -D overrides) and
// the functions: run() calls this after the top-level statements.
void Elab::convertModels() {
  for (const PendingModel &pm : pendingModels_) {
    ir::Model &out = F.models[pm.index];
    if (pm.base != None) {
      ir::Model derived = F.models[pm.base];
      derived.name = out.name;
      derived.loc = out.loc;
      derived.catalog = out.catalog;
      derived.base = pm.base;
      out = std::move(derived);
    }
    convertModel(*pm.m, out);
  }
  pendingModels_.clear();
}

} // namespace fabc::elab
