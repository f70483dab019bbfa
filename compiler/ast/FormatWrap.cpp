// fmt: expressions wider than the line, wrapped at their operators (the Printer's
// members declared in FormatPrinter.h; the layout is in docs/fmt.md).
#include "ast/FormatPrinter.h"

namespace fabc::fmtdetail {

// The width of `x` printed flat from here (the space before it included), or SIZE_MAX.
size_t Printer::flatWidth(ParserRuleContext *x, uint32_t tail, size_t *lineEnd) {
  State s = save();
  size_t mark = frames_.size();
  size_t start = lineWidth(), w = SIZE_MAX;
  probe_ = {true, out_.size(), start};
  probeWidth_ = SIZE_MAX;
  try {
    visit(x);
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
uint32_t Printer::expression(P::ExprContext *e, uint32_t rest) {
  size_t lineEnd = SIZE_MAX;
  size_t w = e->getStop() && hasComments(e->getStart(), e->getStop()) ? SIZE_MAX : flatWidth(e, rest, &lineEnd);
  if (w == SIZE_MAX || lineEnd == SIZE_MAX || lineEnd <= opts_.width) {
    flat(e); // fits, or a comment decides the breaks
    return rest;
  }
  wrap(e, 1, lineEnd - (lineWidth() + w));
  return rest;
}

// An operand: flat if it fits before `tailW` more columns, else wrapped at level k.
void Printer::operand(P::ExprContext *x, unsigned k, size_t tailW) {
  size_t w = flatWidth(x, Done, nullptr);
  if (w != SIZE_MAX && lineWidth() + w + tailW <= opts_.width)
    flat(x);
  else
    wrap(x, k, tailW);
}

void Printer::wrap(P::ExprContext *e, unsigned k, size_t tailW) {
  if (auto *b = dynamic_cast<P::BinaryExprContext *>(e)) {
    int lvl = level(b);
    std::vector<P::BinaryExprContext *> spine; // the operators of this level, last first
    P::ExprContext *cur = b;
    while (auto *bb = dynamic_cast<P::BinaryExprContext *>(cur)) {
      if (level(bb) != lvl)
        break;
      spine.push_back(bb);
      cur = bb->expr(0);
    }
    operand(cur, k + 1, 0);
    for (size_t i = spine.size(); i-- > 0;) {
      breakAt(k);
      tok(spine[i]->op, spine[i]);
      operand(spine[i]->expr(1), k + 1, i == 0 ? tailW : 0);
    }
    return;
  }
  if (auto *c = dynamic_cast<P::CondExprContext *>(e)) {
    std::vector<P::CondExprContext *> chain; // c1 ? a1 : c2 ? a2 : ... : last
    P::ExprContext *cur = c;
    while (auto *cc = dynamic_cast<P::CondExprContext *>(cur)) {
      chain.push_back(cc);
      cur = cc->expr(2);
    }
    for (size_t i = 0; i < chain.size(); ++i) {
      if (i) {
        breakAt(k);
        tok(static_cast<TerminalNode *>(chain[i - 1]->children[3])->getSymbol(), chain[i - 1]);
      }
      operand(chain[i]->expr(0), k + 1, 0);
      tok(static_cast<TerminalNode *>(chain[i]->children[1])->getSymbol(), chain[i]);
      operand(chain[i]->expr(1), k + 1, 0);
    }
    breakAt(k);
    tok(static_cast<TerminalNode *>(chain.back()->children[3])->getSymbol(), chain.back());
    operand(cur, k + 1, tailW);
    return;
  }
  if (auto *u = dynamic_cast<P::UnaryExprContext *>(e)) {
    tok(u->op, u);
    operand(u->expr(), k, tailW);
    return;
  }
  auto *pe = dynamic_cast<P::PrimaryExprContext *>(e);
  ParserRuleContext *p = pe ? static_cast<ParserRuleContext *>(pe->primary()) : nullptr;
  if (!p) {
    flat(e);
    return;
  }
  bool comp = dynamic_cast<P::CompExprContext *>(p) != nullptr;
  for (size_t i = 0; i < p->children.size(); ++i) {
    ParseTree *ch = p->children[i];
    if (auto *t = dynamic_cast<TerminalNode *>(ch)) {
      if (comp && (t->getText() == "for" || t->getText() == "if"))
        breakAt(k);
      tok(t->getSymbol(), p);
      continue;
    }
    // What follows the operand on its line: the punctuation up to the next operand or
    // break, and past the last operand the expression's own tail.
    size_t after = 0;
    bool last = true;
    for (size_t j = i + 1; j < p->children.size(); ++j) {
      auto *t = dynamic_cast<TerminalNode *>(p->children[j]);
      if (!t) {
        last = false;
        break;
      }
      std::string x = t->getText();
      if (comp && (x == "for" || x == "if")) {
        last = false;
        break;
      }
      after += x.size() + (x == "," || x == ")" || x == "]" || x == "(" || x == "[" ? 0 : 1);
    }
    operand(static_cast<P::ExprContext *>(ch), comp ? k + 1 : k, after + (last ? tailW : 0));
  }
}

} // namespace fabc::fmtdetail
