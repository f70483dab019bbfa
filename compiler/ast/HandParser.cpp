// The hand-written recursive-descent parser of the compile path: grammar/Fabric.g4's
// parser rules, by hand, building the same AST (node for node, range for range) as the
// ANTLR tree's builder (ASTBuilder.cpp). It accepts exactly the files the grammar
// accepts; on anything else it gives up without a word and parseFile hands the file to
// the ANTLR parser, whose diagnostics stay the reference (docs/decisions/0051-the-hand-written-front-end.md,
// "The hand-written front end"). Held equal by `fabc parse-diff` and the fuzz target.
// Past 600 lines: one method per grammar rule in one class, in the grammar's order, so
// that it reads beside Fabric.g4; the arena builders it calls are in AST.h.
#include "ast/HandLexer.h"
#include "ast/Literals.h"
#include "ast/Parser.h"

#include <llvm/ADT/SmallVector.h>

namespace fabc {
namespace hand {
namespace {

struct Reject {}; // not the grammar's: the ANTLR parser reports it

// An expression and the tokens its parse-tree context spans (with any parentheses
// around it, which the AST drops but the enclosing ranges include).
struct PE {
  ast::Expr *e;
  uint32_t begin, end;
};

class Parser {
public:
  Parser(uint32_t file, std::string_view text, ast::Context &ctx, const ParseLimits &limits)
      : file_(file), s_(text), lex_(text, limits), ctx_(ctx) {
    tok_ = lex_.next();
  }

  void run(ast::File *out) {
    done_.emplace_back(0);
    if (tok_.kind == Bad)
      throw Reject{};
    ast::FileItems items;
    while (tok_.kind != End) {
      done_.back().next(tok_.begin);
      switch (tok_.kind) {
      case KwImport: {
        next();
        Token str = expect(String);
        expect(Semi);
        items.imports.push_back({unquote(str), range(str)});
        break;
      }
      case KwModel: items.models.push_back(model()); break;
      case KwTemplate: items.templates.push_back(tmpl()); break;
      case KwFn: items.functions.push_back(function()); break;
      case KwFabric: {
        next();
        Token name = expect(Id);
        ast::Fabric *f = ctx_.fabric();
        f->name = text(name);
        f->range = range(name);
        f->body = block();
        items.fabrics.push_back(f);
        break;
      }
      default: items.topLevel.push_back(stmt()); break;
      }
    }
    items.commit(ctx_, out);
  }

private:
  // --- tokens
  void next() {
    prevEnd_ = tok_.end;
    if (hasPeek_) {
      tok_ = peek_;
      hasPeek_ = false;
    } else {
      tok_ = lex_.next();
    }
    if (tok_.kind == Bad)
      throw Reject{};
  }
  const Token &peek() {
    if (!hasPeek_) {
      peek_ = lex_.next();
      hasPeek_ = true;
    }
    return peek_;
  }
  Token expect(Tok k) {
    if (tok_.kind != k)
      throw Reject{};
    Token t = tok_;
    next();
    return t;
  }
  bool accept(Tok k) {
    if (tok_.kind != k)
      return false;
    next();
    return true;
  }
  std::string_view text(const Token &t) const { return s_.substr(t.begin, t.end - t.begin); }
  // A string literal's decoded text, saved in the arena (the source holds it escaped).
  std::string_view unquote(const Token &t) { return ctx_.save(lit::unquote(text(t))); }
  SourceRange range(uint32_t b, uint32_t e) const { return {{file_, b}, e > b ? e - b : 1}; }
  SourceRange range(const Token &t) const { return range(t.begin, t.end); }

  // --- declarations
  ast::Model *model() {
    next();
    ast::Model *m = ctx_.model();
    Token name = expect(Id);
    expect(Colon);
    Token kind = expect(Id);
    m->name = text(name);
    m->range = range(name);
    m->kind = text(kind);
    m->kindRange = range(kind);
    expect(LBrace);
    llvm::SmallVector<ast::PortDecl, 4> ports;
    llvm::SmallVector<ast::Prop, 8> props;
    while (tok_.kind != RBrace) {
      if (tok_.kind == KwPort) {
        next();
        ast::PortDecl d;
        Token pn = expect(Id);
        d.name = text(pn);
        d.range = range(pn);
        expect(LBrack);
        d.count = expr().e;
        expect(RBrack);
        d.props = propBlock();
        ports.push_back(d);
      } else {
        props.push_back(prop());
      }
    }
    next();
    m->ports = ctx_.list<ast::PortDecl>(ports);
    m->props = ctx_.list<ast::Prop>(props);
    return m;
  }

  ast::Template *tmpl() {
    next();
    ast::Template *t = ctx_.tmpl();
    Token name = expect(Id);
    t->name = text(name);
    t->range = range(name);
    expect(LParen);
    llvm::SmallVector<ast::Param, 8> params;
    if (tok_.kind != RParen) {
      do {
        Token p = expect(Id);
        ast::Expr *deflt = accept(Assign) ? expr().e : nullptr;
        params.push_back({text(p), range(p), deflt});
      } while (accept(Comma));
    }
    expect(RParen);
    t->params = ctx_.list<ast::Param>(params);
    if (accept(Colon)) {
      Token kind = expect(Id);
      t->kind = text(kind);
      t->kindRange = range(kind);
    }
    t->body = block();
    return t;
  }

  // fnDecl: 'fn' name=ID '(' (ID (',' ID)*)? ')' '=' expr ';'
  ast::Function *function() {
    next();
    ast::Function *f = ctx_.function();
    Token name = expect(Id);
    f->name = text(name);
    f->range = range(name);
    expect(LParen);
    llvm::SmallVector<ast::Param, 8> params;
    if (tok_.kind != RParen) {
      do {
        Token p = expect(Id);
        params.push_back({text(p), range(p), nullptr});
      } while (accept(Comma));
    }
    expect(RParen);
    f->params = ctx_.list<ast::Param>(params);
    expect(Assign);
    f->body = expr().e;
    expect(Semi);
    return f;
  }

  ast::Prop prop() {
    ast::Prop p;
    Token key = expect(Id);
    p.key = text(key);
    p.keyRange = range(key);
    expect(Assign);
    p.value = expr().e;
    if (tok_.kind == KwSource || tok_.kind == KwEstimate) {
      p.annot = tok_.kind == KwSource ? ast::Prop::Source : ast::Prop::Estimate;
      next();
      p.annotText = unquote(expect(String));
    }
    expect(Semi);
    return p;
  }

  ast::List<ast::Prop> propBlock() {
    llvm::SmallVector<ast::Prop, 8> r;
    expect(LBrace);
    while (tok_.kind != RBrace)
      r.push_back(prop());
    next();
    return ctx_.list<ast::Prop>(r);
  }

  // `(propBlock ';'? | ';')`, the end of an instance, a link or a placement.
  void propsOrSemi(ast::Stmt *s) {
    if (tok_.kind == LBrace) {
      s->props = propBlock();
      accept(Semi);
    } else {
      expect(Semi);
    }
  }

  ast::Block block() {
    llvm::SmallVector<ast::Stmt *, 16> b;
    expect(LBrace);
    done_.emplace_back(prevEnd_);
    while (tok_.kind != RBrace) {
      done_.back().next(tok_.begin);
      b.push_back(stmt());
    }
    uint32_t from = done_.back().begin;
    done_.pop_back();
    if (tok_.begin > from)
      done_.back().curHoles.push_back({from, tok_.begin});
    next();
    return ctx_.list<ast::Stmt *>(b);
  }

public:
  // After a Reject: where it gave up.
  Rejection rejection() const {
    Rejection r{lex_.limited(), {}, {}, tok_.end};
    for (const Level &l : done_) {
      r.done.push_back({l.begin, l.last});
      r.holes.append(l.lastHoles.begin(), l.lastHoles.end());
      r.holes.append(l.curHoles.begin(), l.curHoles.end());
    }
    return r;
  }

private:

  ast::Path path() {
    ast::Path p;
    uint32_t b = tok_.begin;
    segs_.clear(); // collected here, then copied into an arena array of the exact size
    do {
      ast::Segment seg;
      Token id = expect(Id);
      seg.name = text(id);
      seg.range = range(id); // its begin, for the index's; its end is set below
      if (accept(LBrack)) {
        if (accept(Star))
          seg.star = true;
        else if (!literalIndex(seg))
          ast::setIndex(seg, expr().e);
        expect(RBrack);
      }
      seg.range = range(id.begin, prevEnd_);
      segs_.push_back(seg);
    } while (accept(Dot));
    p.segs = ctx_.list<ast::Segment>(segs_);
    p.range = range(b, prevEnd_);
    return p;
  }

  // `p[12]`, the common index: kept inline in the segment without making the Expr that
  // ast::setIndex would then fold (the same form: the literal's value and range).
  bool literalIndex(ast::Segment &seg) {
    if (tok_.kind != Number || peek().kind != RBrack)
      return false;
    std::string_view t = text(tok_);
    bool isInt;
    int64_t v = 0;
    lit::number(t, &isInt);
    if (!isInt || !lit::integer(t, &v) || v < 0 || v > int64_t(UINT32_MAX))
      return false;
    SourceRange r = range(tok_);
    uint32_t delta = r.begin.offset - seg.range.begin.offset;
    if (delta > UINT16_MAX || r.length > UINT8_MAX)
      return false;
    seg.literal = uint32_t(v);
    seg.literalDelta = uint16_t(delta);
    seg.literalLength = uint8_t(r.length);
    next();
    return true;
  }

  // --- statements
  ast::Stmt *stmt() {
    using K = ast::Stmt;
    const uint32_t b = tok_.begin;
    auto finish = [&](ast::Stmt *s) {
      s->range = range(b, prevEnd_);
      return s;
    };
    switch (tok_.kind) {
    case KwLet:
    case KwParam:
    case KwOption: {
      K *s = ctx_.stmt(tok_.kind == KwLet ? K::Let : tok_.kind == KwParam ? K::Param : K::Option, {});
      next();
      Token id = expect(Id);
      s->name = text(id);
      s->nameRange = range(id);
      expect(Assign);
      s->e1 = expr().e;
      expect(Semi);
      return finish(s);
    }
    case Id: {
      K *s = ctx_.stmt(K::Inst, {});
      Token name = tok_;
      next();
      s->name = text(name);
      s->nameRange = range(name);
      if (accept(LBrack)) {
        if (tok_.kind == Id && peek().kind == KwIn) {
          s->ext->name3 = text(tok_);
          s->ext->name3Range = range(tok_);
          next();
          next();
          s->ext->e2 = expr().e;
          expect(DotDot);
        }
        s->e1 = expr().e;
        expect(RBrack);
      }
      expect(Colon);
      Token model = expect(Id);
      s->ext->name2 = text(model);
      s->ext->name2Range = range(model);
      if (accept(LParen)) {
        s->hasArgs = true;
        llvm::SmallVector<ast::Arg, 8> args;
        if (tok_.kind != RParen) {
          do {
            ast::Arg a;
            uint32_t ab = tok_.begin;
            if (tok_.kind == Id && peek().kind == Assign) {
              a.name = text(tok_);
              next();
              next();
            }
            PE v = expr();
            a.value = v.e;
            a.range = range(ab, v.end);
            args.push_back(a);
          } while (accept(Comma));
        }
        expect(RParen);
        s->ext->args = ctx_.list<ast::Arg>(args);
      }
      propsOrSemi(s);
      return finish(s);
    }
    case KwFor: {
      K *s = ctx_.stmt(K::For, {});
      next();
      Token id = expect(Id);
      s->name = text(id);
      s->nameRange = range(id);
      expect(KwIn);
      s->e1 = expr().e;
      expect(DotDot);
      s->ext->e2 = expr().e;
      s->ext->body = block();
      return finish(s);
    }
    case KwIf: {
      // An else-if chain is parsed in a loop (it nests in the AST, not on the stack); every
      // `if` of it spans to the chain's end, as its parse-tree context does.
      std::vector<std::pair<K *, uint32_t>> chain;
      K *s = ctx_.stmt(K::If, {});
      chain.push_back({s, b});
      for (K *cur = s;;) {
        next(); // 'if'
        cur->e1 = expr().e;
        cur->ext->body = block();
        if (!accept(KwElse))
          break;
        if (tok_.kind != KwIf) {
          cur->ext->elseBody = block();
          break;
        }
        K *elif = ctx_.stmt(K::If, {});
        chain.push_back({elif, tok_.begin});
        cur->ext->elseBody = ctx_.list<ast::Stmt *>(llvm::ArrayRef<ast::Stmt *>(elif));
        cur = elif;
      }
      for (auto &[st, sb] : chain)
        st->range = range(sb, prevEnd_);
      return s;
    }
    case KwLink: {
      K *s = ctx_.stmt(K::Link, {});
      next();
      ast::Path ps[2];
      ps[0] = path();
      expect(DashDash);
      ps[1] = path();
      s->paths = ctx_.list<ast::Path>(ps);
      propsOrSemi(s);
      return finish(s);
    }
    case KwGroup: {
      K *s = ctx_.stmt(K::Group, {});
      next();
      Token kind = expect(Id);
      Token name = expect(Id);
      s->ext->name2 = text(kind);
      s->ext->name2Range = range(kind);
      s->name = text(name);
      s->nameRange = range(name);
      if (accept(LBrack)) {
        s->e1 = expr().e;
        expect(RBrack);
      }
      expect(LBrace);
      llvm::SmallVector<ast::Path, 8> paths;
      while (tok_.kind != RBrace) {
        paths.push_back(path());
        expect(Semi);
      }
      next();
      s->paths = ctx_.list<ast::Path>(paths);
      return finish(s);
    }
    case KwPlace: {
      K *s = ctx_.stmt(K::Place, {});
      next();
      ast::Path p = path();
      s->paths = ctx_.list<ast::Path>(p);
      expect(KwIn);
      Token bld = expect(Id);
      s->ext->name2 = text(bld);
      s->ext->name2Range = range(bld);
      if (accept(Dot)) {
        Token hall = expect(Id);
        s->ext->name3 = text(hall);
        s->ext->name3Range = range(hall);
      }
      propsOrSemi(s);
      return finish(s);
    }
    case KwBuilding: {
      K *s = ctx_.stmt(K::Building, {});
      next();
      Token name = expect(Id);
      s->name = text(name);
      s->nameRange = range(name);
      expect(LBrace);
      llvm::SmallVector<ast::Hall, 4> halls;
      llvm::SmallVector<ast::Prop, 8> props;
      while (tok_.kind != RBrace) {
        if (accept(KwHall)) {
          Token h = expect(Id);
          halls.push_back({text(h), range(h), propBlock()});
        } else {
          props.push_back(prop());
        }
      }
      next();
      s->ext->halls = ctx_.list<ast::Hall>(halls);
      s->props = ctx_.list<ast::Prop>(props);
      return finish(s);
    }
    case KwSpan: {
      K *s = ctx_.stmt(K::Span, {});
      next();
      Token a = expect(Id);
      expect(DashDash);
      Token z = expect(Id);
      s->name = text(a);
      s->nameRange = range(a);
      s->ext->name2 = text(z);
      s->ext->name2Range = range(z);
      s->props = propBlock();
      accept(Semi);
      return finish(s);
    }
    case KwPolicy: {
      K *s = ctx_.stmt(K::Policy, {});
      next();
      Token kind = expect(Id);
      s->name = text(kind);
      s->nameRange = range(kind);
      s->props = propBlock();
      return finish(s);
    }
    case KwAssert: {
      K *s = ctx_.stmt(K::Assert, {});
      next();
      s->e1 = expr().e;
      if (accept(Comma))
        s->ext->message = unquote(expect(String));
      expect(Semi);
      return finish(s);
    }
    default: throw Reject{};
    }
  }

  // --- expressions: precedence climbing over the grammar's left-recursive `expr`, whose
  // alternatives ANTLR numbers from the tightest: unary 8, * / % 7, + - 6, < <= > >= 5,
  // == != 4, && 3, || 2, ?: 1 (right-associative).
  static int binaryPrec(Tok k) { return binaryPrecedence(k); }

  PE expr(int minPrec = 0) {
    using E = ast::Expr;
    PE l;
    if (tok_.kind == Minus || tok_.kind == Bang) {
      Token op = tok_;
      next();
      PE v = expr(8);
      E *u = ctx_.expr(E::Unary, range(op.begin, v.end));
      u->text = text(op);
      u->op = ast::opFromText(u->text);
      u->kids = ctx_.list<ast::Expr *>(v.e);
      l = {u, op.begin, v.end};
    } else {
      l = primary();
    }
    for (;;) {
      int p = binaryPrec(tok_.kind);
      if (p && p >= minPrec) {
        Token op = tok_;
        next();
        PE r = expr(p + 1);
        E *bin = ctx_.expr(E::Binary, range(l.begin, r.end));
        bin->text = text(op);
        bin->op = ast::opFromText(bin->text);
        ast::Expr *kids[] = {l.e, r.e};
        bin->kids = ctx_.list<ast::Expr *>(kids);
        l = {bin, l.begin, r.end};
      } else if (tok_.kind == Question && minPrec <= 1) {
        next();
        PE mid = expr(0);
        expect(Colon);
        PE r = expr(1);
        E *c = ctx_.expr(E::Cond, range(l.begin, r.end));
        ast::Expr *kids[] = {l.e, mid.e, r.e};
        c->kids = ctx_.list<ast::Expr *>(kids);
        l = {c, l.begin, r.end};
      } else {
        return l;
      }
    }
  }

  void exprList(ast::Expr *e, Tok close) {
    llvm::SmallVector<ast::Expr *, 8> kids;
    if (tok_.kind != close) {
      do
        kids.push_back(expr().e);
      while (accept(Comma));
    }
    expect(close);
    e->kids = ctx_.list<ast::Expr *>(kids);
  }

  PE primary() {
    using E = ast::Expr;
    Token t = tok_;
    switch (t.kind) {
    case Number: {
      next();
      E *e = ctx_.expr(E::Number, range(t));
      e->text = text(t);
      e->number = lit::number(e->text, &e->isInteger);
      if (e->isInteger)
        e->isInteger = lit::integer(e->text, &e->integer);
      return {e, t.begin, t.end};
    }
    case Quantity: {
      next();
      E *e = ctx_.expr(E::Quantity, range(t));
      std::string_view q = text(t);
      size_t i = quantityNumberLength(q);
      bool isInt;
      e->number = lit::number(q.substr(0, i), &isInt);
      size_t u = q.find_first_not_of(" \t", i);
      if (u != std::string_view::npos)
        e->text = q.substr(u);
      return {e, t.begin, t.end};
    }
    case PercentLit: { // "90%": the Quantity 90 in the unit "%" (Expr scales it to 0.9)
      next();
      E *e = ctx_.expr(E::Quantity, range(t));
      bool isInt;
      e->number = lit::number(text(t).substr(0, t.end - t.begin - 1), &isInt);
      e->text = "%";
      return {e, t.begin, t.end};
    }
    case String: {
      next();
      E *e = ctx_.expr(E::String, range(t));
      e->text = unquote(t);
      return {e, t.begin, t.end};
    }
    case KwTrue:
    case KwFalse: {
      next();
      E *e = ctx_.expr(E::Bool, range(t));
      e->number = t.kind == KwTrue;
      return {e, t.begin, t.end};
    }
    case Id: {
      next();
      if (accept(LParen)) {
        E *e = ctx_.expr(E::Call, range(t));
        e->text = text(t);
        exprList(e, RParen);
        return {e, t.begin, prevEnd_};
      }
      E *e = ctx_.expr(E::Name, range(t));
      e->text = text(t);
      llvm::SmallVector<ast::Expr *, 4> kids;
      while (accept(LBrack)) {
        kids.push_back(expr().e);
        expect(RBrack);
      }
      e->kids = ctx_.list<ast::Expr *>(kids);
      return {e, t.begin, prevEnd_};
    }
    case LBrack: {
      next();
      if (tok_.kind != RBrack) {
        ast::Expr *first = expr().e;
        if (accept(KwFor)) { // compExpr: '[' expr 'for' ID 'in' expr ('..' expr)? ('if' expr)? ']'
          E *c = ctx_.expr(E::Comp, {});
          Token var = expect(Id);
          c->text = text(var);
          expect(KwIn);
          ast::Expr *kids[4] = {first, nullptr, nullptr, nullptr};
          kids[1] = expr().e;
          kids[2] = accept(DotDot) ? expr().e : nullptr;
          kids[3] = accept(KwIf) ? expr().e : nullptr;
          c->kids = ctx_.list<ast::Expr *>(kids);
          expect(RBrack);
          c->range = range(t.begin, prevEnd_);
          return {c, t.begin, prevEnd_};
        }
        E *e = ctx_.expr(E::List, {});
        llvm::SmallVector<ast::Expr *, 8> kids{first};
        while (accept(Comma))
          kids.push_back(expr().e);
        e->kids = ctx_.list<ast::Expr *>(kids);
        expect(RBrack);
        e->range = range(t.begin, prevEnd_);
        return {e, t.begin, prevEnd_};
      }
      next();
      E *e = ctx_.expr(E::List, range(t.begin, prevEnd_));
      return {e, t.begin, prevEnd_};
    }
    case LParen: {
      next();
      PE inner = expr();
      expect(RParen);
      return {inner.e, t.begin, prevEnd_};
    }
    default: throw Reject{};
    }
  }

  uint32_t file_;
  std::string_view s_;
  Lexer lex_;
  ast::Context &ctx_;
  Token tok_, peek_;
  bool hasPeek_ = false;
  uint32_t prevEnd_ = 0;
  llvm::SmallVector<ast::Segment, 4> segs_; // path()'s scratch (a segment's index parses no path)
  // Per open statement list: where it begins, where its last completed statement and its
  // current one start. Rejection::done leaves out [begin, last): ANTLR still sees the
  // statement before the one it gave up in (its recovery and the missing-';' rule look
  // back one token). The blocks those two statements hold are left out too, but for
  // their braces (Rejection::holes): ANTLR's parse of the statement does not look into
  // them, and one of them can be the whole 50 MB body of `fabric f { ... }`.
  struct Level {
    uint32_t begin, last, cur;
    llvm::SmallVector<std::pair<uint32_t, uint32_t>, 2> lastHoles, curHoles;
    explicit Level(uint32_t at) : begin(at), last(at), cur(at) {}
    void next(uint32_t at) {
      last = cur;
      cur = at;
      lastHoles = std::move(curHoles);
      curHoles.clear();
    }
  };
  std::vector<Level> done_;
};

} // namespace
} // namespace hand

ast::File *parseHand(uint32_t fileId, std::string_view text, ast::Context &ctx, const ParseLimits &limits,
                     hand::Rejection *why) {
  ast::File *file = ctx.file();
  file->fileId = fileId;
  hand::Parser parser(fileId, text, ctx, limits);
  try {
    parser.run(file);
  } catch (const hand::Reject &) {
    // The nodes built so far stay in the arena until the Context goes (at most this
    // file's AST, once; the ANTLR parse that follows costs far more per token).
    if (why)
      *why = parser.rejection();
    return nullptr;
  }
  return file;
}

} // namespace fabc
