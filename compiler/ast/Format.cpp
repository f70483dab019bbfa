// The formatter's driver: parse, print (FormatPrinter.h), and check the result against
// the input token stream before it is returned. Every token passes through Printer::tok,
// so no token and no comment can be dropped. ANTLR types stay in compiler/ast/.
#include "ast/FormatPrinter.h"
#include "diag/Diag.h"

#include "ast/Input.h"
#include "ast/TwoStage.h"

namespace fabc {
namespace {
using namespace fmtdetail;

struct Lexed {
  std::vector<std::pair<size_t, std::string>> tokens, comments;
};

Lexed lexed(antlr4::CommonTokenStream &ts) {
  Lexed r;
  for (Token *t : ts.getTokens()) {
    if (t->getType() == Token::EOF)
      continue;
    if (isComment(t))
      r.comments.push_back({t->getType(), commentText(t)});
    else if (t->getChannel() == Token::DEFAULT_CHANNEL)
      r.tokens.push_back({t->getType(), t->getType() == P::QUANTITY ? quantityText(t->getText()) : t->getText()});
  }
  return r;
}

Lexed lex(const std::string &text) {
  Utf8Input input(text);
  L lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream ts(&lexer);
  ts.fill();
  return lexed(ts);
}

// The output must be the same program with the same comments: the same tokens (but the
// ones the printer added), the same comment texts, and it must parse.
bool sameProgram(const Lexed &a, const std::string &out, const std::vector<size_t> &synth, std::string &why) {
  Lexed b = lex(out);
  size_t j = 0, s = 0;
  for (size_t k = 0; k < b.tokens.size(); ++k) {
    if (s < synth.size() && synth[s] == k) {
      ++s;
      continue;
    }
    if (j >= a.tokens.size() || a.tokens[j] != b.tokens[k]) {
      why = "token '" + b.tokens[k].second + "' differs from the input's" +
            (j < a.tokens.size() ? " '" + a.tokens[j].second + "'" : std::string(" end"));
      return false;
    }
    ++j;
  }
  if (j != a.tokens.size()) {
    why = "tokens missing from the output";
    return false;
  }
  if (a.comments != b.comments) {
    why = "comments differ";
    return false;
  }
  SourceManager sm;
  DiagEngine d(sm);
  d.setFormat(DiagFormat::Json); // collected, never printed (finish() is not called)
  ast::Context ctx;
  uint32_t id = sm.add("<fmt>", out);
  if (!parseFile(id, sm, d, ctx) || d.hasErrors()) {
    why = "the output does not parse";
    return false;
  }
  return true;
}

} // namespace

bool formatSource(uint32_t fileId, const SourceManager &sm, DiagEngine &diags, std::string &out,
                  const FormatOptions &opts) {
  // The parser's checks first (UTF-8, characters, nesting, syntax): only a valid file
  // has a canonical form. Each stage's tokens and trees are freed before the next
  // starts: ANTLR holds ~200 bytes a token, and the peak is then one stage's, not three.
  {
    unsigned before = diags.errors();
    ast::Context actx;
    if (!parseFile(fileId, sm, diags, actx, opts.parse) || diags.errors() != before)
      return false;
  }
  std::string text(sm.text(fileId));
  std::string result;
  std::vector<size_t> synthesized;
  Lexed in;
  {
    Utf8Input input(text);
    L lexer(&input);
    lexer.removeErrorListeners();
    antlr4::CommonTokenStream tokens(&lexer);
    tokens.fill();
    P parser(&tokens);
    parser.removeErrorListeners();
    // The file parsed clean above, so this yields a tree.
    P::FileContext *tree = parseTwoStage(parser, tokens);
    Printer printer(tokens, opts);
    result = printer.run(tree);
    synthesized = printer.synthesized();
    in = lexed(tokens);
  }
  std::string why;
  if (!sameProgram(in, result, synthesized, why)) {
    Diagnostic *d = diags.report(DiagCode::E0160, {{fileId, 0}, 1}, "fmt self-check failed: {}", why);
    DiagEngine::note(d, {}, "the file is left as it is; please report this with the file attached");
    return false;
  }
  out = std::move(result);
  return true;
}

} // namespace fabc
