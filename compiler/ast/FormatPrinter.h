#pragma once
// Private to compiler/ast/ (Format.cpp, FormatWrap.cpp): the formatter's printer. It prints
// the concrete syntax tree (Cst.h) token by token, in source order, and places the
// comments around the tokens they were written next to. Its layout rules are keyed on the
// grammar's rule contexts (brace lists, flatAllowed, span's synthesized ';', the
// expression spines); the tree comes from the hand-written parser or from ANTLR's.
#include "ast/Cst.h"
#include "ast/Format.h"
#include "ast/Parser.h"

#include <algorithm>
#include <string>
#include <vector>

namespace fabc::fmtdetail {
using cst::Kid;
using cst::Rule;
using hand::Tok;

// Display columns of UTF-8 text (code points).
inline size_t columns(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    n += (c & 0xC0) != 0x80;
  return n;
}

inline std::string_view rstrip(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// "400Gb/s" and "400  Gb/s" become "400 Gb/s": the number, one space, the unit, split
// exactly where the AST builder splits them (so the value cannot change): quantityNumberLength.
inline std::string quantityText(std::string_view tv) {
  std::string t(tv);
  size_t i = quantityNumberLength(t);
  size_t u = t.find_first_not_of(" \t", i);
  if (u == std::string::npos)
    return t;
  return t.substr(0, i) + " " + t.substr(u);
}

// A comment as fmt prints it: a line comment without its trailing blanks.
inline std::string_view commentText(const cst::Tree &t, uint32_t i) {
  return t.token(i).kind == hand::LineComment ? rstrip(t.text(i)) : t.text(i);
}

inline size_t endLine(const cst::Tree &t, uint32_t i) {
  std::string_view s = t.text(i);
  return t.token(i).line + size_t(std::count(s.begin(), s.end(), '\n'));
}

class Printer {
public:
  Printer(const cst::Tree &t, const FormatOptions &o) : t_(t), opts_(o) {}

  std::string run() {
    suppressBlank_ = true;
    uint32_t f = t_.root;
    for (uint32_t i = 0; i < t_.nkids(f); ++i) {
      Kid it = t_.kid(f, i);
      if (!cst::Tree::isNode(it))
        continue; // EOF
      wantNewline_ = true;
      visit(it, f);
    }
    wantNewline_ = true;
    flushComments(t_.node(f).last);
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
    Tok prevKind;
  };
  State save() const {
    return {out_.size(), cursor_,       lastLine_,     trailing_.size(), synth_.size(), emitted_, indent_,
            wantNewline_, mustBreak_,  pendingSpace_, suppressBlank_,   prevUnary_,   prevKind_};
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
    prevKind_ = s.prevKind;
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
  void flushComments(uint32_t upTo) {
    size_t end = upTo;
    for (size_t i = cursor_; i < end; ++i) {
      const cst::Token &h = t_.token(uint32_t(i));
      if (!cst::isComment(h.kind))
        continue;
      std::string_view text = commentText(t_, uint32_t(i));
      size_t hEnd = endLine(t_, uint32_t(i));
      bool multiLine = hEnd != h.line;
      if (lastLine_ && h.line == lastLine_ && !atLineStart()) {
        // Trailing: stays at the end of the line of the token before it.
        trailing_.push_back({out_.size(), text.size()});
        out_ += ' ';
        out_ += text;
        if (h.kind == hand::LineComment || multiLine) {
          if (!wantNewline_)
            mustBreak_ = true;
        } else {
          pendingSpace_ = true;
        }
      } else {
        // Leading: on its own line, before what follows it.
        bool structural = wantNewline_ || out_.empty();
        breakLine(h.line, structural, !structural);
        out_ += text;
        suppressBlank_ = false;
        const cst::Token &next = t_.token(uint32_t(i + 1));
        bool sameLine = h.kind == hand::BlockComment && next.line == hEnd && next.kind != hand::End;
        wantNewline_ = structural && !sameLine;
        mustBreak_ = !structural && !sameLine;
        pendingSpace_ = sameLine;
      }
      lastLine_ = hEnd;
      checkProbe();
    }
    cursor_ = std::max(cursor_, end);
  }

  bool needSpace(Tok c) const {
    using namespace hand;
    if (prevKind_ == LParen || prevKind_ == LBrack || prevKind_ == Dot)
      return false;
    if (c == RParen || c == RBrack || c == Comma || c == Semi || c == Dot)
      return false;
    if (prevKind_ == LBrace && c == RBrace)
      return false;
    if (c == LParen && prevKind_ == Id)
      return false;
    if (c == LBrack && (prevKind_ == Id || prevKind_ == RBrack))
      return false;
    if (prevUnary_)
      return prevKind_ == Minus && c == Minus; // "- -x", never "--x" (the link operator)
    return true;
  }

  void write(std::string_view text, size_t srcLine, bool space, bool allowBlank) {
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

  // Token `t`, a child of node `parent`.
  void tok(uint32_t t, uint32_t parent, bool allowBlank = true) {
    flushComments(t);
    const cst::Token &k = t_.token(t);
    if (k.kind == hand::End)
      return;
    bool unary = t_.rule(parent) == cst::UnaryExpr && t_.kid(parent, 0) == t;
    if (k.kind == hand::Quantity)
      write(quantityText(t_.text(t)), k.line, needSpace(k.kind), allowBlank);
    else
      write(t_.text(t), k.line, needSpace(k.kind), allowBlank);
    cursor_ = t + 1;
    lastLine_ = k.line;
    prevKind_ = k.kind;
    prevUnary_ = unary;
    ++emitted_;
  }

  // A token the source omitted where the canonical form has it (';' after a span).
  void synth(Tok kind, const char *text) {
    write(text, lastLine_, false, false);
    prevKind_ = kind;
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
    uint32_t ctx; // a node
    uint32_t from;
    uint32_t next;
  };
  static constexpr uint32_t Done = UINT32_MAX;

  uint32_t push(FrameKind k, uint32_t c, uint32_t from, uint32_t next) {
    if (k == FrameKind::Children && from >= t_.nkids(c))
      return next; // nothing left to print: continue with what follows
    if (k == FrameKind::Boundary && next != Done && frames_[next].kind == FrameKind::Boundary)
      return next; // two tails that end at the same place
    frames_.push_back({k, c, from, next});
    return uint32_t(frames_.size() - 1);
  }

  // A node printed with a tail of its own (a statement, an expression, an else branch).
  uint32_t enter(uint32_t c, uint32_t next) {
    uint32_t k = push(FrameKind::Boundary, c, 0, next);
    if (t_.rule(c) == cst::SpanStmt)
      k = push(FrameKind::SynthSemi, c, 0, k);
    return push(FrameKind::Children, c, 0, k);
  }

  // Child `n` of node `parent`.
  void visit(Kid n, uint32_t parent) {
    if (!cst::Tree::isNode(n)) {
      tok(n, parent);
      return;
    }
    size_t mark = frames_.size();
    run(enter(cst::Tree::index(n), Done), Done);
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
        if (!t_.isToken(t_.kid(f.ctx, t_.nkids(f.ctx) - 1), hand::Semi))
          synth(hand::Semi, ";"); // a span's ';' may be omitted in the source
        continue;
      }
      uint32_t c = f.ctx;
      uint32_t i = f.from;
      Kid ch = t_.kid(c, i);
      if (t_.isToken(ch, hand::LBrace)) {
        if (tailProbe_)
          throw EndOfLine{2}; // a brace list decides its own layout: " {" ends the line of an expression
        uint32_t close = t_.nkids(c) - 1;
        while (close > i && !t_.isToken(t_.kid(c, close), hand::RBrace))
          --close;
        top = braceList(c, i, close, push(FrameKind::Children, c, close + 1, top));
        continue;
      }
      uint32_t rest = push(FrameKind::Children, c, i + 1, top);
      if (!cst::Tree::isNode(ch)) {
        if (tailProbe_ && t_.token(ch).kind == hand::Comma)
          throw EndOfLine{1}; // the next argument or an assert's message is not the expression's
        tok(ch, c);
        top = rest;
        continue;
      }
      uint32_t rc = cst::Tree::index(ch);
      Rule r = t_.rule(rc);
      // A block's braces share their tail with the statement that owns them.
      if (r == cst::PropBlock || r == cst::Block)
        top = push(FrameKind::Children, rc, 0, rest);
      else if (cst::isExpr(r) && tailProbe_)
        throw EndOfLine{0}; // the next expression decides its own breaks
      else if (cst::isExpr(r) && !probe_.active && !noWrap_) {
        if (t_.rule(c) == cst::Segment) {
          flat(rc); // a path stays on one line
          top = rest;
        } else {
          top = expression(rc, rest);
        }
      }
      else
        top = enter(rc, rest);
    }
  }

  // Lists of properties, group members and all-property models or buildings may go on one
  // line; statement blocks, ports and halls always take one line per item.
  bool flatAllowed(uint32_t c) const {
    Rule r = t_.rule(c);
    if (r == cst::Block)
      return false;
    if (r == cst::ModelDecl || r == cst::BuildingStmt) {
      for (uint32_t i = 0; i < t_.nkids(c); ++i) {
        Kid k = t_.kid(c, i);
        if (!cst::Tree::isNode(k))
          continue;
        uint32_t n = cst::Tree::index(k);
        if (t_.rule(n) == cst::HallDecl)
          return false;
        if (t_.rule(n) == cst::ModelItem && t_.rule(cst::Tree::index(t_.kid(n, 0))) == cst::PortDecl)
          return false;
      }
    }
    return true;
  }

  bool hasComments(uint32_t from, uint32_t to) const {
    for (uint32_t i = from + 1; i < to; ++i)
      if (cst::isComment(t_.token(i).kind))
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
  uint32_t braceList(uint32_t c, uint32_t open, uint32_t close, uint32_t after) {
    uint32_t o = t_.kid(c, open);
    uint32_t cl = t_.kid(c, close);
    // Items: each child between the braces, with the ';' that follows it (group members).
    std::vector<std::pair<uint32_t, uint32_t>> items;
    for (uint32_t i = open + 1; i < close; ++i) {
      uint32_t e = i + 1;
      if (e < close && t_.isToken(t_.kid(c, e), hand::Semi))
        ++e;
      items.push_back({i, e});
      i = e - 1;
    }
    if ((items.empty() || flatAllowed(c)) && !hasComments(o, cl)) {
      auto flat = [&] {
        tok(o, c);
        for (auto &it : items)
          for (uint32_t k = it.first; k < it.second; ++k)
            visit(t_.kid(c, k), c);
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
      for (uint32_t k = it.first; k < it.second; ++k)
        visit(t_.kid(c, k), c);
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


  void flat(uint32_t x) {
    ++noWrap_;
    visit(x | cst::NodeBit, x);
    --noWrap_;
  }


  // The precedence level of binary expression `b`'s operator, from the tightest.
  int level(uint32_t b) const {
    using namespace hand;
    switch (t_.token(t_.kid(b, 1)).kind) {
    case Star: case Slash: case Percent: return 0;
    case Plus: case Minus: return 1;
    case Lt: case Le: case Gt: case Ge: return 2;
    case EqEq: case Ne: return 3;
    case AndAnd: return 4;
    case OrOr: return 5;
    default: return -1;
    }
  }

  void breakAt(unsigned k) {
    mustBreak_ = true;
    breakIndent_ = indent_ + 4 * k;
  }
  // Expressions are nodes of the `expr` rule (cst::isExpr).
  size_t flatWidth(uint32_t x, uint32_t tail, size_t *lineEnd); // the width of `x` flat, or SIZE_MAX
  uint32_t expression(uint32_t e, uint32_t rest);   // a top-level expression, printed now
  void operand(uint32_t x, unsigned k, size_t tailW); // flat if it fits, else wrapped at level k
  void wrap(uint32_t e, unsigned k, size_t tailW);

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
  const cst::Tree &t_;
  const FormatOptions &opts_;
  std::string out_;
  size_t cursor_ = 0, lastLine_ = 0, emitted_ = 0;
  unsigned indent_ = 0;
  unsigned breakIndent_ = 0;   // the indent of the next continuation line, 0: indent_ + 4
  unsigned noWrap_ = 0;        // > 0: inside an expression printed flat
  bool tailProbe_ = false;     // measuring the rest of an expression's line: stop at '{'
  size_t probeWidth_ = 0;      // the width a probe may not pass
  bool wantNewline_ = false, mustBreak_ = false, pendingSpace_ = false, suppressBlank_ = false, prevUnary_ = false;
  Tok prevKind_ = hand::End;
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
