// dumpAST: every node, field and range of a file's AST as text, one node a line, so that
// two parsers' ASTs compare with ==, and a difference shows as the first differing line.
#include "ast/Cst.h"
#include "ast/Parser.h"
#include "diag/Diag.h"
#include "diag/DiagCodes.h"

#include <fmt/format.h>

namespace fabc {
namespace {

class Dumper {
public:
  std::string out;

  void line(int depth, const std::string &s) {
    out.append(size_t(depth) * 2, ' ');
    out += s;
    out += '\n';
  }
  static std::string r(SourceRange x) { return fmt::format("@{}:{}+{}", x.begin.file, x.begin.offset, x.length); }
  static std::string q(std::string_view s) {
    std::string o = "\"";
    for (unsigned char c : s)
      o += c == '\n' ? std::string("\\n") : c == '"' ? std::string("\\\"") : c == '\\' ? std::string("\\\\") : std::string(1, char(c));
    return o + "\"";
  }

  void expr(int d, const ast::Expr *e, const char *role) {
    if (!e) {
      line(d, fmt::format("{}: null", role));
      return;
    }
    static const char *kinds[] = {"Number", "Quantity", "String", "Bool", "Name", "Call", "List", "Unary", "Binary", "Cond", "Comp"};
    line(d, fmt::format("{}: {} {} op={} text={} number={} int={}:{}", role, kinds[e->kind], r(e->range), int(e->op),
                        q(e->text), e->number, e->isInteger, e->integer));
    for (const ast::Expr *k : e->kids)
      expr(d + 1, k, "kid");
  }
  void props(int d, const ast::List<ast::Prop> &ps) {
    for (const ast::Prop &p : ps) {
      line(d, fmt::format("prop {} {} annot={} {}", q(p.key), r(p.keyRange), int(p.annot), q(p.annotText)));
      expr(d + 1, p.value, "value");
      if (p.low) {
        expr(d + 1, p.low, "low");
        expr(d + 1, p.high, "high");
      }
    }
  }
  void path(int d, const ast::Path &p) {
    line(d, fmt::format("path {}", r(p.range())));
    for (const ast::Segment &s : p.segs) {
      line(d + 1, fmt::format("seg {} {} star={}", q(s.name()), r(s.range), s.star));
      if (s.hasLiteral()) // the inline integer literal: its value and range
        line(d + 2, fmt::format("index: literal {} {}", s.literal(), r(s.indexRange())));
      else
        expr(d + 2, s.index(), "index");
    }
  }
  void block(int d, const ast::Block &b, const char *role) {
    line(d, fmt::format("{} ({})", role, b.size()));
    for (const ast::Stmt *s : b)
      stmt(d + 1, s);
  }
  void stmt(int d, const ast::Stmt *s) {
    if (!s) {
      line(d, "stmt null");
      return;
    }
    line(d, fmt::format("stmt {} {} name={} {} name2={} {} name3={} {} args={} msg={}", int(s->kind), r(s->range),
                        q(s->name()), r(s->nameRange()), q(s->name2()), r(s->name2Range()), q(s->name3()),
                        r(s->name3Range()), s->hasArgs, q(s->message())));
    expr(d + 1, s->e1, "e1");
    expr(d + 1, s->e2(), "e2");
    for (const ast::Arg &a : s->args()) {
      line(d + 1, fmt::format("arg {} {}", q(a.name), r(a.range)));
      expr(d + 2, a.value, "value");
    }
    props(d + 1, s->props);
    for (const ast::Path &p : s->paths)
      path(d + 1, p);
    for (const ast::Hall &h : s->halls()) {
      line(d + 1, fmt::format("hall {} {}", q(h.name), r(h.range)));
      props(d + 2, h.props);
    }
    block(d + 1, s->body(), "body");
    block(d + 1, s->elseBody(), "else");
  }
};

} // namespace

std::string dumpAST(const ast::File &f) {
  Dumper du;
  du.line(0, fmt::format("file {} catalog={}", f.fileId, f.catalog));
  for (const ast::Import &i : f.imports)
    du.line(1, fmt::format("import {} {}", Dumper::q(i.path), Dumper::r(i.range)));
  for (const ast::Model *m : f.models) {
    du.line(1, fmt::format("model {} {} kind={} {}", Dumper::q(m->name), Dumper::r(m->range), Dumper::q(m->kind),
                           Dumper::r(m->kindRange)));
    du.props(2, m->props);
    for (const ast::PortDecl &p : m->ports) {
      du.line(2, fmt::format("port {} {}", Dumper::q(p.name), Dumper::r(p.range)));
      du.expr(3, p.count, "count");
      du.props(3, p.props);
    }
  }
  for (const ast::Template *t : f.templates) {
    du.line(1, fmt::format("template {} {} kind={} {}", Dumper::q(t->name), Dumper::r(t->range), Dumper::q(t->kind),
                           Dumper::r(t->kindRange)));
    for (const ast::Param &p : t->params) {
      du.line(2, fmt::format("param {} {}", Dumper::q(p.name), Dumper::r(p.range)));
      du.expr(3, p.deflt, "default");
    }
    du.block(2, t->body, "body");
  }
  for (const ast::Function *fn : f.functions) {
    du.line(1, fmt::format("fn {} {}", Dumper::q(fn->name), Dumper::r(fn->range)));
    for (const ast::Param &p : fn->params) {
      du.line(2, fmt::format("param {} {}", Dumper::q(p.name), Dumper::r(p.range)));
      du.expr(3, p.deflt, "default");
    }
    du.expr(2, fn->body, "body");
  }
  for (const ast::Fabric *fb : f.fabrics) {
    du.line(1, fmt::format("fabric {} {}", Dumper::q(fb->name), Dumper::r(fb->range)));
    du.block(2, fb->body, "body");
  }
  du.block(1, f.topLevel, "top");
  return du.out;
}

namespace {

std::string diagText(const Diagnostic &d, bool notes) {
  std::string s = fmt::format("{} {}:{}+{} {}\n", int(d.code), d.range.begin.file, d.range.begin.offset,
                              d.range.length, d.message);
  for (const DiagNote &n : d.notes)
    if (notes)
      s += fmt::format("  note {}+{} {}\n", n.range.begin.offset, n.range.length, n.message);
  return s;
}

// A file both parsers reject: the compile path reports it (a lexical finding as ANTLR on
// the whole file does, word for word; else syntax errors, in its own words), and the CST
// recovered from it holds every token once, in order, and prints the file back.
void checkRecovery(uint32_t id, const SourceManager &sm, const DiagEngine &out, ParseLimits limits,
                   ParserComparison &c) {
  auto fail = [&](std::string what, std::string want, std::string got) {
    c.result = ParserComparison::RecoveryBroken;
    c.antlrError = std::move(what);
    c.antlrDump = std::move(want);
    c.handDump = std::move(got);
  };
  DiagEngine ref(sm), diags(sm);
  ref.setOutput(out.output());
  diags.setOutput(out.output());
  ast::Context refCtx, ctx;
  limits.engine = ParserEngine::AntlrOnly;
  parseFile(id, sm, ref, refCtx, limits);
  limits.engine = ParserEngine::Auto;
  parseFile(id, sm, diags, ctx, limits);
  std::string want, got;
  bool lexical = false, syntax = !diags.all().empty();
  for (const Diagnostic &d : ref.all()) {
    want += diagText(d, true);
    lexical |= d.code != DiagCode::E0002;
  }
  for (const Diagnostic &d : diags.all()) {
    got += diagText(d, true);
    syntax &= d.code == DiagCode::E0002;
  }
  if (lexical ? got != want : !syntax)
    return fail(lexical ? "the lexical findings differ from ANTLR's" : "no syntax error reported", want, got);
  std::string_view text = sm.text(id);
  size_t bad = 0;
  cst::Tree t;
  if (!validUtf8(text, &bad) || (cst::parse(text, limits, t), t.tokens.empty()))
    return; // the lexer refused a token: no tree
  if (t.print() != text)
    return fail("the recovered CST does not print the file back", std::string(text), t.print());
  uint32_t seen = 0, comments = 0, last = 0;
  bool ordered = true;
  t.walk([](uint32_t) {},
         [&](uint32_t tok, uint32_t) {
           ordered &= seen == 0 || tok > last;
           last = tok;
           ++seen;
         },
         [](uint32_t) {});
  for (const cst::Token &k : t.tokens)
    comments += cst::isComment(k.kind);
  if (!ordered || seen + comments != t.tokens.size())
    fail("the recovered CST does not hold every token once, in order", t.dump(), {});
}

} // namespace

ParserComparison compareParsers(uint32_t id, const SourceManager &sm, DiagEngine &diags, ParseLimits limits) {
  ast::Context antlrCtx, handCtx;
  limits.engine = ParserEngine::AntlrOnly;
  ast::File *ref = parseFile(id, sm, diags, antlrCtx, limits);
  bool refOk = ref && !diags.hasErrors();
  limits.engine = ParserEngine::HandOnly;
  ast::File *hand = parseFile(id, sm, diags, handCtx, limits);
  // fmt's parse tree too (Cst.h): the hand-written CST parser's against ANTLR's, converted.
  // Where the two hand-written parsers disagree on accepting, the wrong one is reported.
  std::string_view text = sm.text(id);
  size_t bad = 0;
  cst::Tree handCst, antlrCst;
  bool cstOk = validUtf8(text, &bad) && cst::parse(text, limits, handCst);
  if (refOk && !cstOk)
    hand = nullptr; // reported as HandRejects
  if (!refOk && cstOk && !hand)
    hand = handCtx.file(); // reported as HandAccepts
  ParserComparison c{ParserComparison::Same, {}, {}, {}};
  if (!refOk) {
    c.result = hand ? ParserComparison::HandAccepts : ParserComparison::RejectedByBoth;
    if (hand)
      c.antlrError = diags.all().empty() ? std::string("no AST") : diags.all().front().message;
    else
      checkRecovery(id, sm, diags, limits, c);
    return c;
  }
  if (!hand) {
    c.result = ParserComparison::HandRejects;
    return c;
  }
  cst::parseAntlr(text, antlrCst);
  std::string a = dumpAST(*ref) + "--- parse tree\n" + antlrCst.dump(),
              b = dumpAST(*hand) + "--- parse tree\n" + handCst.dump();
  if (a != b) {
    c.result = ParserComparison::AstsDiffer;
    c.antlrDump = std::move(a);
    c.handDump = std::move(b);
  }
  return c;
}

} // namespace fabc
