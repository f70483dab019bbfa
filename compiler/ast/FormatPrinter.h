#pragma once
// Private to compiler/ast/ (Format.cpp, FormatWrap.cpp): the formatter's printer. It prints
// the parse tree token by token, in source order, and places the comments of the hidden
// channel around the tokens they were written next to. ANTLR types stay in compiler/ast/.
#include "ast/Format.h"
#include "ast/Parser.h"

#include "FabricLexer.h"
#include "FabricParser.h"
#include "antlr4-runtime.h"

#include <algorithm>
#include <string>
#include <vector>

namespace fabc::fmtdetail {
using P = fabc_antlr::FabricParser;
using L = fabc_antlr::FabricLexer;
using antlr4::ParserRuleContext;
using antlr4::Token;
using antlr4::tree::ParseTree;
using antlr4::tree::TerminalNode;

inline bool isComment(const Token *t) { return t->getType() == L::LINE_COMMENT || t->getType() == L::BLOCK_COMMENT; }

inline size_t endLine(Token *t) {
  std::string s = t->getText();
  return t->getLine() + size_t(std::count(s.begin(), s.end(), '\n'));
}

// Display columns of UTF-8 text (code points).
inline size_t columns(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    n += (c & 0xC0) != 0x80;
  return n;
}

inline std::string rstrip(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.pop_back();
  return s;
}

// "400Gb/s" and "400  Gb/s" become "400 Gb/s": the number, one space, the unit, split
// exactly where the AST builder splits them (so the value cannot change): quantityNumberLength.
inline std::string quantityText(const std::string &t) {
  size_t i = quantityNumberLength(t);
  size_t u = t.find_first_not_of(" \t", i);
  if (u == std::string::npos)
    return t;
  return t.substr(0, i) + " " + t.substr(u);
}

inline std::string commentText(Token *t) {
  return t->getType() == L::LINE_COMMENT ? rstrip(t->getText()) : t->getText();
}

inline bool isTerminal(ParseTree *n, const char *text) {
  auto *t = dynamic_cast<TerminalNode *>(n);
  return t && t->getSymbol()->getText() == text;
}

class Printer {
public:
  Printer(antlr4::CommonTokenStream &ts, const FormatOptions &o) : ts_(ts), opts_(o) {}

  std::string run(P::FileContext *f) {
    suppressBlank_ = true;
    for (P::ItemContext *it : f->item()) {
      wantNewline_ = true;
      visit(it);
    }
    wantNewline_ = true;
    flushComments(f->EOF()->getSymbol());
    if (!out_.empty() && out_.back() != '\n')
      out_ += '\n';
    alignTrailingComments();
    return std::move(out_);
  }
  // Output token ordinals (counting default-channel tokens) that the printer added.
  const std::vector<size_t> &synthesized() const { return synth_; }

private:
  struct State {
    size_t out, cursor, lastLine, trailing, synth, emitted;
    unsigned indent;
    bool wantNewline, mustBreak, pendingSpace, suppressBlank, prevUnary;
    size_t prevType;
    std::string prevText;
  };
  State save() const {
    return {out_.size(), cursor_,       lastLine_,     trailing_.size(), synth_.size(), emitted_, indent_,
            wantNewline_, mustBreak_,  pendingSpace_, suppressBlank_,   prevUnary_,   prevType_, prevText_};
  }
  void restore(const State &s) {
    out_.resize(s.out);
    cursor_ = s.cursor;
    lastLine_ = s.lastLine;
    trailing_.resize(s.trailing);
    synth_.resize(s.synth);
    emitted_ = s.emitted;
    indent_ = s.indent;
    wantNewline_ = s.wantNewline;
    mustBreak_ = s.mustBreak;
    pendingSpace_ = s.pendingSpace;
    suppressBlank_ = s.suppressBlank;
    prevUnary_ = s.prevUnary;
    prevType_ = s.prevType;
    prevText_ = s.prevText;
  }

  bool atLineStart() const { return out_.empty() || out_.back() == '\n'; }

  // Ends the current line; `continuation` lines (a comment forced the break inside a
  // statement) are indented 4 more. A blank line of the source survives (one at most)
  // between statements, but never right after '{', before '}' or at the top.
  void breakLine(size_t srcLine, bool allowBlank, bool continuation) {
    if (!atLineStart())
      out_ += '\n';
    if (allowBlank && !suppressBlank_ && !out_.empty() && lastLine_ && srcLine >= lastLine_ + 2)
      out_ += '\n';
    out_.append(continuation ? (breakIndent_ ? breakIndent_ : indent_ + 4) : indent_, ' ');
    breakIndent_ = 0;
  }

  // Writes the comments between the last emitted token and `upTo`.
  void flushComments(Token *upTo) {
    size_t end = upTo->getTokenIndex();
    for (size_t i = cursor_; i < end; ++i) {
      Token *h = ts_.get(i);
      if (!isComment(h))
        continue;
      std::string text = commentText(h);
      bool multiLine = endLine(h) != h->getLine();
      if (lastLine_ && h->getLine() == lastLine_ && !atLineStart()) {
        // Trailing: stays at the end of the line of the token before it.
        trailing_.push_back({out_.size(), text.size()});
        out_ += ' ';
        out_ += text;
        if (h->getType() == L::LINE_COMMENT || multiLine) {
          if (!wantNewline_)
            mustBreak_ = true;
        } else {
          pendingSpace_ = true;
        }
      } else {
        // Leading: on its own line, before what follows it.
        bool structural = wantNewline_ || out_.empty();
        breakLine(h->getLine(), structural, !structural);
        out_ += text;
        suppressBlank_ = false;
        Token *next = ts_.get(i + 1);
        bool sameLine = h->getType() == L::BLOCK_COMMENT && next->getLine() == endLine(h) &&
                        next->getType() != Token::EOF;
        wantNewline_ = structural && !sameLine;
        mustBreak_ = !structural && !sameLine;
        pendingSpace_ = sameLine;
      }
      lastLine_ = endLine(h);
      checkProbe();
    }
    cursor_ = std::max(cursor_, end);
  }

  bool needSpace(Token *t, bool unaryOp) const {
    const std::string &c = t->getText();
    if (prevText_ == "(" || prevText_ == "[" || prevText_ == ".")
      return false;
    if (c == ")" || c == "]" || c == "," || c == ";" || c == ".")
      return false;
    if (prevText_ == "{" && c == "}")
      return false;
    if (c == "(" && prevType_ == P::ID)
      return false;
    if (c == "[" && (prevType_ == P::ID || prevText_ == "]"))
      return false;
    if (prevUnary_)
      return prevText_ == "-" && c == "-"; // "- -x", never "--x" (the link operator)
    return true;
  }

  void write(const std::string &text, size_t srcLine, bool space, bool allowBlank) {
    if (wantNewline_)
      breakLine(srcLine, allowBlank, false);
    else if (mustBreak_)
      breakLine(srcLine, false, true);
    else if ((space || pendingSpace_) && !atLineStart())
      out_ += ' ';
    wantNewline_ = mustBreak_ = pendingSpace_ = suppressBlank_ = false;
    out_ += text;
    checkProbe();
  }

  void tok(Token *t, ParseTree *parent, bool allowBlank = true) {
    flushComments(t);
    if (t->getType() == Token::EOF)
      return;
    auto *u = dynamic_cast<P::UnaryExprContext *>(parent);
    bool unary = u && u->op == t;
    std::string text = t->getType() == P::QUANTITY ? quantityText(t->getText()) : t->getText();
    write(text, t->getLine(), needSpace(t, unary), allowBlank);
    cursor_ = t->getTokenIndex() + 1;
    lastLine_ = t->getLine();
    prevType_ = t->getType();
    prevText_ = t->getText();
    prevUnary_ = unary;
    ++emitted_;
  }

  // A token the source omitted where the canonical form has it (';' after a span).
  void synth(const char *text) {
    write(text, lastLine_, false, false);
    prevType_ = 0;
    prevText_ = text;
    prevUnary_ = false;
    synth_.push_back(emitted_++);
  }

  // The tree is walked with an explicit stack of continuations instead of recursion, so
  // that a right-nested chain (`else if` x 200,000) takes no native stack per link. A
  // Children frame is "the children of ctx from `from` on"; a Boundary frame ends a tail:
  // the rest of a statement that a brace list's one-line form must share its line with.
  // Frames live in an arena and point at the frame that follows them.
  enum class FrameKind : uint8_t { Children, Boundary, SynthSemi };
  struct Frame {
    FrameKind kind;
    ParserRuleContext *ctx;
    size_t from;
    uint32_t next;
  };
  static constexpr uint32_t Done = UINT32_MAX;

  uint32_t push(FrameKind k, ParserRuleContext *c, size_t from, uint32_t next) {
    if (k == FrameKind::Children && from >= c->children.size())
      return next; // nothing left to print: continue with what follows
    if (k == FrameKind::Boundary && next != Done && frames_[next].kind == FrameKind::Boundary)
      return next; // two tails that end at the same place
    frames_.push_back({k, c, from, next});
    return uint32_t(frames_.size() - 1);
  }

  // A node printed with a tail of its own (a statement, an expression, an else branch).
  uint32_t enter(ParserRuleContext *c, uint32_t next) {
    uint32_t k = push(FrameKind::Boundary, c, 0, next);
    if (dynamic_cast<P::SpanStmtContext *>(c))
      k = push(FrameKind::SynthSemi, c, 0, k);
    return push(FrameKind::Children, c, 0, k);
  }

  void visit(ParseTree *n) {
    if (auto *t = dynamic_cast<TerminalNode *>(n)) {
      tok(t->getSymbol(), t->parent);
      return;
    }
    size_t mark = frames_.size();
    run(enter(static_cast<ParserRuleContext *>(n), Done), Done);
    frames_.resize(mark);
  }

  // Prints the continuation `top` up to (not including) `stop`.
  void run(uint32_t top, uint32_t stop) {
    while (top != stop) {
      Frame f = frames_[top];
      top = f.next;
      if (f.kind == FrameKind::Boundary)
        continue;
      if (f.kind == FrameKind::SynthSemi) {
        if (!isTerminal(f.ctx->children.back(), ";"))
          synth(";"); // a span's ';' may be omitted in the source
        continue;
      }
      ParserRuleContext *c = f.ctx;
      size_t i = f.from;
      ParseTree *ch = c->children[i];
      if (isTerminal(ch, "{")) {
        if (tailProbe_)
          throw EndOfLine{2}; // a brace list decides its own layout: " {" ends the line of an expression
        size_t close = c->children.size() - 1;
        while (close > i && !isTerminal(c->children[close], "}"))
          --close;
        top = braceList(c, i, close, push(FrameKind::Children, c, close + 1, top));
        continue;
      }
      uint32_t rest = push(FrameKind::Children, c, i + 1, top);
      if (auto *t = dynamic_cast<TerminalNode *>(ch)) {
        if (tailProbe_ && t->getText() == ",")
          throw EndOfLine{1}; // the next argument or an assert's message is not the expression's
        tok(t->getSymbol(), c);
        top = rest;
        continue;
      }
      auto *rc = static_cast<ParserRuleContext *>(ch);
      // A block's braces share their tail with the statement that owns them.
      if (rc->getRuleIndex() == P::RulePropBlock || rc->getRuleIndex() == P::RuleBlock)
        top = push(FrameKind::Children, rc, 0, rest);
      else if (rc->getRuleIndex() == P::RuleExpr && tailProbe_)
        throw EndOfLine{0}; // the next expression decides its own breaks
      else if (rc->getRuleIndex() == P::RuleExpr && !probe_.active && !noWrap_) {
        if (c->getRuleIndex() == P::RuleSegment) {
          flat(rc); // a path stays on one line
          top = rest;
        } else {
          top = expression(static_cast<P::ExprContext *>(rc), rest);
        }
      }
      else
        top = enter(rc, rest);
    }
  }

  // Lists of properties, group members and all-property models or buildings may go on one
  // line; statement blocks, ports and halls always take one line per item.
  static bool flatAllowed(ParserRuleContext *c) {
    if (c->getRuleIndex() == P::RuleBlock)
      return false;
    if (auto *m = dynamic_cast<P::ModelDeclContext *>(c)) {
      for (P::ModelItemContext *it : m->modelItem())
        if (it->portDecl())
          return false;
    }
    if (auto *b = dynamic_cast<P::BuildingStmtContext *>(c))
      return b->hallDecl().empty();
    return true;
  }

  bool hasComments(Token *from, Token *to) const {
    for (size_t i = from->getTokenIndex() + 1; i < to->getTokenIndex(); ++i)
      if (isComment(ts_.get(i)))
        return true;
    return false;
  }

  size_t lineWidth() const {
    size_t nl = out_.rfind('\n');
    return columns(std::string_view(out_).substr(nl == std::string::npos ? 0 : nl + 1));
  }

  // Prints the brace list of `c` between children `open` and `close`, then returns the
  // continuation to print next. The one-line form is kept when it, and its tail up to
  // the next Boundary, fit on the line with no break: that is tried first ("probing"),
  // and the attempt is abandoned as soon as the text breaks a line or passes the width,
  // so it costs at most a line's worth of tokens. A list inside a probe is printed on
  // one line or fails the probe, as its own line break would.
  uint32_t braceList(ParserRuleContext *c, size_t open, size_t close, uint32_t after) {
    Token *o = static_cast<TerminalNode *>(c->children[open])->getSymbol();
    Token *cl = static_cast<TerminalNode *>(c->children[close])->getSymbol();
    // Items: each child between the braces, with the ';' that follows it (group members).
    std::vector<std::pair<size_t, size_t>> items;
    for (size_t i = open + 1; i < close; ++i) {
      size_t e = i + 1;
      if (e < close && isTerminal(c->children[e], ";"))
        ++e;
      items.push_back({i, e});
      i = e - 1;
    }
    if ((items.empty() || flatAllowed(c)) && !hasComments(o, cl)) {
      auto flat = [&] {
        tok(o, c);
        for (auto &it : items)
          for (size_t k = it.first; k < it.second; ++k)
            visit(c->children[k]);
        tok(cl, c);
      };
      if (probe_.active) {
        flat();
        return after;
      }
      uint32_t stop = after;
      while (stop != Done && frames_[stop].kind != FrameKind::Boundary)
        stop = frames_[stop].next;
      State s = save();
      size_t mark = frames_.size();
      probe_ = {true, out_.size(), lineWidth()};
      probeWidth_ = opts_.width;
      bool fits = false;
      try {
        flat();
        run(after, stop);
        fits = !mustBreak_;
      } catch (const NoFit &) {
      }
      probe_.active = false;
      if (fits)
        return stop;
      restore(s);
      frames_.resize(mark);
    }
    tok(o, c);
    suppressBlank_ = true;
    indent_ += opts_.indent;
    for (auto &it : items) {
      wantNewline_ = true;
      for (size_t k = it.first; k < it.second; ++k)
        visit(c->children[k]);
    }
    wantNewline_ = true;
    flushComments(cl);
    indent_ -= opts_.indent;
    wantNewline_ = true;
    tok(cl, c, /*allowBlank=*/false);
    return after;
  }

  // During a probe: the text added since the last call must not break the line nor
  // take it past the width. Amortized O(1) per character.
  struct NoFit {};
  void checkProbe() {
    if (!probe_.active)
      return;
    for (; probe_.checked < out_.size(); ++probe_.checked) {
      unsigned char ch = out_[probe_.checked];
      if (ch == '\n')
        throw NoFit{};
      probe_.columns += (ch & 0xC0) != 0x80;
    }
    if (probe_.columns > probeWidth_)
      throw NoFit{};
  }

  // ---- Expressions wider than the line ----
  // An expression (a statement's, a property's, an argument, an index) that does not fit
  // on its line with what follows it there is broken at its operators of the lowest
  // precedence first: each operator of that level starts a continuation line, indented 4
  // past the statement; an operand that still does not fit is broken the same way, 4
  // further. `?:` chains break before each ':'; a comprehension before 'for' and 'if';
  // a call, list or parenthesis that does not fit breaks inside. The layout depends on the
  // tokens and the width only, never on the input's line breaks, so it is idempotent. An
  // expression with a comment inside keeps the comment's own breaks and is not wrapped.
  struct EndOfLine {
    size_t columns; // what ends the line after the expression: " {" or ","
  };


  void flat(ParserRuleContext *x) {
    ++noWrap_;
    visit(x);
    --noWrap_;
  }


  static int level(P::BinaryExprContext *b) {
    static const char *const levels[][4] = {{"*", "/", "%", nullptr}, {"+", "-", nullptr, nullptr},
                                            {"<", "<=", ">", ">="},   {"==", "!=", nullptr, nullptr},
                                            {"&&", nullptr, nullptr, nullptr}, {"||", nullptr, nullptr, nullptr}};
    std::string op = b->op->getText();
    for (int l = 0; l < 6; ++l)
      for (const char *o : levels[l])
        if (o && op == o)
          return l;
    return -1;
  }

  void breakAt(unsigned k) {
    mustBreak_ = true;
    breakIndent_ = indent_ + 4 * k;
  }
  size_t flatWidth(ParserRuleContext *x, uint32_t tail, size_t *lineEnd); // the width of `x` flat, or SIZE_MAX
  uint32_t expression(P::ExprContext *e, uint32_t rest);   // a top-level expression, printed now
  void operand(P::ExprContext *x, unsigned k, size_t tailW); // flat if it fits, else wrapped at level k
  void wrap(P::ExprContext *e, unsigned k, size_t tailW);

  // Trailing comments on consecutive lines start in one column (as clang-format
  // aligns them), as long as the longest line of the run leaves them in the width.
  void alignTrailingComments() {
    struct Line {
      size_t at, code, len; // offset of the comment's space, columns of code, comment columns
    };
    std::vector<Line> lines;
    std::vector<size_t> lineNo;
    for (const Trailing &t : trailing_) {
      size_t end = out_.find('\n', t.at);
      if (end == std::string::npos)
        end = out_.size();
      if (end != t.at + 1 + t.len) // not the last thing on its line, or several lines
        continue;
      size_t start = out_.rfind('\n', t.at);
      start = start == std::string::npos ? 0 : start + 1;
      lines.push_back({t.at, columns(std::string_view(out_).substr(start, t.at - start)),
                       columns(std::string_view(out_).substr(t.at + 1, t.len))});
      lineNo.push_back(size_t(std::count(out_.begin(), out_.begin() + long(t.at), '\n')));
    }
    if (lines.empty())
      return;
    std::vector<size_t> target(lines.size());
    for (size_t i = 0; i < lines.size();) {
      size_t j = i, col = lines[i].code, longest = lines[i].len;
      while (j + 1 < lines.size() && lineNo[j + 1] == lineNo[j] + 1 &&
             std::max(col, lines[j + 1].code) + 1 + std::max(longest, lines[j + 1].len) <= opts_.width) {
        ++j;
        col = std::max(col, lines[j].code);
        longest = std::max(longest, lines[j].len);
      }
      for (size_t k = i; k <= j; ++k)
        target[k] = col;
      i = j + 1;
    }
    std::string r;
    r.reserve(out_.size() + 64);
    size_t from = 0;
    for (size_t k = 0; k < lines.size(); ++k) {
      r.append(out_, from, lines[k].at - from);
      r.append(target[k] - lines[k].code, ' ');
      from = lines[k].at;
    }
    r.append(out_, from, std::string::npos);
    out_ = std::move(r);
  }

  struct Trailing {
    size_t at, len;
  };
  antlr4::CommonTokenStream &ts_;
  const FormatOptions &opts_;
  std::string out_;
  size_t cursor_ = 0, lastLine_ = 0, emitted_ = 0;
  unsigned indent_ = 0;
  unsigned breakIndent_ = 0;   // the indent of the next continuation line, 0: indent_ + 4
  unsigned noWrap_ = 0;        // > 0: inside an expression printed flat
  bool tailProbe_ = false;     // measuring the rest of an expression's line: stop at '{'
  size_t probeWidth_ = 0;      // the width a probe may not pass
  bool wantNewline_ = false, mustBreak_ = false, pendingSpace_ = false, suppressBlank_ = false, prevUnary_ = false;
  size_t prevType_ = 0;
  std::string prevText_;
  std::vector<Trailing> trailing_;
  std::vector<size_t> synth_;
  std::vector<Frame> frames_;
  struct Probe {
    bool active = false;
    size_t checked = 0;  // out_ offset up to which the probe has looked
    size_t columns = 0;  // width of the line at `checked`
  } probe_;
};

} // namespace fabc::fmtdetail
