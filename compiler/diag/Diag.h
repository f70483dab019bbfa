#pragma once
// The one diagnostic engine: clang-style text (file:line:col, caret, notes), JSON and
// SARIF 2.1.0. Codes come from DiagCodes.def.
#include "diag/Source.h"

#include <fmt/format.h>

#include <functional>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

namespace fabc {

// Declared opaque here: only the files that name a code include diag/DiagCodes.h (the
// enumerators), so adding a code rebuilds those, not every file that reports through
// the engine.
enum class DiagCode : uint16_t;

enum class Severity : uint8_t { Note, Warning, Error };

struct DiagInfo {
  const char *code;
  Severity severity;
  const char *summary;
  const char *help;
};
const DiagInfo &diagInfo(DiagCode c);
// Looks a code up by its text ("E0042", "FAB-E0042", "e0042"); nullptr if unknown.
const DiagInfo *findDiag(std::string_view text, DiagCode *out = nullptr);
size_t diagCount();
// What `fabc explain CODE` prints: code, severity, summary, help and the docs' anchor.
std::string explainText(const DiagInfo &d);

struct DiagNote {
  SourceRange range; // may be invalid: a note without location
  std::string message;
};

// A fix-it, as clang's FixItHint: replace the text of `range` (length 0: insert before
// it) with `replacement`. Attached only where the fix is mechanical and certain (a
// did-you-mean with one nearest name, a value a note says how to write); the text output
// prints it under the caret, JSON and SARIF carry it, the language server makes it a
// code action. docs/decisions/0311-fix-its.md.
struct FixIt {
  SourceRange range;
  std::string replacement;
};

struct Diagnostic {
  DiagCode code;
  Severity severity;
  SourceRange range;
  std::string message;
  std::vector<DiagNote> notes;
  std::vector<FixIt> fixits; // all of them together are the fix
  // Folding: later diagnostics of this code at this location counted into this one
  // (`more`), and the worst case among all of them as the reporter named it.
  uint32_t more = 0;
  double worst = -HUGE_VAL;
  std::string worstWhat;
  int32_t foldNote = -1; // index in notes of the "N more like this" note, once written
  uint32_t foldOf = ~0u; // the fold sink only: the kept diagnostic it was counted into
};

enum class DiagFormat { Text, Json, Sarif };

// JSON and SARIF are one document per run: the engines of several inputs (check a b c,
// diff, fmt) hand their diagnostics over, resolved to file/line/column, and the report
// prints them once. docs/diagnostics-formats.md describes both documents.
class DiagReport {
public:
  struct Loc {
    bool valid = false;
    std::string file;
    uint32_t line = 0, col = 0, length = 0; // col in bytes (as in the text format)
    uint32_t charCol = 0, endLine = 0, endCharCol = 0; // Unicode code points, end exclusive (SARIF)
  };
  struct Entry {
    DiagCode code;
    Severity severity;
    std::string message;
    Loc loc;
    std::vector<std::pair<Loc, std::string>> notes;
    uint32_t folded = 0; // further diagnostics counted into this one
    std::vector<std::pair<Loc, std::string>> fixits; // where (may be empty: an insertion), what to write
  };
  // A fix-it's range as is (resolve() widens an empty range to one character).
  static Loc resolveExact(const SourceManager &sm, SourceRange r);
  static Loc resolve(const SourceManager &sm, SourceRange r);
  void add(Entry e) { entries_.push_back(std::move(e)); }
  void count(unsigned errors, unsigned warnings, unsigned suppressed) {
    errors_ += errors;
    warnings_ += warnings;
    suppressed_ += suppressed;
  }
  void print(FILE *out, DiagFormat f) const;

private:
  void printJson(FILE *out) const;
  void printSarif(FILE *out) const;
  std::vector<Entry> entries_;
  unsigned errors_ = 0, warnings_ = 0, suppressed_ = 0;
};

namespace detail {
// What a run of reports builds up, apart from the engine's settings. DiagEngine keeps it
// as a base so that replaceWith takes it whole: a field added here goes along.
struct DiagRun {
  unsigned errors_ = 0, warnings_ = 0, suppressed_ = 0;
  unsigned unshown_ = 0; // tally()'d and folded into nothing
  unsigned shownErrors_ = 0, shownWarnings_ = 0; // not counting folded ones: the limits
  struct {
    size_t kept = 0;
    unsigned errors = 0, warnings = 0, suppressed = 0;
  } handed_;
  mutable std::vector<Diagnostic> kept_; // every shown diagnostic (bounded by the limits)
  mutable bool foldsSynced_ = true;      // no `more` changed since the last syncFoldNotes
  size_t printed_ = 0;                   // text: kept_[0, printed_) are printed
  // (code, file, offset) -> index in kept_: the first diagnostic of that code there. As
  // many entries as kept_ at most, so folding a million repeats keeps one diagnostic.
  using FoldKey = std::tuple<uint16_t, uint32_t, uint32_t>; // code, file, offset
  std::map<FoldKey, uint32_t> folds_;
};
} // namespace detail

class DiagEngine : private detail::DiagRun {
public:
  explicit DiagEngine(const SourceManager &sm) : sm_(sm) {}

  void setFormat(DiagFormat f) { format_ = f; }
  void setColor(bool on) { color_ = on; }
  void setWarningsAsErrors(bool on) { werror_ = on; }
  void disable(DiagCode c) { disabled_.insert(uint16_t(c)); }
  // -Werror=CODE: this warning is an error (whatever -w says).
  void promote(DiagCode c) { promoted_.insert(uint16_t(c)); }
  // -w: no warnings (but those promoted to errors).
  void setIgnoreWarnings(bool on) { noWarnings_ = on; }
  void setErrorLimit(unsigned n) { errorLimit_ = n; }
  void setOutput(FILE *f) { out_ = f; }
  FILE *output() const { return out_; }
  // JSON/SARIF: finish() hands the diagnostics to `r` instead of printing a document.
  void setReport(DiagReport *r) { report_ = r; }

  // Reports a diagnostic; returns a handle to attach notes until the next report.
  Diagnostic *report(DiagCode code, SourceRange range, std::string message);
  template <typename... Args>
  Diagnostic *report(DiagCode code, SourceRange range, fmt::format_string<Args...> f,
                     Args &&...args) {
    return report(code, range, fmt::format(f, std::forward<Args>(args)...));
  }
  static void note(Diagnostic *d, SourceRange r, std::string msg) {
    if (d)
      d->notes.push_back({r, std::move(msg)});
  }
  // An instantiation backtrace of n frames as notes on d, innermost first: `frame(k)`
  // adds the k-th. At most kBacktraceLimit notes (the innermost and the outermost
  // halves) and one that counts those skipped; nothing on a folded diagnostic.
  static constexpr size_t kBacktraceLimit = 10;
  template <typename Frame> static void backtrace(Diagnostic *d, size_t n, Frame &&frame) {
    if (!d || isFolded(d))
      return;
    size_t head = n > kBacktraceLimit ? kBacktraceLimit / 2 : n; // innermost shown
    size_t tail = n > kBacktraceLimit ? kBacktraceLimit - head : 0; // outermost shown
    for (size_t k = 0; k < n; ++k) {
      if (k == head && tail) {
        note(d, {}, fmt::format("(skipping {} contexts in the backtrace)", n - head - tail));
        k = n - tail;
      }
      frame(k);
    }
  }
  static void fixit(Diagnostic *d, SourceRange r, std::string replacement) {
    if (d && r.begin.valid())
      d->fixits.push_back({r, std::move(replacement)});
  }
  // Did-you-mean: the one name of `candidates` nearest to `word` (at most one edit per
  // three characters, as clang; a transposition is one edit; a tie suggests nothing);
  // when there is one and the text at `r` is
  // `word` (or "word", quoted), appends "; did you mean 'NAME'?" to d's message and a
  // fix-it that writes it there. Returns the suggestion, empty if none.
  std::string_view suggest(Diagnostic *d, SourceRange r, std::string_view word,
                           const std::vector<std::string_view> &candidates);
  // The same over a list of names separated by spaces or commas ("row rack u").
  std::string_view suggest(Diagnostic *d, SourceRange r, std::string_view word, std::string_view names);
  // The range of the string literal "text" inside r (an element of a list of strings;
  // `nth`: its (nth + 1)-th occurrence, for a repeat), so that a caret points at the
  // element rather than at the whole list; r when the text there is not a plain literal
  // of it (an expression, an escape, a -D value).
  SourceRange element(SourceRange r, std::string_view text, unsigned nth = 0) const;
  // A diagnostic a check finds but does not show (it shows at most 20 of its kind):
  // counted as report() counts it (the totals, the exit status, a fold's "N more like
  // this"), never printed; the rest is summed in one note.
  void tally(DiagCode code, SourceRange range);
  // Names how bad this case is (`magnitude`: larger is worse) and what it is ("rack
  // B.H.row0.rack3 at 56.5 kW"): when diagnostics of one code at one location are folded
  // into the first, its note names the worst of them.
  void worst(Diagnostic *d, double magnitude, std::string what);
  // True for the handle report() gives a repeat it counted into an earlier diagnostic.
  static bool isFolded(const Diagnostic *d) { return d && d->foldOf != ~0u; }

  // Prints what is pending (text mode prints each diagnostic when the next one starts
  // so that notes are attached) and, for JSON/SARIF, the whole document.
  void finish();

  unsigned errors() const { return errors_; }
  unsigned warnings() const { return warnings_; }
  bool hasErrors() const { return errors_ > 0; }
  // True once the error limit is hit: callers may stop early.
  // Folded diagnostics do not count: one mistake repeated in a loop is one diagnostic.
  bool tooManyErrors() const { return errorLimit_ && shownErrors_ >= errorLimit_; }
  // Every shown diagnostic, with its fold note up to date.
  const std::vector<Diagnostic> &all() const {
    syncFoldNotes();
    return kept_;
  }

  // What the engine holds at one point of a run, to take the diagnostics reported after
  // it into another engine (Compilation's reuse across an edit: docs/decisions/0621).
  struct Mark {
    size_t kept = 0;
    unsigned errors = 0, warnings = 0, suppressed = 0, unshown = 0, shownErrors = 0, shownWarnings = 0;
    // Equal marks of one engine: nothing was reported between them (kept, tallied,
    // folded into an earlier diagnostic, or suppressed).
    bool operator==(const Mark &o) const {
      return kept == o.kept && errors == o.errors && warnings == o.warnings && suppressed == o.suppressed &&
             unshown == o.unshown && shownErrors == o.shownErrors && shownWarnings == o.shownWarnings;
    }
    bool operator!=(const Mark &o) const { return !(*this == o); }
  };
  Mark mark() const {
    return {kept_.size(), errors_, warnings_, suppressed_, unshown_, shownErrors_, shownWarnings_};
  }
  // Takes every diagnostic and count of `other` (a copy of this engine that went on),
  // keeping this one's settings.
  void replaceWith(DiagEngine &&other);
  // An engine with this one's settings (format, limits, disabled and promoted codes) and
  // nothing reported: checks run on another thread report into it, and adopt() takes
  // their diagnostics over in order (passes::rerunPasses).
  DiagEngine emptyCopy() const;
  // The diagnostics `from` kept between two of its marks, each range (and its notes' and
  // fix-its') passed through `map`, appended as if reported here, with their counts.
  // False, and nothing changed, when `map` refuses a range or when reporting them here
  // would have met a limit (or a fold) that they did not meet there: the caller then
  // reports them afresh.
  bool adopt(const DiagEngine &from, const Mark &begin, const Mark &end,
             const std::function<bool(SourceRange &)> &map);
  // The diagnostics a check or pass run on another thread reported into an emptyCopy of
  // this engine, between two of its marks, as adopt() takes them (places unchanged); also
  // false when one was tallied, which reported here could have folded into an earlier
  // diagnostic that `from` does not hold. False: the caller runs it again here.
  bool adoptFromBeside(const DiagEngine &from, const Mark &begin, const Mark &end);

private:
  bool admit(DiagCode code, SourceRange range, Severity &sev, uint32_t *fold);
  void syncFoldNotes() const;
  void printText(const Diagnostic &d);

  const SourceManager &sm_;
  DiagFormat format_ = DiagFormat::Text;
  bool color_ = false, werror_ = false, noWarnings_ = false;
  unsigned errorLimit_ = 50;
  std::unordered_set<uint16_t> disabled_, promoted_;
  FILE *out_ = stderr;
  DiagReport *report_ = nullptr;
  static constexpr unsigned kWarningsPerError = 4; // warnings shown: this many times the error limit
  static FoldKey foldKey(DiagCode code, SourceRange range) {
    return {uint16_t(code), range.begin.file, range.begin.offset};
  }
  Diagnostic sink_;     // target for notes on dropped diagnostics
  Diagnostic foldSink_; // target for notes on folded ones (foldOf says into which)
};

// A path as a URI reference (RFC 3986): percent-encoded, "file://" for absolute paths.
std::string pathToUri(std::string_view path);
// `path` with every byte percent-encoded but ASCII letters, digits and those in `keep`.
std::string percentEncode(std::string_view path, const char *keep);

} // namespace fabc
