// Where an edit lies: the line hunks between two texts of a file, the declarations and
// statements they meet, and the tests the reuses make of them (reuse/Edits.h).
#include "reuse/Edits.h"

#include "ast/HandLexer.h"
#include "ast/Parser.h"
#include "elab/Elaborator.h"

#include <algorithm>
#include <cstring>

namespace fabc::reuse {
namespace {

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

// An expression of literals, operators and names of top-level bindings only: its value
// is the same without the fabric's scope, which a settings-only run does not build (a
// name there could be a binding of the fabric's body, an instance, a model).
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

} // namespace

bool mentions(std::string_view text, std::string_view name, const Spans &skip) {
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

bool scopeFreeSetting(const ast::Stmt *s, const Names &globals) {
  if (!scopeFree(s->e1, globals))
    return false;
  for (const ast::Prop &p : s->props)
    if (!scopeFree(p.value, globals))
      return false;
  return true;
}

bool sameButNumbers(std::string_view a, std::string_view b) {
  ParseLimits limits;
  hand::Lexer la(a, limits), lb(b, limits);
  auto numeric = [](hand::Tok k) { return k == hand::Number || k == hand::Quantity || k == hand::PercentLit; };
  auto unit = [](std::string_view t) { // where the AST builder splits a quantity
    t.remove_prefix(quantityNumberLength(t));
    return t.substr(std::min(t.find_first_not_of(" \t"), t.size()));
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

std::vector<Decl> declsOf(const ast::File &f, std::string_view text, Edited edited, const Spans &spans) {
  std::vector<Decl> out;
  const ast::Stmt::Kind kind = edited == Edited::Options ? ast::Stmt::Option : ast::Stmt::Let;
  // Options: a top-level let, template or fn may be edited beside the settings too, when
  // nothing names it (Decl::declaration; the caller checks the names).
  const bool options = edited == Edited::Options;
  for (const ast::Stmt *s : f.topLevel) {
    const bool let = options && s->kind == ast::Stmt::Let;
    out.push_back({s->range.begin.offset, s->range.begin.offset + s->range.length, s->name(), s->kind == kind || let,
                   false, firstReader(*s), let});
  }
  for (const ast::Template *t : f.templates) {
    out.push_back(keywordDecl(text, t->range, t->name, "template", true));
    out.back().declaration = options;
  }
  for (const ast::Function *fn : f.functions) {
    out.push_back(keywordDecl(text, fn->range, fn->name, "fn", false));
    out.back().declaration = options;
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
                       isSetting(*st), true, firstReader(*st)});
      }
      next = it;
    }
  }
  for (const ast::Import &i : f.imports)
    out.push_back({i.range.begin.offset, i.range.begin.offset + i.range.length, {}, false});
  std::sort(out.begin(), out.end(), [](const Decl &a, const Decl &b) { return a.begin < b.begin; });
  return out;
}

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

bool setsSettings(const ast::Block &b) {
  for (const ast::Stmt *s : b)
    if (s->kind == ast::Stmt::Option || s->kind == ast::Stmt::Policy || setsSettings(s->body()) ||
        setsSettings(s->elseBody()))
      return true;
  return false;
}

TextShift shiftBetween(std::string_view oldText, std::string_view newText, uint32_t file) {
  auto [p, q] = hand::commonEnds(oldText, newText);
  TextShift shift;
  shift.file = file;
  shift.hunks = lineHunks(oldText, newText, wholeLines(oldText, newText, p, q));
  return shift;
}

} // namespace fabc::reuse
