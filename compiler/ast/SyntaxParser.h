#pragma once
// The one hand-written parser of grammar/Fabric.g4 (compiler/ast/ only). It recognizes the
// grammar once and hands every node it completes, children before parent (postorder, as
// Carbon's parse tree is laid out), to a sink:
//  - cst::TreeSink (CstParser.cpp) records the node in the concrete syntax tree of Cst.h,
//    the tree fmt prints, the editor walks and the differential test compares with ANTLR's;
//  - AstSink (AstLower.cpp) lowers it at once into the compiler's AST, so the compile path
//    keeps no node and no token it has passed (a 150 MB explicit file keeps its AST only).
// The node is the same in both: one per rule context, labelled alternatives by their
// label, node for node as ANTLR builds it (`fabc parse-diff` holds both sinks to ANTLR).
// Syntax errors are its own: at a token the grammar does not allow it records what it
// expected there (hand::SyntaxError) and recovers at the statement list it is in, closing
// what it skipped as an Error node (docs/decisions/0301-syntax-error-recovery.md).
// Nothing recurses per statement: an else-if chain is a loop.
// Over 600 lines: it is the whole grammar, one function per rule, and splitting the rules
// of one recursive descent across files would hide which rule calls which.
// docs/decisions/0221-one-parser-two-sinks.md.
#include "ast/Cst.h"

namespace fabc::cst {

struct Abort {};  // a token the lexer refuses (a bad character, a limit): parse no further
struct Broken {}; // a syntax error, recorded: unwinds to the statement list that recovers
static_assert(hand::BlockComment < 62, "hand::SyntaxError::expected holds a bit per token kind below bit 62");

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
  // Which statement list an element is parsed in: the file, a block of statements, or a
  // list inside one statement (a property block, a model's, a building's, a group's).
  enum Level : uint8_t { Top, Stmts, Inner };

public:
  // `keep`: every token stays in `toks` with its line, comments included (the CST). Else
  // `toks` holds only a window of default-channel tokens around the current one.
  Parser(std::string_view text, const ParseLimits &limits, std::vector<Token> &toks, bool keep, Sink &sink)
      : s_(text), lex_(text, limits, /*comments=*/keep), toks_(toks), keep_(keep), sink_(sink) {
    toks_.clear();
    if (keep_)
      toks_.reserve(text.size() / 2 + 16); // address space, touched as used (~3 bytes a token)
  }

  // Throws Abort at a token the lexer refuses; syntax errors are in errors().
  void file() {
    using namespace hand;
    uint32_t m = mark();
    cur_ = fetch(0);
    while (kind() != End)
      element(Top, [&] {
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
      });
    push(cur_); // EOF
    close(File, m);
  }

  const std::vector<hand::SyntaxError> &errors() const { return errors_; }
  // Without `keep`: the start of a default-channel token every ~256 tokens, ascending.
  // The lexer needs nothing from before a token's start, so it can resume at any of
  // them (hand::sameTokens, ast::File::tokenMarks).
  const std::vector<uint32_t> &marks() const { return marks_; }

private:
  // --- tokens: every token lexed is appended to toks_; cur_ is the current one of the
  // default channel (comments are recorded and stepped over).
  void lexOne() {
    hand::Token t = lex_.next();
    if (t.kind == hand::Bad)
      throw Abort{};
    if (keep_) {
      const char *s = s_.data();
      for (uint32_t i = lineAt_; i < t.begin; ++i)
        line_ += s[i] == '\n';
      lineAt_ = t.begin;
    }
    // Field by field in place: a Token built apart and copied in was written in pieces
    // and read back whole, a stalled store forward per token (~8% of a 3M-link parse).
    Token &k = toks_.emplace_back();
    k.kind = t.kind;
    k.begin = t.begin;
    k.end = t.end;
    k.line = line_;
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
    skip();
  }
  // Consumes the current token without a slot (a sink's direct path: pathDirect()).
  void skip() {
    prevBegin_ = toks_[cur_].begin;
    prevEnd_ = toks_[cur_].end;
    expected_ = 0;
    if (!keep_ && cur_ >= 256) { // nothing refers to a passed token: keep the window small
      marks_.push_back(toks_[cur_].begin);
      toks_.erase(toks_.begin(), toks_.begin() + cur_);
      cur_ = 0;
    }
    cur_ = fetch(cur_ + 1);
  }
  // Is the current token a `k`? If not, `k` is one of the tokens the error message at
  // this token lists (every alternative tried since the last token consumed).
  bool at(Tok k) {
    if (kind() == k)
      return true;
    expected_ |= uint64_t(1) << k;
    return false;
  }
  void expect(Tok k) {
    if (!at(k))
      fail();
    next();
  }
  bool accept(Tok k) {
    if (!at(k))
      return false;
    next();
    return true;
  }

  // --- errors: one per broken statement (one per token at most: an error that unwinds
  // several lists, e.g. at the end of the file, is reported once). `also`: what else
  // could have been here (SyntaxError::Expr, ::Many).
  [[noreturn]] void fail(uint64_t also = 0) {
    record(also);
    throw Broken{};
  }
  void record(uint64_t also = 0) {
    const Token &t = toks_[cur_];
    if (errors_.empty() || errors_.back().begin != t.begin)
      errors_.push_back({t.begin, t.end, prevBegin_, prevEnd_, expected_ | also, t.kind});
  }
  static bool startsDecl(Tok k) {
    using namespace hand;
    return k == KwImport || k == KwModel || k == KwTemplate || k == KwFn || k == KwFabric;
  }
  static bool startsStmt(Tok k) {
    using namespace hand;
    return startsDecl(k) || k == KwLet || k == KwParam || k == KwOption || k == KwFor || k == KwIf ||
           k == KwLink || k == KwGroup || k == KwPlace || k == KwBuilding || k == KwSpan || k == KwPolicy ||
           k == KwAssert;
  }
  bool lineStart() const {
    const char *s = s_.data();
    for (uint32_t i = prevEnd_; i < begin(); ++i)
      if (s[i] == '\n')
        return true;
    return prevEnd_ == 0;
  }
  bool column1() const { return begin() == 0 || s_[begin() - 1] == '\n'; }

  // One element of a statement list, parsed by `parse`. On a syntax error in it the list
  // goes on after what is skipped, and all the element consumed is one Error node: up to
  // its ';' or through its block's '}' (brace nesting counted), or up to a '}' that
  // closes the list, or up to the next line that starts a statement. A token that only
  // an enclosing list takes (`link` in a property block, `fabric` in column 1 in a block:
  // a '}' missing) leaves the whole list to that list's recovery. Recovery always moves
  // on: an element that broke at its first token loses that token. Right after a
  // recovery, an element that breaks at its first token is part of the same mess (`}}};`)
  // and not reported again.
  template <class F> void element(Level level, F &&parse) {
    uint32_t m = mark(), start = begin();
    size_t reported = errors_.size();
    try {
      parse();
      quiet_ = false;
      return;
    } catch (const Broken &) {
    }
    using namespace hand;
    Tok k = kind();
    if ((level == Inner && startsStmt(k)) || (level == Stmts && startsDecl(k) && column1()))
      throw Broken{};
    if (quiet_ && begin() == start && errors_.size() > reported)
      errors_.pop_back();
    quiet_ = true;
    uint32_t braces = 0;
    for (bool first = begin() == start;; first = false) {
      k = kind();
      if (k == End)
        break;
      if (!first && braces == 0) {
        if (k == RBrace && level != Top)
          break; // the list's own '}'
        if ((k == Id || startsStmt(k)) && lineStart())
          break;
        if (startsStmt(k) && k != KwFor && k != KwIf) // (those two also appear in comprehensions)
          break;
      }
      next();
      if (k == LBrace) {
        ++braces;
      } else if (k == RBrace && braces && --braces == 0) {
        if (!at(KwElse)) {
          accept(Semi);
          break;
        }
      } else if (k == Semi && braces == 0) {
        break;
      }
    }
    if (mark() > m)
      close(Error, m);
  }

  // --- nodes: the children of an open node gather on scratch_ from its mark on; closing
  // it hands them to the sink and leaves its slot there, a child of the enclosing one.
  uint32_t mark() const { return uint32_t(scratch_.size()); }
  void close(Rule r, uint32_t m) {
    Slot s = sink_.close(r, scratch_.data() + m, uint32_t(scratch_.size() - m));
    scratch_.resize(m);
    scratch_.push_back(s);
  }
  // A node with one child that only names the child's role (modelItem, primaryExpr): a
  // sink without kWrappers (the AST's) gets the child in its place, as if it had passed
  // the child's slot up (decision 0221's Status: a sink call per wrapper was the cost).
  void wrap(Rule r, uint32_t m) {
    if constexpr (Sink::kWrappers)
      close(r, m);
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
    while (!at(RBrace) && kind() != End)
      element(Inner, [&] {
        uint32_t it = mark();
        if (at(KwPort)) {
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
        wrap(ModelItem, it);
      });
    expect(RBrace);
    close(ModelDecl, m);
  }

  void tmpl() {
    using namespace hand;
    uint32_t m = mark();
    next();
    expect(Id);
    expect(LParen);
    if (!at(RParen)) {
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
    if (!at(RParen)) {
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
    if (at(KwSource) || at(KwEstimate)) {
      uint32_t a = mark();
      next();
      if (!at(String)) { // the figure's bounds: LOW '..' HIGH
        expr();
        expect(DotDot);
        expr();
      }
      expect(String);
      close(Annotation, a);
    }
    expect(Semi);
    close(Prop, m);
  }

  void propBlock() {
    uint32_t m = mark();
    expect(hand::LBrace);
    while (!at(hand::RBrace) && kind() != hand::End)
      element(Inner, [&] { prop(); });
    expect(hand::RBrace);
    close(PropBlock, m);
  }

  void propsOrSemi() {
    if (at(hand::LBrace)) {
      propBlock();
      accept(hand::Semi);
    } else {
      expect(hand::Semi);
    }
  }

  // A block the file ends in without its '}' is an error, but still the block of its
  // statement (rust-analyzer's way): the fabric being typed at the end of a file keeps
  // its statements for the editor.
  void block() {
    uint32_t m = mark();
    expect(hand::LBrace);
    uint32_t items = 0;
    while (!at(hand::RBrace) && kind() != hand::End) {
      element(Stmts, [&] { stmt(); });
      if constexpr (Sink::kFoldsBlocks)
        fold(m + 1, items);
    }
    if (kind() == hand::End)
      record();
    else
      next();
    if constexpr (Sink::kFoldsBlocks) {
      Slot s = sink_.closeFolded(Block, scratch_.data() + m, mark() - m, items);
      scratch_.resize(m);
      scratch_.push_back(s);
    } else {
      close(Block, m);
    }
  }
  // A sink with kFoldsBlocks keeps a block's statements on its own stacks, so the parser
  // need not hold a slot per statement until the '}' (a fabric of a million links was a
  // million slots, reallocated as they grew): it keeps the '{' and the last element,
  // whose end is the block's when the '}' is missing, and counts the items the sink
  // counts (Sink::blockItem). A block a syntax error abandons (its statements go into an
  // enclosing Error node) leaves the values of the statements folded before its last one
  // below the top of the sink's stack: every node pops its own children's values from
  // the top, so they are never read, and the AST is what it was without folding.
  void fold(uint32_t first, uint32_t &items) {
    if (mark() == first)
      return;
    const Slot top = scratch_.back();
    items += Sink::blockItem(top);
    scratch_.resize(first);
    scratch_.push_back(top);
  }

  void path() {
    using namespace hand;
    if constexpr (Sink::kDirectPaths)
      return pathDirect();
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
  // path() for a sink with kDirectPaths (the AST's): each segment goes to the sink as it is
  // read, `p[12]` without a slot for any of its tokens, and the path is one slot. The
  // tokens tried are the same as path()'s, in the same order, so a syntax error lists
  // what it did. The explicit files are paths above all: a link is two, of two segments.
  void pathDirect() {
    using namespace hand;
    uint32_t begin = this->begin();
    uint32_t segs = 0;
    try {
      do {
        if (!at(Id))
          fail();
        uint32_t idBegin = this->begin(), idEnd = toks_[cur_].end;
        skip();
        typename Sink::Index index{};
        uint32_t e = mark();
        if (at(LBrack)) {
          skip();
          if (at(Star)) {
            skip();
            index.kind = Sink::Index::Star;
          } else if (kind() == Number && peek() == RBrack) {
            index = {Sink::Index::Number, this->begin(), toks_[cur_].end};
            skip();
          } else {
            expr(); // its value waits on the sink's stack
            index.kind = Sink::Index::Expr;
          }
          if (!at(RBrack))
            fail();
          skip();
        }
        scratch_.resize(e); // (the index's slot: on a syntax error, the Error node drops its value)
        sink_.segment(idBegin, idEnd, prevEnd_, index);
        ++segs;
      } while (at(Dot) && (skip(), true));
    } catch (const Broken &) {
      // The Error node the element makes spans what the path consumed, and the segments
      // it read go with it.
      sink_.dropSegments(segs);
      if (prevEnd_ > begin)
        scratch_.push_back({0, begin, prevEnd_, hand::Id, File, 0});
      throw;
    }
    scratch_.push_back(sink_.path(begin, prevEnd_, segs));
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
      if (at(LBrack)) {
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
      if (at(LParen)) {
        uint32_t a = mark();
        next();
        if (!at(RParen)) {
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
        if (!at(KwIf)) {
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
      while (!at(RBrace) && kind() != End)
        element(Inner, [&] {
          path();
          expect(Semi);
        });
      expect(RBrace);
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
      while (!at(RBrace) && kind() != End)
        element(Inner, [&] {
          if (at(KwHall)) {
            uint32_t h = mark();
            next();
            expect(Id);
            propBlock();
            close(HallDecl, h);
          } else {
            prop();
          }
        });
      expect(RBrace);
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
    default: fail(hand::SyntaxError::Many); // a statement
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
      wrap(PrimaryExpr, m);
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
        return; // (an operator could follow: not listed, as ANTLR does not list them)
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
        if (!at(RParen)) {
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
      if (!at(RBrack)) {
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
    default: fail(hand::SyntaxError::Expr);
    }
  }

  std::string_view s_;
  hand::Lexer lex_;
  std::vector<Token> &toks_;
  std::vector<uint32_t> marks_;
  bool keep_;
  Sink &sink_;
  uint32_t cur_ = 0, line_ = 1, lineAt_ = 0, prevBegin_ = 0, prevEnd_ = 0;
  uint64_t expected_ = 0; // hand::SyntaxError::expected at the current token
  bool quiet_ = false;    // the last element was recovered from
  std::vector<Slot> scratch_;
  std::vector<hand::SyntaxError> errors_;
};

} // namespace fabc::cst
