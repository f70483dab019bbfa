// Builds the AST from ANTLR's parse tree. ANTLR types stay in this file.
#include "ast/Parser.h"
#include "diag/Diag.h"

#include "FabricLexer.h"
#include "FabricParser.h"
#include "antlr4-runtime.h"
#include "ast/Input.h"
#include "ast/SyntaxWindow.h"
#include "ast/Literals.h"
#include "ast/TwoStage.h"

#include <cerrno>
#include <climits>
#include <cstring>

namespace fabc {
namespace {
using P = fabc_antlr::FabricParser;

// Byte offsets for ANTLR's code-point indices (identical for ASCII files).
class OffsetMap {
public:
  // `window`: `text` is a SyntaxWindow's, and offsets map back to the file's.
  explicit OffsetMap(std::string_view text, const SyntaxWindow *window = nullptr) : window_(window) {
    bool ascii = true;
    for (unsigned char c : text)
      if (c >= 0x80) {
        ascii = false;
        break;
      }
    if (ascii)
      return;
    for (uint32_t i = 0; i < text.size(); ++i)
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
        starts_.push_back(i);
    starts_.push_back(uint32_t(text.size()));
  }
  uint32_t byte(size_t cp) const {
    uint32_t b = inText(cp);
    return window_ ? window_->original(b) : b;
  }
  // The offset in the text parsed (not mapped to the file's).
  uint32_t inText(size_t cp) const {
    if (starts_.empty())
      return uint32_t(cp);
    return cp < starts_.size() ? starts_[cp] : starts_.back();
  }
  bool synthesized(size_t cp) const { return window_ && inText(cp) >= window_->synthesizedFrom(); }

private:
  const SyntaxWindow *window_;
  std::vector<uint32_t> starts_;
};

std::string tokenDesc(antlr4::Token *t) {
  if (!t || t->getType() == antlr4::Token::EOF)
    return "end of file";
  std::string s = t->getText();
  if (s.size() > 40)
    s = s.substr(0, 40) + "...";
  return "'" + s + "'";
}

class ErrorListener : public antlr4::BaseErrorListener {
public:
  ErrorListener(uint32_t file, const OffsetMap &map, DiagEngine &diags)
      : file_(file), map_(map), diags_(diags) {}

  void syntaxError(antlr4::Recognizer *rec, antlr4::Token *bad, size_t, size_t,
                   const std::string &, std::exception_ptr) override {
    // The '}'s that close a cut window are not the file's: what they meet is not reported.
    if (bad && map_.synthesized(bad->getStartIndex()))
      return;
    ++count_;
    // Later errors are mostly the recovery's echoes of the first; recovering through
    // the rest of a large broken file costs minutes and gigabytes for nothing.
    if (count_ > 3)
      throw antlr4::ParseCancellationException();
    SourceRange r{{file_, bad ? map_.byte(bad->getStartIndex()) : 0}, 1};
    if (bad && bad->getType() != antlr4::Token::EOF && bad->getStopIndex() >= bad->getStartIndex())
      r.length = uint32_t(bad->getStopIndex() - bad->getStartIndex() + 1);
    std::string msg = "unexpected " + tokenDesc(bad);
    if (auto *parser = dynamic_cast<antlr4::Parser *>(rec)) {
      antlr4::misc::IntervalSet exp = parser->getExpectedTokens();
      if (exp.size() > 0 && exp.size() <= 4) {
        std::string list;
        for (size_t t : exp.toList()) {
          if (!list.empty())
            list += " or ";
          std::string name = t == antlr4::Token::EOF ? std::string("end of file")
                                                     : parser->getVocabulary().getDisplayName(t);
          if (name == "ID") name = "a name";
          else if (name == "NUMBER") name = "a number";
          else if (name == "STRING") name = "a string";
          else if (name == "QUANTITY") name = "a quantity";
          list += name;
        }
        msg += ", expected " + list;
      }
    }
    // A missing ';' at the end of a line is reported where it belongs, after the
    // previous token, as clang does.
    if (auto *parser = dynamic_cast<antlr4::Parser *>(rec)) {
      antlr4::Token *prev = parser->getTokenStream()->LT(-1);
      if (prev && bad && prev->getLine() < bad->getLine() && parser->getExpectedTokens().contains(semicolon_)) {
        r = {{file_, map_.byte(prev->getStopIndex() + 1)}, 1};
        msg = "expected ';' after " + tokenDesc(prev);
      }
    }
    Diagnostic *d = diags_.report(DiagCode::E0002, r, msg);
    if (bad && bad->getType() == P::QUANTITY)
      DiagEngine::note(d, r, "a number followed by a word is read as a quantity with a unit; "
                             "put the number in parentheses if the word is not a unit");
    last_ = d;
  }
  unsigned count() const { return count_; }
  Diagnostic *last() const { return last_; } // the last reported, while nothing else is
  void setSemicolon(size_t t) { semicolon_ = t; }

private:
  size_t semicolon_ = 0;
  uint32_t file_;
  const OffsetMap &map_;
  DiagEngine &diags_;
  unsigned count_ = 0;
  Diagnostic *last_ = nullptr;
};

using lit::unquote;

class Builder {
public:
  Builder(uint32_t file, const OffsetMap &map, ast::Context &ctx) : file_(file), map_(map), ctx_(ctx) {}

  SourceRange range(antlr4::Token *t) {
    if (!t)
      return {{file_, 0}, 1};
    uint32_t b = map_.byte(t->getStartIndex());
    uint32_t e = map_.byte(t->getStopIndex() + 1);
    return {{file_, b}, e > b ? e - b : 1};
  }
  SourceRange range(antlr4::tree::TerminalNode *n) { return range(n ? n->getSymbol() : nullptr); }
  SourceRange range(antlr4::ParserRuleContext *c) {
    if (!c || !c->getStart())
      return {{file_, 0}, 1};
    antlr4::Token *s = c->getStart(), *e = c->getStop();
    uint32_t b = map_.byte(s->getStartIndex());
    uint32_t end = e && e->getStopIndex() + 1 > s->getStartIndex() ? map_.byte(e->getStopIndex() + 1) : b + 1;
    return {{file_, b}, end > b ? end - b : 1};
  }
  static std::string text(antlr4::Token *t) { return t ? t->getText() : std::string(); }
  static std::string text(antlr4::tree::TerminalNode *n) { return n ? n->getText() : std::string(); }

  void build(P::FileContext *fc, ast::File *out) {
    for (P::ItemContext *it : fc->item()) {
      if (auto *i = it->importDecl()) {
        out->imports.push_back({unquote(text(i->STRING())), range(i->STRING())});
      } else if (auto *m = it->modelDecl()) {
        out->models.push_back(model(m));
      } else if (auto *t = it->templateDecl()) {
        out->templates.push_back(tmpl(t));
      } else if (auto *fn = it->fnDecl()) {
        ast::Function *r = ctx_.function();
        r->name = text(fn->name);
        r->range = range(fn->name);
        for (antlr4::tree::TerminalNode *p : fn->ID())
          if (p->getSymbol() != fn->name)
            r->params.push_back({text(p), range(p), nullptr});
        r->body = expr(fn->expr());
        out->functions.push_back(r);
      } else if (auto *f = it->fabricDecl()) {
        ast::Fabric *fab = ctx_.fabric();
        fab->name = text(f->name);
        fab->range = range(f->name);
        fab->body = block(f->block());
        out->fabrics.push_back(fab);
      } else if (auto *s = it->stmt()) {
        if (ast::Stmt *st = stmt(s))
          out->topLevel.push_back(st);
      }
    }
  }

private:
  ast::Model *model(P::ModelDeclContext *m) {
    ast::Model *r = ctx_.model();
    r->name = text(m->name);
    r->range = range(m->name);
    r->kind = text(m->kind);
    r->kindRange = range(m->kind);
    for (P::ModelItemContext *item : m->modelItem()) {
      if (auto *p = item->prop()) {
        r->props.push_back(prop(p));
      } else if (auto *pd = item->portDecl()) {
        ast::PortDecl d;
        d.name = text(pd->name);
        d.range = range(pd->name);
        d.count = expr(pd->expr());
        d.props = props(pd->propBlock());
        r->ports.push_back(std::move(d));
      }
    }
    return r;
  }

  ast::Template *tmpl(P::TemplateDeclContext *t) {
    ast::Template *r = ctx_.tmpl();
    r->name = text(t->name);
    r->range = range(t->name);
    if (t->kind) {
      r->kind = text(t->kind);
      r->kindRange = range(t->kind);
    }
    for (P::ParamContext *p : t->param())
      r->params.push_back({text(p->ID()), range(p->ID()), p->expr() ? expr(p->expr()) : nullptr});
    r->body = block(t->block());
    return r;
  }

  ast::Prop prop(P::PropContext *p) {
    ast::Prop r;
    r.key = text(p->key);
    r.keyRange = range(p->key);
    r.value = expr(p->expr());
    if (auto *a = p->annotation()) {
      r.annot = text(a->kind) == "source" ? ast::Prop::Source : ast::Prop::Estimate;
      r.annotText = unquote(text(a->STRING()));
    }
    return r;
  }

  std::vector<ast::Prop> props(P::PropBlockContext *b) {
    std::vector<ast::Prop> r;
    if (b)
      for (P::PropContext *p : b->prop())
        r.push_back(prop(p));
    return r;
  }

  ast::Block block(P::BlockContext *b) {
    ast::Block r;
    if (b)
      for (P::StmtContext *s : b->stmt())
        if (ast::Stmt *st = stmt(s))
          r.push_back(st);
    return r;
  }

  ast::Path path(P::PathContext *p) {
    ast::Path r;
    r.range = range(p);
    for (P::SegmentContext *s : p->segment()) {
      ast::Segment seg;
      seg.name = text(s->ID());
      seg.range = range(s);
      seg.star = s->star != nullptr;
      if (s->expr())
        seg.index = expr(s->expr());
      r.segs.push_back(std::move(seg));
    }
    return r;
  }

  ast::Block elseBranch(P::ElseBranchContext *e) {
    if (e->block() && !e->expr())
      return block(e->block());
    ast::Stmt *s = ctx_.stmt(ast::Stmt::If, range(e));
    s->e1 = expr(e->expr());
    s->body = block(e->block());
    if (e->elseBranch())
      s->elseBody = elseBranch(e->elseBranch());
    return {s};
  }

  ast::Stmt *stmt(P::StmtContext *s) {
    using K = ast::Stmt;
    if (auto *c = dynamic_cast<P::LetStmtContext *>(s))
      return named(K::Let, s, c->ID(), c->expr());
    if (auto *c = dynamic_cast<P::ParamStmtContext *>(s))
      return named(K::Param, s, c->ID(), c->expr());
    if (auto *c = dynamic_cast<P::OptionStmtContext *>(s))
      return named(K::Option, s, c->ID(), c->expr());
    if (auto *c = dynamic_cast<P::InstStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Inst, range(s));
      r->name = text(c->name);
      r->nameRange = range(c->name);
      r->name2 = text(c->model);
      r->name2Range = range(c->model);
      if (auto *a = c->arraySpec()) {
        auto es = a->expr();
        if (a->ID()) {
          r->name3 = text(a->ID());
          r->name3Range = range(a->ID());
          r->e2 = es.size() > 1 ? expr(es[0]) : nullptr;
          r->e1 = expr(es.back());
        } else if (!es.empty()) {
          r->e1 = expr(es[0]);
        }
      }
      if (auto *a = c->args()) {
        r->hasArgs = true;
        for (P::ArgContext *arg : a->arg())
          r->args.push_back({text(arg->ID()), range(arg), expr(arg->expr())});
      }
      r->props = props(c->propBlock());
      return r;
    }
    if (auto *c = dynamic_cast<P::ForStmtContext *>(s)) {
      K *r = ctx_.stmt(K::For, range(s));
      r->name = text(c->ID());
      r->nameRange = range(c->ID());
      r->e1 = expr(c->expr(0));
      r->e2 = expr(c->expr(1));
      r->body = block(c->block());
      return r;
    }
    if (auto *c = dynamic_cast<P::IfStmtContext *>(s)) {
      K *r = ctx_.stmt(K::If, range(s));
      r->e1 = expr(c->expr());
      r->body = block(c->block());
      if (c->elseBranch())
        r->elseBody = elseBranch(c->elseBranch());
      return r;
    }
    if (auto *c = dynamic_cast<P::LinkStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Link, range(s));
      for (P::PathContext *p : c->path())
        r->paths.push_back(path(p));
      r->props = props(c->propBlock());
      return r;
    }
    if (auto *c = dynamic_cast<P::GroupStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Group, range(s));
      r->name2 = text(c->kind);
      r->name2Range = range(c->kind);
      r->name = text(c->name);
      r->nameRange = range(c->name);
      r->e1 = c->expr() ? expr(c->expr()) : nullptr;
      for (P::PathContext *p : c->path())
        r->paths.push_back(path(p));
      return r;
    }
    if (auto *c = dynamic_cast<P::PlaceStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Place, range(s));
      r->paths.push_back(path(c->path()));
      r->name2 = text(c->building);
      r->name2Range = range(c->building);
      if (c->hall) {
        r->name3 = text(c->hall);
        r->name3Range = range(c->hall);
      }
      r->props = props(c->propBlock());
      return r;
    }
    if (auto *c = dynamic_cast<P::BuildingStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Building, range(s));
      r->name = text(c->name);
      r->nameRange = range(c->name);
      for (P::PropContext *p : c->prop())
        r->props.push_back(prop(p));
      for (P::HallDeclContext *h : c->hallDecl())
        r->halls.push_back({text(h->ID()), range(h->ID()), props(h->propBlock())});
      return r;
    }
    if (auto *c = dynamic_cast<P::SpanStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Span, range(s));
      r->name = text(c->ID(0));
      r->nameRange = range(c->ID(0));
      r->name2 = text(c->ID(1));
      r->name2Range = range(c->ID(1));
      r->props = props(c->propBlock());
      return r;
    }
    if (auto *c = dynamic_cast<P::PolicyStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Policy, range(s));
      r->name = text(c->kind);
      r->nameRange = range(c->kind);
      r->props = props(c->propBlock());
      return r;
    }
    if (auto *c = dynamic_cast<P::AssertStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Assert, range(s));
      r->e1 = expr(c->expr());
      if (c->STRING())
        r->message = unquote(text(c->STRING()));
      return r;
    }
    return nullptr; // an alternative the error recovery left empty
  }

  ast::Stmt *named(ast::Stmt::Kind k, P::StmtContext *s, antlr4::tree::TerminalNode *id, P::ExprContext *e) {
    ast::Stmt *r = ctx_.stmt(k, range(s));
    r->name = text(id);
    r->nameRange = range(id);
    r->e1 = expr(e);
    return r;
  }

  ast::Expr *expr(P::ExprContext *e) {
    using E = ast::Expr;
    if (!e)
      return ctx_.expr(E::Number, {{file_, 0}, 1}); // recovery placeholder; errors already reported
    if (auto *c = dynamic_cast<P::PrimaryExprContext *>(e))
      return primary(c->primary());
    if (auto *c = dynamic_cast<P::UnaryExprContext *>(e)) {
      E *r = ctx_.expr(E::Unary, range(e));
      r->text = text(c->op);
      r->op = ast::opFromText(r->text);
      r->kids.push_back(expr(c->expr()));
      return r;
    }
    if (auto *c = dynamic_cast<P::BinaryExprContext *>(e)) {
      E *r = ctx_.expr(E::Binary, range(e));
      r->text = text(c->op);
      r->op = ast::opFromText(r->text);
      r->kids.push_back(expr(c->expr(0)));
      r->kids.push_back(expr(c->expr(1)));
      return r;
    }
    if (auto *c = dynamic_cast<P::CondExprContext *>(e)) {
      E *r = ctx_.expr(E::Cond, range(e));
      for (P::ExprContext *k : c->expr())
        r->kids.push_back(expr(k));
      while (r->kids.size() < 3)
        r->kids.push_back(expr(nullptr));
      return r;
    }
    return expr(nullptr);
  }

  static double number(const std::string &s, bool *isInt) { return lit::number(s, isInt); }

  ast::Expr *primary(P::PrimaryContext *p) {
    using E = ast::Expr;
    if (!p)
      return expr(nullptr);
    if (auto *c = dynamic_cast<P::NumberLitContext *>(p)) {
      E *r = ctx_.expr(E::Number, range(p));
      r->number = number(text(c->NUMBER()), &r->isInteger);
      if (r->isInteger)
        r->isInteger = lit::integer(text(c->NUMBER()), &r->integer);
      r->text = text(c->NUMBER());
      return r;
    }
    if (auto *c = dynamic_cast<P::QuantityLitContext *>(p)) {
      E *r = ctx_.expr(E::Quantity, range(p));
      std::string t = text(c->QUANTITY());
      size_t i = quantityNumberLength(t);
      bool isInt;
      r->number = number(t.substr(0, i), &isInt);
      size_t u = t.find_first_not_of(" \t", i);
      r->text = u == std::string::npos ? "" : t.substr(u);
      return r;
    }
    if (auto *c = dynamic_cast<P::PercentLitContext *>(p)) {
      // "90%": the plain number 0.9 (a Quantity in the unit "%", which Expr scales).
      E *r = ctx_.expr(E::Quantity, range(p));
      std::string t = text(c->PERCENT());
      bool isInt;
      r->number = number(t.substr(0, t.size() - 1), &isInt);
      r->text = "%";
      return r;
    }
    if (auto *c = dynamic_cast<P::StringLitContext *>(p)) {
      E *r = ctx_.expr(E::String, range(p));
      r->text = unquote(text(c->STRING()));
      return r;
    }
    if (dynamic_cast<P::BoolLitContext *>(p)) {
      E *r = ctx_.expr(E::Bool, range(p));
      r->number = p->getText() == "true";
      return r;
    }
    if (auto *c = dynamic_cast<P::CallExprContext *>(p)) {
      E *r = ctx_.expr(E::Call, range(c->ID()));
      r->text = text(c->ID());
      for (P::ExprContext *k : c->expr())
        r->kids.push_back(expr(k));
      return r;
    }
    if (auto *c = dynamic_cast<P::NameExprContext *>(p)) {
      E *r = ctx_.expr(E::Name, range(c->ID()));
      r->text = text(c->ID());
      for (P::ExprContext *k : c->expr())
        r->kids.push_back(expr(k));
      return r;
    }
    if (auto *c = dynamic_cast<P::CompExprContext *>(p)) {
      E *r = ctx_.expr(E::Comp, range(p));
      r->text = text(c->ID());
      std::vector<P::ExprContext *> es = c->expr();
      // Which optional parts are present: '..' gives a range end, 'if' a filter.
      bool hasEnd = false, hasIf = false;
      for (antlr4::tree::ParseTree *ch : c->children)
        if (auto *t = dynamic_cast<antlr4::tree::TerminalNode *>(ch)) {
          hasEnd |= t->getText() == "..";
          hasIf |= t->getText() == "if";
        }
      size_t k = 0;
      r->kids.push_back(expr(k < es.size() ? es[k++] : nullptr));
      r->kids.push_back(expr(k < es.size() ? es[k++] : nullptr));
      r->kids.push_back(hasEnd ? expr(k < es.size() ? es[k++] : nullptr) : nullptr);
      r->kids.push_back(hasIf ? expr(k < es.size() ? es[k++] : nullptr) : nullptr);
      return r;
    }
    if (auto *c = dynamic_cast<P::ListExprContext *>(p)) {
      E *r = ctx_.expr(E::List, range(p));
      for (P::ExprContext *k : c->expr())
        r->kids.push_back(expr(k));
      return r;
    }
    if (auto *c = dynamic_cast<P::ParenExprContext *>(p))
      return expr(c->expr());
    return expr(nullptr);
  }

  uint32_t file_;
  const OffsetMap &map_;
  ast::Context &ctx_;
};

// A recursive-descent parser recurses once per nesting level: reject absurd nesting
// before ANTLR sees it, so that no input can overflow the stack.
bool checkNesting(antlr4::CommonTokenStream &tokens, const antlr4::dfa::Vocabulary &vocab, uint32_t file,
                  const OffsetMap &map, DiagEngine &diags, const ParseLimits &limits) {
  // Classify the literal token types once, by their grammar spelling, so the loop reads
  // only each token's type (never its text, which getText() re-encodes from UTF-32).
  enum : uint8_t { Other, Open, Close, Op, Semi, LBrace, RBrace };
  std::vector<uint8_t> cls(vocab.getMaxTokenType() + 1, Other);
  for (size_t t = 0; t < cls.size(); ++t) {
    const std::string lit = vocab.getLiteralName(t);
    if (lit == "'('" || lit == "'['")
      cls[t] = Open;
    else if (lit == "')'" || lit == "']'")
      cls[t] = Close;
    else if (lit == "'{'")
      cls[t] = LBrace;
    else if (lit == "'}'")
      cls[t] = RBrace;
    else if (lit == "';'")
      cls[t] = Semi;
    else if (lit == "'-'" || lit == "'!'" || lit == "'?'" || lit == "'+'" || lit == "'*'" || lit == "'/'" ||
             lit == "'&&'" || lit == "'||'")
      cls[t] = Op;
  }
  uint32_t depth = 0, ops = 0;
  for (antlr4::Token *t : tokens.getTokens()) {
    size_t type = t->getType();
    if (type >= cls.size() || t->getChannel() != antlr4::Token::DEFAULT_CHANNEL)
      continue;
    uint8_t c = cls[type];
    if (c == Open || c == LBrace)
      ++depth;
    else if ((c == Close || c == RBrace) && depth)
      --depth;
    if (c == Semi || c == LBrace || c == RBrace)
      ops = 0;
    else if (c == Op)
      ++ops;
    if (depth > limits.maxDepth || ops > limits.maxDepth * 20) {
      SourceRange r{{file, map.byte(t->getStartIndex())}, 1};
      diags.report(DiagCode::E0006, r, "{} nested deeper than {} levels",
                   depth > limits.maxDepth ? "brackets are" : "an expression is",
                   depth > limits.maxDepth ? limits.maxDepth : limits.maxDepth * 20);
      return false;
    }
  }
  return true;
}

} // namespace

// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing past
// U+10FFFF, no NUL. An overlong "\xc0\xaf" would otherwise read as '/'.
bool validUtf8(std::string_view s, size_t *bad) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = s[i];
    size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : (c >> 4) == 14 ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (c == 0 || n == 0 || i + n > s.size()) {
      *bad = i;
      return false;
    }
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) {
        *bad = i;
        return false;
      }
    unsigned char c1 = n > 1 ? static_cast<unsigned char>(s[i + 1]) : 0;
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) {
      *bad = i;
      return false;
    }
    i += n;
  }
  return true;
}


size_t quantityNumberLength(const std::string &t) {
  size_t i = 0;
  while (i < t.size() && (std::isdigit((unsigned char)t[i]) || t[i] == '.' || t[i] == '_' ||
                          ((t[i] == 'e' || t[i] == 'E') && i + 1 < t.size() &&
                           (std::isdigit((unsigned char)t[i + 1]) || t[i + 1] == '+' || t[i + 1] == '-')) ||
                          ((t[i] == '+' || t[i] == '-') && i > 0 && (t[i - 1] == 'e' || t[i - 1] == 'E'))))
    ++i;
  return i;
}

ast::Expr::Op ast::opFromText(const std::string &t) {
  static const std::pair<const char *, Expr::Op> ops[] = {
      {"&&", Expr::And}, {"||", Expr::Or}, {"==", Expr::Eq}, {"!=", Expr::Ne}, {"<", Expr::Lt},
      {"<=", Expr::Le},  {">", Expr::Gt},  {">=", Expr::Ge}, {"+", Expr::Add}, {"-", Expr::Sub},
      {"*", Expr::Mul},  {"/", Expr::Div}, {"%", Expr::Mod}, {"!", Expr::Not}};
  for (const auto &[text, op] : ops)
    if (t == text)
      return op;
  return Expr::NoOp;
}

// HandParser.cpp: nullptr (and no diagnostic) on a file the grammar would reject; `why`
// says where it gave up.
ast::File *parseHand(uint32_t fileId, std::string_view text, ast::Context &ctx, const ParseLimits &limits,
                     hand::Rejection *why);

namespace {

// ANTLR's parse of `text` (the file's, or a SyntaxWindow's): its diagnostics, and the AST
// of a file without errors. `*reported`: it reported something.
ast::File *parseAntlr(uint32_t fileId, std::string_view text, const SyntaxWindow *window, const SourceManager &sm,
                      DiagEngine &diags, ast::Context &ctx, const ParseLimits &limits, bool *reported) {
  *reported = true;
  OffsetMap map(text, window);
  Utf8Input input(text);
  fabc_antlr::FabricLexer lexer(&input);
  lexer.removeErrorListeners();
  // The parser holds every token and tree node (about half a kilobyte a token): count
  // the tokens first, without keeping them, when the text could exceed the limit.
  if (text.size() >= limits.maxTokens) {
    uint64_t n = 0;
    for (auto t = lexer.nextToken(); t->getType() != antlr4::Token::EOF; t = lexer.nextToken())
      if (++n > limits.maxTokens) {
        Diagnostic *d = diags.report(DiagCode::E0005, {{fileId, map.byte(t->getStartIndex())}, 1},
                                     "more than {} tokens in one file", limits.maxTokens);
        DiagEngine::note(d, {}, "the token limit is one token per 16 bytes of --max-file-size; "
                                "generate repetitive structure with loops and templates");
        return nullptr;
      }
    lexer.reset();
  }
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();
  unsigned badChars = 0;
  for (antlr4::Token *t : tokens.getTokens()) {
    if (t->getType() != P::BAD_CHAR)
      continue;
    if (++badChars <= 3) {
      Diagnostic *d = diags.report(DiagCode::E0003, {{fileId, map.byte(t->getStartIndex())}, 1},
                                   "invalid character '{}'", t->getText());
      if (t->getText() == "\"")
        DiagEngine::note(d, {}, "strings end on the same line they start");
    }
  }
  if (badChars)
    return nullptr;
  if (!checkNesting(tokens, lexer.getVocabulary(), fileId, map, diags, limits))
    return nullptr;
  P parser(&tokens);
  ErrorListener listener(fileId, map, diags);
  parser.removeErrorListeners();
  parser.addErrorListener(&listener);
  for (size_t t = 0; t <= parser.getVocabulary().getMaxTokenType(); ++t)
    if (parser.getVocabulary().getLiteralName(t) == "';'")
      listener.setSemicolon(t);
  P::FileContext *tree = parseTwoStage(parser, tokens);
  ast::File *file = ctx.file();
  file->fileId = fileId;
  if (listener.count()) {
    if (window && window->cut())
      DiagEngine::note(listener.last(), {},
                       fmt::format("syntax errors past line {} are not looked for in a file this large: "
                                   "fix these and compile again",
                                   sm.lineCol({fileId, window->cutAt()}).line));
    return file;
  }
  *reported = false;
  if (window)
    return nullptr; // the window parsed clean: only the whole file can say why the hand parser did not
  Builder(fileId, map, ctx).build(tree, file);
  return file;
}

} // namespace

ast::File *parseFile(uint32_t fileId, const SourceManager &sm, DiagEngine &diags, ast::Context &ctx,
                     const ParseLimits &limits) {
  std::string_view text = sm.text(fileId);
  size_t bad = 0;
  if (!validUtf8(text, &bad)) {
    diags.report(DiagCode::E0004, {{fileId, uint32_t(bad)}, 1},
                 text[bad] == 0 ? "NUL byte in source file" : "invalid UTF-8 byte in source file");
    return nullptr;
  }
  hand::Rejection why;
  if (limits.engine != ParserEngine::AntlrOnly) {
    if (ast::File *f = parseHand(fileId, text, ctx, limits, &why))
      return f;
    if (limits.engine == ParserEngine::HandOnly)
      return nullptr;
    // ANTLR's diagnostics from where the hand-written parser gave up, not from the start.
    SyntaxWindow window;
    bool reported = false;
    if (window.make(text, why, limits.syntaxWindow)) {
      ast::File *f = parseAntlr(fileId, window.text(), &window, sm, diags, ctx, limits, &reported);
      if (reported)
        return f;
    }
  }
  bool reported = false;
  return parseAntlr(fileId, text, nullptr, sm, diags, ctx, limits, &reported);
}

} // namespace fabc
