#pragma once
// The one hand-written parser of grammar/Fabric.g4 (compiler/ast/ only). It recognizes the
// grammar once and hands every node it completes, children before parent (postorder, as
// Carbon's parse tree is laid out), to a sink:
//  - cst::TreeSink (CstParser.cpp) records the node in the concrete syntax tree of Cst.h,
//    the tree fmt prints and the differential test compares with ANTLR's;
//  - AstSink (AstLower.cpp) lowers it at once into the compiler's AST, so the compile path
//    keeps no node and no token it has passed (a 150 MB explicit file keeps its AST only).
// The node is the same in both: one per rule context, labelled alternatives by their
// label, node for node as ANTLR builds it (`fabc parse-diff` holds both sinks to ANTLR).
// On anything the grammar rejects the parser throws Reject, and rejection() says where it
// gave up (parseFile then asks ANTLR for the diagnostics of that part of the file).
// Nothing recurses per statement: an else-if chain is a loop.
// docs/decisions/0221-one-parser-two-sinks.md.
#include "ast/Cst.h"

namespace fabc::cst {

struct Reject {};

// A child on the parser's stack of open nodes: a token (kid: its index in the token array)
// or a completed node (kid has NodeBit; what the index means is the sink's), with the
// source span both sinks need.
struct Slot {
  Kid kid;
  uint32_t begin, end; // byte offsets of the span, [begin, end)
  hand::Tok tok;       // a token's kind
  Rule rule;           // a node's rule (the AST sink may pass a child's up through a wrapper)
  uint8_t sub = 0;     // the sink's
  bool isNode() const { return kid & NodeBit; }
};

template <class Sink> class Parser {
  using Tok = hand::Tok;

public:
  // `keep`: every token stays in `toks` with its line, comments included (the CST). Else
  // `toks` holds only a window of default-channel tokens around the current one.
  Parser(std::string_view text, const ParseLimits &limits, std::vector<Token> &toks, bool keep, Sink &sink)
      : s_(text), lex_(text, limits, /*comments=*/keep), toks_(toks), keep_(keep), sink_(sink) {
    toks_.clear();
    if (keep_)
      toks_.reserve(text.size() / 2 + 16); // address space, touched as used (~3 bytes a token)
  }

  void file() {
    using namespace hand;
    uint32_t m = mark();
    done_.emplace_back(0);
    cur_ = fetch(0);
    while (kind() != End) {
      done_.back().next(begin());
      uint32_t it = mark();
      switch (kind()) {
      case KwImport: {
        uint32_t d = mark();
        next();
        expect(String);
        expect(Semi);
        close(ImportDecl, d);
        break;
      }
      case KwModel: model(); break;
      case KwTemplate: tmpl(); break;
      case KwFn: function(); break;
      case KwFabric: {
        uint32_t d = mark();
        next();
        expect(Id);
        block();
        close(FabricDecl, d);
        break;
      }
      default: stmt(); break;
      }
      close(Item, it);
    }
    push(cur_); // EOF
    close(File, m);
  }

  // After a Reject: where it gave up.
  hand::Rejection rejection() const {
    hand::Rejection r{lex_.limited(), {}, {}, badEnd_ != UINT32_MAX ? badEnd_ : toks_[cur_].end};
    for (const Level &l : done_) {
      r.done.push_back({l.begin, l.last});
      r.holes.append(l.lastHoles.begin(), l.lastHoles.end());
      r.holes.append(l.curHoles.begin(), l.curHoles.end());
    }
    return r;
  }

private:
  // --- tokens: every token lexed is appended to toks_; cur_ is the current one of the
  // default channel (comments are recorded and stepped over).
  void lexOne() {
    hand::Token t = lex_.next();
    if (t.kind == hand::Bad) {
      badEnd_ = t.end;
      throw Reject{};
    }
    if (keep_) {
      const char *s = s_.data();
      for (uint32_t i = lineAt_; i < t.begin; ++i)
        line_ += s[i] == '\n';
      lineAt_ = t.begin;
    }
    toks_.push_back({t.kind, t.begin, t.end, line_});
  }
  uint32_t fetch(uint32_t from) {
    for (;;) {
      for (; from < toks_.size(); ++from)
        if (!isComment(toks_[from].kind))
          return from;
      lexOne();
    }
  }
  Tok kind() const { return toks_[cur_].kind; }
  uint32_t begin() const { return toks_[cur_].begin; }
  Tok peek() { return toks_[fetch(cur_ + 1)].kind; }
  void push(uint32_t t) {
    const Token &k = toks_[t];
    scratch_.push_back({t, k.begin, k.end, k.kind, File, 0});
  }
  void next() {
    push(cur_);
    prevEnd_ = toks_[cur_].end;
    if (!keep_ && cur_ >= 4096) { // nothing refers to a passed token: keep the window small
      toks_.erase(toks_.begin(), toks_.begin() + cur_);
      cur_ = 0;
    }
    cur_ = fetch(cur_ + 1);
  }
  void expect(Tok k) {
    if (kind() != k)
      throw Reject{};
    next();
  }
  bool accept(Tok k) {
    if (kind() != k)
      return false;
    next();
    return true;
  }

  // --- nodes: the children of an open node gather on scratch_ from its mark on; closing
  // it hands them to the sink and leaves its slot there, a child of the enclosing one.
  uint32_t mark() const { return uint32_t(scratch_.size()); }
  void close(Rule r, uint32_t m) {
    Slot s = sink_.close(r, scratch_.data() + m, uint32_t(scratch_.size() - m));
    scratch_.resize(m);
    scratch_.push_back(s);
  }

  // --- declarations
  void model() {
    using namespace hand;
    uint32_t m = mark();
    next();
    expect(Id);
    expect(Colon);
    expect(Id);
    expect(LBrace);
    while (kind() != RBrace) {
      uint32_t it = mark();
      if (kind() == KwPort) {
        uint32_t p = mark();
        next();
        expect(Id);
        expect(LBrack);
        expr();
        expect(RBrack);
        propBlock();
        close(PortDecl, p);
      } else {
        prop();
      }
      close(ModelItem, it);
    }
    next();
    close(ModelDecl, m);
  }

  void tmpl() {
    using namespace hand;
    uint32_t m = mark();
    next();
    expect(Id);
    expect(LParen);
    if (kind() != RParen) {
      do {
        uint32_t p = mark();
        expect(Id);
        if (accept(Assign))
          expr();
        close(Param, p);
      } while (accept(Comma));
    }
    expect(RParen);
    if (accept(Colon))
      expect(Id);
    block();
    close(TemplateDecl, m);
  }

  void function() {
    using namespace hand;
    uint32_t m = mark();
    next();
    expect(Id);
    expect(LParen);
    if (kind() != RParen) {
      do
        expect(Id);
      while (accept(Comma));
    }
    expect(RParen);
    expect(Assign);
    expr();
    expect(Semi);
    close(FnDecl, m);
  }

  void prop() {
    using namespace hand;
    uint32_t m = mark();
    expect(Id);
    expect(Assign);
    expr();
    if (kind() == KwSource || kind() == KwEstimate) {
      uint32_t a = mark();
      next();
      expect(String);
      close(Annotation, a);
    }
    expect(Semi);
    close(Prop, m);
  }

  void propBlock() {
    uint32_t m = mark();
    expect(hand::LBrace);
    while (kind() != hand::RBrace)
      prop();
    next();
    close(PropBlock, m);
  }

  void propsOrSemi() {
    if (kind() == hand::LBrace) {
      propBlock();
      accept(hand::Semi);
    } else {
      expect(hand::Semi);
    }
  }

  void block() {
    uint32_t m = mark();
    expect(hand::LBrace);
    done_.emplace_back(prevEnd_);
    while (kind() != hand::RBrace) {
      done_.back().next(begin());
      stmt();
    }
    uint32_t from = done_.back().begin;
    done_.pop_back();
    if (begin() > from)
      done_.back().curHoles.push_back({from, begin()});
    next();
    close(Block, m);
  }

  void path() {
    using namespace hand;
    uint32_t m = mark();
    do {
      uint32_t s = mark();
      expect(Id);
      if (accept(LBrack)) {
        if (!accept(Star))
          expr();
        expect(RBrack);
      }
      close(Segment, s);
    } while (accept(Dot));
    close(Path, m);
  }

  // --- statements
  void stmt() {
    using namespace hand;
    uint32_t m = mark();
    switch (kind()) {
    case KwLet:
    case KwParam:
    case KwOption: {
      Rule r = kind() == KwLet ? LetStmt : kind() == KwParam ? ParamStmt : OptionStmt;
      next();
      expect(Id);
      expect(Assign);
      expr();
      expect(Semi);
      return close(r, m);
    }
    case Id: {
      next();
      if (kind() == LBrack) {
        uint32_t a = mark();
        next();
        if (kind() == Id && peek() == KwIn) {
          next();
          next();
          expr();
          expect(DotDot);
        }
        expr();
        expect(RBrack);
        close(ArraySpec, a);
      }
      expect(Colon);
      expect(Id);
      if (kind() == LParen) {
        uint32_t a = mark();
        next();
        if (kind() != RParen) {
          do {
            uint32_t g = mark();
            if (kind() == Id && peek() == Assign) {
              next();
              next();
            }
            expr();
            close(Arg, g);
          } while (accept(Comma));
        }
        expect(RParen);
        close(Args, a);
      }
      propsOrSemi();
      return close(InstStmt, m);
    }
    case KwFor:
      next();
      expect(Id);
      expect(KwIn);
      expr();
      expect(DotDot);
      expr();
      block();
      return close(ForStmt, m);
    case KwIf: {
      // if ... else if ... : each elseBranch nests in the one before; closed innermost first.
      llvm::SmallVector<uint32_t, 4> open{m};
      for (;;) {
        next(); // 'if'
        expr();
        block();
        if (!accept(KwElse))
          break;
        open.push_back(mark());
        if (kind() != KwIf) {
          block();
          break;
        }
      }
      for (size_t i = open.size(); i-- > 0;)
        close(i ? ElseBranch : IfStmt, open[i]);
      return;
    }
    case KwLink:
      next();
      path();
      expect(DashDash);
      path();
      propsOrSemi();
      return close(LinkStmt, m);
    case KwGroup:
      next();
      expect(Id);
      expect(Id);
      if (accept(LBrack)) {
        expr();
        expect(RBrack);
      }
      expect(LBrace);
      while (kind() != RBrace) {
        path();
        expect(Semi);
      }
      next();
      return close(GroupStmt, m);
    case KwPlace:
      next();
      path();
      expect(KwIn);
      expect(Id);
      if (accept(Dot))
        expect(Id);
      propsOrSemi();
      return close(PlaceStmt, m);
    case KwBuilding:
      next();
      expect(Id);
      expect(LBrace);
      while (kind() != RBrace) {
        if (kind() == KwHall) {
          uint32_t h = mark();
          next();
          expect(Id);
          propBlock();
          close(HallDecl, h);
        } else {
          prop();
        }
      }
      next();
      return close(BuildingStmt, m);
    case KwSpan:
      next();
      expect(Id);
      expect(DashDash);
      expect(Id);
      propBlock();
      accept(Semi);
      return close(SpanStmt, m);
    case KwPolicy:
      next();
      expect(Id);
      propBlock();
      return close(PolicyStmt, m);
    case KwAssert:
      next();
      expr();
      if (accept(Comma))
        expect(String);
      expect(Semi);
      return close(AssertStmt, m);
    default: throw Reject{};
    }
  }

  // --- expressions: precedence climbing over the grammar's left-recursive `expr`, whose
  // alternatives ANTLR numbers from the tightest: unary 8, * / % 7, + - 6, < <= > >= 5,
  // == != 4, && 3, || 2, ?: 1 (right-associative).
  void expr(int minPrec = 0) {
    using namespace hand;
    uint32_t m = mark();
    if (kind() == Minus || kind() == Bang) {
      next();
      expr(8);
      close(UnaryExpr, m);
    } else {
      primary();
      close(PrimaryExpr, m);
    }
    for (;;) {
      int p = binaryPrecedence(kind());
      if (p && p >= minPrec) {
        next();
        expr(p + 1);
        close(BinaryExpr, m);
      } else if (kind() == Question && minPrec <= 1) {
        next();
        expr(0);
        expect(Colon);
        expr(1);
        close(CondExpr, m);
      } else {
        return;
      }
    }
  }

  void primary() {
    using namespace hand;
    uint32_t m = mark();
    switch (kind()) {
    case Number: next(); return close(NumberLit, m);
    case Quantity: next(); return close(QuantityLit, m);
    case hand::PercentLit: next(); return close(cst::PercentLit, m);
    case String: next(); return close(StringLit, m);
    case KwTrue:
    case KwFalse: next(); return close(BoolLit, m);
    case Id:
      next();
      if (accept(LParen)) {
        if (kind() != RParen) {
          do
            expr();
          while (accept(Comma));
        }
        expect(RParen);
        return close(CallExpr, m);
      }
      while (accept(LBrack)) {
        expr();
        expect(RBrack);
      }
      return close(NameExpr, m);
    case LBrack:
      next();
      if (kind() != RBrack) {
        expr();
        if (accept(KwFor)) {
          expect(Id);
          expect(KwIn);
          expr();
          if (accept(DotDot))
            expr();
          if (accept(KwIf))
            expr();
          expect(RBrack);
          return close(CompExpr, m);
        }
        while (accept(Comma))
          expr();
      }
      expect(RBrack);
      return close(ListExpr, m);
    case LParen:
      next();
      expr();
      expect(RParen);
      return close(ParenExpr, m);
    default: throw Reject{};
    }
  }

  std::string_view s_;
  hand::Lexer lex_;
  std::vector<Token> &toks_;
  bool keep_;
  Sink &sink_;
  uint32_t cur_ = 0, line_ = 1, lineAt_ = 0, prevEnd_ = 0, badEnd_ = UINT32_MAX;
  std::vector<Slot> scratch_;
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

} // namespace fabc::cst
