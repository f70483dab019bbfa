// Reuses across an edit of settings: the elaboration, across one of options and
// policies (docs/decisions/0622-an-edit-of-options-reuses-the-elaboration.md), and the
// checked IR, across one the passes do not see
// (docs/decisions/0623-an-edit-the-passes-do-not-see-runs-only-the-checks.md).
#include "Compilation.h"

#include "passes/Passes.h"
#include "reuse/Edits.h"

#include <cstring>
#include <unordered_set>

namespace fabc {
using namespace reuse;

// The elaboration reused across an edit of options and policies
// (docs/decisions/0622-an-edit-of-options-reuses-the-elaboration.md).
//
// Elaboration evaluates the top-level options with the other top-level bindings, and a
// fabric's options and policies where they stand in its body; nothing else reads or
// writes what they set (Fabric::options, extraOptions, policies, extraPolicies), and
// only the passes and outputs read it. So when an edit changes only such statements, a
// fresh elaboration would build the base's IR but for those fields: this compilation
// evaluates the top-level bindings and the fabric's own options and policies aside
// (ElabOptions::settingsOnly), takes a copy of the IR the base's elaboration left (kept,
// in the language server, once an edit of settings had come: CompileOptions::Keep),
// puts the new settings in, and runs the passes on it. Every condition that does not
// hold makes it elaborate as usual.
bool Compilation::settingsEdited(const Compilation &base, const TextShift &shift, SettingReader &reader) const {
  const uint32_t main = prog_.main->fileId;
  std::string_view oldText = base.sm_->text(main), newText = sm_->text(main);
  if (shift.hunks.empty())
    return false;
  // Each hunk lies in options and policies, in both texts, and covers the same span of
  // the texts they share. One in a fabric's body changes numbers only: the same strings
  // are interned, at the same points, as in the base.
  std::vector<std::string_view> names;
  Spans oldSpans, newSpans;
  for (const TextShift::Hunk &h : shift.hunks) {
    oldSpans.push_back({h.oldBegin, h.oldEnd});
    newSpans.push_back({h.newBegin, h.newEnd});
  }
  const std::vector<Decl> oldDecls = declsOf(*base.prog_.main, oldText, Edited::Options, oldSpans),
                          newDecls = declsOf(*prog_.main, newText, Edited::Options, newSpans);
  auto inFabric = [](const std::vector<Decl> &ds, uint32_t b, uint32_t e) {
    for (const Decl &d : ds)
      if (d.inFabric && d.begin < e && b < d.end)
        return true;
    return false;
  };
  // The first stage that reads a setting [b, e) meets (reusePasses).
  reader = SettingReader::Checks;
  auto firstOf = [&](const std::vector<Decl> &ds, uint32_t b, uint32_t e) {
    for (const Decl &d : ds)
      if (d.begin < e && b < d.end && !d.declaration)
        reader = std::min(reader, d.reader);
  };
  // A hunk may also hold top-level lets, templates and fns that nothing else names, as
  // decision 0621 reuses a check across (an unused let edited beside an option): they
  // change nothing elaboration reads, and the settings-only run evaluates the lets anew.
  std::vector<std::string_view> unread;
  Spans unreadSpans;
  auto declarations = [&](const std::vector<Decl> &ds, uint32_t b, uint32_t e, bool isNew) {
    for (const Decl &d : ds)
      if (d.declaration && d.begin < e && b < d.end) {
        unread.push_back(d.name);
        if (isNew)
          unreadSpans.push_back({d.begin, d.end});
      }
  };
  for (const TextShift::Hunk &h : shift.hunks) {
    uint32_t ob, oe, nb, ne;
    if (!declsCovering(oldDecls, oldText, h.oldBegin, h.oldEnd, names, ob, oe) ||
        !declsCovering(newDecls, newText, h.newBegin, h.newEnd, names, nb, ne) ||
        h.oldBegin - ob != h.newBegin - nb || oe - h.oldEnd != ne - h.newEnd)
      return false;
    declarations(oldDecls, ob, oe, false);
    declarations(newDecls, nb, ne, true);
    if ((inFabric(oldDecls, ob, oe) || inFabric(newDecls, nb, ne)) &&
        !sameButNumbers(oldText.substr(ob, oe - ob), newText.substr(nb, ne - nb)))
      return false;
    firstOf(oldDecls, ob, oe);
    firstOf(newDecls, nb, ne);
  }
  if (!unread.empty() && namedElsewhere(unread, unreadSpans))
    return false;
  // Settings below a fabric's top level are evaluated in the order of everything else;
  // the fabric's own are evaluated again without its scope: literals and the top-level
  // lets and params no statement of a fabric's body names again.
  Names globals;
  for (const ast::File *f : prog_.files)
    for (const ast::Stmt *st : f->topLevel)
      if (st->kind == ast::Stmt::Let || st->kind == ast::Stmt::Param)
        globals.insert(st->name());
  for (const ast::File *f : prog_.files)
    for (const ast::Fabric *x : f->fabrics)
      for (const ast::Stmt *st : x->body)
        if (st->kind != ast::Stmt::Link) // names nothing (an explicit file's millions)
          globals.erase(st->name());
  for (const ast::File *f : prog_.files) {
    for (const ast::Template *t : f->templates)
      if (setsSettings(t->body))
        return false;
    for (const ast::Fabric *x : f->fabrics)
      for (const ast::Stmt *st : x->body)
        if (st->kind != ast::Stmt::Link && (setsSettings(st->body()) || setsSettings(st->elseBody()) ||
                                            (isSetting(*st) && !scopeFreeSetting(st, globals))))
          return false;
  }
  return true;
}

bool Compilation::evaluateSettings(uint32_t stringsAtFabric, ir::Fabric &scratch, BindingValues &values) {
  // Evaluated aside, they must report nothing (the base's elaboration reported nothing,
  // so the rest of a fresh one would not either). The top-level bindings must intern the
  // strings the base had then, in order; the fabric's settings then intern into F_'s
  // pool, the base's, and must add nothing: every string id holds.
  DiagEngine diags(*diags_);
  bool samePool = false;
  const size_t poolSize = F_.strings.size();
  ElabOptions eo = elabOptions(opts_.values ? &values : nullptr);
  eo.settingsOnly = true;
  eo.afterGlobals = [&] {
    if (scratch.strings.size() != stringsAtFabric)
      return;
    for (uint32_t i = 0; i < scratch.strings.size(); ++i)
      if (scratch.strings.str(i) != F_.strings.str(i))
        return;
    scratch.strings = std::move(F_.strings);
    samePool = true;
  };
  const bool ok = elaborate(prog_, eo, diags, scratch);
  if (samePool)
    F_.strings = std::move(scratch.strings);
  if (!ok || !samePool || F_.strings.size() != poolSize)
    return false;
  return diags.mark() == diags_->mark();
}

bool Compilation::placeSettings(std::string_view placesText, ir::Fabric &scratch) {
  // The places F_ holds (devices, links, groups...) in the main text, none of them in a
  // setting, moved past the edits since the text they were made from (the base's, or an
  // earlier one when the base reused its elaboration); the settings' own and the
  // fabric's range are new.
  const uint32_t main = prog_.main->fileId;
  TextShift places = shiftBetween(placesText, sm_->text(main), main);
  bool moved = false;
  for (const TextShift::Hunk &h : places.hunks)
    moved |= h.oldEnd - h.oldBegin != h.newEnd - h.newBegin;
  if (moved && !F_.forEachPlace([&](SourceRange &r) { return places.toNew(r); }))
    return false;
  F_.options = scratch.options;
  F_.extraOptions = std::move(scratch.extraOptions);
  F_.policies = std::move(scratch.policies);
  F_.extraPolicies = std::move(scratch.extraPolicies);
  F_.loc = scratch.loc; // the fabric's range: its end moves with an edit inside it
  return true;
}

bool Compilation::reuseElaboration(const Compilation &base, const TextShift &shift) {
  const ir::Fabric &kept = base.elaborated_->fabric;
  BindingValues values;
  ir::Fabric scratch;
  F_ = kept;
  if (!evaluateSettings(base.elaborated_->stringsAtFabric, scratch, values) ||
      (opts_.cancel && opts_.cancel->load(std::memory_order_relaxed)) ||
      !placeSettings(base.elaborated_->mainText, scratch)) {
    F_ = ir::Fabric();
    return false;
  }
  elaborated_ = base.elaborated_;
  stringsAtFabric_ = base.elaborated_->stringsAtFabric;
  cleanElaboration_ = true;
  elaborationReused_ = true;
  carryValues(shift, values);
  if (opts_.values)
    *opts_.values = std::move(values);
  return true;
}

// The checked IR reused across an edit the passes do not see
// (docs/decisions/0623-an-edit-the-passes-do-not-see-runs-only-the-checks.md), or across
// one of the lengths' options that the passes after the lengths see
// (docs/decisions/0651-an-edit-of-the-lengths-reruns-only-what-reads-them.md).
//
// The settings firstReader calls Checks (the policies of Fabric::policies, pue, spares,
// the BGP and BFD hardening...) are read by the validation checks, the analyses and the
// output rules, and by nothing before them: of the measurements only the policies' scopes
// read a policy, through its kind, `per` and `tier`, which an edit of numbers leaves as
// they were. Nor do the passes after validate read them, or what the checks report. So a
// fresh compilation would reach the validation checks with the base's IR and
// diagnostics, report what the checks report for the new settings, and go on to the end
// of the passes as the base did. The lengths' options (Lengths) too, when the lengths
// they give are the base's: nothing after the lengths pass reads them then.
// This compilation copies the base's checked IR, puts the new settings in, takes the
// base's diagnostics of the passes but the checks', and runs the checks again; the output
// checks then run as usual.
//
// When the lengths they give are not the base's, what reads the lengths runs again on the
// copy (rerunPasses): the lengths, media, transceivers and power passes, the
// measures that read what they compute and every validation check. The topology's
// measures (tiers, reach, single points, groups) and the passes after validate (guids,
// addressing) read none of it, so their results and diagnostics are the base's.
// Every condition that does not hold makes it reuse the elaboration, or compile, as usual.
bool Compilation::reusePasses(const Compilation &base, const TextShift &shift, SettingReader reader) {
  if (!base.passMarks_ || !base.cleanElaboration_ || !base.atPasses_ || !opts_.recheckPolicies)
    return false;
  const PassMarks &pm = *base.passMarks_;
  // A diagnostic taken over must count what a fresh run would have folded into it by the
  // end of the passes: nothing the base reported from `rerunFrom` on (what runs again,
  // its output checks) may have folded into one. Codes are owned by one check each; a
  // code reported on both sides is refused rather than traced.
  const std::vector<Diagnostic> &all = base.diags_->all();
  auto ownCodes = [&](const DiagEngine::Mark &rerunFrom) {
    std::unordered_set<uint32_t> taken;
    for (size_t i = base.atPasses_->kept; i < rerunFrom.kept; ++i)
      taken.insert(uint32_t(all[i].code));
    for (size_t i = pm.afterValidate.kept; i < pm.end.kept; ++i)
      taken.insert(uint32_t(all[i].code));
    for (size_t i = rerunFrom.kept; i < all.size(); ++i)
      if ((i < pm.afterValidate.kept || i >= pm.end.kept) && taken.count(uint32_t(all[i].code)))
        return false;
    return true;
  };
  if (!ownCodes(pm.validate))
    return false;
  BindingValues values;
  ir::Fabric scratch;
  auto fail = [&] {
    F_ = ir::Fabric();
    return false;
  };
  // The settings first, into the base's pool: the IR is copied only once the reuse holds.
  F_.strings = base.F_.strings;
  if (!evaluateSettings(base.stringsAtFabric_, scratch, values) ||
      (opts_.cancel && opts_.cancel->load(std::memory_order_relaxed)))
    return fail();
  // What the measurements read of the policies is the base's.
  const ir::Fabric &was = base.F_;
  if (scratch.policies.size() != was.policies.size())
    return fail();
  for (size_t i = 0; i < was.policies.size(); ++i) {
    const ir::Policy &a = scratch.policies[i], &b = was.policies[i];
    if (a.kind != b.kind || a.scope != b.scope || a.per != b.per || a.tierGiven != b.tierGiven)
      return fail();
  }
  // An option of the lengths (the default length, the slack): when the lengths the new
  // options give are the base's, and the lengths pass quiet in both (it reads placement
  // and those options only, which no pass writes), nothing after it sees the edit (early
  // cutoff). Else what reads the lengths runs again.
  bool physical = false;
  if (reader == SettingReader::Lengths) {
    stage("lengths");
    DiagEngine quiet(*diags_);
    const DiagEngine::Mark before = quiet.mark();
    physical = !pm.lengthsQuiet || !passes::sameLengths(was, scratch.options, quiet) || quiet.mark() != before;
    if (physical && !ownCodes(pm.lengths))
      return fail();
  }
  stage("reuse checked IR");
  F_ = was;
  if (!placeSettings(base.sm_->text(prog_.main->fileId), scratch))
    return fail();
  // The diagnostics: the base's up to what runs again, that one's own, the base's after
  // the validate pass.
  DiagEngine diags(*diags_);
  auto map = [&](SourceRange &r) { return shift.toNew(r); };
  const DiagEngine::Mark atPasses = diags.mark();
  PassMarks marks;
  if (!diags.adopt(*base.diags_, *base.atPasses_, pm.lengths, map))
    return fail();
  marks.lengths = diags.mark();
  marks.lengthsQuiet = pm.lengthsQuiet; // as the base's, or quiet again (the cutoff)
  if (physical) {
    std::optional<DiagEngine::Mark> afterLengths;
    const char *previous = "";
    rerunPasses(passes::fact::Lengths, F_, diags, [&](const char *name) {
      if (std::strcmp(previous, "lengths") == 0)
        afterLengths = diags.mark();
      if (std::strcmp(name, "validate") == 0)
        marks.validate = diags.mark();
      previous = name;
      stage(name);
    });
    marks.lengthsQuiet = afterLengths && *afterLengths == marks.lengths;
  } else {
    if (!diags.adopt(*base.diags_, pm.lengths, pm.validate, map))
      return fail();
    marks.validate = diags.mark();
    stage("validation checks");
    passes::runValidationChecks(F_, diags);
  }
  marks.afterValidate = diags.mark();
  if (!diags.adopt(*base.diags_, pm.afterValidate, pm.end, map))
    return fail();
  marks.end = diags.mark();
  diags_->replaceWith(std::move(diags));
  atFabric_ = atPasses_ = atPasses;
  passMarks_ = marks;
  elaborated_ = base.elaborated_; // still there for a later edit of options
  stringsAtFabric_ = base.stringsAtFabric_;
  cleanElaboration_ = true;
  passesReused_ = true;
  physicalRerun_ = physical;
  carryValues(shift, values);
  if (opts_.values)
    *opts_.values = std::move(values);
  return true;
}

} // namespace fabc
