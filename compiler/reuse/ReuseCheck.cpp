// A compilation that reuses its base's check across an edit of top-level `let`s,
// `template`s and `fn`s that nothing else names
// (docs/decisions/0621-an-edit-nothing-reads-is-not-compiled-again.md), and what every
// reuse starts from: the same setup, where the main text moved, the values carried.
//
// Elaboration reads a top-level binding, a template or a function only through its name,
// once the top-level bindings are evaluated (ElabOptions::afterGlobals). So when an edit
// changes only such declarations of the main file, and none of the names they declare,
// before or after, is written anywhere else in the program, every stage after that
// point sees the same input as in the base: its diagnostics and IR are the base's, with
// their places moved past the edit. This compilation then parses, loads and evaluates
// the top-level bindings (their own diagnostics and values are new), takes the rest from
// the base, and elaborates nothing. Every condition below that does not hold makes it
// compile as usual.
#include "Compilation.h"

#include "diag/DiagCodes.h"
#include "reuse/Edits.h"

#include <unordered_map>

namespace fabc {
using namespace reuse;

bool Compilation::reusable() const {
  if (base_)
    return true;
  return finished_ && atFabric_ && !ioError_ && parsed_ && opts_.guidsFrom.empty() && opts_.stopAfter.empty() &&
         !opts_.parseOnly && atFabric_->errors == 0;
}

std::shared_ptr<const Compilation> Compilation::reuseBase(const std::shared_ptr<const Compilation> &self) {
  if (!self || !self->reusable())
    return nullptr;
  return self->base_ ? self->base_ : self;
}

bool Compilation::sameSetup(const Compilation &base) const {
  const LoadedProgram &bp = base.prog_;
  const SourceManager &bsm = *base.sm_;
  const ElabLimits &a = opts_.limits, &b = base.opts_.limits;
  if (!base.reusable() || base.base_ || !prog_.main || !bp.main || prog_.files.size() != bp.files.size() ||
      prog_.main->fileId != bp.main->fileId || sm_->size() != bsm.size() || opts_.top != base.opts_.top ||
      opts_.defines != base.opts_.defines || opts_.outputs != base.opts_.outputs ||
      opts_.allowLibrary != base.opts_.allowLibrary || opts_.stampInstances != base.opts_.stampInstances ||
      opts_.linkNests != base.opts_.linkNests || !opts_.guidsFrom.empty() || !opts_.stopAfter.empty() ||
      a.maxDevices != b.maxDevices || a.maxLinks != b.maxLinks || a.maxSteps != b.maxSteps ||
      a.maxDepth != b.maxDepth || a.maxValueSize != b.maxValueSize)
    return false;
  // Every other file is the same text (an import edited in another buffer, a file
  // saved: not).
  const uint32_t main = prog_.main->fileId;
  for (uint32_t f = 0; f < sm_->size(); ++f)
    if (f != main && (sm_->path(f) != bsm.path(f) || sm_->text(f) != bsm.text(f)))
      return false;
  return true;
}


TextShift Compilation::editedSince(const Compilation &base) const {
  const uint32_t main = prog_.main->fileId;
  return shiftBetween(base.sm_->text(main), sm_->text(main), main);
}

bool Compilation::evaluateGlobals(DiagEngine &diags, BindingValues &values, ir::Fabric &scratch) const {
  ElabOptions eo = elabOptions(opts_.values ? &values : nullptr);
  eo.globalsOnly = true;
  bool evaluated = false;
  eo.afterGlobals = [&] { evaluated = true; };
  elaborate(prog_, eo, diags, scratch);
  return evaluated;
}

void Compilation::carryValues(const TextShift &shift, BindingValues &values) const {
  if (!opts_.values || !opts_.reuseValues)
    return;
  std::unordered_map<uint64_t, const ast::Stmt *> byPlace;
  for (const ast::File *f : prog_.files) {
    for (const ast::Template *t : f->templates)
      statementsByPlace(t->body, byPlace);
    for (const ast::Fabric *x : f->fabrics)
      statementsByPlace(x->body, byPlace);
  }
  for (const auto &kv : opts_.reuseValues->values) {
    SourceRange r = kv.first->range;
    if (!shift.toNew(r))
      continue;
    auto it = byPlace.find(uint64_t(r.begin.file) << 32 | r.begin.offset);
    if (it != byPlace.end())
      values.values.emplace(it->second, kv.second);
  }
}

bool Compilation::namedElsewhere(const std::vector<std::string_view> &names, const Spans &spans) const {
  const uint32_t main = prog_.main->fileId;
  for (std::string_view name : names) {
    if (name.empty() || mentions(sm_->text(main), name, spans))
      return true;
    for (uint32_t f = 0; f < sm_->size(); ++f)
      if (f != main && mentions(sm_->text(f), name))
        return true;
    for (const auto &d : opts_.defines)
      if (mentions(d.first, name) || mentions(d.second, name))
        return true;
  }
  return false;
}

bool Compilation::reuse(TextShift shift) {
  const Compilation &base = *opts_.reuse;
  const uint32_t main = prog_.main->fileId;
  std::string_view oldText = base.sm_->text(main), newText = sm_->text(main);
  // Each hunk lies in top-level lets, templates and fns, in both texts, and covers the
  // same span of the texts they share.
  std::vector<std::string_view> names;
  std::vector<std::pair<uint32_t, uint32_t>> newSpans;
  const std::vector<Decl> oldDecls = declsOf(*base.prog_.main, oldText, Edited::Declarations),
                          newDecls = declsOf(*prog_.main, newText, Edited::Declarations);
  for (TextShift::Hunk &h : shift.hunks) {
    uint32_t ob, oe, nb, ne;
    if (!declsCovering(oldDecls, oldText, h.oldBegin, h.oldEnd, names, ob, oe) ||
        !declsCovering(newDecls, newText, h.newBegin, h.newEnd, names, nb, ne) ||
        h.oldBegin - ob != h.newBegin - nb || oe - h.oldEnd != ne - h.newEnd)
      return false;
    if (!newSpans.empty() && nb < newSpans.back().second)
      return false; // two hunks' declarations meet
    h = {ob, oe, nb, ne};
    newSpans.push_back({nb, ne});
  }
  if (namedElsewhere(names, newSpans))
    return false;
  // The top-level bindings, evaluated aside: if the reuse fails below, the compilation
  // goes on as usual and nothing of this attempt stays.
  DiagEngine diags(*diags_);
  BindingValues values;
  ir::Fabric scratch;
  if (!evaluateGlobals(diags, values, scratch))
    return false;
  // Up to here both runs reported on the same input but for the span: what each reported
  // outside it must be the same, and nothing in the rest may have folded into it.
  const std::vector<Diagnostic> &before = base.diags_->all(), &now = diags.all();
  auto outside = [](const std::vector<Diagnostic> &ds, size_t n, const TextShift &s, bool old) {
    std::vector<const Diagnostic *> out;
    for (size_t i = 0; i < n; ++i) {
      SourceLoc l = ds[i].range.begin;
      bool in = false;
      for (const TextShift::Hunk &h : s.hunks)
        in |= l.valid() && l.file == s.file && l.offset >= (old ? h.oldBegin : h.newBegin) &&
              l.offset < (old ? h.oldEnd : h.newEnd);
      if (!in)
        out.push_back(&ds[i]);
    }
    return out;
  };
  auto a = outside(before, base.atFabric_->kept, shift, true), b = outside(now, now.size(), shift, false);
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i) {
    SourceRange r = a[i]->range;
    if (a[i]->more || !shift.toNew(r) || a[i]->code != b[i]->code || r.begin.file != b[i]->range.begin.file ||
        r.begin.offset != b[i]->range.begin.offset || r.length != b[i]->range.length ||
        a[i]->message != b[i]->message)
      return false;
  }
  // The rest of the base's diagnostics: all of them when the bindings are clean, else
  // those of elaboration (the passes do not run after an error). Not when one is an
  // unknown name, function or template: its did-you-mean reads every such name.
  const DiagEngine::Mark &end = diags.hasErrors() ? *base.atPasses_ : base.finalMark_;
  for (size_t i = base.atFabric_->kept; i < end.kept; ++i)
    if (before[i].code == DiagCode::E0020 || before[i].code == DiagCode::E0022)
      return false;
  if (!diags.adopt(*base.diags_, *base.atFabric_, end, [&](SourceRange &r) { return shift.toNew(r); }))
    return false;
  // The values the base recorded below the top level, keyed by the new tree's statements.
  carryValues(shift, values);
  diags_->replaceWith(std::move(diags));
  if (opts_.values)
    *opts_.values = std::move(values);
  base_ = opts_.reuse;
  shift_ = shift;
  return true;
}

} // namespace fabc
