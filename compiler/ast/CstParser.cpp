// fmt's hand-written parser: grammar/Fabric.g4's parser rules, by hand, recording the
// parse tree ANTLR would build (Cst.h) instead of the AST. It decides exactly as the
// compile path's HandParser.cpp does (the same lexer, the same lookahead, precedence
// climbing with the same levels), which `fabc parse-diff` holds equal to the grammar;
// tests/lit/fmt/differential.test compares the trees with ANTLR's (--dump-cst) and fmt's
// output both ways. Nothing recurses per statement: an else-if chain is a loop.
#include "ast/Cst.h"

namespace fabc::cst {
namespace {
using namespace hand;

struct Reject {};

class Parser {
public:
  // `nodes`: false to record the tokens only (the self-check's parse of the output).
  Parser(std::string_view text, const ParseLimits &limits, Tree &t, bool nodes)
      : lex_(text, limits, /*comments=*/true), t_(t), record_(nodes) {
    t_.source = text;
    t_.tokens.clear();
    t_.nodes.clear();
    t_.kids.clear();
    // Generous: pages reserved and never touched cost address space, not memory (an
    // explicit link line is ~3 bytes a token, ~4 a node, ~2 a child).
    t_.tokens.reserve(text.size() / 2 + 16);
    if (record_) {
      t_.nodes.reserve(text.size() / 2 + 16);
      t_.kids.reserve(text.size() + 16);
    }
    cur_ = fetch(0);
  }

  void file() {
    uint32_t m = mark();
    while (kind() != End) {
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
    scratch_.push_back(cur_); // EOF
    close(File, m);
    t_.root = record_ ? uint32_t(t_.nodes.size() - 1) : 0;
  }

private:
  // --- tokens: every token lexed is appended to the tree; cur_ is the current one of the
  // default channel (comments are recorded and stepped over).
  void lexOne() {
    hand::Token t = lex_.next();
    if (t.kind == Bad)
      throw Reject{};
    const char *s = t_.source.data();
    for (uint32_t i = lineAt_; i < t.begin; ++i)
      line_ += s[i] == '\n';
    lineAt_ = t.begin;
    t_.tokens.push_back({t.kind, t.begin, t.end, line_});
  }
  uint32_t fetch(uint32_t from) {
    for (;;) {
      for (; from < t_.tokens.size(); ++from)
        if (!isComment(t_.tokens[from].kind))
          return from;
      lexOne();
    }
  }
  Tok kind() const { return t_.tokens[cur_].kind; }
  Tok peek() { return t_.tokens[fetch(cur_ + 1)].kind; }
  void next() {
    scratch_.push_back(cur_);
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
  // it moves them to the tree and leaves the node there, a child of the enclosing one.
  uint32_t mark() const { return uint32_t(scratch_.size()); }
  uint32_t firstTok(Kid k) const { return Tree::isNode(k) ? t_.nodes[Tree::index(k)].first : k; }
  uint32_t lastTok(Kid k) const { return Tree::isNode(k) ? t_.nodes[Tree::index(k)].last : k; }
  void close(Rule r, uint32_t m) {
    if (!record_) {
      scratch_.resize(m);
      scratch_.push_back(NodeBit);
      return;
    }
    if (t_.nodes.size() >= NodeBit - 1)
      throw Reject{};
    Node n{r, uint32_t(t_.kids.size()), uint32_t(scratch_.size() - m), firstTok(scratch_[m]), lastTok(scratch_.back())};
    t_.kids.insert(t_.kids.end(), scratch_.begin() + m, scratch_.end());
    scratch_.resize(m);
    scratch_.push_back(uint32_t(t_.nodes.size()) | NodeBit);
    t_.nodes.push_back(n);
  }

  // --- declarations
  void model() {
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
    expect(LBrace);
    while (kind() != RBrace)
      prop();
    next();
    close(PropBlock, m);
  }

  void propsOrSemi() {
    if (kind() == LBrace) {
      propBlock();
      accept(Semi);
    } else {
      expect(Semi);
    }
  }

  void block() {
    uint32_t m = mark();
    expect(LBrace);
    while (kind() != RBrace)
      stmt();
    next();
    close(Block, m);
  }

  void path() {
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
      std::vector<uint32_t> open{m};
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

  // --- expressions: precedence climbing, the levels of HandParser.cpp (unary 8 ... ?: 1).
  static int binaryPrec(Tok k) { return binaryPrecedence(k); }

  void expr(int minPrec = 0) {
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
      int p = binaryPrec(kind());
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

  void exprList(Tok closeTok) {
    if (kind() != closeTok) {
      do
        expr();
      while (accept(Comma));
    }
    expect(closeTok);
  }

  void primary() {
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
        exprList(RParen);
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

  Lexer lex_;
  Tree &t_;
  uint32_t cur_ = 0, line_ = 1, lineAt_ = 0;
  bool record_;
  std::vector<Kid> scratch_;
};

} // namespace

bool parse(std::string_view text, const ParseLimits &limits, Tree &out, bool nodes) {
  if (text.size() >= NodeBit)
    return false;
  try {
    Parser p(text, limits, out, nodes);
    p.file();
  } catch (const Reject &) {
    return false;
  }
  return true;
}

bool lex(std::string_view text, std::vector<Token> &out) {
  const ParseLimits unlimited = ParseLimits::unlimited();
  Lexer lx(text, unlimited, /*comments=*/true);
  out.clear();
  uint32_t line = 1, at = 0;
  for (;;) {
    hand::Token t = lx.next();
    for (; at < t.begin; ++at)
      line += text[at] == '\n';
    if (t.kind == Bad)
      return false;
    out.push_back({t.kind, t.begin, t.end, line});
    if (t.kind == End)
      return true;
  }
}

const char *ruleName(Rule r) {
  static const char *const names[] = {
      "file", "item", "importDecl", "modelDecl", "modelItem", "portDecl", "prop", "annotation", "propBlock",
      "templateDecl", "param", "fnDecl", "fabricDecl", "block", "letStmt", "paramStmt", "optionStmt", "instStmt",
      "forStmt", "ifStmt", "linkStmt", "groupStmt", "placeStmt", "buildingStmt", "spanStmt", "policyStmt",
      "assertStmt", "elseBranch", "hallDecl", "arraySpec", "args", "arg", "path", "segment", "primaryExpr",
      "unaryExpr", "binaryExpr", "condExpr", "quantityLit", "percentLit", "numberLit", "stringLit", "boolLit",
      "callExpr", "nameExpr", "compExpr", "listExpr", "parenExpr"};
  return names[r];
}

std::string Tree::dump() const {
  std::string r;
  for (const Token &t : tokens)
    r += std::to_string(int(t.kind)) + " " + std::to_string(t.begin) + " " + std::to_string(t.end) + " " +
         std::to_string(t.line) + "\n";
  // Pre-order with an explicit stack (an else-if chain nests deeply).
  std::vector<std::pair<Kid, unsigned>> stack{{root | NodeBit, 0}};
  while (!stack.empty()) {
    auto [k, depth] = stack.back();
    stack.pop_back();
    r += std::to_string(depth) + " "; // (not indented: an else-if chain nests deeply)
    if (!isNode(k)) {
      r += "#" + std::to_string(k) + "\n";
      continue;
    }
    const Node &n = nodes[index(k)];
    r += std::string(ruleName(n.rule)) + " " + std::to_string(n.first) + ".." + std::to_string(n.last) + "\n";
    for (uint32_t i = n.nkids; i-- > 0;)
      stack.push_back({kids[n.kids + i], depth + 1});
  }
  return r;
}

} // namespace fabc::cst
