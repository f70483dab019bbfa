#pragma once
// The one diagnostic engine: clang-style text (file:line:col, caret, notes), JSON and
// SARIF 2.1.0. Codes come from DiagCodes.def.
#include "diag/Source.h"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <unordered_set>
#include <vector>

namespace fabc {

enum class DiagCode : uint16_t {
#define DIAG(CODE, SEV, SUMMARY, HELP) CODE,
#include "diag/DiagCodes.def"
#undef DIAG
  Count
};

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

struct Diagnostic {
  DiagCode code;
  Severity severity;
  SourceRange range;
  std::string message;
  std::vector<DiagNote> notes;
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
  };
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

class DiagEngine {
public:
  explicit DiagEngine(const SourceManager &sm) : sm_(sm) {}

  void setFormat(DiagFormat f) { format_ = f; }
  void setColor(bool on) { color_ = on; }
  void setWarningsAsErrors(bool on) { werror_ = on; }
  void disable(DiagCode c) { disabled_.insert(uint16_t(c)); }
  void setErrorLimit(unsigned n) { errorLimit_ = n; }
  void setOutput(FILE *f) { out_ = f; }
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

  // Prints what is pending (text mode prints each diagnostic when the next one starts
  // so that notes are attached) and, for JSON/SARIF, the whole document.
  void finish();

  unsigned errors() const { return errors_; }
  unsigned warnings() const { return warnings_; }
  bool hasErrors() const { return errors_ > 0; }
  // True once the error limit is hit: callers may stop early.
  bool tooManyErrors() const { return errorLimit_ && errors_ >= errorLimit_; }
  const std::vector<Diagnostic> &all() const { return kept_; }

private:
  void flushPending();
  void printText(const Diagnostic &d);

  const SourceManager &sm_;
  DiagFormat format_ = DiagFormat::Text;
  bool color_ = false, werror_ = false;
  unsigned errorLimit_ = 50, errors_ = 0, warnings_ = 0, suppressed_ = 0;
  std::unordered_set<uint16_t> disabled_;
  FILE *out_ = stderr;
  DiagReport *report_ = nullptr;
  struct {
    size_t kept = 0;
    unsigned errors = 0, warnings = 0, suppressed = 0;
  } handed_;
  std::vector<Diagnostic> kept_; // every reported diagnostic (bounded by the limit)
  bool pending_ = false;
  Diagnostic sink_; // target for notes on dropped diagnostics
};

// A path as a URI reference (RFC 3986): percent-encoded, "file://" for absolute paths.
std::string pathToUri(std::string_view path);

} // namespace fabc
