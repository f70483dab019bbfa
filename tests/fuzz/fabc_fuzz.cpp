// libFuzzer target: one input is the text of a .fab file, compiled the way `fabc check`
// compiles it (parse, imports from the stdlib, elaboration with small limits, every pass)
// and, when it parses, formatted the way `fabc fmt` formats it. What counts as a bug:
//   - a crash, a sanitizer report (ASan, UBSan), an uncaught exception, a hang or
//     unbounded memory (libFuzzer's -timeout and -rss_limit_mb);
//   - an error count without a diagnostic, or a diagnostic with a location outside its
//     file;
//   - fmt failing its own self-check (FAB-E0160) on a file that parses, or not being
//     idempotent (formatting the output again changes it).
// Build: -DFABC_FUZZ=ON with clang-14 (CMakePresets.json 'fuzz'); run: scripts/fuzz.sh.
#include "Compilation.h"
#include "ast/Format.h"
#include "ast/Parser.h"
#include "diag/Diag.h"

#include <pthread.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

FILE *devNull() {
  static FILE *f = std::fopen("/dev/null", "w");
  return f;
}

[[noreturn]] void bug(const char *what, const std::string &detail = {}) {
  std::fprintf(stderr, "fabc_fuzz: %s\n%s\n", what, detail.c_str());
  std::fflush(stderr);
  std::abort();
}

// Small limits: an input explores the compiler, it does not build a large fabric.
constexpr uint64_t kMaxFile = 1 << 20;

void checkLocations(const fabc::SourceManager &sm, const fabc::DiagEngine &diags) {
  auto check = [&](fabc::SourceRange r) {
    if (!r.begin.valid())
      return;
    if (r.begin.file >= sm.size() || r.begin.offset > sm.text(r.begin.file).size())
      bug("diagnostic location outside its file");
    (void)sm.lineCol(r.begin);
    (void)sm.lineText(r.begin);
  };
  for (const fabc::Diagnostic &d : diags.all()) {
    check(d.range);
    for (const fabc::DiagNote &n : d.notes)
      check(n.range);
  }
}

void compileOne(const std::string &text) {
  using namespace fabc;
  CompileOptions co;
  co.standardSearchPath = false;
  co.includes = {FABC_SOURCE_STDLIB};
  co.maxFileSize = kMaxFile;
  co.limits.maxDevices = 2000;
  co.limits.maxLinks = 20000;
  co.limits.maxSteps = 200000;
  co.limits.maxDepth = 16;
  co.allowLibrary = true; // like fabc check: a file without a fabric block is a library
  Compilation c(co);
  const SourceManager &sm = c.sources();
  DiagEngine &diags = c.diags();
  // The printers run too (carets, JSON and SARIF escaping), into /dev/null.
  DiagFormat format = DiagFormat(text.size() % 3);
  DiagReport report;
  diags.setFormat(format);
  diags.setOutput(devNull());
  if (format != DiagFormat::Text)
    diags.setReport(&report);
  diags.setErrorLimit(20);
  bool ok = c.run(CompileInput::source("fuzz.fab", text));
  if (!ok && !diags.hasErrors())
    bug("a stage failed without reporting an error");
  if (diags.hasErrors() && diags.all().empty())
    bug("errors counted but none kept");
  checkLocations(sm, diags);
  diags.finish();
  if (format != DiagFormat::Text)
    report.print(devNull(), format);

  // fmt: only for files that parse (fmt reports syntax errors itself, that is no bug).
  if (!c.parsed())
    return;
  SourceManager fsm;
  DiagEngine fdiags(fsm);
  fdiags.setOutput(devNull());
  uint32_t id = fsm.add("fuzz.fab", text);
  FormatOptions fo;
  fo.parse.maxTokens = kMaxFile / 16;
  std::string once;
  if (!formatSource(id, fsm, fdiags, once, fo)) {
    for (const Diagnostic &d : fdiags.all())
      if (d.code == DiagCode::E0160)
        bug("fmt failed its self-check on a file that parses", d.message);
    return; // a limit of the formatter (reported), not a bug
  }
  uint32_t id2 = fsm.add("fuzz-formatted.fab", once);
  std::string twice;
  if (!formatSource(id2, fsm, fdiags, twice, fo))
    bug("fmt's output does not format again", once);
  if (once != twice)
    bug("fmt is not idempotent", "--- once:\n" + once + "\n--- twice:\n" + twice);
  fdiags.finish();
}

struct Job {
  const std::string *text;
};

void *threadMain(void *p) {
  compileOne(*static_cast<Job *>(p)->text);
  return nullptr;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxFile)
    return -1; // not added to the corpus
  std::string text(reinterpret_cast<const char *>(data), size);
  // As in fabc (driverMain): the pipeline runs on a thread with a 256 MB stack, so that
  // nesting up to the parser's limits never meets the main thread's 8 MB.
  Job job{&text};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(256) << 20);
  pthread_t t;
  if (pthread_create(&t, &attr, threadMain, &job) != 0)
    compileOne(text);
  else
    pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  return 0;
}
