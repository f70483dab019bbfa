// The formatter's driver: parse into a concrete syntax tree (Cst.h), print it
// (FormatPrinter.h), and check the result against the input token stream before it is
// returned. Every token passes through Printer::tok, so no token and no comment can be
// dropped. ANTLR types stay in compiler/ast/ (CstAntlr.cpp).
#include "diag/DiagCodes.h"
#include "ast/FormatPrinter.h"
#include "diag/Diag.h"

namespace fabc {

namespace {
using namespace fmtdetail;

// The self-check's limits: the output has the input's tokens and nesting (and the ';'
// the printer adds), which passed the file's limits already.
ParseLimits selfCheckLimits(const ParseLimits &in) {
  ParseLimits l = in;
  l.maxTokens = UINT64_MAX;
  return l;
}

// The output must be the same program with the same comments: the same tokens (but the
// ones the printer added: `synth`, ordinals among the default channel's), the same
// comment texts. `b` are the output's tokens.
bool sameTokens(const cst::Tree &a, std::string_view out, const std::vector<cst::Token> &b,
                const std::vector<size_t> &synth, std::string &why) {
  auto text = [](std::string_view s, const cst::Token &t) { return s.substr(t.begin, t.end - t.begin); };
  size_t i = 0, j = 0, k = 0, s = 0; // a's token, b's token, b's default-channel ordinal, synth
  auto nextDefault = [](const std::vector<cst::Token> &v, size_t &x) {
    while (x < v.size() && cst::isComment(v[x].kind))
      ++x;
  };
  auto nextComment = [](const std::vector<cst::Token> &v, size_t &x) {
    while (x < v.size() && !cst::isComment(v[x].kind) && v[x].kind != hand::End)
      ++x;
  };
  // Default-channel tokens.
  for (;; ++j) {
    nextDefault(b, j);
    if (j >= b.size() || b[j].kind == hand::End)
      break;
    if (s < synth.size() && synth[s] == k++) {
      ++s;
      continue;
    }
    nextDefault(a.tokens, i);
    std::string_view bt = text(out, b[j]);
    bool end = i >= a.tokens.size() || a.tokens[i].kind == hand::End;
    bool same = !end && a.tokens[i].kind == b[j].kind &&
                (b[j].kind == hand::Quantity ? quantityText(a.text(uint32_t(i))) == quantityText(bt)
                                             : a.text(uint32_t(i)) == bt);
    if (!same) {
      why = "token '" + std::string(b[j].kind == hand::Quantity ? quantityText(bt) : std::string(bt)) +
            "' differs from the input's" +
            (end ? std::string(" end")
                 : " '" + std::string(a.tokens[i].kind == hand::Quantity ? quantityText(a.text(uint32_t(i)))
                                                                          : std::string(a.text(uint32_t(i)))) +
                       "'");
      return false;
    }
    ++i;
  }
  nextDefault(a.tokens, i);
  if (i < a.tokens.size() && a.tokens[i].kind != hand::End) {
    why = "tokens missing from the output";
    return false;
  }
  // Comments, in order.
  i = j = 0;
  for (;; ++i, ++j) {
    nextComment(a.tokens, i);
    nextComment(b, j);
    bool ea = i >= a.tokens.size() || a.tokens[i].kind == hand::End;
    bool eb = j >= b.size() || b[j].kind == hand::End;
    if (ea || eb) {
      if (ea != eb) {
        why = "comments differ";
        return false;
      }
      return true;
    }
    std::string_view ct = text(out, b[j]);
    if (b[j].kind == hand::LineComment)
      ct = rstrip(ct);
    if (a.tokens[i].kind != b[j].kind || commentText(a, uint32_t(i)) != ct) {
      why = "comments differ";
      return false;
    }
  }
}

// The whole self-check: the same program, and the output parses (with the hand-written
// parser, or with --parser=antlr through parseFile and ANTLR's lexer).
bool sameProgram(const cst::Tree &in, const std::string &out, const std::vector<size_t> &synth,
                 const FormatOptions &opts, std::string &why) {
  bool antlr = opts.parse.engine == ParserEngine::AntlrOnly;
  if (!antlr) {
    cst::Tree o;
    if (cst::parse(out, selfCheckLimits(opts.parse), o, /*nodes=*/false))
      return sameTokens(in, out, o.tokens, synth, why);
    // It does not parse: say first which token differs, if one does.
    std::vector<cst::Token> toks;
    if (cst::lex(out, toks) && !sameTokens(in, out, toks, synth, why))
      return false;
    why = "the output does not parse";
    return false;
  }
  std::vector<cst::Token> toks;
  cst::lexAntlr(out, toks);
  if (!sameTokens(in, out, toks, synth, why))
    return false;
  SourceManager sm;
  DiagEngine d(sm);
  d.setFormat(DiagFormat::Json); // collected, never printed (finish() is not called)
  ast::Context ctx;
  uint32_t id = sm.add("<fmt>", out);
  if (!parseFile(id, sm, d, ctx, selfCheckLimits(opts.parse)) || d.hasErrors()) {
    why = "the output does not parse";
    return false;
  }
  return true;
}

} // namespace

bool formatSource(uint32_t fileId, const SourceManager &sm, DiagEngine &diags, std::string &out,
                  const FormatOptions &opts) {
  // Only a valid file has a canonical form. The hand-written parser builds the tree
  // directly (no AST); a file it rejects, and every file with --parser=antlr, goes through
  // the compile path's parseFile first, whose diagnostics (ANTLR's) are the reference,
  // then ANTLR's tree is converted. Each stage's tokens and trees are freed before the
  // next starts.
  std::string_view text = sm.text(fileId);
  bool antlr = opts.parse.engine == ParserEngine::AntlrOnly;
  cst::Tree tree;
  size_t bad = 0;
  bool parsed = !antlr && validUtf8(text, &bad) && cst::parse(text, opts.parse, tree);
  if (!parsed) {
    unsigned before = diags.errors();
    {
      ast::Context actx;
      if (!parseFile(fileId, sm, diags, actx, opts.parse) || diags.errors() != before)
        return false;
    }
    // The file parsed clean above, so ANTLR yields a tree.
    if (!cst::parseAntlr(text, tree)) {
      diags.report(DiagCode::E0160, {{fileId, 0}, 1}, "fmt self-check failed: {}",
                   "ANTLR's parser rejects a file the compile path accepted");
      return false;
    }
  }
  std::string result;
  std::vector<size_t> synthesized;
  {
    Printer printer(tree, opts);
    result = printer.run();
    synthesized = printer.synthesized();
  }
  // The self-check needs the input's tokens only.
  std::vector<cst::Node>().swap(tree.nodes);
  std::vector<cst::Kid>().swap(tree.kids);
  std::string why;
  if (!sameProgram(tree, result, synthesized, opts, why)) {
    Diagnostic *d = diags.report(DiagCode::E0160, {{fileId, 0}, 1}, "fmt self-check failed: {}", why);
    DiagEngine::note(d, {}, "the file is left as it is; please report this with the file attached");
    return false;
  }
  out = std::move(result);
  return true;
}

} // namespace fabc
