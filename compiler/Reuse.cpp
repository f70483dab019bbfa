// A compilation that reuses its base's check across an edit of top-level `let`s,
// `template`s and `fn`s that nothing else names
// (docs/decisions/0621-an-edit-nothing-reads-is-not-compiled-again.md).
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
//
// The elaboration's reuse across an edit of options and policies is here too (the end of
// this file): both read the edit through the same line hunks and declarations, which is
// why the file is past 600 lines. Splitting that machinery into its own header is the
// way to shorten it.
#include "Compilation.h"

#include "ast/HandLexer.h"
#include "diag/DiagCodes.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

namespace fabc {
namespace {

// `name` as a whole word anywhere in `text` outside the `skip` spans (ascending; in
// comments and strings too: a false hit only costs the reuse).
bool mentions(std::string_view text, std::string_view name,
              const std::vector<std::pair<uint32_t, uint32_t>> &skip = {}) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    auto s = std::partition_point(skip.begin(), skip.end(), [&](const auto &x) { return x.second <= at; });
    if (s != skip.end() && s->first <= at)
      continue;
    size_t end = at + name.size();
    if ((at == 0 || !hand::isIdChar(text[at - 1])) && (end == text.size() || !hand::isIdChar(text[end])))
      return true;
  }
  return false;
}

// Only white space and whole comments: a line comment must end inside, unless the text
// ends the file (else what follows would be commented out), a block comment must close.
bool onlyTrivia(std::string_view text, bool endsFile) {
  ParseLimits limits;
  hand::Lexer lx(text, limits, /*comments=*/true);
  for (;;) {
    hand::Token t = lx.next();
    if (t.kind == hand::End)
      return true;
    if (t.kind == hand::BlockComment && text.substr(t.begin, t.end - t.begin).size() >= 4 &&
        text.compare(t.end - 2, 2, "*/") == 0)
      continue;
    if (t.kind == hand::LineComment && (t.end < text.size() || endsFile))
      continue;
    return false;
  }
}

// The region where two texts differ, given the lengths of their common prefix and suffix,
// widened to whole lines: a line commented out is a let removed, not a comment inserted
// before a let. An insertion or deletion that could as well start at a line's start
// (the prefix ends as what was inserted ends: "let a = 1;\nlet " inserted after "let ")
// is moved there first.
TextShift::Hunk wholeLines(std::string_view a, std::string_view b, size_t p, size_t q) {
  size_t ae = a.size() - q, be = b.size() - q;
  auto lineStart = [](std::string_view t, size_t at) { return at == 0 || t[at - 1] == '\n'; };
  if ((ae == p) != (be == p) && !lineStart(a, p)) {
    std::string_view moved = ae == p ? b.substr(p, be - p) : a.substr(p, ae - p);
    for (size_t k = 1; k <= std::min(p, moved.size()) && a[p - k] == moved[moved.size() - k]; ++k)
      if (lineStart(a, p - k)) {
        ae -= k;
        be -= k;
        p -= k;
        break;
      }
  }
  while (p > 0 && a[p - 1] != '\n')
    --p;
  if (!(lineStart(a, ae) && lineStart(b, be))) {
    size_t nl = a.find('\n', ae);
    size_t k = nl == std::string_view::npos ? a.size() - ae : nl + 1 - ae;
    ae += k;
    be += k;
  }
  return {uint32_t(p), uint32_t(ae), uint32_t(p), uint32_t(be)};
}

// The region split where its lines are the same in both texts (a longest common
// subsequence of lines): a comment typed at the end and a let edited above an option
// are two hunks, not one that holds the option. A region of many lines stays whole.
std::vector<TextShift::Hunk> lineHunks(std::string_view a, std::string_view b, TextShift::Hunk r) {
  auto lines = [](std::string_view t, uint32_t begin, uint32_t end) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    while (begin < end) {
      size_t nl = t.find('\n', begin);
      uint32_t e = nl == std::string_view::npos || nl >= end ? end : uint32_t(nl + 1);
      out.push_back({begin, e});
      begin = e;
    }
    return out;
  };
  constexpr size_t kMaxLines = 256;
  auto la = lines(a, r.oldBegin, r.oldEnd), lb = lines(b, r.newBegin, r.newEnd);
  if (la.size() > kMaxLines || lb.size() > kMaxLines || la.empty() || lb.empty())
    return {r};
  auto same = [&](size_t i, size_t j) {
    return a.substr(la[i].first, la[i].second - la[i].first) == b.substr(lb[j].first, lb[j].second - lb[j].first);
  };
  const size_t n = la.size(), m = lb.size();
  std::vector<uint16_t> lcs((n + 1) * (m + 1), 0); // lcs[i * (m + 1) + j]: of la[i..], lb[j..]
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i * (m + 1) + j] = same(i, j) ? uint16_t(lcs[(i + 1) * (m + 1) + j + 1] + 1)
                                        : std::max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
  std::vector<TextShift::Hunk> out;
  size_t i = 0, j = 0;
  auto at = [&](const std::vector<std::pair<uint32_t, uint32_t>> &ls, size_t k, uint32_t end) {
    return k < ls.size() ? ls[k].first : end;
  };
  while (i < n || j < m) {
    if (i < n && j < m && same(i, j)) {
      ++i, ++j;
      continue;
    }
    TextShift::Hunk h{at(la, i, r.oldEnd), 0, at(lb, j, r.newEnd), 0};
    while ((i < n || j < m) && !(i < n && j < m && same(i, j))) {
      if (j >= m || (i < n && lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]))
        ++i;
      else
        ++j;
    }
    h.oldEnd = at(la, i, r.oldEnd);
    h.newEnd = at(lb, j, r.newEnd);
    out.push_back(h);
  }
  return out;
}

// A top-level declaration of the main file: where it is and whether an edit of it may
// reuse the check (a `let`, a `template`, an `fn`: the rest reads them by name only).
struct Decl {
  uint32_t begin, end;
  std::string_view name;
  bool reusable;
  bool inFabric = false; // a statement of a fabric's body (Edited::Options)
};

// Where a template or fn declaration ends: the `}` that closes its body, or its `;`
// (from its name on, brackets counted). 0 when the lexer does not get there.
uint32_t declEnd(std::string_view text, uint32_t from, bool braces) {
  ParseLimits limits;
  hand::Lexer lx(text, limits);
  lx.seek(from);
  int depth = 0;
  for (;;) {
    hand::Token t = lx.next();
    switch (t.kind) {
    case hand::End: case hand::Bad: return 0;
    case hand::LBrace: case hand::LParen: case hand::LBrack: ++depth; break;
    case hand::RBrace: case hand::RParen: case hand::RBrack:
      if (--depth == 0 && braces && t.kind == hand::RBrace)
        return t.end;
      if (depth < 0)
        return 0;
      break;
    case hand::Semi:
      if (depth == 0 && !braces)
        return t.end;
      break;
    default: break;
    }
  }
}

// The declaration starting with `keyword` whose name is at `name`: its extent, or a
// declaration that may not be reused (only its name's place) when anything but white
// space separates keyword and name.
Decl keywordDecl(std::string_view text, SourceRange name, std::string_view spelled, const char *keyword,
                 bool braces) {
  Decl d{name.begin.offset, name.begin.offset + name.length, spelled, false};
  size_t at = name.begin.offset, kw = std::strlen(keyword);
  if (text.substr(at, spelled.size()) != spelled)
    return d;
  while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t' || text[at - 1] == '\n' || text[at - 1] == '\r'))
    --at;
  if (at < kw || text.substr(at - kw, kw) != keyword || (at > kw && hand::isIdChar(text[at - kw - 1])))
    return d;
  uint32_t end = declEnd(text, name.begin.offset, braces);
  if (!end)
    return d;
  return {uint32_t(at - kw), end, spelled, true};
}

// What an edit may change and be reused: top-level lets, templates and fns (the check
// reused), or options and policies (the elaboration reused).
enum class Edited { Declarations, Options };

// An expression of literals, operators and names of top-level bindings only: its value
// is the same without the fabric's scope, which a settings-only run does not build (a
// name there could be a binding of the fabric's body, an instance, a model).
using Names = std::unordered_set<std::string_view>;
bool scopeFree(const ast::Expr *e, const Names &globals) {
  if (!e)
    return true;
  switch (e->kind) {
  case ast::Expr::Number: case ast::Expr::Quantity: case ast::Expr::String: case ast::Expr::Bool: return true;
  case ast::Expr::Name: return e->kids.empty() && globals.count(e->text);
  case ast::Expr::List: case ast::Expr::Unary: case ast::Expr::Binary:
    for (const ast::Expr *k : e->kids)
      if (!scopeFree(k, globals))
        return false;
    return true;
  default: return false;
  }
}

bool scopeFreeSetting(const ast::Stmt *s, const Names &globals) {
  if (!scopeFree(s->e1, globals))
    return false;
  for (const ast::Prop &p : s->props)
    if (!scopeFree(p.value, globals))
      return false;
  return true;
}

// The same tokens but for numbers (a quantity's unit the same): evaluating either
// interns the same strings in the same order.
bool sameButNumbers(std::string_view a, std::string_view b) {
  ParseLimits limits;
  hand::Lexer la(a, limits), lb(b, limits);
  auto numeric = [](hand::Tok k) { return k == hand::Number || k == hand::Quantity || k == hand::PercentLit; };
  auto unit = [](std::string_view t) {
    size_t i = t.size();
    while (i > 0 && !(t[i - 1] >= '0' && t[i - 1] <= '9'))
      --i;
    return t.substr(i);
  };
  for (;;) {
    hand::Token x = la.next(), y = lb.next();
    if (x.kind != y.kind || x.kind == hand::Bad)
      return false;
    if (x.kind == hand::End)
      return true;
    std::string_view tx = a.substr(x.begin, x.end - x.begin), ty = b.substr(y.begin, y.end - y.begin);
    if (numeric(x.kind) ? unit(tx) != unit(ty) : tx != ty)
      return false;
  }
}

// The spans of one text an edit changed ([begin, end), ascending; empty: an insertion).
using Spans = std::vector<std::pair<uint32_t, uint32_t>>;

// `edited` Options: the statements of a fabric's body are listed only where they meet
// `spans` (declsCovering reads no other; an explicit file's body is millions of links).
std::vector<Decl> declsOf(const ast::File &f, std::string_view text, Edited edited, const Spans &spans = {}) {
  std::vector<Decl> out;
  const ast::Stmt::Kind kind = edited == Edited::Options ? ast::Stmt::Option : ast::Stmt::Let;
  for (const ast::Stmt *s : f.topLevel)
    out.push_back({s->range.begin.offset, s->range.begin.offset + s->range.length, s->name(), s->kind == kind});
  for (const ast::Template *t : f.templates) {
    out.push_back(keywordDecl(text, t->range, t->name, "template", true));
    out.back().reusable &= edited == Edited::Declarations;
  }
  for (const ast::Function *fn : f.functions) {
    out.push_back(keywordDecl(text, fn->range, fn->name, "fn", false));
    out.back().reusable &= edited == Edited::Declarations;
  }
  for (const ast::Model *m : f.models)
    out.push_back({m->range.begin.offset, m->range.begin.offset + m->range.length, m->name, false});
  for (const ast::Fabric *x : f.fabrics) {
    if (edited == Edited::Declarations) {
      out.push_back({x->range.begin.offset, x->range.begin.offset + x->range.length, x->name, false});
      continue;
    }
    // Its statements: the header and the closing brace are no statement's, and an edit
    // that reaches them is not only trivia.
    ast::Stmt **next = x->body.begin(); // past those listed (the spans ascend)
    for (const auto &span : spans) {
      const uint32_t b = span.first, e = span.second; // named: C++17 lambdas take no bindings
      auto it = std::partition_point(next, x->body.end(), [&](const ast::Stmt *st) {
        return st->range.begin.offset + st->range.length <= b;
      });
      for (; it != x->body.end() && (*it)->range.begin.offset < (b == e ? b : e); ++it) {
        const ast::Stmt *st = *it;
        out.push_back({st->range.begin.offset, st->range.begin.offset + st->range.length, st->name(),
                       isSetting(*st), true});
      }
      next = it;
    }
  }
  for (const ast::Import &i : f.imports)
    out.push_back({i.range.begin.offset, i.range.begin.offset + i.range.length, {}, false});
  std::sort(out.begin(), out.end(), [](const Decl &a, const Decl &b) { return a.begin < b.begin; });
  return out;
}

// The declarations that overlap [begin, end) (or hold it, if empty), which must all be
// reusable ones with nothing but trivia between them and the edge of the span: the span
// [outBegin, outEnd) they and the region cover, their names added to `names`. False
// otherwise (a model, a fabric, a param, an option, or anything but trivia in the span).
bool declsCovering(const std::vector<Decl> &decls, std::string_view text, uint32_t begin, uint32_t end,
                   std::vector<std::string_view> &names, uint32_t &outBegin, uint32_t &outEnd) {
  outBegin = begin;
  outEnd = end;
  std::vector<const Decl *> in;
  for (const Decl &d : decls) {
    if (begin == end ? !(d.begin < begin && begin < d.end) : (d.end <= begin || d.begin >= end))
      continue;
    if (!d.reusable)
      return false;
    in.push_back(&d);
    names.push_back(d.name);
    outBegin = std::min(outBegin, d.begin);
    outEnd = std::max(outEnd, d.end);
  }
  // What lies in the span besides those declarations.
  uint32_t at = outBegin;
  for (const Decl *d : in) {
    if (d->begin < at || !onlyTrivia(text.substr(at, d->begin - at), false))
      return false;
    at = d->end;
  }
  return onlyTrivia(text.substr(at, outEnd - at), outEnd == text.size());
}

// The let and param statements below the top level (in templates and fabrics), by place.
void statementsByPlace(const ast::Block &b, std::unordered_map<uint64_t, const ast::Stmt *> &out) {
  for (const ast::Stmt *s : b) {
    if (s->kind == ast::Stmt::Let || s->kind == ast::Stmt::Param)
      out.emplace(uint64_t(s->range.begin.file) << 32 | s->range.begin.offset, s);
    if (s->kind == ast::Stmt::For || s->kind == ast::Stmt::If) {
      statementsByPlace(s->body(), out);
      statementsByPlace(s->elseBody(), out);
    }
  }
}

// An option or policy statement in a block (a template's body, a loop's, a branch's).
bool setsSettings(const ast::Block &b) {
  for (const ast::Stmt *s : b)
    if (s->kind == ast::Stmt::Option || s->kind == ast::Stmt::Policy || setsSettings(s->body()) ||
        setsSettings(s->elseBody()))
      return true;
  return false;
}

} // namespace

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
      !opts_.guidsFrom.empty() || !opts_.stopAfter.empty() || a.maxDevices != b.maxDevices ||
      a.maxLinks != b.maxLinks || a.maxSteps != b.maxSteps || a.maxDepth != b.maxDepth ||
      a.maxValueSize != b.maxValueSize)
    return false;
  // Every other file is the same text (an import edited in another buffer, a file
  // saved: not).
  const uint32_t main = prog_.main->fileId;
  for (uint32_t f = 0; f < sm_->size(); ++f)
    if (f != main && (sm_->path(f) != bsm.path(f) || sm_->text(f) != bsm.text(f)))
      return false;
  return true;
}

namespace {
TextShift shiftBetween(std::string_view oldText, std::string_view newText, uint32_t file) {
  auto [p, q] = hand::commonEnds(oldText, newText);
  TextShift shift;
  shift.file = file;
  shift.hunks = lineHunks(oldText, newText, wholeLines(oldText, newText, p, q));
  return shift;
}
} // namespace

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
  // No name those declare is written anywhere else: not in the other files, not outside
  // the spans, not on the command line.
  for (std::string_view name : names) {
    if (name.empty() || mentions(newText, name, newSpans))
      return false;
    for (uint32_t f = 0; f < sm_->size(); ++f)
      if (f != main && mentions(sm_->text(f), name))
        return false;
    for (const auto &d : opts_.defines)
      if (mentions(d.first, name) || mentions(d.second, name))
        return false;
  }
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
bool Compilation::settingsEdited(const Compilation &base, const TextShift &shift) const {
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
  for (const TextShift::Hunk &h : shift.hunks) {
    uint32_t ob, oe, nb, ne;
    if (!declsCovering(oldDecls, oldText, h.oldBegin, h.oldEnd, names, ob, oe) ||
        !declsCovering(newDecls, newText, h.newBegin, h.newEnd, names, nb, ne) ||
        h.oldBegin - ob != h.newBegin - nb || oe - h.oldEnd != ne - h.newEnd)
      return false;
    if ((inFabric(oldDecls, ob, oe) || inFabric(newDecls, nb, ne)) &&
        !sameButNumbers(oldText.substr(ob, oe - ob), newText.substr(nb, ne - nb)))
      return false;
  }
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

bool Compilation::reuseElaboration(const Compilation &base, const TextShift &shift) {
  // Evaluated aside, they must report nothing (the base's elaboration reported nothing,
  // so the rest of a fresh one would not either). The top-level bindings must intern the
  // strings the base had then, in order; the fabric's settings then intern into a copy
  // of the kept pool and must add nothing: every string id holds.
  const ir::Fabric &kept = base.elaborated_->fabric;
  DiagEngine diags(*diags_);
  BindingValues values;
  ir::Fabric scratch;
  bool samePool = false;
  ElabOptions eo = elabOptions(opts_.values ? &values : nullptr);
  eo.settingsOnly = true;
  eo.afterGlobals = [&] {
    if (scratch.strings.size() != base.elaborated_->stringsAtFabric)
      return;
    for (uint32_t i = 0; i < scratch.strings.size(); ++i)
      if (scratch.strings.str(i) != kept.strings.str(i))
        return;
    scratch.strings = kept.strings;
    samePool = true;
  };
  if (!elaborate(prog_, eo, diags, scratch) || !samePool || scratch.strings.size() != kept.strings.size())
    return false;
  DiagEngine::Mark was = diags_->mark(), now = diags.mark();
  if (now.kept != was.kept || now.errors != was.errors || now.warnings != was.warnings ||
      now.suppressed != was.suppressed || now.unshown != was.unshown)
    return false;
  if (opts_.cancel && opts_.cancel->load(std::memory_order_relaxed))
    return false;
  F_ = kept;
  // The places it holds (devices, links, groups...) in the main text, none of them in a
  // setting, moved past the edits since the text it was elaborated from (the base's, or
  // an earlier one when the base reused it too); the settings' own and the fabric's
  // range are new.
  const uint32_t main = prog_.main->fileId;
  TextShift places = shiftBetween(base.elaborated_->mainText, sm_->text(main), main);
  bool moved = false;
  for (const TextShift::Hunk &h : places.hunks)
    moved |= h.oldEnd - h.oldBegin != h.newEnd - h.newBegin;
  if (moved && !F_.forEachPlace([&](SourceRange &r) { return places.toNew(r); })) {
    F_ = ir::Fabric();
    return false;
  }
  F_.options = scratch.options;
  F_.extraOptions = std::move(scratch.extraOptions);
  F_.policies = std::move(scratch.policies);
  F_.extraPolicies = std::move(scratch.extraPolicies);
  F_.loc = scratch.loc; // the fabric's range: its end moves with an edit inside it
  elaborated_ = base.elaborated_;
  elaborationReused_ = true;
  carryValues(shift, values);
  if (opts_.values)
    *opts_.values = std::move(values);
  return true;
}

} // namespace fabc
