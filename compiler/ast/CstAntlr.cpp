// ANTLR's tree as the concrete syntax tree of Cst.h: the reference producer, used by
// `fabc fmt --parser=antlr`, by `--parser=antlr`'s AST (lowered from it by AstLower.cpp)
// and held equal to the hand-written parser's (SyntaxParser.h) by `fabc parse-diff` and
// tests/lit/fmt/differential.test. ANTLR types stay here and in the other compiler/ast/ files.
#include "ast/AntlrTree.h"
#include "ast/Input.h"
#include "ast/TwoStage.h"

#include "FabricLexer.h"

#include <unordered_map>

namespace fabc::cst {
namespace {
using P = fabc_antlr::FabricParser;
using L = fabc_antlr::FabricLexer;

// hand::Tok by ANTLR token type: the named rules by name, the literal tokens (keywords,
// punctuation) by lexing their text with the hand lexer.
class KindMap {
public:
  KindMap() {
    Utf8Input none{std::string_view()};
    L lexer(&none);
    const antlr4::dfa::Vocabulary &v = lexer.getVocabulary();
    kinds_.assign(v.getMaxTokenType() + 1, hand::Bad);
    ParseLimits limits;
    for (size_t t = 1; t <= v.getMaxTokenType(); ++t) {
      std::string lit = v.getLiteralName(t);
      if (lit.size() >= 2 && lit.front() == '\'' && lit.back() == '\'') {
        std::string s = lit.substr(1, lit.size() - 2);
        hand::Lexer lx(s, limits);
        kinds_[t] = lx.next().kind;
      }
    }
    kinds_[L::ID] = hand::Id;
    kinds_[L::NUMBER] = hand::Number;
    kinds_[L::QUANTITY] = hand::Quantity;
    kinds_[L::PERCENT] = hand::PercentLit;
    kinds_[L::STRING] = hand::String;
    kinds_[L::LINE_COMMENT] = hand::LineComment;
    kinds_[L::BLOCK_COMMENT] = hand::BlockComment;
    kinds_[L::BAD_CHAR] = hand::Bad;
  }
  hand::Tok operator()(size_t type) const {
    return type == antlr4::Token::EOF ? hand::End : type < kinds_.size() ? kinds_[type] : hand::Bad;
  }

private:
  std::vector<hand::Tok> kinds_;
};

const KindMap &kindMap() {
  static const KindMap m;
  return m;
}

// ANTLR's tokens (indices are code points) as byte offsets, in one forward pass.
void convertTokens(std::string_view text, const std::vector<antlr4::Token *> &in, std::vector<Token> &out) {
  const KindMap &kinds = kindMap();
  out.clear();
  out.reserve(in.size());
  size_t cp = 0, byte = 0;
  auto at = [&](size_t target) {
    while (cp < target && byte < text.size()) {
      ++byte;
      while (byte < text.size() && (static_cast<unsigned char>(text[byte]) & 0xC0) == 0x80)
        ++byte;
      ++cp;
    }
    return uint32_t(byte);
  };
  for (antlr4::Token *t : in) {
    if (t->getType() == antlr4::Token::EOF) {
      out.push_back({hand::End, uint32_t(text.size()), uint32_t(text.size()), uint32_t(t->getLine())});
      continue;
    }
    uint32_t b = at(t->getStartIndex());
    uint32_t e = at(t->getStopIndex() + 1);
    out.push_back({kinds(t->getType()), b, e, uint32_t(t->getLine())});
  }
}

Rule ruleOf(antlr4::ParserRuleContext *c) {
  switch (c->getRuleIndex()) {
  case P::RuleFile: return File;
  case P::RuleItem: return Item;
  case P::RuleImportDecl: return ImportDecl;
  case P::RuleModelDecl: return ModelDecl;
  case P::RuleModelItem: return ModelItem;
  case P::RulePortDecl: return PortDecl;
  case P::RuleProp: return Prop;
  case P::RuleAnnotation: return Annotation;
  case P::RulePropBlock: return PropBlock;
  case P::RuleTemplateDecl: return TemplateDecl;
  case P::RuleParam: return Param;
  case P::RuleFnDecl: return FnDecl;
  case P::RuleFabricDecl: return FabricDecl;
  case P::RuleBlock: return Block;
  case P::RuleElseBranch: return ElseBranch;
  case P::RuleHallDecl: return HallDecl;
  case P::RuleArraySpec: return ArraySpec;
  case P::RuleArgs: return Args;
  case P::RuleArg: return Arg;
  case P::RulePath: return Path;
  case P::RuleSegment: return Segment;
  default: break;
  }
  // The labelled alternatives.
  if (dynamic_cast<P::LetStmtContext *>(c)) return LetStmt;
  if (dynamic_cast<P::ParamStmtContext *>(c)) return ParamStmt;
  if (dynamic_cast<P::OptionStmtContext *>(c)) return OptionStmt;
  if (dynamic_cast<P::InstStmtContext *>(c)) return InstStmt;
  if (dynamic_cast<P::ForStmtContext *>(c)) return ForStmt;
  if (dynamic_cast<P::IfStmtContext *>(c)) return IfStmt;
  if (dynamic_cast<P::LinkStmtContext *>(c)) return LinkStmt;
  if (dynamic_cast<P::GroupStmtContext *>(c)) return GroupStmt;
  if (dynamic_cast<P::PlaceStmtContext *>(c)) return PlaceStmt;
  if (dynamic_cast<P::BuildingStmtContext *>(c)) return BuildingStmt;
  if (dynamic_cast<P::SpanStmtContext *>(c)) return SpanStmt;
  if (dynamic_cast<P::PolicyStmtContext *>(c)) return PolicyStmt;
  if (dynamic_cast<P::AssertStmtContext *>(c)) return AssertStmt;
  if (dynamic_cast<P::PrimaryExprContext *>(c)) return PrimaryExpr;
  if (dynamic_cast<P::UnaryExprContext *>(c)) return UnaryExpr;
  if (dynamic_cast<P::BinaryExprContext *>(c)) return BinaryExpr;
  if (dynamic_cast<P::CondExprContext *>(c)) return CondExpr;
  if (dynamic_cast<P::QuantityLitContext *>(c)) return QuantityLit;
  if (dynamic_cast<P::PercentLitContext *>(c)) return PercentLit;
  if (dynamic_cast<P::NumberLitContext *>(c)) return NumberLit;
  if (dynamic_cast<P::StringLitContext *>(c)) return StringLit;
  if (dynamic_cast<P::BoolLitContext *>(c)) return BoolLit;
  if (dynamic_cast<P::CallExprContext *>(c)) return CallExpr;
  if (dynamic_cast<P::NameExprContext *>(c)) return NameExpr;
  if (dynamic_cast<P::CompExprContext *>(c)) return CompExpr;
  if (dynamic_cast<P::ListExprContext *>(c)) return ListExpr;
  if (dynamic_cast<P::ParenExprContext *>(c)) return ParenExpr;
  throw std::logic_error("fmt: a rule context the CST does not know");
}

// Post-order with an explicit stack (an else-if chain nests deeply).
void convertTree(P::FileContext *root, Tree &t) {
  struct Frame {
    antlr4::ParserRuleContext *ctx;
    size_t next;
    uint32_t mark;
  };
  std::vector<Kid> scratch;
  std::vector<Frame> stack{{root, 0, 0}};
  while (!stack.empty()) {
    Frame &f = stack.back();
    if (f.next < f.ctx->children.size()) {
      antlr4::tree::ParseTree *ch = f.ctx->children[f.next++];
      if (auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(ch))
        scratch.push_back(uint32_t(term->getSymbol()->getTokenIndex()));
      else
        stack.push_back({static_cast<antlr4::ParserRuleContext *>(ch), 0, uint32_t(scratch.size())});
      continue;
    }
    uint32_t m = f.mark;
    auto tokOf = [&](Kid k, bool last) {
      return Tree::isNode(k) ? (last ? t.nodes[Tree::index(k)].last : t.nodes[Tree::index(k)].first) : k;
    };
    Node n{ruleOf(f.ctx), uint32_t(t.kids.size()), uint32_t(scratch.size() - m), tokOf(scratch[m], false),
           tokOf(scratch.back(), true)};
    t.kids.insert(t.kids.end(), scratch.begin() + m, scratch.end());
    scratch.resize(m);
    scratch.push_back(uint32_t(t.nodes.size()) | NodeBit);
    t.nodes.push_back(n);
    stack.pop_back();
  }
  t.root = uint32_t(t.nodes.size() - 1);
}

} // namespace

void lexAntlr(std::string_view text, std::vector<Token> &out) {
  Utf8Input input(text);
  L lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream ts(&lexer);
  ts.fill();
  convertTokens(text, ts.getTokens(), out);
}

bool parseAntlr(std::string_view text, Tree &out) {
  out.source = text;
  out.tokens.clear();
  out.nodes.clear();
  out.kids.clear();
  Utf8Input input(text);
  L lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream tokens(&lexer);
  P parser(&tokens);
  parser.removeErrorListeners();
  P::FileContext *tree = parseTwoStage(parser, tokens);
  if (!tree || parser.getNumberOfSyntaxErrors())
    return false;
  fromAntlr(text, tokens.getTokens(), tree, out);
  return true;
}

void fromAntlr(std::string_view text, const std::vector<antlr4::Token *> &tokens, P::FileContext *tree, Tree &out) {
  out.source = text;
  out.nodes.clear();
  out.kids.clear();
  convertTokens(text, tokens, out.tokens);
  convertTree(tree, out);
}

} // namespace fabc::cst
