// fmt: expressions wider than the line, wrapped at their operators (the Printer's
// members declared in FormatPrinter.h; the layout is in docs/fmt.md).
#include "ast/FormatPrinter.h"

namespace fabc::fmtdetail {

// The width of `x` printed flat from here (the space before it included), or SIZE_MAX.
size_t Printer::flatWidth(uint32_t x, uint32_t tail, size_t *lineEnd) {
  State s = save();
  size_t mark = frames_.size();
  size_t start = lineWidth(), w = SIZE_MAX;
  probe_ = {true, out_.size(), start};
  probeWidth_ = SIZE_MAX;
  try {
    visit(x | cst::NodeBit, x);
    w = probe_.columns - start;
    if (tail != Done) {
      // The rest of the line: the tokens up to a brace list, a ',' or the next expression.
      size_t extra = 0;
      tailProbe_ = true;
      try {
        run(tail, Done);
      } catch (const EndOfLine &e) {
        extra = e.columns;
      }
      *lineEnd = mustBreak_ ? SIZE_MAX : probe_.columns + extra;
    }
  } catch (const NoFit &) {
    w = SIZE_MAX;
  }
  probe_.active = false;
  tailProbe_ = false;
  restore(s);
  frames_.resize(mark);
  return w;
}

// A top-level expression, printed now; returns the continuation after it.
uint32_t Printer::expression(uint32_t e, uint32_t rest) {
  size_t lineEnd = SIZE_MAX;
  size_t w = hasComments(t_.node(e).first, t_.node(e).last) ? SIZE_MAX : flatWidth(e, rest, &lineEnd);
  if (w == SIZE_MAX || lineEnd == SIZE_MAX || lineEnd <= opts_.width) {
    flat(e); // fits, or a comment decides the breaks
    return rest;
  }
  wrap(e, 1, lineEnd - (lineWidth() + w));
  return rest;
}

// An operand: flat if it fits before `tailW` more columns, else wrapped at level k.
void Printer::operand(uint32_t x, unsigned k, size_t tailW) {
  size_t w = flatWidth(x, Done, nullptr);
  if (w != SIZE_MAX && lineWidth() + w + tailW <= opts_.width)
    flat(x);
  else
    wrap(x, k, tailW);
}

void Printer::wrap(uint32_t e, unsigned k, size_t tailW) {
  auto kidNode = [&](uint32_t n, uint32_t i) { return cst::Tree::index(t_.kid(n, i)); };
  Rule r = t_.rule(e);
  if (r == cst::BinaryExpr) { // expr op expr
    int lvl = level(e);
    std::vector<uint32_t> spine; // the operators of this level, last first
    uint32_t cur = e;
    while (t_.rule(cur) == cst::BinaryExpr) {
      if (level(cur) != lvl)
        break;
      spine.push_back(cur);
      cur = kidNode(cur, 0);
    }
    operand(cur, k + 1, 0);
    for (size_t i = spine.size(); i-- > 0;) {
      breakAt(k);
      tok(t_.kid(spine[i], 1), spine[i]);
      operand(kidNode(spine[i], 2), k + 1, i == 0 ? tailW : 0);
    }
    return;
  }
  if (r == cst::CondExpr) { // expr '?' expr ':' expr
    std::vector<uint32_t> chain; // c1 ? a1 : c2 ? a2 : ... : last
    uint32_t cur = e;
    while (t_.rule(cur) == cst::CondExpr) {
      chain.push_back(cur);
      cur = kidNode(cur, 4);
    }
    for (size_t i = 0; i < chain.size(); ++i) {
      if (i) {
        breakAt(k);
        tok(t_.kid(chain[i - 1], 3), chain[i - 1]);
      }
      operand(kidNode(chain[i], 0), k + 1, 0);
      tok(t_.kid(chain[i], 1), chain[i]);
      operand(kidNode(chain[i], 2), k + 1, 0);
    }
    breakAt(k);
    tok(t_.kid(chain.back(), 3), chain.back());
    operand(cur, k + 1, tailW);
    return;
  }
  if (r == cst::UnaryExpr) { // op expr
    tok(t_.kid(e, 0), e);
    operand(kidNode(e, 1), k, tailW);
    return;
  }
  if (r != cst::PrimaryExpr) {
    flat(e);
    return;
  }
  uint32_t p = kidNode(e, 0);
  bool comp = t_.rule(p) == cst::CompExpr;
  auto breaksComp = [&](Kid t) { return comp && (t_.isToken(t, hand::KwFor) || t_.isToken(t, hand::KwIf)); };
  uint32_t n = t_.nkids(p);
  for (uint32_t i = 0; i < n; ++i) {
    Kid ch = t_.kid(p, i);
    if (!cst::Tree::isNode(ch)) {
      if (breaksComp(ch))
        breakAt(k);
      tok(ch, p);
      continue;
    }
    // What follows the operand on its line: the punctuation up to the next operand or
    // break, and past the last operand the expression's own tail.
    size_t after = 0;
    bool last = true;
    for (uint32_t j = i + 1; j < n; ++j) {
      Kid t = t_.kid(p, j);
      if (cst::Tree::isNode(t) || breaksComp(t)) {
        last = false;
        break;
      }
      Tok x = t_.token(t).kind;
      bool tight = x == hand::Comma || x == hand::RParen || x == hand::RBrack || x == hand::LParen || x == hand::LBrack;
      after += t_.text(t).size() + (tight ? 0 : 1);
    }
    operand(cst::Tree::index(ch), comp ? k + 1 : k, after + (last ? tailW : 0));
  }
}

} // namespace fabc::fmtdetail
