// parseFile: the one hand-written parser (SyntaxParser.h with AstLower.cpp's sink) and its
// syntax errors, or with --parser=antlr the ANTLR parser of grammar/Fabric.g4 (the oracle:
// `fabc parse-diff`). The only entry point into ANTLR.
#include "diag/DiagCodes.h"
#include "ast/AntlrTree.h"
#include "ast/HandLexer.h"
#include "ast/Input.h"
#include "ast/LexicalChecks.h"
#include "ast/Parser.h"
#include "ast/TwoStage.h"
#include "diag/Diag.h"

#include "FabricLexer.h"
#include "antlr4-runtime.h"

#include <cstdint>
#include <cstring>

namespace fabc {
namespace {
using P = fabc_antlr::FabricParser;

// Byte offsets for ANTLR's code-point indices (identical for ASCII files).
class OffsetMap {
public:
  explicit OffsetMap(std::string_view text) {
    bool ascii = true;
    for (unsigned char c : text)
      if (c >= 0x80) {
        ascii = false;
        break;
      }
    if (ascii)
      return;
    for (uint32_t i = 0; i < text.size(); ++i)
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
        starts_.push_back(i);
    starts_.push_back(uint32_t(text.size()));
  }
  uint32_t byte(size_t cp) const {
    if (starts_.empty())
      return uint32_t(cp);
    return cp < starts_.size() ? starts_[cp] : starts_.back();
  }

private:
  std::vector<uint32_t> starts_;
};

std::string tokenDesc(antlr4::Token *t) {
  if (!t || t->getType() == antlr4::Token::EOF)
    return "end of file";
  std::string s = t->getText();
  if (s.size() > 40)
    s = s.substr(0, 40) + "...";
  return "'" + s + "'";
}

class ErrorListener : public antlr4::BaseErrorListener {
public:
  ErrorListener(uint32_t file, const OffsetMap &map, DiagEngine &diags)
      : file_(file), map_(map), diags_(diags) {}

  void syntaxError(antlr4::Recognizer *rec, antlr4::Token *bad, size_t, size_t,
                   const std::string &, std::exception_ptr) override {
    ++count_;
    // Later errors are mostly the recovery's echoes of the first; recovering through
    // the rest of a large broken file costs minutes and gigabytes for nothing.
    if (count_ > 3)
      throw antlr4::ParseCancellationException();
    SourceRange r{{file_, bad ? map_.byte(bad->getStartIndex()) : 0}, 1};
    if (bad && bad->getType() != antlr4::Token::EOF && bad->getStopIndex() >= bad->getStartIndex())
      r.length = uint32_t(bad->getStopIndex() - bad->getStartIndex() + 1);
    std::string msg = "unexpected " + tokenDesc(bad);
    if (auto *parser = dynamic_cast<antlr4::Parser *>(rec)) {
      antlr4::misc::IntervalSet exp = parser->getExpectedTokens();
      if (exp.size() > 0 && exp.size() <= 4) {
        std::string list;
        for (size_t t : exp.toList()) {
          if (!list.empty())
            list += " or ";
          std::string name = t == antlr4::Token::EOF ? std::string("end of file")
                                                     : parser->getVocabulary().getDisplayName(t);
          if (name == "ID") name = "a name";
          else if (name == "NUMBER") name = "a number";
          else if (name == "STRING") name = "a string";
          else if (name == "QUANTITY") name = "a quantity";
          list += name;
        }
        msg += ", expected " + list;
      }
    }
    // A missing ';' at the end of a line is reported where it belongs, after the
    // previous token, as clang does.
    if (auto *parser = dynamic_cast<antlr4::Parser *>(rec)) {
      antlr4::Token *prev = parser->getTokenStream()->LT(-1);
      if (prev && bad && prev->getLine() < bad->getLine() && parser->getExpectedTokens().contains(semicolon_)) {
        r = {{file_, map_.byte(prev->getStopIndex() + 1)}, 1};
        msg = "expected ';' after " + tokenDesc(prev);
      }
    }
    Diagnostic *d = diags_.report(DiagCode::E0002, r, msg);
    if (bad && bad->getType() == P::QUANTITY)
      DiagEngine::note(d, r, "a number followed by a word is read as a quantity with a unit; "
                             "put the number in parentheses if the word is not a unit");
  }
  unsigned count() const { return count_; }
  void setSemicolon(size_t t) { semicolon_ = t; }

private:
  size_t semicolon_ = 0;
  uint32_t file_;
  const OffsetMap &map_;
  DiagEngine &diags_;
  unsigned count_ = 0;
};

// A recursive-descent parser recurses once per nesting level: absurd nesting is rejected
// before ANTLR sees it, so that no input can overflow the stack.
void findNesting(antlr4::CommonTokenStream &tokens, const antlr4::dfa::Vocabulary &vocab, const OffsetMap &map,
                 const ParseLimits &limits, LexicalFindings &f) {
  // Classify the literal token types once, by their grammar spelling, so the loop reads
  // only each token's type (never its text, which getText() re-encodes from UTF-32).
  std::vector<NestClass> cls(vocab.getMaxTokenType() + 1, NestClass::Other);
  for (size_t t = 0; t < cls.size(); ++t) {
    const std::string lit = vocab.getLiteralName(t);
    if (lit == "'('" || lit == "'['")
      cls[t] = NestClass::Open;
    else if (lit == "')'" || lit == "']'")
      cls[t] = NestClass::Close;
    else if (lit == "'{'")
      cls[t] = NestClass::LBrace;
    else if (lit == "'}'")
      cls[t] = NestClass::RBrace;
    else if (lit == "';'")
      cls[t] = NestClass::Semi;
    else if (lit == "'-'" || lit == "'!'" || lit == "'?'" || lit == "'+'" || lit == "'*'" || lit == "'/'" ||
             lit == "'&&'" || lit == "'||'")
      cls[t] = NestClass::Op;
  }
  NestingCount nesting;
  for (antlr4::Token *t : tokens.getTokens()) {
    size_t type = t->getType();
    if (type >= cls.size() || t->getChannel() != antlr4::Token::DEFAULT_CHANNEL)
      continue;
    if (NestingCount::Over o = nesting.add(cls[type], limits.maxDepth)) {
      f.nested = map.byte(t->getStartIndex());
      f.nestedHow = o;
      return;
    }
  }
}

} // namespace

// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing past
// U+10FFFF, no NUL. An overlong "\xc0\xaf" would otherwise read as '/'.
bool validUtf8(std::string_view s, size_t *bad) {
  size_t i = 0;
  while (i < s.size()) {
    // Eight ASCII bytes, none NUL, at a time: a source is nearly all ASCII, and byte by
    // byte this was 3 % of the server's compile of a 4.6 MB file.
    while (i + 8 <= s.size()) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if ((w & 0x8080808080808080ull) || ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull))
        break; // a byte >= 0x80 or a zero byte: the exact check below
      i += 8;
    }
    if (i >= s.size())
      break;
    unsigned char c = s[i];
    size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : (c >> 4) == 14 ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (c == 0 || n == 0 || i + n > s.size()) {
      *bad = i;
      return false;
    }
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) {
        *bad = i;
        return false;
      }
    unsigned char c1 = n > 1 ? static_cast<unsigned char>(s[i + 1]) : 0;
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) {
      *bad = i;
      return false;
    }
    i += n;
  }
  return true;
}

namespace {

// ANTLR's parse of the file: its diagnostics, and the AST of a file without errors.
ast::File *parseAntlr(uint32_t fileId, std::string_view text, DiagEngine &diags, ast::Context &ctx,
                      const ParseLimits &limits) {
  OffsetMap map(text);
  Utf8Input input(text);
  fabc_antlr::FabricLexer lexer(&input);
  lexer.removeErrorListeners();
  // The parser holds every token and tree node (about half a kilobyte a token): count
  // the tokens first, without keeping them, when the text could exceed the limit.
  LexicalFindings lexical;
  if (text.size() >= limits.maxTokens) {
    uint64_t n = 0;
    for (auto t = lexer.nextToken(); t->getType() != antlr4::Token::EOF; t = lexer.nextToken())
      if (++n > limits.maxTokens) {
        lexical.tooMany = map.byte(t->getStartIndex());
        lexical.report(diags, fileId, limits);
        return nullptr;
      }
    lexer.reset();
  }
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();
  for (antlr4::Token *t : tokens.getTokens())
    if (t->getType() == P::BAD_CHAR)
      lexical.addBad(map.byte(t->getStartIndex()), lexical.badCount < 3 ? t->getText() : std::string());
  if (!lexical.badCount)
    findNesting(tokens, lexer.getVocabulary(), map, limits, lexical);
  if (lexical.report(diags, fileId, limits))
    return nullptr;
  P parser(&tokens);
  ErrorListener listener(fileId, map, diags);
  parser.removeErrorListeners();
  parser.addErrorListener(&listener);
  for (size_t t = 0; t <= parser.getVocabulary().getMaxTokenType(); ++t)
    if (parser.getVocabulary().getLiteralName(t) == "';'")
      listener.setSemicolon(t);
  P::FileContext *tree = parseTwoStage(parser, tokens);
  ast::File *file = ctx.file();
  file->fileId = fileId;
  if (listener.count())
    return file;
  // The AST through the one lowering, from ANTLR's tree as a CST (decision 0371).
  cst::Tree cst;
  cst::fromAntlr(text, tokens.getTokens(), tree, cst);
  lowerTree(fileId, cst, ctx, file);
  return file;
}

} // namespace

bool LexicalFindings::report(DiagEngine &diags, uint32_t file, const ParseLimits &limits) const {
  if (tooMany != kNone) {
    Diagnostic *d =
        diags.report(DiagCode::E0005, {{file, tooMany}, 1}, "more than {} tokens in one file", limits.maxTokens);
    DiagEngine::note(d, {}, "the token limit is one token per 4 bytes of --max-file-size; a file of this many "
                            "small tokens is not an explicit design (those have ~3.5 bytes a token and pass "
                            "the size limit first): generate repetitive structure with loops and templates, "
                            "or raise --max-file-size");
    return true;
  }
  for (uint32_t i = 0; i < badCount && i < 3; ++i) {
    Diagnostic *d = diags.report(DiagCode::E0003, {{file, bad[i].at}, 1}, "invalid character '{}'", bad[i].text);
    if (bad[i].text == "\"")
      DiagEngine::note(d, {}, "strings end on the same line they start");
  }
  if (badCount)
    return true;
  if (nested == kNone)
    return false;
  bool brackets = nestedHow == NestingCount::Brackets;
  diags.report(DiagCode::E0006, {{file, nested}, 1}, "{} nested deeper than {} levels",
               brackets ? "brackets are" : "an expression is", brackets ? limits.maxDepth : limits.maxDepth * 20);
  return true;
}

ast::File *parseFile(uint32_t fileId, const SourceManager &sm, DiagEngine &diags, ast::Context &ctx,
                     const ParseLimits &limits) {
  std::string_view text = sm.text(fileId);
  size_t bad = 0;
  if (!validUtf8(text, &bad)) {
    diags.report(DiagCode::E0004, {{fileId, uint32_t(bad)}, 1},
                 text[bad] == 0 ? "NUL byte in source file" : "invalid UTF-8 byte in source file");
    return nullptr;
  }
  if (limits.engine == ParserEngine::AntlrOnly)
    return parseAntlr(fileId, text, diags, ctx, limits);
  std::vector<hand::SyntaxError> errors;
  ast::File *f = parseHand(fileId, text, ctx, limits, errors);
  if (f && errors.empty())
    return f;
  if (limits.engine == ParserEngine::HandOnly)
    return nullptr;
  if (f) { // the statements that parse, for the editor; the compile path stops at the errors
    reportSyntaxErrors(fileId, text, errors, diags);
    return f;
  }
  // A token the lexer refused: what stops the whole file's parse, wherever it is in the file.
  if (hand::scanLexical(text, limits).report(diags, fileId, limits))
    return nullptr;
  return parseAntlr(fileId, text, diags, ctx, limits); // a fallback: the scan finds what the lexer refused
}

} // namespace fabc
