// The compile path's sink of the one parser (SyntaxParser.h): each node the parser
// completes is lowered into the AST at once, children before parent, and forgotten. The
// values of completed children wait on typed stacks (postorder keeps them in order: a
// node's children are the top of each stack when it closes), the way Carbon's checker
// consumes its postorder parse tree with a node stack. It is the one lowering: ANTLR's
// tree (--parser=antlr, the oracle) comes to it as a CST (lowerTree), node for node as the
// parser closes them; `fabc parse-diff` and the fuzz target hold the two trees and their
// ASTs equal. docs/decisions/0221-one-parser-two-sinks.md, 0371-one-lowering.md.
// Over 600 lines: the sink lowers every rule of the grammar (one case each), and the
// wording of the parser's syntax errors (reportSyntaxErrors) sits with parseHand.
#include "ast/Literals.h"
#include "ast/SyntaxParser.h"
#include "diag/Diag.h"
#include "diag/DiagCodes.h"

#include <llvm/ADT/SmallVector.h>

#include <cctype>


namespace fabc {
namespace cst {
namespace {

// An expression and the source its parse-tree context spans (with any parentheses around
// it, which the AST drops but the enclosing ranges include). `e` is null for a NUMBER
// not made yet: `p[12]`, the common index, is kept inline in its segment without an Expr.
struct PE {
  ast::Expr *e;
  uint32_t begin, end;
};

class AstSink {
public:
  // The parser skips modelItem and primaryExpr (SyntaxParser.h's wrap()); a replayed CST
  // (lowerTree) still has them: their cases below pass the child's rule up.
  static constexpr bool kWrappers = false;
  // A block's statements wait on stmts_: the parser hands the block over with its '{',
  // last element and '}' only, and the count of statements among what it folded.
  static constexpr bool kFoldsBlocks = true;
  static bool blockItem(const Slot &k) { return k.isNode() && isStmt(k.rule); }
  Slot closeFolded(Rule r, const Slot *k, uint32_t n, uint32_t stmts) {
    blocks_.push_back(popList(stmts_, stmts));
    return {NodeBit, k[0].begin, k[n - 1].end, hand::End, r, 0};
  }
  // Paths come straight from the parser (pathDirect): a segment at a time, then the path.
  static constexpr bool kDirectPaths = true;
  struct Index {
    enum Kind : uint8_t { None, Star, Number, Expr } kind = None;
    uint32_t begin = 0, end = 0; // Number's token
  };
  // ID ('[' ('*' | expr) ']')?, [idBegin, end): as the Segment case lowers it.
  void segment(uint32_t idBegin, uint32_t idEnd, uint32_t end, const Index &index) {
    // Built in place, not on the stack and copied in (the 100k-link check: 951M -> 943M
    // instructions; no change in time could be measured above this machine's noise).
    ast::Segment &seg = segs_.emplace_back();
    seg.setName(s_.substr(idBegin, idEnd - idBegin));
    seg.range = range(idBegin, end);
    if (index.kind == Index::Star) {
      seg.star = true;
    } else if (index.kind != Index::None) {
      PE p = index.kind == Index::Number ? PE{nullptr, index.begin, index.end} : pe();
      if (p.e || !literal(seg, p))
        ast::setIndex(seg, make(p));
    }
  }
  void dropSegments(uint32_t segs) { segs_.resize(segs_.size() - segs); }
  Slot path(uint32_t begin, uint32_t end, uint32_t segs) {
    paths_.push_back({popList(segs_, segs)}); // its range is its segments' (end: the last one's)
    return {NodeBit, begin, end, hand::End, Path, 0};
  }
  AstSink(uint32_t file, std::string_view text, ast::Context &ctx) : file_(file), s_(text), ctx_(ctx) {}

  Slot close(Rule r, const Slot *k, uint32_t n) {
    Slot s{NodeBit, k[0].begin, k[n - 1].end, hand::End, r, 0};
    switch (r) {
    case File: items_.commit(ctx_, out_); break;
    case Item: // a statement at the top level; the declarations went to items_ as they closed
      if (isStmt(k[0].rule))
        items_.topLevel.push_back(pop(stmts_));
      break;
    case ImportDecl: items_.imports.push_back({unquote(k[1]), range(k[1])}); break;
    case ModelDecl: model(k, n); break;
    case ModelItem: s.rule = k[0].rule; break; // PortDecl or Prop: ModelDecl counts them
    case PortDecl: {
      ast::PortDecl d{text(k[1]), range(k[1]), nullptr, pop(propLists_)};
      d.count = expr();
      ports_.push_back(d);
      break;
    }
    case Prop: {
      ast::Prop p;
      p.key = text(k[0]);
      p.keyRange = range(k[0]);
      if (n == 5) {
        p.annot = ast::Prop::Annot(k[3].sub);
        p.annotText = annotText_;
        p.low = annotLow_;
        p.high = annotHigh_;
      }
      p.value = expr();
      props_.push_back(p);
      break;
    }
    case Annotation:
      s.sub = k[0].tok == hand::KwSource ? ast::Prop::Source : ast::Prop::Estimate;
      annotText_ = unquote(k[n - 1]);
      // `estimate LOW..HIGH "..."`: the bounds are the top two expressions.
      annotHigh_ = n == 5 ? expr() : nullptr;
      annotLow_ = n == 5 ? expr() : nullptr;
      break;
    case PropBlock: propLists_.push_back(popList(props_, n - 2 - errors(k, n))); break;
    case TemplateDecl: tmpl(k, n); break;
    case Param: {
      ast::Expr *deflt = n == 3 ? expr() : nullptr;
      params_.push_back({text(k[0]), range(k[0]), deflt});
      break;
    }
    case FnDecl: {
      ast::Function *f = ctx_.function();
      f->name = text(k[1]);
      f->range = range(k[1]);
      llvm::SmallVector<ast::Param, 8> params;
      for (uint32_t i = 3; k[i].tok != hand::RParen; ++i) // ID (',' ID)*
        if (k[i].tok == hand::Id)
          params.push_back({text(k[i]), range(k[i]), nullptr});
      f->params = ctx_.list<ast::Param>(params);
      f->body = expr();
      items_.functions.push_back(f);
      break;
    }
    case FabricDecl: {
      ast::Fabric *f = ctx_.fabric();
      f->name = text(k[1]);
      f->range = range(k[1]);
      f->body = pop(blocks_);
      items_.fabrics.push_back(f);
      break;
    }
    case Block: { // '{' stmt* '}' (the '}' missing at the end of a broken file), Error nodes among them
      uint32_t stmts = n - 2;
      if (errors_ || k[n - 1].isNode() || k[n - 1].tok != hand::RBrace) { // (`{` alone at the end: n is 1)
        stmts = 0;
        for (uint32_t i = 1; i < n; ++i)
          stmts += k[i].isNode() && isStmt(k[i].rule);
      }
      blocks_.push_back(popList(stmts_, stmts));
      break;
    }
    case ElseBranch:
      if (n > 1) // `else if`: its ifStmt is the one statement of the else block
        blocks_.push_back(ctx_.list<ast::Stmt *>(llvm::ArrayRef<ast::Stmt *>(ifStmt(k, n))));
      break;
    case HallDecl: halls_.push_back({text(k[1]), range(k[1]), pop(propLists_)}); break;
    case ArraySpec:
      arr_ = {};
      arr_.e1 = expr();
      if (n == 7) {
        arr_.e2 = expr();
        arr_.var = k[1];
      }
      break;
    case Args: args_ = popList(argStack_, (n - 1) / 2); break; // '(' ')' or '(' arg (',' arg)* ')'
    case Arg: {
      ast::Arg a;
      if (n == 3)
        a.name = text(k[0]);
      a.range = range(k[0].begin, k[n - 1].end);
      a.value = expr();
      argStack_.push_back(a);
      break;
    }
    case Path: path(s.begin, s.end, (n + 1) / 2); break;
    case Segment: segment(k, n); break;
    case PrimaryExpr: s.rule = k[0].rule; break;
    case ParenExpr: {
      PE inner = pe();
      exprs_.push_back({make(inner), s.begin, s.end});
      break;
    }
    case NumberLit: exprs_.push_back({nullptr, s.begin, s.end}); break;
    case Error: // what did not parse: the values its completed parts left are dropped
      ++errors_;
      for (uint32_t i = 0; i < n; ++i)
        if (k[i].isNode())
          drop(k[i].rule);
      break;
    default:
      if (isExpr(r) || r >= QuantityLit)
        exprs_.push_back({lowerExpr(r, k, n), s.begin, s.end});
      else
        stmts_.push_back(stmt(r, k, n));
    }
    return s;
  }

  ast::File *out_ = nullptr;

private:
  static bool isStmt(Rule r) { return r >= LetStmt && r <= AssertStmt; }
  // The Error nodes among a list's children (none but after a syntax error).
  uint32_t errors(const Slot *k, uint32_t n) const {
    uint32_t e = 0;
    for (uint32_t i = 0; errors_ && i < n; ++i)
      e += k[i].isNode() && k[i].rule == Error;
    return e;
  }
  // A completed node whose parent did not: the one value it left on its stack goes.
  void drop(Rule r) {
    switch (r) {
    case Block:
    case ElseBranch: blocks_.pop_back(); break;
    case PropBlock: propLists_.pop_back(); break;
    case Prop: props_.pop_back(); break;
    case Path: paths_.pop_back(); break;
    case Segment: segs_.pop_back(); break;
    case Param: params_.pop_back(); break;
    case Arg: argStack_.pop_back(); break;
    case PortDecl: ports_.pop_back(); break;
    case HallDecl: halls_.pop_back(); break;
    case Error: case Annotation: case Args: case ArraySpec: break; // no stack
    default:
      if (isStmt(r))
        stmts_.pop_back();
      else if (isExpr(r) || r >= QuantityLit)
        exprs_.pop_back();
    }
  }
  std::string_view text(const Slot &t) const { return s_.substr(t.begin, t.end - t.begin); }
  // A string literal's decoded text, saved in the arena (the source holds it escaped).
  std::string_view unquote(const Slot &t) { return ctx_.save(lit::unquote(text(t))); }
  SourceRange range(uint32_t b, uint32_t e) const { return {{file_, b}, e > b ? e - b : 1}; }
  SourceRange range(const Slot &t) const { return range(t.begin, t.end); }

  template <class V> static typename V::value_type pop(V &v) {
    typename V::value_type t = v.back();
    v.pop_back();
    return t;
  }
  template <class T, unsigned N> ast::List<T> popList(llvm::SmallVector<T, N> &v, uint32_t count) {
    ast::List<T> l = ctx_.list<T>(llvm::ArrayRef<T>(v).take_back(count));
    v.resize(v.size() - count);
    return l;
  }

  PE pe() { return pop(exprs_); }
  ast::Expr *make(const PE &p) {
    if (p.e)
      return p.e;
    ast::Expr *e = ctx_.expr(ast::Expr::Number, range(p.begin, p.end));
    e->text = s_.substr(p.begin, p.end - p.begin);
    e->number = lit::number(e->text, &e->isInteger);
    if (e->isInteger)
      e->isInteger = lit::integer(e->text, &e->integer);
    return e;
  }
  ast::Expr *expr() { return make(pe()); }

  void model(const Slot *k, uint32_t n) {
    ast::Model *m = ctx_.model();
    m->name = text(k[1]);
    m->range = range(k[1]);
    m->kind = text(k[3]);
    m->kindRange = range(k[3]);
    uint32_t ports = 0;
    for (uint32_t i = 5; i + 1 < n; ++i)
      ports += k[i].rule == PortDecl;
    m->ports = popList(ports_, ports);
    m->props = popList(props_, n - 6 - ports - errors(k, n));
    items_.models.push_back(m);
  }

  void tmpl(const Slot *k, uint32_t n) {
    ast::Template *t = ctx_.tmpl();
    t->name = text(k[1]);
    t->range = range(k[1]);
    uint32_t params = 0, i = 3;
    for (; k[i].tok != hand::RParen || k[i].isNode(); ++i)
      params += k[i].isNode();
    t->params = popList(params_, params);
    if (k[i + 1].tok == hand::Colon && !k[i + 1].isNode()) {
      t->kind = text(k[i + 2]);
      t->kindRange = range(k[i + 2]);
    }
    t->body = pop(blocks_);
    items_.templates.push_back(t);
  }

  // A replayed CST's segment (lowerTree): ID ('[' ('*' | expr) ']')?, its index's value
  // already on exprs_; lowered as the parser's direct segments are.
  void segment(const Slot *k, uint32_t n) {
    Index index;
    if (n == 4)
      index.kind = k[2].isNode() ? Index::Expr : Index::Star;
    segment(k[0].begin, k[0].end, k[n - 1].end, index);
  }

  // `p[12]`: the index kept inline in the segment (the form ast::setIndex would fold it to).
  bool literal(ast::Segment &seg, const PE &p) {
    std::string_view t = s_.substr(p.begin, p.end - p.begin);
    // Plain digits, the explicit files' every index, read here; anything else (`1_000`,
    // `1e3`, past 10 digits) by lit:: as a NUMBER is everywhere. Same value either way.
    int64_t v = 0;
    bool digits = !t.empty() && t.size() <= 10;
    for (size_t i = 0; digits && i < t.size(); ++i) {
      digits = t[i] >= '0' && t[i] <= '9';
      v = v * 10 + (t[i] - '0');
    }
    bool isInt = digits;
    if (!digits) {
      lit::number(t, &isInt);
      if (!isInt || !lit::integer(t, &v))
        return false;
    }
    if (v < 0 || v > int64_t(UINT32_MAX))
      return false;
    SourceRange r = range(p.begin, p.end);
    uint32_t delta = r.begin.offset - seg.range.begin.offset;
    if (delta > UINT16_MAX || r.length > UINT8_MAX)
      return false;
    seg.setLiteral(uint32_t(v), uint16_t(delta), uint8_t(r.length));
    return true;
  }

  // ifStmt, or the elseBranch of an `else if`: 'if' expr block ('else' elseBranch)?; every
  // `if` of a chain spans to the chain's end, as its parse-tree context does.
  ast::Stmt *ifStmt(const Slot *k, uint32_t n) {
    ast::Stmt *s = ctx_.stmt(ast::Stmt::If, range(k[0].begin, k[n - 1].end));
    if (n == 5)
      s->ext->elseBody = pop(blocks_);
    s->ext->body = pop(blocks_);
    s->e1 = expr();
    return s;
  }

  ast::List<ast::Prop> propsIf(bool has) { return has ? pop(propLists_) : ast::List<ast::Prop>{}; }

  ast::Stmt *stmt(Rule r, const Slot *k, uint32_t n) {
    using K = ast::Stmt;
    SourceRange whole = range(k[0].begin, k[n - 1].end);
    auto named = [&](K::Kind kind, const Slot &name) {
      K *s = ctx_.stmt(kind, whole);
      s->ext->name = text(name);
      s->ext->nameRange = range(name);
      return s;
    };
    auto second = [&](K *s, const Slot &name) {
      s->ext->name2 = text(name);
      s->ext->name2Range = range(name);
    };
    switch (r) {
    case LetStmt:
    case ParamStmt:
    case OptionStmt: {
      K *s = named(r == LetStmt ? K::Let : r == ParamStmt ? K::Param : K::Option, k[1]);
      s->e1 = expr();
      return s;
    }
    case InstStmt: {
      K *s = named(K::Inst, k[0]);
      uint32_t i = 1;
      if (k[i].rule == ArraySpec && k[i].isNode()) {
        s->e1 = arr_.e1;
        if (arr_.e2) {
          s->ext->e2 = arr_.e2;
          s->ext->name3 = text(arr_.var);
          s->ext->name3Range = range(arr_.var);
        }
        ++i;
      }
      second(s, k[i + 1]);
      i += 2;
      if (i < n && k[i].isNode() && k[i].rule == Args) {
        s->hasArgs = true;
        s->ext->args = args_;
        ++i;
      }
      s->props = propsIf(i < n && k[i].isNode());
      return s;
    }
    case ForStmt: {
      K *s = named(K::For, k[1]);
      s->ext->body = pop(blocks_);
      s->ext->e2 = expr();
      s->e1 = expr();
      return s;
    }
    case IfStmt: return ifStmt(k, n);
    case LinkStmt: {
      K *s = ctx_.stmt(K::Link, whole);
      s->props = propsIf(n > 4 && k[4].isNode());
      s->paths = popList(paths_, 2);
      return s;
    }
    case GroupStmt: {
      K *s = named(K::Group, k[2]);
      second(s, k[1]);
      uint32_t paths = 0;
      for (uint32_t i = 3; i < n; ++i)
        paths += k[i].isNode() && k[i].rule == Path;
      s->paths = popList(paths_, paths);
      if (k[3].tok == hand::LBrack && !k[3].isNode())
        s->e1 = expr();
      return s;
    }
    case PlaceStmt: {
      K *s = ctx_.stmt(K::Place, whole);
      second(s, k[3]);
      uint32_t i = 4;
      if (!k[i].isNode() && k[i].tok == hand::Dot) {
        s->ext->name3 = text(k[5]);
        s->ext->name3Range = range(k[5]);
        i = 6;
      }
      s->props = propsIf(i < n && k[i].isNode());
      s->paths = popList(paths_, 1);
      return s;
    }
    case BuildingStmt: {
      K *s = named(K::Building, k[1]);
      uint32_t halls = 0;
      for (uint32_t i = 3; i + 1 < n; ++i)
        halls += k[i].rule == HallDecl;
      s->ext->halls = popList(halls_, halls);
      s->props = popList(props_, n - 4 - halls - errors(k, n));
      return s;
    }
    case SpanStmt: {
      K *s = named(K::Span, k[1]);
      second(s, k[3]);
      s->props = pop(propLists_);
      return s;
    }
    case PolicyStmt: {
      K *s = named(K::Policy, k[1]);
      s->props = pop(propLists_);
      return s;
    }
    case AssertStmt: {
      K *s = ctx_.stmt(K::Assert, whole);
      if (n == 5)
        s->ext->message = unquote(k[3]);
      s->e1 = expr();
      return s;
    }
    default: throw Abort{}; // not reached: every rule is lowered above
    }
  }

  ast::Expr *lowerExpr(Rule r, const Slot *k, uint32_t n) {
    using E = ast::Expr;
    SourceRange whole = range(k[0].begin, k[n - 1].end);
    switch (r) {
    case UnaryExpr:
    case BinaryExpr: {
      E *e = ctx_.expr(r == UnaryExpr ? E::Unary : E::Binary, whole);
      e->text = text(k[n - 2]); // the operator: [op expr] or [expr op expr]
      e->op = ast::opFromText(e->text);
      ast::Expr *kids[2];
      kids[1] = expr();
      kids[0] = r == BinaryExpr ? expr() : nullptr;
      e->kids = ctx_.list<ast::Expr *>(llvm::ArrayRef<ast::Expr *>(kids).take_back(r == BinaryExpr ? 2 : 1));
      return e;
    }
    case CondExpr: {
      E *e = ctx_.expr(E::Cond, whole);
      ast::Expr *kids[3];
      for (int i = 3; i-- > 0;)
        kids[i] = expr();
      e->kids = ctx_.list<ast::Expr *>(kids);
      return e;
    }
    case QuantityLit: {
      E *e = ctx_.expr(E::Quantity, whole);
      std::string_view q = text(k[0]);
      size_t i = quantityNumberLength(q);
      bool isInt;
      e->number = lit::number(q.substr(0, i), &isInt);
      size_t u = q.find_first_not_of(" \t", i);
      if (u != std::string_view::npos)
        e->text = q.substr(u);
      return e;
    }
    case PercentLit: { // "90%": the Quantity 90 in the unit "%" (Expr scales it to 0.9)
      E *e = ctx_.expr(E::Quantity, whole);
      bool isInt;
      std::string_view t = text(k[0]);
      e->number = lit::number(t.substr(0, t.size() - 1), &isInt);
      e->text = "%";
      return e;
    }
    case StringLit: {
      E *e = ctx_.expr(E::String, whole);
      e->text = unquote(k[0]);
      return e;
    }
    case BoolLit: {
      E *e = ctx_.expr(E::Bool, whole);
      e->number = k[0].tok == hand::KwTrue;
      return e;
    }
    case CallExpr:
    case NameExpr: { // ID '(' (expr (',' expr)*)? ')' | ID ('[' expr ']')*
      E *e = ctx_.expr(r == CallExpr ? E::Call : E::Name, range(k[0]));
      e->text = text(k[0]);
      e->kids = exprList(k, n);
      return e;
    }
    case ListExpr: {
      E *e = ctx_.expr(E::List, whole);
      e->kids = exprList(k, n);
      return e;
    }
    case CompExpr: { // '[' expr 'for' ID 'in' expr ('..' expr)? ('if' expr)? ']'
      E *e = ctx_.expr(E::Comp, whole);
      e->text = text(k[3]);
      ast::Expr *kids[4] = {nullptr, nullptr, nullptr, nullptr};
      if (k[n - 3].tok == hand::KwIf && !k[n - 3].isNode())
        kids[3] = expr();
      if (k[6].tok == hand::DotDot && !k[6].isNode())
        kids[2] = expr();
      kids[1] = expr();
      kids[0] = expr();
      e->kids = ctx_.list<ast::Expr *>(kids);
      return e;
    }
    default: throw Abort{}; // not reached
    }
  }

  // The expressions among a node's children, in order.
  ast::List<ast::Expr *> exprList(const Slot *k, uint32_t n) {
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; ++i)
      count += k[i].isNode();
    llvm::SmallVector<ast::Expr *, 8> kids(count);
    for (uint32_t i = count; i-- > 0;)
      kids[i] = expr();
    return ctx_.list<ast::Expr *>(kids);
  }

  uint32_t file_;
  std::string_view s_;
  ast::Context &ctx_;
  ast::FileItems items_;
  // The values of completed nodes their parents have not taken yet.
  llvm::SmallVector<PE, 16> exprs_;
  llvm::SmallVector<ast::Stmt *, 64> stmts_;
  llvm::SmallVector<ast::Block, 8> blocks_;
  llvm::SmallVector<ast::Prop, 16> props_;
  llvm::SmallVector<ast::List<ast::Prop>, 4> propLists_;
  llvm::SmallVector<ast::Segment, 4> segs_;
  llvm::SmallVector<ast::Path, 4> paths_;
  llvm::SmallVector<ast::Param, 8> params_;
  llvm::SmallVector<ast::Arg, 8> argStack_;
  llvm::SmallVector<ast::PortDecl, 4> ports_;
  llvm::SmallVector<ast::Hall, 4> halls_;
  // The parts of an instance statement that precede its end (no statement nests in them).
  struct {
    ast::Expr *e1, *e2;
    Slot var;
  } arr_{};
  ast::List<ast::Arg> args_;
  std::string_view annotText_;
  ast::Expr *annotLow_ = nullptr, *annotHigh_ = nullptr;
  uint32_t errors_ = 0; // Error nodes so far
};

} // namespace
} // namespace cst

ast::File *parseHand(uint32_t fileId, std::string_view text, ast::Context &ctx, const ParseLimits &limits,
                     std::vector<hand::SyntaxError> &errors) {
  ast::File *file = ctx.file();
  file->fileId = fileId;
  cst::AstSink sink(fileId, text, ctx);
  sink.out_ = file;
  std::vector<cst::Token> window; // the parser's few tokens of lookahead
  cst::Parser<cst::AstSink> parser(text, limits, window, /*keep=*/false, sink);
  try {
    parser.file();
  } catch (const cst::Abort &) {
    // The nodes built so far stay in the arena until the Context goes (at most this
    // file's AST, once).
    return nullptr;
  }
  errors = parser.errors();
  file->tokenMarks = ctx.list<uint32_t>(parser.marks());
  return file;
}

void lowerTree(uint32_t fileId, const cst::Tree &t, ast::Context &ctx, ast::File *file) {
  cst::AstSink sink(fileId, t.source, ctx);
  sink.out_ = file;
  // The nodes are in the order the parser closes them (children first): each is closed
  // in the sink with its children's slots, as the parser would hand them.
  std::vector<cst::Slot> done(t.nodes.size()), kids;
  for (uint32_t n = 0; n < t.nodes.size(); ++n) {
    kids.clear();
    for (uint32_t i = 0; i < t.nkids(n); ++i) {
      cst::Kid k = t.kid(n, i);
      if (cst::Tree::isNode(k)) {
        kids.push_back(done[cst::Tree::index(k)]);
      } else {
        const cst::Token &tok = t.token(k);
        kids.push_back({k, tok.begin, tok.end, tok.kind, cst::File, 0});
      }
    }
    done[n] = sink.close(t.rule(n), kids.data(), uint32_t(kids.size()));
  }
}

size_t quantityNumberLength(std::string_view t) {
  // As the grammar's QUANTITY begins: DIGITS ('.' DIGITS)? ([eE] [+-]? DIGITS)?, DIGITS
  // being [0-9] ('_'? [0-9])*. The rest is the unit, which may begin with an e: in
  // "1e30e1kW" the number is 1e30 and the unit "e1kW" (a greedier split, 1e30e1 and kW,
  // printed as "1e30e1 kW", lexed back as another quantity and a name).
  auto digit = [&](size_t k) { return k < t.size() && std::isdigit((unsigned char)t[k]); };
  auto digits = [&](size_t k) {
    while (digit(k) || (k < t.size() && t[k] == '_' && digit(k + 1)))
      ++k;
    return k;
  };
  size_t i = digits(0);
  if (i < t.size() && t[i] == '.' && digit(i + 1))
    i = digits(i + 1);
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    size_t j = i + 1;
    if (j < t.size() && (t[j] == '+' || t[j] == '-'))
      ++j;
    if (digit(j))
      i = digits(j);
  }
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

namespace {
// A token's text as the messages quote it (cut at 40 bytes, on a character boundary).
std::string quoted(std::string_view text) {
  if (text.size() <= 40)
    return "'" + std::string(text) + "'";
  size_t cut = 40;
  while (cut && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut;
  return "'" + std::string(text.substr(0, cut)) + "...'";
}

const char *spelling(hand::Tok k) {
  using namespace hand;
  static const char *const punct[] = {";", ":", "{", "}", "[", "]", "(", ")", ",", "=", "..", ".", "--", "-", "!",
                                      "*", "/", "%", "+", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "?"};
  static const char *const words[] = {"import", "fn",   "model",  "port",  "source",   "estimate", "template",
                                      "fabric", "let",  "param",  "option", "for",     "in",       "if",
                                      "else",   "link", "group",  "place", "building", "span",     "policy",
                                      "assert", "hall", "true",   "false"};
  if (k >= Semi && k <= Question)
    return punct[k - Semi];
  if (k >= KwImport && k <= KwFalse)
    return words[k - KwImport];
  return "";
}

// A token the parser tried, as the grammar's display names put it.
std::string expectedName(hand::Tok k) {
  using namespace hand;
  switch (k) {
  case End: return "end of file";
  case Id: return "a name";
  case Number: return "a number";
  case Quantity: return "a quantity";
  case PercentLit: return "a percentage";
  case String: return "a string";
  default: return "'" + std::string(spelling(k)) + "'";
  }
}
} // namespace

void reportSyntaxErrors(uint32_t fileId, std::string_view text, const std::vector<hand::SyntaxError> &errors,
                        DiagEngine &diags) {
  using namespace hand;
  for (const SyntaxError &e : errors) {
    std::string_view found = text.substr(e.begin, e.end - e.begin);
    SourceRange r{{fileId, e.begin}, std::max<uint32_t>(e.end - e.begin, 1)};
    std::string msg = "unexpected " + (e.found == End ? std::string("end of file") : quoted(found));
    uint64_t want = e.expected & ~SyntaxError::Many;
    if (want && !(e.expected & SyntaxError::Many) && __builtin_popcountll(want) <= 4) {
      std::string list;
      for (unsigned t = 0; t < 63; ++t)
        if (want >> t & 1) {
          list += list.empty() ? "" : " or ";
          list += t == 62 ? "an expression" : expectedName(Tok(t));
        }
      msg += ", expected " + list;
    }
    // A missing ';' at the end of a line is reported where it belongs, after the token
    // before the line break, as clang does.
    if ((want >> Semi & 1) && e.prevEnd > 0 && text.substr(e.prevEnd, e.begin - e.prevEnd).find('\n') !=
                                                   std::string_view::npos) {
      r = {{fileId, e.prevEnd}, 1};
      msg = "expected ';' after " + quoted(text.substr(e.prevBegin, e.prevEnd - e.prevBegin));
    }
    Diagnostic *d = diags.report(DiagCode::E0002, r, std::move(msg));
    if (e.found == Quantity)
      DiagEngine::note(d, r, "a number followed by a word is read as a quantity with a unit; "
                             "put the number in parentheses if the word is not a unit");
  }
}

} // namespace fabc
