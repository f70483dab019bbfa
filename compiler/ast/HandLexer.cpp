// The hand-written lexer: grammar/Fabric.g4's lexer rules (see HandLexer.h).
#include "ast/HandLexer.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace fabc::hand {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }
bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool alnum(char c) { return alpha(c) || digit(c); }
// [a-zA-Z0-9_] by table: the loop over an ID's characters is the lexer's hottest.
struct IdChars {
  bool is[256] = {};
  constexpr IdChars() {
    for (int c = 0; c < 256; ++c)
      is[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
};
constexpr IdChars kIdChars;
bool idChar(char c) { return kIdChars.is[static_cast<unsigned char>(c)]; }

struct Keyword {
  std::string_view text; // its length known at compile time: no strlen per ID lexed
  Tok tok;
};
constexpr Keyword kKeywords[] = {
    {"import", KwImport}, {"fn", KwFn},       {"model", KwModel},     {"port", KwPort},       {"source", KwSource},
    {"estimate", KwEstimate}, {"template", KwTemplate}, {"fabric", KwFabric}, {"let", KwLet},
    {"param", KwParam},   {"option", KwOption},   {"for", KwFor},         {"in", KwIn},
    {"if", KwIf},         {"else", KwElse},       {"link", KwLink},       {"group", KwGroup},
    {"place", KwPlace},   {"building", KwBuilding}, {"span", KwSpan},     {"policy", KwPolicy},
    {"assert", KwAssert}, {"hall", KwHall},       {"true", KwTrue},       {"false", KwFalse},
};

// The keywords by length and first letter: an ID is compared with at most two of them
// (an explicit file's names, `node000123`, `cx`, `p`, were compared with all 25).
struct KeywordTable {
  uint8_t at[9][26][2] = {}; // 1 + indices into kKeywords with that length and letter
  constexpr KeywordTable() {
    for (size_t i = 0; i < std::size(kKeywords); ++i) {
      uint8_t *slot = at[kKeywords[i].text.size()][kKeywords[i].text[0] - 'a'];
      slot[slot[0] ? 1 : 0] = uint8_t(i + 1);
    }
  }
};
constexpr KeywordTable kKeywordTable;
// Every keyword is in its slot (a third of one length and letter would have overwritten one).
constexpr bool everyKeywordFound() {
  for (size_t i = 0; i < std::size(kKeywords); ++i) {
    const uint8_t *slot = kKeywordTable.at[kKeywords[i].text.size()][kKeywords[i].text[0] - 'a'];
    if (slot[0] != i + 1 && slot[1] != i + 1)
      return false;
  }
  return true;
}
static_assert(everyKeywordFound(), "three keywords of one length and first letter: widen KeywordTable");

Tok keyword(std::string_view w) {
  if (w.size() < 2 || w.size() > 8 || w[0] < 'a' || w[0] > 'z')
    return Id;
  for (uint8_t i : kKeywordTable.at[w.size()][w[0] - 'a'])
    if (i && w == kKeywords[i - 1].text)
      return kKeywords[i - 1].tok;
  return Id;
}

} // namespace

bool isIdChar(char c) { return idChar(c); }

bool isKeyword(std::string_view word) { return keyword(word) != Id; }

namespace {

// The grammar's predicates on QUANTITY (@lexer::members in Fabric.g4).
bool unitIsKeyword(std::string_view t) {
  size_t i = t.find_last_of("0123456789 \t");
  std::string_view unit = i == std::string_view::npos ? t : t.substr(i + 1);
  return unit == "source" || unit == "estimate" || unit == "for" || unit == "in" || unit == "if";
}

} // namespace

// The end of the longest QUANTITY whose number part ends at `numberEnd` (0: none): the
// predicate holds only where the unit's word ends, so the candidates are the end of the
// letters-and-digits run and the end of its "/letters" tail.
uint32_t Lexer::quantityEnd(uint32_t begin, uint32_t numberEnd) const {
  size_t n = s_.size(), k = numberEnd;
  while (k < n && (s_[k] == ' ' || s_[k] == '\t'))
    ++k;
  if (k >= n || !alpha(s_[k]))
    return 0;
  ++k;
  while (k < n && alnum(s_[k]))
    ++k;
  auto ok = [&](size_t end) {
    return !unitIsKeyword(s_.substr(begin, end - begin)) && !(end < n && idChar(s_[end]));
  };
  if (k + 1 < n && s_[k] == '/' && alpha(s_[k + 1])) {
    size_t m = k + 1;
    while (m < n && alpha(s_[m]))
      ++m;
    if (ok(m))
      return uint32_t(m);
  }
  return ok(k) ? uint32_t(k) : 0;
}

Tok Lexer::lex() {
  const size_t n = s_.size();
  const char *s = s_.data();
  for (;;) {
    // White space (and U+FEFF, the byte-order mark) is skipped; comments are tokens of
    // the hidden channel: counted, not returned.
    while (pos_ < n) {
      char c = s[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
        ++pos_;
      else if (c == '\xEF' && pos_ + 2 < n && s[pos_ + 1] == '\xBB' && s[pos_ + 2] == '\xBF')
        pos_ += 3;
      else
        break;
    }
    if (pos_ >= n) {
      begin_ = pos_ = uint32_t(n);
      return End;
    }
    if (s[pos_] == '/' && pos_ + 1 < n && s[pos_ + 1] == '/') {
      uint32_t b = pos_;
      while (pos_ < n && s[pos_] != '\r' && s[pos_] != '\n')
        ++pos_;
      ++tokens_;
      if (comments_) {
        begin_ = b;
        return LineComment;
      }
      continue;
    }
    if (s[pos_] == '/' && pos_ + 1 < n && s[pos_ + 1] == '*') {
      size_t close = s_.find("*/", pos_ + 2);
      if (close != std::string_view::npos) {
        uint32_t b = pos_;
        pos_ = uint32_t(close + 2);
        ++tokens_;
        if (comments_) {
          begin_ = b;
          return BlockComment;
        }
        continue;
      }
      // Unterminated: the longest match is '/' alone.
    }
    break;
  }
  ++tokens_;
  const uint32_t b = pos_;
  const char c = s[b];
  auto tok = [&](Tok k, uint32_t len) {
    begin_ = b;
    pos_ = b + len;
    return k;
  };
  auto next = [&](size_t i) { return b + i < n ? s[b + i] : '\0'; };
  if (alpha(c) || c == '_') {
    uint32_t e = b + 1;
    while (e < n && idChar(s[e]))
      ++e;
    return tok(keyword(s_.substr(b, e - b)), e - b);
  }
  if (digit(c)) {
    auto digits = [&](size_t i) { // DIGITS from i (a digit): [0-9] ('_'? [0-9])*
      ++i;
      while (i < n && (digit(s[i]) || (s[i] == '_' && i + 1 < n && digit(s[i + 1]))))
        i += s[i] == '_' ? 2 : 1;
      return uint32_t(i);
    };
    uint32_t ends[3] = {digits(b), 0, 0}; // the number part may end after DIGITS, '.' DIGITS, the exponent
    uint32_t last = ends[0];
    if (last + 1 < n && s[last] == '.' && digit(s[last + 1]))
      last = ends[1] = digits(last + 1);
    if (last < n && (s[last] == 'e' || s[last] == 'E')) {
      size_t k = last + 1;
      if (k < n && (s[k] == '+' || s[k] == '-'))
        ++k;
      if (k < n && digit(s[k]))
        last = ends[2] = digits(k);
    }
    // PERCENT (DIGITS ('.' DIGITS)? '%', not before a word or '('): where it matches, the
    // number part cannot go on (no exponent) and no unit follows, so it is the longest.
    uint32_t pe = ends[1] ? ends[1] : ends[0];
    if (pe < n && s[pe] == '%' && !(pe + 1 < n && (idChar(s[pe + 1]) || s[pe + 1] == '(')))
      return tok(PercentLit, pe + 1 - b);
    uint32_t q = 0;
    for (uint32_t e : ends)
      if (e)
        q = std::max(q, quantityEnd(b, e));
    // The longest match; on a tie NUMBER, the rule written first.
    return q > last ? tok(Quantity, q - b) : tok(Number, last - b);
  }
  switch (c) {
  case '"': {
    size_t i = b + 1;
    while (i < n) {
      char d = s[i];
      if (d == '"')
        return tok(String, uint32_t(i + 1 - b));
      if (d == '\r' || d == '\n')
        break;
      // '\\' . : any character after a backslash (a multi-byte one's other bytes are
      // never a quote, a backslash or a line end).
      i += d == '\\' ? 2 : 1;
    }
    return tok(Bad, 1); // no closing quote: the grammar's BAD_CHAR
  }
  case ';': return tok(Semi, 1);
  case ':': return tok(Colon, 1);
  case '{': return tok(LBrace, 1);
  case '}': return tok(RBrace, 1);
  case '[': return tok(LBrack, 1);
  case ']': return tok(RBrack, 1);
  case '(': return tok(LParen, 1);
  case ')': return tok(RParen, 1);
  case ',': return tok(Comma, 1);
  case '?': return tok(Question, 1);
  case '%': return tok(Percent, 1);
  case '*': return tok(Star, 1);
  case '+': return tok(Plus, 1);
  case '/': return tok(Slash, 1);
  case '=': return next(1) == '=' ? tok(EqEq, 2) : tok(Assign, 1);
  case '.': return next(1) == '.' ? tok(DotDot, 2) : tok(Dot, 1);
  case '-': return next(1) == '-' ? tok(DashDash, 2) : tok(Minus, 1);
  case '!': return next(1) == '=' ? tok(Ne, 2) : tok(Bang, 1);
  case '<': return next(1) == '=' ? tok(Le, 2) : tok(Lt, 1);
  case '>': return next(1) == '=' ? tok(Ge, 2) : tok(Gt, 1);
  case '&': return next(1) == '&' ? tok(AndAnd, 2) : tok(Bad, 1);
  case '|': return next(1) == '|' ? tok(OrOr, 2) : tok(Bad, 1);
  default: { // one code point, as the grammar's BAD_CHAR '.' (the text is valid UTF-8)
    unsigned char u = static_cast<unsigned char>(c);
    uint32_t len = u >= 0xF0 ? 4 : u >= 0xE0 ? 3 : u >= 0xC0 ? 2 : 1;
    return tok(Bad, std::min<uint32_t>(len, uint32_t(n - b)));
  }
  }
}

LexicalFindings scanLexical(std::string_view text, const ParseLimits &limits) {
  // The lexer counts the tokens to the limit; the nesting is counted here, on past it
  // (a bad character further on outranks it), so the lexer's own nesting is unlimited.
  ParseLimits tokensOnly = ParseLimits::unlimited();
  tokensOnly.maxTokens = limits.maxTokens;
  Lexer lex(text, tokensOnly, /*comments=*/true);
  LexicalFindings f;
  NestingCount nesting;
  for (Token t = lex.next(); t.kind != End; t = lex.next()) {
    if (lex.limited()) {
      f.tooMany = t.begin;
      return f;
    }
    if (t.kind == Bad) {
      f.addBad(t.begin, text.substr(t.begin, t.end - t.begin));
      continue;
    }
    if (f.nested != LexicalFindings::kNone)
      continue;
    if (NestingCount::Over o = nesting.add(Lexer::nestClass(t.kind), limits.maxDepth)) {
      f.nested = t.begin;
      f.nestedHow = o;
    }
  }
  return f;
}

std::pair<size_t, size_t> commonEnds(std::string_view a, std::string_view b) {
  constexpr size_t kBlock = 4096;
  size_t n = std::min(a.size(), b.size()), p = 0, q = 0;
  while (p + kBlock <= n && std::memcmp(a.data() + p, b.data() + p, kBlock) == 0)
    p += kBlock;
  while (p < n && a[p] == b[p])
    ++p;
  while (q + kBlock <= n - p &&
         std::memcmp(a.data() + a.size() - q - kBlock, b.data() + b.size() - q - kBlock, kBlock) == 0)
    q += kBlock;
  while (q < n - p && a[a.size() - 1 - q] == b[b.size() - 1 - q])
    ++q;
  return {p, q};
}

bool sameTokens(std::string_view a, std::string_view b, std::vector<TextRun> *runs,
                llvm::ArrayRef<uint32_t> marks) {
  const ParseLimits limits = ParseLimits::unlimited();
  Lexer la(a, limits), lb(b, limits);
  if (runs)
    runs->clear();
  uint32_t pa = 0, pb = 0; // the ends of the tokens before
  // Past `tail` in `a` the two texts are the same bytes (at a shift of `shift`): a token
  // pair that starts there at that shift leaves the same text to lex in both.
  size_t tail = SIZE_MAX;
  const int64_t shift = int64_t(b.size()) - int64_t(a.size());
  if (!marks.empty()) {
    auto [p, q] = commonEnds(a, b);
    tail = a.size() - q;
    // The last mark at or before the first difference: every token before it is the
    // same at shift 0, so the runs so far are one, and the lexers resume there.
    const uint32_t *m = std::upper_bound(marks.begin(), marks.end(), uint32_t(p));
    if (m != marks.begin() && m[-1] <= a.size()) {
      uint32_t at = m[-1];
      la.seek(at);
      lb.seek(at);
      pa = pb = at;
      if (runs && at > 0)
        runs->push_back({0, at, 0});
    }
  }
  for (;;) {
    Token x = la.next(), y = lb.next();
    if (x.kind != y.kind || x.kind == Bad ||
        a.substr(x.begin, x.end - x.begin) != b.substr(y.begin, y.end - y.begin))
      return false;
    if (runs) {
      if (runs->empty() || int64_t(y.begin) - x.begin != int64_t(runs->back().newBegin) - runs->back().oldBegin) {
        // The white space and comments between the tokens differ; what they share next
        // to either token (a line's indentation, the rest of its line) belongs to the
        // runs, so that an unchanged line maps whole.
        uint32_t k = 0, j = 0;
        while (x.begin - k > pa && y.begin - k > pb && a[x.begin - k - 1] == b[y.begin - k - 1])
          ++k;
        if (!runs->empty())
          while (pa + j < x.begin - k && pb + j < y.begin - k && a[pa + j] == b[pb + j])
            ++j;
        if (!runs->empty())
          runs->back().oldEnd += j;
        runs->push_back({x.begin - k, x.end, y.begin - k});
      } else {
        runs->back().oldEnd = x.end;
      }
    }
    pa = x.end;
    pb = y.end;
    if (x.kind == End)
      return true;
    if (x.begin >= tail && int64_t(y.begin) - x.begin == shift) {
      // The rest is the same text from the same place: the same tokens, in this run.
      if (runs)
        runs->back().oldEnd = uint32_t(a.size());
      return true;
    }
  }
}

} // namespace fabc::hand
