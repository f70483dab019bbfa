// The formatter's driver: parse, print (FormatPrinter.h), and check the result against
// the input token stream before it is returned. Every token passes through Printer::tok,
// so no token and no comment can be dropped. ANTLR types stay in compiler/ast/.
#include "ast/FormatPrinter.h"
#include "diag/Diag.h"

#include "ast/HandLexer.h"
#include "ast/Input.h"
#include "ast/TwoStage.h"

#include <unordered_map>

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

Lexed antlrLex(const std::string &text) {
  Utf8Input input(text);
  L lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream ts(&lexer);
  ts.fill();
  return lexed(ts);
}

// The grammar's token type of a hand-lexed token: the named rules by kind, the literal
// tokens (keywords, punctuation) by their text, as the generated vocabulary spells them.
class TypeMap {
public:
  TypeMap() {
    Utf8Input none{std::string_view()};
    L lexer(&none);
    const antlr4::dfa::Vocabulary &v = lexer.getVocabulary();
    for (size_t t = 1; t <= v.getMaxTokenType(); ++t) {
      std::string lit = v.getLiteralName(t);
      if (lit.size() >= 2 && lit.front() == '\'' && lit.back() == '\'')
        literal_.emplace(lit.substr(1, lit.size() - 2), t);
    }
  }
  size_t operator()(hand::Tok k, std::string_view text) const {
    switch (k) {
    case hand::Id: return L::ID;
    case hand::Number: return L::NUMBER;
    case hand::Quantity: return L::QUANTITY;
    case hand::PercentLit: return L::PERCENT;
    case hand::String: return L::STRING;
    case hand::LineComment: return L::LINE_COMMENT;
    case hand::BlockComment: return L::BLOCK_COMMENT;
    case hand::Bad: return L::BAD_CHAR;
    default: {
      auto it = literal_.find(std::string(text));
      return it == literal_.end() ? size_t(L::BAD_CHAR) : it->second;
    }
    }
  }

private:
  std::unordered_map<std::string, size_t> literal_;
};

const TypeMap &typeMap() {
  static const TypeMap m;
  return m;
}

// The token stream ANTLR's lexer would produce for `text` (default and hidden channels,
// then EOF), made by the hand lexer: the types, texts and lines the printer reads.
// Empty if the hand lexer meets a token the grammar reports (never on a file that parsed).
std::vector<std::unique_ptr<Token>> handTokens(std::string_view text) {
  std::vector<std::unique_ptr<Token>> r;
  ParseLimits unlimited;
  unlimited.maxDepth = UINT32_MAX / 64;
  unlimited.maxTokens = UINT64_MAX;
  hand::Lexer lx(text, unlimited, /*comments=*/true);
  const TypeMap &types = typeMap();
  size_t line = 1, at = 0;
  for (;;) {
    hand::Token t = lx.next();
    line += size_t(std::count(text.begin() + long(at), text.begin() + long(t.begin), '\n'));
    at = t.begin;
    if (t.kind == hand::Bad)
      return {};
    std::string_view s = text.substr(t.begin, t.end - t.begin);
    auto tok = std::make_unique<antlr4::CommonToken>(t.kind == hand::End ? size_t(Token::EOF) : types(t.kind, s),
                                                      t.kind == hand::End ? std::string("<EOF>") : std::string(s));
    tok->setLine(line);
    tok->setStartIndex(t.begin);
    tok->setStopIndex(t.end - 1);
    if (t.kind == hand::LineComment || t.kind == hand::BlockComment)
      tok->setChannel(Token::HIDDEN_CHANNEL);
    r.push_back(std::move(tok));
    if (t.kind == hand::End)
      return r;
  }
}

// Types and texts as `lexed` keeps them; false if the hand lexer cannot lex `text`.
bool handLex(const std::string &text, Lexed &r) {
  std::vector<std::unique_ptr<Token>> ts = handTokens(text);
  if (ts.empty())
    return false;
  for (auto &t : ts) {
    if (t->getType() == Token::EOF)
      continue;
    if (isComment(t.get()))
      r.comments.push_back({t->getType(), commentText(t.get())});
    else
      r.tokens.push_back({t->getType(), t->getType() == P::QUANTITY ? quantityText(t->getText()) : t->getText()});
  }
  return true;
}

Lexed lex(const std::string &text, bool antlr) {
  Lexed r;
  if (antlr || !handLex(text, r))
    return antlrLex(text);
  return r;
}

// The output must be the same program with the same comments: the same tokens (but the
// ones the printer added), the same comment texts, and it must parse.
bool sameProgram(const Lexed &a, const std::string &out, const std::vector<size_t> &synth, bool antlr,
                 std::string &why) {
  Lexed b = lex(out, antlr);
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
  // The tokens come from the hand lexer (the compile path's, held equal to the grammar's
  // by tests/lit/parse/differential.test), or with --parser=antlr from ANTLR's lexer;
  // tests/lit/fmt/differential.test holds the two outputs equal.
  bool antlr = opts.parse.engine == ParserEngine::AntlrOnly;
  std::vector<std::unique_ptr<Token>> handToks;
  if (!antlr)
    handToks = handTokens(text);
  {
    bool useHand = !handToks.empty();
    Utf8Input input(useHand ? std::string_view() : std::string_view(text));
    L lexer(&input);
    lexer.removeErrorListeners();
    std::unique_ptr<antlr4::ListTokenSource> list; // (it refuses an empty list)
    if (useHand)
      list = std::make_unique<antlr4::ListTokenSource>(std::move(handToks));
    antlr4::CommonTokenStream tokens(useHand ? static_cast<antlr4::TokenSource *>(list.get()) : &lexer);
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
  if (!sameProgram(in, result, synthesized, antlr, why)) {
    Diagnostic *d = diags.report(DiagCode::E0160, {{fileId, 0}, 1}, "fmt self-check failed: {}", why);
    DiagEngine::note(d, {}, "the file is left as it is; please report this with the file attached");
    return false;
  }
  out = std::move(result);
  return true;
}

} // namespace fabc
