#include "diag/DiagCodes.h"
#include "diag/Diag.h"
#include "diag/SarifContext.h"
#include "support/Json.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <cctype>
#include <unistd.h>
#include <cstring>

namespace fabc {

std::string &sarifRoot() {
  static std::string root;
  return root;
}
namespace {
std::string &sarifInput() {
  static std::string input;
  return input;
}
} // namespace
void setSarifRoot(std::string root) { sarifRoot() = std::move(root); }
void setDiagInput(std::string input) { sarifInput() = std::move(input); }

static const DiagInfo kInfos[] = {
#define DIAG(CODE, SEV, SUMMARY, HELP) {#CODE, Severity::SEV, SUMMARY, HELP},
#include "diag/DiagCodes.def"
#undef DIAG
};

const DiagInfo &diagInfo(DiagCode c) { return kInfos[size_t(c)]; }
size_t diagCount() { return size_t(DiagCode::Count); }

std::string explainText(const DiagInfo &d) {
  // docs/diagnostics.md puts <a id="fab-e0042"></a> before each code's section.
  std::string anchor = std::string("fab-") + d.code;
  for (char &c : anchor)
    c = char(std::tolower((unsigned char)c));
  return fmt::format("FAB-{} ({}): {}\n\n{}\n\nSee docs/diagnostics.md#{} for examples.\n", d.code,
                     d.severity == Severity::Error ? "error" : "warning", d.summary, d.help, anchor);
}

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

// What report() and tally() share: a disabled or silenced code is dropped (false);
// otherwise `sev` is its severity after -Werror, it is counted (the totals and the exit
// status stay exact), and a repeat of a code at a place already reported is counted
// into that diagnostic (`*fold`: its index in kept_).
bool DiagEngine::admit(DiagCode code, SourceRange range, Severity &sev, uint32_t *fold) {
  *fold = ~0u;
  if (disabled_.count(uint16_t(code)))
    return false;
  sev = diagInfo(code).severity;
  if (sev == Severity::Warning) {
    if (promoted_.count(uint16_t(code)))
      sev = Severity::Error;
    else if (noWarnings_)
      return false;
    else if (werror_)
      sev = Severity::Error;
  }
  if (sev == Severity::Error)
    ++errors_;
  else if (sev == Severity::Warning)
    ++warnings_;
  // One code from one statement (a link in a loop, the racks one place statement fills)
  // is one diagnostic: the first, and a note counting the others (docs/diagnostics.md,
  // "Folding").
  if (range.begin.valid()) {
    auto f = folds_.find(foldKey(code, range));
    if (f != folds_.end()) {
      ++kept_[f->second].more;
      foldsSynced_ = false;
      *fold = f->second;
    }
  }
  return true;
}

void DiagEngine::tally(DiagCode code, SourceRange range) {
  Severity sev;
  uint32_t fold;
  if (admit(code, range, sev, &fold) && fold == ~0u)
    ++unshown_;
}

Diagnostic *DiagEngine::report(DiagCode code, SourceRange range, std::string message) {
  Severity sev;
  uint32_t fold;
  if (!admit(code, range, sev, &fold)) {
    sink_ = {};
    return &sink_;
  }
  if (fold != ~0u) {
    foldSink_ = {};
    foldSink_.foldOf = fold;
    return &foldSink_;
  }
  // Bounded: a million-link design with one systematic mistake prints a page, not a book.
  bool over = sev == Severity::Error ? tooManyErrors()
                                     : (errorLimit_ && shownWarnings_ >= errorLimit_ * kWarningsPerError);
  if (over) {
    ++suppressed_;
    sink_ = {};
    return &sink_;
  }
  if (sev == Severity::Error)
    ++shownErrors_;
  else if (sev == Severity::Warning)
    ++shownWarnings_;
  if (range.begin.valid())
    folds_.emplace(foldKey(code, range), uint32_t(kept_.size()));
  kept_.emplace_back();
  Diagnostic &d = kept_.back();
  d.code = code;
  d.severity = sev;
  d.range = range;
  d.message = std::move(message);
  return &d;
}

void DiagEngine::replaceWith(DiagEngine &&o) {
  static_cast<detail::DiagRun &>(*this) = std::move(static_cast<detail::DiagRun &>(o));
}

DiagEngine DiagEngine::emptyCopy() const {
  DiagEngine e(*this);
  static_cast<detail::DiagRun &>(e) = detail::DiagRun();
  e.sink_ = Diagnostic();
  e.foldSink_ = Diagnostic();
  return e;
}

bool DiagEngine::adopt(const DiagEngine &from, const Mark &begin, const Mark &end,
                       const std::function<bool(SourceRange &)> &map) {
  const unsigned errors = end.shownErrors - begin.shownErrors, warnings = end.shownWarnings - begin.shownWarnings;
  // Shown there, so shown here only below the same limits; none was dropped there.
  if (end.suppressed != begin.suppressed ||
      (errorLimit_ &&
       (shownErrors_ + errors >= errorLimit_ || shownWarnings_ + warnings >= errorLimit_ * kWarningsPerError)))
    return false;
  std::vector<Diagnostic> taken(from.kept_.begin() + long(begin.kept), from.kept_.begin() + long(end.kept));
  for (Diagnostic &d : taken) {
    if (!map(d.range))
      return false;
    for (DiagNote &n : d.notes)
      if (!map(n.range))
        return false;
    for (FixIt &f : d.fixits)
      if (!map(f.range))
        return false;
    // A repeat of one of this engine's would have folded into it.
    if (d.range.begin.valid() && folds_.count(foldKey(d.code, d.range)))
      return false;
  }
  for (Diagnostic &d : taken) {
    if (d.range.begin.valid())
      folds_.emplace(foldKey(d.code, d.range), uint32_t(kept_.size()));
    kept_.push_back(std::move(d));
  }
  foldsSynced_ = false;
  errors_ += end.errors - begin.errors;
  warnings_ += end.warnings - begin.warnings;
  unshown_ += end.unshown - begin.unshown;
  shownErrors_ += errors;
  shownWarnings_ += warnings;
  return true;
}

bool DiagEngine::adoptFromBeside(const DiagEngine &from, const Mark &begin, const Mark &end) {
  return end.unshown == begin.unshown && adopt(from, begin, end, [](SourceRange &) { return true; });
}

void DiagEngine::worst(Diagnostic *d, double magnitude, std::string what) {
  if (!d || d == &sink_)
    return;
  Diagnostic *into = d == &foldSink_ ? &kept_[foldSink_.foldOf] : d;
  if (magnitude > into->worst) {
    foldsSynced_ = false;
    into->worst = magnitude;
    into->worstWhat = std::move(what);
  }
}

void DiagEngine::syncFoldNotes() const {
  // Once in sync it writes nothing: a finished compilation's diagnostics are read from
  // two threads (the language server's reader and a reuse on its worker).
  if (foldsSynced_)
    return;
  foldsSynced_ = true;
  for (Diagnostic &d : kept_) {
    if (!d.more)
      continue;
    std::string text = fmt::format("{} more like this{}", d.more,
                                   d.worstWhat.empty() ? "" : "; the worst: " + d.worstWhat);
    if (d.foldNote < 0) {
      d.foldNote = int32_t(d.notes.size());
      d.notes.push_back({{}, std::move(text)});
    } else {
      d.notes[size_t(d.foldNote)].message = std::move(text);
    }
  }
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
    for (uint32_t i = lc.col; i < lc.col - 1 + len && i < line.size(); ++i)
      if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) // the range, in characters too
        caret += '~';
    fmt::print(out_, "{}\n{}{}{}\n", line, color_ ? "\033[1;32m" : "", caret, reset);
    if (!code)
      return;
    // The fix-its on this line, as clang prints them: the text to write, under the caret,
    // at the column it goes to. Only when the fix is all on this line (one line each).
    std::string fix;
    uint32_t lineStart = r.begin.offset - (lc.col - 1);
    for (const FixIt &f : d.fixits)
      if (f.range.begin.file != r.begin.file || f.range.begin.offset < lineStart ||
          uint64_t(f.range.begin.offset) + f.range.length > lineStart + line.size() ||
          f.replacement.find('\n') != std::string::npos)
        return;
    for (const FixIt &f : d.fixits) {
      uint32_t at = f.range.begin.offset - lineStart; // bytes into the line
      std::string pad;
      for (uint32_t i = 0; i < at; ++i)
        if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80)
          pad += line[i] == '\t' ? '\t' : ' ';
      size_t width = 0; // in characters, as pad is
      for (unsigned char c : fix)
        width += (c & 0xC0) != 0x80;
      if (pad.size() < width)
        return; // two fix-its would overlap on one line: none rather than a garbled one
      fix += pad.substr(width) + f.replacement;
    }
    if (!fix.empty())
      fmt::print(out_, "{}{}{}\n", color_ ? "\033[0;32m" : "", fix, reset);
  };
  emit(d.range, d.severity, d.message, diagInfo(d.code).code);
  for (const DiagNote &n : d.notes)
    emit(n.range, Severity::Note, n.message, nullptr);
}

void DiagEngine::finish() {
  syncFoldNotes();
  if (format_ == DiagFormat::Text) {
    // Printed here, not as reported: a diagnostic's fold note is final only now.
    for (; printed_ < kept_.size(); ++printed_)
      printText(kept_[printed_]);
    if (suppressed_)
      fmt::print(out_, "fabc: note: {} more diagnostics not shown (error limit reached; see --error-limit)\n",
                 suppressed_);
    if (unshown_)
      fmt::print(out_, "fabc: note: {} more diagnostic{} not shown (a check shows at most 20 of its kind; "
                       "all are counted)\n",
                 unshown_, unshown_ == 1 ? "" : "s");
  } else {
    DiagReport local;
    DiagReport &r = report_ ? *report_ : local;
    // What earlier finish() calls handed over is not handed over again.
    for (size_t i = handed_.kept; i < kept_.size(); ++i) {
      const Diagnostic &d = kept_[i];
      DiagReport::Entry e{d.code, d.severity, d.message, DiagReport::resolve(sm_, d.range), {}, d.more, {}};
      if (format_ == DiagFormat::Sarif && e.loc.valid && !e.loc.file.empty() && e.loc.file[0] == '<') {
        // A made-up file ("<command line>" of -D) is no artifact: SARIF says where in the
        // message and points at the input as a whole.
        e.notes.insert(e.notes.begin(), {DiagReport::Loc{}, fmt::format("at {}:{}:{}", e.loc.file, e.loc.line,
                                                                        e.loc.col)});
        e.loc = {};
      }
      if (!e.loc.valid)
        e.loc.file = sarifInput(); // not a location (JSON prints none): the input, for SARIF
      for (const DiagNote &n : d.notes)
        e.notes.push_back({DiagReport::resolve(sm_, n.range), n.message});
      for (const FixIt &f : d.fixits)
        e.fixits.push_back({DiagReport::resolveExact(sm_, f.range), f.replacement});
      r.add(std::move(e));
    }
    // Not shown, in the documents: past the error limit or past a check's own limit.
    r.count(errors_ - handed_.errors, warnings_ - handed_.warnings,
            suppressed_ + unshown_ - handed_.suppressed);
    handed_ = {kept_.size(), errors_, warnings_, suppressed_ + unshown_};
    if (!report_)
      local.print(out_, format_);
  }
  folds_.clear(); // what is printed or handed over is final: later repeats start anew
  std::fflush(out_);
}

static uint32_t codePoints(std::string_view s) {
  uint32_t n = 0;
  for (unsigned char c : s)
    n += (c & 0xC0) != 0x80;
  return n;
}

DiagReport::Loc DiagReport::resolve(const SourceManager &sm, SourceRange r) {
  Loc l;
  if (!r.begin.valid() || r.begin.file >= sm.size())
    return l;
  l.valid = true;
  l.file = sm.path(r.begin.file);
  LineCol lc = sm.lineCol(r.begin);
  l.line = lc.line;
  l.col = lc.col;
  l.length = r.length;
  std::string_view line = sm.lineText(r.begin);
  l.charCol = codePoints(line.substr(0, std::min<size_t>(lc.col - 1, line.size()))) + 1;
  size_t size = sm.text(r.begin.file).size();
  SourceLoc end{r.begin.file, uint32_t(std::min<uint64_t>(uint64_t(r.begin.offset) + r.length, size))};
  LineCol ec = sm.lineCol(end);
  std::string_view endLine = sm.lineText(end);
  l.endLine = ec.line;
  l.endCharCol = codePoints(endLine.substr(0, std::min<size_t>(ec.col - 1, endLine.size()))) + 1;
  if (l.endLine == l.line && l.endCharCol <= l.charCol)
    l.endCharCol = l.charCol + 1; // never an empty region
  return l;
}

DiagReport::Loc DiagReport::resolveExact(const SourceManager &sm, SourceRange r) {
  Loc l = resolve(sm, r);
  if (l.valid && r.length == 0) {
    l.endLine = l.line;
    l.endCharCol = l.charCol;
  }
  return l;
}

void DiagReport::print(FILE *out, DiagFormat f) const {
  if (f == DiagFormat::Json)
    printJson(out);
  else if (f == DiagFormat::Sarif)
    printSarif(out);
}

namespace {
// Diagnostics documents are small: one buffer, written once.
JsonWriter::Sink toFile(FILE *out) {
  return [out](std::string_view s) { std::fwrite(s.data(), 1, s.size(), out); };
}

void locJson(JsonWriter &j, const DiagReport::Loc &l) {
  if (!l.valid)
    return j.null();
  j.beginObject(JsonLayout::Inline);
  j.key("file").string(l.file);
  j.key("line").integer(l.line);
  j.key("column").integer(l.col);
  j.key("length").integer(l.length);
  j.endObject();
}
} // namespace

void DiagReport::printJson(FILE *out) const {
  JsonWriter j(toFile(out));
  j.beginObject();
  j.key("diagnostics").beginArray();
  for (const Entry &d : entries_) {
    j.beginObject(JsonLayout::Inline);
    j.key("code").string(fmt::format("FAB-{}", diagInfo(d.code).code));
    j.key("severity").string(sevName(d.severity));
    j.key("message").string(d.message);
    j.key("location");
    locJson(j, d.loc);
    j.key("notes").beginArray(JsonLayout::Inline);
    for (const auto &n : d.notes) {
      j.beginObject(JsonLayout::Inline);
      j.key("message").string(n.second);
      j.key("location");
      locJson(j, n.first);
      j.endObject();
    }
    j.endArray();
    if (d.folded)
      j.key("folded").integer(d.folded);
    if (!d.fixits.empty()) {
      j.key("fixits").beginArray(JsonLayout::Inline);
      for (const auto &f : d.fixits) {
        j.beginObject(JsonLayout::Inline);
        j.key("location");
        locJson(j, f.first);
        j.key("replacement").string(f.second);
        j.endObject();
      }
      j.endArray();
    }
    j.endObject();
  }
  j.endArray();
  j.key("errors").integer(errors_);
  j.key("warnings").integer(warnings_);
  j.key("suppressed").integer(suppressed_);
  j.endObject();
}

std::string percentEncode(std::string_view path, const char *keep) {
  static const char *hex = "0123456789ABCDEF";
  std::string r;
  for (unsigned char c : path) {
    if (std::isalnum(c) || (c && std::strchr(keep, c)))
      r += char(c);
    else {
      r += '%';
      r += hex[c >> 4];
      r += hex[c & 15];
    }
  }
  return r;
}

std::string pathToUri(std::string_view path) {
  // RFC 3986 path characters, minus ':' (a relative reference's first segment must not
  // look like a scheme).
  return (!path.empty() && path[0] == '/' ? "file://" : "") + percentEncode(path, "-._~!$&'()*+,;=@/");
}

} // namespace fabc
