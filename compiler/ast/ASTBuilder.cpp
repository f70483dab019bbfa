// Builds the AST from ANTLR's parse tree (a file ANTLR parsed without an error:
// AntlrParse.cpp). ANTLR types stay in compiler/ast/.
#include "ast/AntlrTree.h"
#include "ast/Literals.h"
#include "ast/Parser.h"
#include "diag/Diag.h"

#include "antlr4-runtime.h"

#include <llvm/ADT/SmallVector.h>

#include <cerrno>
#include <climits>
#include <cstring>

namespace fabc {
using antlrparse::OffsetMap;
namespace {
using P = fabc_antlr::FabricParser;

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
  // A token's text, saved in the arena (ANTLR's getText() is a temporary).
  std::string_view text(antlr4::Token *t) { return t ? ctx_.save(t->getText()) : std::string_view(); }
  std::string_view text(antlr4::tree::TerminalNode *n) { return text(n ? n->getSymbol() : nullptr); }
  static std::string raw(antlr4::Token *t) { return t ? t->getText() : std::string(); }
  static std::string raw(antlr4::tree::TerminalNode *n) { return n ? n->getText() : std::string(); }
  std::string_view unquote(const std::string &s) { return ctx_.save(lit::unquote(s)); }
  template <typename T, unsigned N> ast::List<T> list(const llvm::SmallVector<T, N> &v) { return ctx_.list<T>(v); }

  void build(P::FileContext *fc, ast::File *out) {
    ast::FileItems items;
    for (P::ItemContext *it : fc->item()) {
      if (auto *i = it->importDecl()) {
        items.imports.push_back({unquote(raw(i->STRING())), range(i->STRING())});
      } else if (auto *m = it->modelDecl()) {
        items.models.push_back(model(m));
      } else if (auto *t = it->templateDecl()) {
        items.templates.push_back(tmpl(t));
      } else if (auto *fn = it->fnDecl()) {
        ast::Function *r = ctx_.function();
        r->name = text(fn->name);
        r->range = range(fn->name);
        llvm::SmallVector<ast::Param, 8> params;
        for (antlr4::tree::TerminalNode *p : fn->ID())
          if (p->getSymbol() != fn->name)
            params.push_back({text(p), range(p), nullptr});
        r->params = list(params);
        r->body = expr(fn->expr());
        items.functions.push_back(r);
      } else if (auto *f = it->fabricDecl()) {
        ast::Fabric *fab = ctx_.fabric();
        fab->name = text(f->name);
        fab->range = range(f->name);
        fab->body = block(f->block());
        items.fabrics.push_back(fab);
      } else if (auto *s = it->stmt()) {
        if (ast::Stmt *st = stmt(s))
          items.topLevel.push_back(st);
      }
    }
    items.commit(ctx_, out);
  }

private:
  ast::Model *model(P::ModelDeclContext *m) {
    ast::Model *r = ctx_.model();
    r->name = text(m->name);
    r->range = range(m->name);
    r->kind = text(m->kind);
    r->kindRange = range(m->kind);
    llvm::SmallVector<ast::Prop, 8> ps;
    llvm::SmallVector<ast::PortDecl, 4> ports;
    for (P::ModelItemContext *item : m->modelItem()) {
      if (auto *p = item->prop()) {
        ps.push_back(prop(p));
      } else if (auto *pd = item->portDecl()) {
        ast::PortDecl d;
        d.name = text(pd->name);
        d.range = range(pd->name);
        d.count = expr(pd->expr());
        d.props = props(pd->propBlock());
        ports.push_back(d);
      }
    }
    r->props = list(ps);
    r->ports = list(ports);
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
    llvm::SmallVector<ast::Param, 8> params;
    for (P::ParamContext *p : t->param())
      params.push_back({text(p->ID()), range(p->ID()), p->expr() ? expr(p->expr()) : nullptr});
    r->params = list(params);
    r->body = block(t->block());
    return r;
  }

  ast::Prop prop(P::PropContext *p) {
    ast::Prop r;
    r.key = text(p->key);
    r.keyRange = range(p->key);
    r.value = expr(p->expr());
    if (auto *a = p->annotation()) {
      r.annot = raw(a->kind) == "source" ? ast::Prop::Source : ast::Prop::Estimate;
      r.annotText = unquote(raw(a->STRING()));
    }
    return r;
  }

  ast::List<ast::Prop> props(P::PropBlockContext *b) {
    llvm::SmallVector<ast::Prop, 8> r;
    if (b)
      for (P::PropContext *p : b->prop())
        r.push_back(prop(p));
    return list(r);
  }

  ast::Block block(P::BlockContext *b) {
    llvm::SmallVector<ast::Stmt *, 16> r;
    if (b)
      for (P::StmtContext *s : b->stmt())
        if (ast::Stmt *st = stmt(s))
          r.push_back(st);
    return list(r);
  }

  ast::Path path(P::PathContext *p) {
    ast::Path r;
    r.range = range(p);
    llvm::SmallVector<ast::Segment, 4> segs;
    for (P::SegmentContext *s : p->segment()) {
      ast::Segment seg;
      seg.name = text(s->ID());
      seg.range = range(s);
      seg.star = s->star != nullptr;
      if (s->expr())
        ast::setIndex(seg, expr(s->expr()));
      segs.push_back(seg);
    }
    r.segs = list(segs);
    return r;
  }

  ast::Block elseBranch(P::ElseBranchContext *e) {
    if (e->block() && !e->expr())
      return block(e->block());
    ast::Stmt *s = ctx_.stmt(ast::Stmt::If, range(e));
    s->e1 = expr(e->expr());
    s->ext->body = block(e->block());
    if (e->elseBranch())
      s->ext->elseBody = elseBranch(e->elseBranch());
    return ctx_.list<ast::Stmt *>(llvm::ArrayRef<ast::Stmt *>(s));
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
      r->ext->name2 = text(c->model);
      r->ext->name2Range = range(c->model);
      if (auto *a = c->arraySpec()) {
        auto es = a->expr();
        if (a->ID()) {
          r->ext->name3 = text(a->ID());
          r->ext->name3Range = range(a->ID());
          r->ext->e2 = es.size() > 1 ? expr(es[0]) : nullptr;
          r->e1 = expr(es.back());
        } else if (!es.empty()) {
          r->e1 = expr(es[0]);
        }
      }
      if (auto *a = c->args()) {
        r->hasArgs = true;
        llvm::SmallVector<ast::Arg, 8> args;
        for (P::ArgContext *arg : a->arg())
          args.push_back({text(arg->ID()), range(arg), expr(arg->expr())});
        r->ext->args = list(args);
      }
      r->props = props(c->propBlock());
      return r;
    }
    if (auto *c = dynamic_cast<P::ForStmtContext *>(s)) {
      K *r = ctx_.stmt(K::For, range(s));
      r->name = text(c->ID());
      r->nameRange = range(c->ID());
      r->e1 = expr(c->expr(0));
      r->ext->e2 = expr(c->expr(1));
      r->ext->body = block(c->block());
      return r;
    }
    if (auto *c = dynamic_cast<P::IfStmtContext *>(s)) {
      K *r = ctx_.stmt(K::If, range(s));
      r->e1 = expr(c->expr());
      r->ext->body = block(c->block());
      if (c->elseBranch())
        r->ext->elseBody = elseBranch(c->elseBranch());
      return r;
    }
    if (auto *c = dynamic_cast<P::LinkStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Link, range(s));
      llvm::SmallVector<ast::Path, 2> paths;
      for (P::PathContext *p : c->path())
        paths.push_back(path(p));
      r->paths = list(paths);
      r->props = props(c->propBlock());
      return r;
    }
    if (auto *c = dynamic_cast<P::GroupStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Group, range(s));
      r->ext->name2 = text(c->kind);
      r->ext->name2Range = range(c->kind);
      r->name = text(c->name);
      r->nameRange = range(c->name);
      r->e1 = c->expr() ? expr(c->expr()) : nullptr;
      llvm::SmallVector<ast::Path, 8> paths;
      for (P::PathContext *p : c->path())
        paths.push_back(path(p));
      r->paths = list(paths);
      return r;
    }
    if (auto *c = dynamic_cast<P::PlaceStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Place, range(s));
      ast::Path p = path(c->path());
      r->paths = ctx_.list<ast::Path>(p);
      r->ext->name2 = text(c->building);
      r->ext->name2Range = range(c->building);
      if (c->hall) {
        r->ext->name3 = text(c->hall);
        r->ext->name3Range = range(c->hall);
      }
      r->props = props(c->propBlock());
      return r;
    }
    if (auto *c = dynamic_cast<P::BuildingStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Building, range(s));
      r->name = text(c->name);
      r->nameRange = range(c->name);
      llvm::SmallVector<ast::Prop, 8> ps;
      for (P::PropContext *p : c->prop())
        ps.push_back(prop(p));
      r->props = list(ps);
      llvm::SmallVector<ast::Hall, 4> halls;
      for (P::HallDeclContext *h : c->hallDecl())
        halls.push_back({text(h->ID()), range(h->ID()), props(h->propBlock())});
      r->ext->halls = list(halls);
      return r;
    }
    if (auto *c = dynamic_cast<P::SpanStmtContext *>(s)) {
      K *r = ctx_.stmt(K::Span, range(s));
      r->name = text(c->ID(0));
      r->nameRange = range(c->ID(0));
      r->ext->name2 = text(c->ID(1));
      r->ext->name2Range = range(c->ID(1));
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
        r->ext->message = unquote(raw(c->STRING()));
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
      r->kids = ctx_.list<ast::Expr *>(expr(c->expr()));
      return r;
    }
    if (auto *c = dynamic_cast<P::BinaryExprContext *>(e)) {
      E *r = ctx_.expr(E::Binary, range(e));
      r->text = text(c->op);
      r->op = ast::opFromText(r->text);
      ast::Expr *kids[] = {expr(c->expr(0)), expr(c->expr(1))};
      r->kids = ctx_.list<ast::Expr *>(kids);
      return r;
    }
    if (auto *c = dynamic_cast<P::CondExprContext *>(e)) {
      E *r = ctx_.expr(E::Cond, range(e));
      llvm::SmallVector<ast::Expr *, 3> kids;
      for (P::ExprContext *k : c->expr())
        kids.push_back(expr(k));
      while (kids.size() < 3)
        kids.push_back(expr(nullptr));
      r->kids = list(kids);
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
      r->number = number(raw(c->NUMBER()), &r->isInteger);
      if (r->isInteger)
        r->isInteger = lit::integer(raw(c->NUMBER()), &r->integer);
      r->text = text(c->NUMBER());
      return r;
    }
    if (auto *c = dynamic_cast<P::QuantityLitContext *>(p)) {
      E *r = ctx_.expr(E::Quantity, range(p));
      std::string t = raw(c->QUANTITY());
      size_t i = quantityNumberLength(t);
      bool isInt;
      r->number = number(t.substr(0, i), &isInt);
      size_t u = t.find_first_not_of(" \t", i);
      r->text = u == std::string::npos ? std::string_view() : ctx_.save(t.substr(u));
      return r;
    }
    if (auto *c = dynamic_cast<P::PercentLitContext *>(p)) {
      // "90%": the plain number 0.9 (a Quantity in the unit "%", which Expr scales).
      E *r = ctx_.expr(E::Quantity, range(p));
      std::string t = raw(c->PERCENT());
      bool isInt;
      r->number = number(t.substr(0, t.size() - 1), &isInt);
      r->text = "%";
      return r;
    }
    if (auto *c = dynamic_cast<P::StringLitContext *>(p)) {
      E *r = ctx_.expr(E::String, range(p));
      r->text = unquote(raw(c->STRING()));
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
      llvm::SmallVector<ast::Expr *, 8> kids;
      for (P::ExprContext *k : c->expr())
        kids.push_back(expr(k));
      r->kids = list(kids);
      return r;
    }
    if (auto *c = dynamic_cast<P::NameExprContext *>(p)) {
      E *r = ctx_.expr(E::Name, range(c->ID()));
      r->text = text(c->ID());
      llvm::SmallVector<ast::Expr *, 8> kids;
      for (P::ExprContext *k : c->expr())
        kids.push_back(expr(k));
      r->kids = list(kids);
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
      ast::Expr *kids[4];
      kids[0] = expr(k < es.size() ? es[k++] : nullptr);
      kids[1] = expr(k < es.size() ? es[k++] : nullptr);
      kids[2] = hasEnd ? expr(k < es.size() ? es[k++] : nullptr) : nullptr;
      kids[3] = hasIf ? expr(k < es.size() ? es[k++] : nullptr) : nullptr;
      r->kids = ctx_.list<ast::Expr *>(kids);
      return r;
    }
    if (auto *c = dynamic_cast<P::ListExprContext *>(p)) {
      E *r = ctx_.expr(E::List, range(p));
      llvm::SmallVector<ast::Expr *, 8> kids;
      for (P::ExprContext *k : c->expr())
        kids.push_back(expr(k));
      r->kids = list(kids);
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

} // namespace

size_t quantityNumberLength(std::string_view t) {
  size_t i = 0;
  while (i < t.size() && (std::isdigit((unsigned char)t[i]) || t[i] == '.' || t[i] == '_' ||
                          ((t[i] == 'e' || t[i] == 'E') && i + 1 < t.size() &&
                           (std::isdigit((unsigned char)t[i + 1]) || t[i + 1] == '+' || t[i + 1] == '-')) ||
                          ((t[i] == '+' || t[i] == '-') && i > 0 && (t[i - 1] == 'e' || t[i - 1] == 'E'))))
    ++i;
  return i;
}

ast::Expr::Op ast::opFromText(std::string_view t) {
  static const std::pair<const char *, Expr::Op> ops[] = {
      {"&&", Expr::And}, {"||", Expr::Or}, {"==", Expr::Eq}, {"!=", Expr::Ne}, {"<", Expr::Lt},
      {"<=", Expr::Le},  {">", Expr::Gt},  {">=", Expr::Ge}, {"+", Expr::Add}, {"-", Expr::Sub},
      {"*", Expr::Mul},  {"/", Expr::Div}, {"%", Expr::Mod}, {"!", Expr::Not}};
  for (const auto &[text, op] : ops)
    if (t == text)
      return op;
  return Expr::NoOp;
}

void antlrparse::build(uint32_t fileId, const OffsetMap &map, ast::Context &ctx, P::FileContext *tree, ast::File *file) {
  Builder(fileId, map, ctx).build(tree, file);
}

} // namespace fabc
