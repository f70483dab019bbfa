#pragma once
// fmt's concrete syntax tree (compiler/ast/ only): the parse tree of grammar/Fabric.g4,
// node for node as ANTLR builds it (one node per rule context, labelled alternatives by
// their label), over the token array of the whole file (comments included, as ANTLR's
// token stream holds them, white space skipped: so token indices are ANTLR's too).
// Contiguous arrays and 32-bit indices: a token is a kind, two offsets and a line; a node
// a rule, its first and last token and a slice of `kids`. No object per token or node.
// Two producers, one printer (FormatPrinter.h): the one hand-written parser (SyntaxParser.h,
// whose tree sink is CstParser.cpp; the compile path lowers the same nodes into the AST
// instead, AstLower.cpp) and the conversion of ANTLR's tree (CstAntlr.cpp, --parser=antlr).
// docs/decisions/0052-fmt-prints-a-concrete-syntax-tree.md, docs/decisions/0221-one-parser-two-sinks.md.
#include "ast/HandLexer.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fabc::cst {

// The grammar's rule contexts: one per rule, one per labelled alternative (stmt, expr, primary).
enum Rule : uint8_t {
  File, Item, ImportDecl, ModelDecl, ModelItem, PortDecl, Prop, Annotation, PropBlock, TemplateDecl, Param,
  FnDecl, FabricDecl, Block,
  LetStmt, ParamStmt, OptionStmt, InstStmt, ForStmt, IfStmt, LinkStmt, GroupStmt, PlaceStmt, BuildingStmt,
  SpanStmt, PolicyStmt, AssertStmt,
  ElseBranch, HallDecl, ArraySpec, Args, Arg, Path, Segment,
  PrimaryExpr, UnaryExpr, BinaryExpr, CondExpr, // the `expr` rule's alternatives
  QuantityLit, PercentLit, NumberLit, StringLit, BoolLit, CallExpr, NameExpr, CompExpr, ListExpr, ParenExpr,
  Error, // not the grammar's: an element of a statement list that did not parse, and what recovery skipped
};
const char *ruleName(Rule r);
inline bool isExpr(Rule r) { return r >= PrimaryExpr && r <= CondExpr; }

struct Token {
  hand::Tok kind;
  uint32_t begin, end; // byte offsets, [begin, end)
  uint32_t line;       // 1-based, of `begin`
};
inline bool isComment(hand::Tok k) { return k == hand::LineComment || k == hand::BlockComment; }

// A child: a token index, or a node index with NodeBit set.
using Kid = uint32_t;
constexpr Kid NodeBit = 0x80000000u;

struct Node {
  Rule rule;
  uint32_t kids, nkids;  // the children: Tree::kids[kids, kids + nkids)
  uint32_t first, last;  // the first and last token it spans (indices into Tree::tokens)
};

struct Tree {
  std::string_view source;
  std::vector<Token> tokens; // every token of the file, comments included, End last
  std::vector<Node> nodes;   // children before their parent; the root (File) last
  std::vector<Kid> kids;
  uint32_t root = 0;

  static bool isNode(Kid k) { return k & NodeBit; }
  static uint32_t index(Kid k) { return k & ~NodeBit; }
  const Node &node(uint32_t n) const { return nodes[n]; }
  Kid kid(uint32_t n, uint32_t i) const { return kids[nodes[n].kids + i]; }
  uint32_t nkids(uint32_t n) const { return nodes[n].nkids; }
  Rule rule(uint32_t n) const { return nodes[n].rule; }
  const Token &token(uint32_t t) const { return tokens[t]; }
  std::string_view text(uint32_t t) const { return source.substr(tokens[t].begin, tokens[t].end - tokens[t].begin); }
  bool isToken(Kid k, hand::Tok kind) const { return !isNode(k) && tokens[k].kind == kind; }
  // The tree as indented text (`fabc fmt --dump-cst`, hidden): what the two producers are compared on.
  std::string dump() const;

  // Lossless: the bytes before token t that no token holds (white space: comments are
  // tokens). The End token's trivia is the file's tail, so printing every token with its
  // trivia gives the file back byte for byte (print()).
  std::string_view trivia(uint32_t t) const {
    uint32_t from = t ? tokens[t - 1].end : 0;
    return source.substr(from, tokens[t].begin - from);
  }
  std::string print() const;
  // The tree in source order, for the editor's features (folding ranges, semantic tokens):
  // enter(node) before its children, token(t, node) for each token child (comments are
  // not children: they lie between, trivia()'s neighbours), leave(node) after them.
  // An explicit stack: an else-if chain nests as deep as it is long.
  template <class Enter, class OnToken, class Leave> void walk(Enter enter, OnToken token, Leave leave) const {
    if (nodes.empty())
      return;
    std::vector<std::pair<uint32_t, uint32_t>> stack{{root, 0}}; // node, next child
    enter(root);
    while (!stack.empty()) {
      auto &[n, i] = stack.back();
      if (i == nodes[n].nkids) {
        leave(n);
        stack.pop_back();
        continue;
      }
      Kid k = kid(n, i++);
      if (isNode(k)) {
        enter(index(k));
        stack.push_back({index(k), 0});
      } else {
        token(k, n);
      }
    }
  }
};

// The hand-written parser (SyntaxParser.h with CstParser.cpp's sink): false, with no diagnostic, on anything the
// grammar rejects or past `limits` (the compile path's parseFile then reports it). After a
// syntax error the tree is still whole (every token, Error nodes where the text is wrong:
// the editor's), unless the lexer stopped (a bad character, a limit: `out` is then empty);
// `errors`, if given, gets the syntax errors. `text` must be valid UTF-8. With `nodes`
// false only the tokens are recorded (a check).
bool parse(std::string_view text, const ParseLimits &limits, Tree &out, bool nodes = true,
           std::vector<hand::SyntaxError> *errors = nullptr);
// The tokens alone, as `parse` records them (false at a bad character).
bool lex(std::string_view text, std::vector<Token> &out);
// ANTLR's lexer and parser (CstAntlr.cpp), the tree converted: the reference. False if
// ANTLR reports a syntax error. `text` must be valid UTF-8.
bool parseAntlr(std::string_view text, Tree &out);
// ANTLR's tokens alone.
void lexAntlr(std::string_view text, std::vector<Token> &out);

} // namespace fabc::cst
