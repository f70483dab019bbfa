// fmt's concrete syntax tree from the one parser (SyntaxParser.h): the sink that records
// every node it completes in the arrays of Cst.h, node for node as ANTLR builds it
// (tests/lit/fmt/differential.test compares the trees with ANTLR's, --dump-cst, and
// fmt's output both ways).
#include "ast/SyntaxParser.h"

namespace fabc::cst {
namespace {

class TreeSink {
public:
  static constexpr bool kWrappers = true; // the CST is ANTLR's tree, wrappers included
  static constexpr bool kFoldsBlocks = false; // every child is a node of the tree
  static constexpr bool kDirectPaths = false; // nor a token
  TreeSink(Tree &t, bool record) : t_(t), record_(record) {
    t_.nodes.clear();
    t_.kids.clear();
    if (record_) { // address space, touched as used (~4 bytes a node, ~2 a child a token)
      t_.nodes.reserve(t_.source.size() / 2 + 16);
      t_.kids.reserve(t_.source.size() + 16);
    }
  }
  Slot close(Rule r, const Slot *k, uint32_t n) {
    Slot s{NodeBit, k[0].begin, k[n - 1].end, hand::End, r, 0};
    if (!record_)
      return s;
    if (t_.nodes.size() >= NodeBit - 1)
      throw Abort{};
    Node node{r, uint32_t(t_.kids.size()), n, firstTok(k[0]), lastTok(k[n - 1])};
    for (uint32_t i = 0; i < n; ++i)
      t_.kids.push_back(k[i].kid);
    s.kid = uint32_t(t_.nodes.size()) | NodeBit;
    t_.nodes.push_back(node);
    return s;
  }

private:
  uint32_t firstTok(const Slot &k) const { return k.isNode() ? t_.nodes[Tree::index(k.kid)].first : k.kid; }
  uint32_t lastTok(const Slot &k) const { return k.isNode() ? t_.nodes[Tree::index(k.kid)].last : k.kid; }
  Tree &t_;
  bool record_;
};

} // namespace

bool parse(std::string_view text, const ParseLimits &limits, Tree &out, bool nodes,
           std::vector<hand::SyntaxError> *errors) {
  out.source = text;
  out.root = 0;
  if (text.size() >= NodeBit)
    return false;
  bool clean = false;
  try {
    TreeSink sink(out, nodes);
    Parser<TreeSink> p(text, limits, out.tokens, /*keep=*/true, sink);
    p.file();
    clean = p.errors().empty();
    if (errors)
      *errors = p.errors();
  } catch (const Abort &) {
    out.tokens.clear();
    out.nodes.clear();
    out.kids.clear();
    return false;
  }
  out.root = nodes ? uint32_t(out.nodes.size() - 1) : 0;
  return clean;
}

bool lex(std::string_view text, std::vector<Token> &out) {
  using namespace hand;
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
      "callExpr", "nameExpr", "compExpr", "listExpr", "parenExpr", "error"};
  return names[r];
}

std::string Tree::print() const {
  std::string r;
  r.reserve(source.size());
  for (uint32_t t = 0; t < tokens.size(); ++t)
    r.append(trivia(t)).append(text(t));
  return r;
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
