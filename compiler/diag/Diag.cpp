#include "diag/Diag.h"

#include <cctype>
#include <cstring>

namespace fabc {

static const DiagInfo kInfos[] = {
#define DIAG(CODE, SEV, SUMMARY, HELP) {#CODE, Severity::SEV, SUMMARY, HELP},
#include "diag/DiagCodes.def"
#undef DIAG
};

const DiagInfo &diagInfo(DiagCode c) { return kInfos[size_t(c)]; }
size_t diagCount() { return size_t(DiagCode::Count); }

const DiagInfo *findDiag(std::string_view text, DiagCode *out) {
  if (text.size() > 4 && (text.substr(0, 4) == "FAB-" || text.substr(0, 4) == "fab-"))
    text.remove_prefix(4);
  for (size_t i = 0; i < diagCount(); ++i) {
    const char *c = kInfos[i].code;
    if (std::strlen(c) != text.size())
      continue;
    bool same = true;
    for (size_t j = 0; j < text.size(); ++j)
      same &= std::toupper((unsigned char)text[j]) == c[j];
    if (same) {
      if (out)
        *out = DiagCode(i);
      return &kInfos[i];
    }
  }
  return nullptr;
}

std::string jsonEscape(std::string_view s) {
  std::string r;
  r.reserve(s.size() + 2);
  for (unsigned char c : s) {
    switch (c) {
    case '"': r += "\\\""; break;
    case '\\': r += "\\\\"; break;
    case '\n': r += "\\n"; break;
    case '\r': r += "\\r"; break;
    case '\t': r += "\\t"; break;
    default:
      if (c < 0x20)
        r += fmt::format("\\u{:04x}", c);
      else
        r += char(c);
    }
  }
  return r;
}

Diagnostic *DiagEngine::report(DiagCode code, SourceRange range, std::string message) {
  if (disabled_.count(uint16_t(code))) {
    sink_ = {};
    return &sink_;
  }
  Severity sev = diagInfo(code).severity;
  if (sev == Severity::Warning && werror_)
    sev = Severity::Error;
  // Bounded: a million-link design with one systematic mistake prints a page, not a book.
  bool over = sev == Severity::Error ? tooManyErrors()
                                     : (errorLimit_ && warnings_ >= errorLimit_ * 4);
  if (sev == Severity::Error)
    ++errors_;
  else if (sev == Severity::Warning)
    ++warnings_;
  if (over) {
    ++suppressed_;
    sink_ = {};
    return &sink_;
  }
  flushPending();
  kept_.push_back({code, sev, range, std::move(message), {}});
  pending_ = true;
  return &kept_.back();
}

void DiagEngine::flushPending() {
  if (!pending_)
    return;
  pending_ = false;
  if (format_ == DiagFormat::Text)
    printText(kept_.back());
}

static const char *sevName(Severity s) {
  switch (s) {
  case Severity::Note: return "note";
  case Severity::Warning: return "warning";
  case Severity::Error: return "error";
  }
  return "error";
}

void DiagEngine::printText(const Diagnostic &d) {
  auto emit = [&](SourceRange r, Severity sev, const std::string &msg, const char *code) {
    const char *bold = color_ ? "\033[1m" : "", *reset = color_ ? "\033[0m" : "";
    const char *col = "";
    if (color_)
      col = sev == Severity::Error ? "\033[1;31m" : sev == Severity::Warning ? "\033[1;35m" : "\033[1;36m";
    std::string where = "fabc";
    if (r.begin.valid()) {
      LineCol lc = sm_.lineCol(r.begin);
      where = fmt::format("{}:{}:{}", sm_.path(r.begin.file), lc.line, lc.col);
    }
    std::string codeText = code ? fmt::format(" [FAB-{}]", code) : "";
    fmt::print(out_, "{}{}: {}{}:{} {}{}{}\n", bold, where, col, sevName(sev), reset, bold,
               msg + codeText, reset);
    if (!r.begin.valid())
      return;
    std::string_view line = sm_.lineText(r.begin);
    if (line.size() > 400) // a caret under a megabyte-long line helps nobody
      return;
    LineCol lc = sm_.lineCol(r.begin);
    std::string caret;
    for (uint32_t i = 0; i + 1 < lc.col && i < line.size(); ++i)
      if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) // one column per UTF-8 character
        caret += line[i] == '\t' ? '\t' : ' ';
    caret += '^';
    uint32_t len = r.length;
    if (lc.col - 1 + len > line.size())
      len = line.size() >= lc.col ? uint32_t(line.size() - lc.col + 1) : 1;
    for (uint32_t i = 1; i < len; ++i)
      caret += '~';
    fmt::print(out_, "{}\n{}{}{}\n", line, color_ ? "\033[1;32m" : "", caret, reset);
  };
  emit(d.range, d.severity, d.message, diagInfo(d.code).code);
  for (const DiagNote &n : d.notes)
    emit(n.range, Severity::Note, n.message, nullptr);
}

void DiagEngine::finish() {
  flushPending();
  if (format_ == DiagFormat::Json)
    printJson();
  else if (format_ == DiagFormat::Sarif)
    printSarif();
  else if (suppressed_)
    fmt::print(out_, "fabc: note: {} more diagnostics not shown (error limit reached; see --error-limit)\n",
               suppressed_);
  std::fflush(out_);
}

static std::string locJson(const SourceManager &sm, SourceRange r) {
  if (!r.begin.valid())
    return "null";
  LineCol lc = sm.lineCol(r.begin);
  return fmt::format("{{\"file\": \"{}\", \"line\": {}, \"column\": {}, \"length\": {}}}",
                     jsonEscape(sm.path(r.begin.file)), lc.line, lc.col, r.length);
}

void DiagEngine::printJson() {
  fmt::print(out_, "{{\n  \"diagnostics\": [");
  bool first = true;
  for (const Diagnostic &d : kept_) {
    const DiagInfo &info = diagInfo(d.code);
    fmt::print(out_, "{}\n    {{\"code\": \"FAB-{}\", \"severity\": \"{}\", \"message\": \"{}\", "
                     "\"location\": {}, \"notes\": [",
               first ? "" : ",", info.code, sevName(d.severity), jsonEscape(d.message),
               locJson(sm_, d.range));
    first = false;
    bool firstNote = true;
    for (const DiagNote &n : d.notes) {
      fmt::print(out_, "{}{{\"message\": \"{}\", \"location\": {}}}", firstNote ? "" : ", ",
                 jsonEscape(n.message), locJson(sm_, n.range));
      firstNote = false;
    }
    fmt::print(out_, "]}}");
  }
  fmt::print(out_, "{}],\n  \"errors\": {},\n  \"warnings\": {},\n  \"suppressed\": {}\n}}\n",
             kept_.empty() ? "" : "\n  ", errors_, warnings_, suppressed_);
}

void DiagEngine::printSarif() {
  // SARIF 2.1.0, the subset code-scanning UIs read: rules, results, physical locations.
  fmt::print(out_, "{{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
                   "  \"version\": \"2.1.0\",\n  \"runs\": [{{\n    \"tool\": {{\"driver\": {{\"name\": \"fabc\", "
                   "\"informationUri\": \"https://example.invalid/fabc/docs/diagnostics.md\", \"rules\": [");
  for (size_t i = 0; i < diagCount(); ++i)
    fmt::print(out_, "{}\n      {{\"id\": \"FAB-{}\", \"shortDescription\": {{\"text\": \"{}\"}}, "
                     "\"help\": {{\"text\": \"{}\"}}}}",
               i ? "," : "", kInfos[i].code, jsonEscape(kInfos[i].summary), jsonEscape(kInfos[i].help));
  fmt::print(out_, "]}}}},\n    \"results\": [");
  bool first = true;
  for (const Diagnostic &d : kept_) {
    const char *level = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "note";
    fmt::print(out_, "{}\n      {{\"ruleId\": \"FAB-{}\", \"ruleIndex\": {}, \"level\": \"{}\", \"message\": {{\"text\": \"{}\"}}",
               first ? "" : ",", diagInfo(d.code).code, size_t(d.code), level, jsonEscape(d.message));
    first = false;
    if (d.range.begin.valid()) {
      LineCol lc = sm_.lineCol(d.range.begin);
      fmt::print(out_, ", \"locations\": [{{\"physicalLocation\": {{\"artifactLocation\": {{\"uri\": \"{}\"}}, "
                       "\"region\": {{\"startLine\": {}, \"startColumn\": {}, \"endColumn\": {}}}}}}}]",
                 jsonEscape(sm_.path(d.range.begin.file)), lc.line, lc.col, lc.col + d.range.length);
    }
    fmt::print(out_, "}}");
  }
  fmt::print(out_, "{}]\n  }}]\n}}\n", kept_.empty() ? "" : "\n    ");
}

} // namespace fabc
