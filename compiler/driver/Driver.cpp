// The fabc command line: subcommands, options, the pipeline and its outputs.
#include "driver/Driver.h"

#include "analysis/Analyses.h"
#include "ast/Parser.h"
#include "backends/Backend.h"
#include "backends/diff/Diff.h"
#include "checks/OutputChecks.h"
#include "driver/Commands.h"
#include "diag/Diag.h"
#include "elab/Elaborator.h"
#include "passes/Passes.h"
#include "sema/Imports.h"

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fabc {
namespace {

constexpr int ExitOk = 0, ExitErrors = 1, ExitUsage = 2;

const char *kUsage = R"(usage: fabc <command> [options]

commands:
  build FILE        check the design and write its outputs (to -o DIR)
  check FILE...     check designs only, for CI and pre-commit (no outputs)
  diff OLD NEW      compile two revisions and print the recabling plan between them (--format=json)
  fmt FILE...       print FILE in the canonical layout (-i: rewrite it, --check: list files that would change)
  explain CODE      describe a diagnostic code, e.g. fabc explain E0042 (--list: every code)
  backends          list the output backends for --emit
  version           print the version

options:
  -o DIR                     output directory (build; default: fabc-out)
  --emit=LIST                backends to run, comma-separated, or 'all' (default: see 'fabc backends')
  -I DIR                     add DIR to the import search path (also FABC_PATH, colon-separated)
  -D NAME=VALUE              override 'param NAME' with a Fabric expression, e.g. -D su=2
  --top NAME                 the fabric to build when a file declares several
  --diagnostics-format=F     text (default), json or sarif
  --color=WHEN               auto (default: on a terminal), always, never
  -Werror                    treat warnings as errors
  -Wno-CODE                  silence one diagnostic, e.g. -Wno-W0101
  --error-limit=N            stop after N errors (default 50; 0: no limit)
  --max-devices=N --max-links=N --max-steps=N --max-depth=N
                             elaboration limits (a design past them is an error, never an OOM)
  --max-file-size=BYTES      largest source file read (default 64 MiB; suffixes K, M, G)
  -i                         fmt: rewrite the files in place (atomically, only if they change)
  --check                    fmt: print the files that are not formatted, exit 1 if any
  --width=N                  fmt: the line width a brace list must fit to stay on one line (default 100)
  --format=F                 diff: text (default) or json
  --exit-code                diff: exit 3 if the designs differ (0 if they do not)
  --time-stages              print the wall time of each stage and the peak memory to stderr
  -q, --quiet                no summary line

exit status: 0 clean, 1 errors in the design (fmt --check: files to reformat), 2 usage or I/O
error, 3 (diff --exit-code) the designs differ
)";

struct Options {
  std::string command;
  std::vector<std::string> inputs;
  std::string outDir = "fabc-out";
  std::vector<std::string> emit;
  std::vector<std::string> includes;
  std::vector<std::pair<std::string, std::string>> defines;
  std::string top;
  DiagFormat format = DiagFormat::Text;
  int color = -1; // -1 auto
  bool werror = false, timeStages = false, quiet = false;
  bool inPlace = false, fmtCheck = false, list = false, diffJson = false, exitCode = false;
  unsigned width = 100;
  uint64_t maxFileSize = 64ull << 20;
  DiagReport *report = nullptr; // JSON/SARIF: one document for all inputs
  std::vector<std::string> disabled;
  unsigned errorLimit = 50;
  ElabLimits limits;
};

bool parseUInt(const std::string &s, uint64_t &out) {
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  out = std::strtoull(s.c_str(), nullptr, 10);
  return true;
}

int usageError(const std::string &msg) {
  fmt::print(stderr, "fabc: error: {}\n(run 'fabc --help' for usage)\n", msg);
  return ExitUsage;
}

// Returns -1 on success, else the exit code.
int parseArgs(int argc, char **argv, Options &o) {
  if (argc < 2) {
    fmt::print(stderr, "{}", kUsage);
    return ExitUsage;
  }
  o.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag, std::string &out) -> bool {
      size_t n = std::strlen(flag);
      if (a == flag) {
        if (i + 1 >= argc)
          return false;
        out = argv[++i];
        return true;
      }
      if (a.size() > n && a.compare(0, n, flag) == 0 && (a[n] == '=' || flag[1] != '-')) {
        out = a.substr(n + (a[n] == '=' ? 1 : 0));
        return true;
      }
      return false;
    };
    std::string v;
    uint64_t n;
    if (a == "-h" || a == "--help") {
      fmt::print("{}", kUsage);
      return ExitOk;
    } else if (a == "-Werror") {
      o.werror = true;
    } else if (a.rfind("-Wno-", 0) == 0) {
      std::string code = a.substr(5);
      const DiagInfo *info = findDiag(code);
      if (!info)
        return usageError("unknown diagnostic code '" + code + "' in " + a);
      // Errors guard the IR every later stage relies on: only warnings can be silenced.
      if (info->severity != Severity::Warning)
        return usageError(a + ": FAB-" + info->code + " is an error; only warnings can be silenced");
      o.disabled.push_back(code);
    } else if (a == "--time-stages") {
      o.timeStages = true;
    } else if (a == "-q" || a == "--quiet") {
      o.quiet = true;
    } else if (a == "-i") {
      o.inPlace = true;
    } else if (a == "--check") {
      o.fmtCheck = true;
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--exit-code") {
      o.exitCode = true;
    } else if (value("--format", v)) {
      if (v != "text" && v != "json")
        return usageError("--format is text or json, not '" + v + "'");
      o.diffJson = v == "json";
    } else if (value("--width", v)) {
      if (!parseUInt(v, n) || n < 20 || n > 1000)
        return usageError("--width takes a number from 20 to 1000");
      o.width = unsigned(n);
    } else if (value("--max-file-size", v)) {
      uint64_t mul = 1;
      if (!v.empty() && (v.back() == 'K' || v.back() == 'M' || v.back() == 'G')) {
        mul = v.back() == 'K' ? 1ull << 10 : v.back() == 'M' ? 1ull << 20 : 1ull << 30;
        v.pop_back();
      }
      if (!parseUInt(v, n) || n == 0 || n > (uint64_t(UINT32_MAX) / mul))
        return usageError("--max-file-size takes a size in bytes (K, M, G suffixes) up to 4 GiB");
      o.maxFileSize = n * mul;
    } else if (value("-o", v)) {
      o.outDir = v;
    } else if (value("--emit", v)) {
      size_t p = 0;
      while (p <= v.size()) {
        size_t c = v.find(',', p);
        std::string name = v.substr(p, c == std::string::npos ? std::string::npos : c - p);
        if (name == "all") {
          for (const Backend &b : backends())
            o.emit.push_back(b.name);
        } else if (!name.empty()) {
          if (!findBackend(name))
            return usageError("unknown backend '" + name + "' (see 'fabc backends')");
          o.emit.push_back(name);
        }
        if (c == std::string::npos)
          break;
        p = c + 1;
      }
    } else if (value("-I", v)) {
      o.includes.push_back(v);
    } else if (value("-D", v)) {
      size_t eq = v.find('=');
      std::string name = v.substr(0, eq);
      bool ident = !name.empty() && (std::isalpha((unsigned char)name[0]) || name[0] == '_') &&
                   name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
                       std::string::npos;
      if (eq == std::string::npos || !ident || eq + 1 >= v.size())
        return usageError("-D takes NAME=VALUE, not '" + v + "'");
      o.defines.push_back({name, v.substr(eq + 1)});
    } else if (value("--top", v)) {
      o.top = v;
    } else if (value("--diagnostics-format", v)) {
      if (v == "text") o.format = DiagFormat::Text;
      else if (v == "json") o.format = DiagFormat::Json;
      else if (v == "sarif") o.format = DiagFormat::Sarif;
      else return usageError("--diagnostics-format is text, json or sarif, not '" + v + "'");
    } else if (value("--color", v)) {
      if (v == "auto") o.color = -1;
      else if (v == "always") o.color = 1;
      else if (v == "never") o.color = 0;
      else return usageError("--color is auto, always or never");
    } else if (value("--error-limit", v)) {
      if (!parseUInt(v, n) || n > UINT_MAX)
        return usageError("--error-limit takes a number");
      o.errorLimit = unsigned(n);
    } else if (value("--max-devices", v) || value("--max-links", v) || value("--max-steps", v) ||
               value("--max-depth", v)) {
      if (!parseUInt(v, n))
        return usageError("limits take a number: " + a);
      if (a.rfind("--max-devices", 0) == 0) o.limits.maxDevices = n;
      else if (a.rfind("--max-links", 0) == 0) o.limits.maxLinks = n;
      else if (a.rfind("--max-steps", 0) == 0) o.limits.maxSteps = n;
      else o.limits.maxDepth = uint32_t(std::min<uint64_t>(n, 100000));
    } else if (a == "-") {
      o.inputs.push_back(a);
    } else if (!a.empty() && a[0] == '-') {
      return usageError("unknown option '" + a + "'");
    } else {
      o.inputs.push_back(a);
    }
  }
  return -1;
}

std::string dirOf(const std::string &p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}

bool isDir(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> searchPath(const Options &o, const std::string &input) {
  std::vector<std::string> path;
  if (input != "-")
    path.push_back(dirOf(input));
  for (const std::string &i : o.includes)
    path.push_back(i);
  if (const char *env = std::getenv("FABC_PATH")) {
    std::string s = env;
    size_t p = 0;
    while (p <= s.size()) {
      size_t c = s.find(':', p);
      std::string d = s.substr(p, c == std::string::npos ? std::string::npos : c - p);
      if (!d.empty())
        path.push_back(d);
      if (c == std::string::npos)
        break;
      p = c + 1;
    }
  }
  // The stdlib: installed next to the binary, else the source tree it was built from.
  char exe[4096];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    std::string installed = dirOf(dirOf(exe)) + "/share/fabc/stdlib";
    if (isDir(installed))
      path.push_back(installed);
  }
  if (isDir(FABC_SOURCE_STDLIB))
    path.push_back(FABC_SOURCE_STDLIB);
  else if (isDir(FABC_INSTALL_STDLIB))
    path.push_back(FABC_INSTALL_STDLIB);
  return path;
}

double peakRssMiB() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;
}

class StageTimer {
public:
  explicit StageTimer(bool on) : on_(on) { last_ = Clock::now(); }
  void operator()(const char *next) {
    auto now = Clock::now();
    if (on_ && current_)
      times_.push_back({current_, std::chrono::duration<double>(now - last_).count()});
    current_ = next;
    last_ = now;
  }
  void report() {
    (*this)(nullptr);
    if (!on_)
      return;
    double total = 0;
    fmt::print(stderr, "fabc: stage times\n");
    for (auto &t : times_) {
      fmt::print(stderr, "  {:<22} {:10.3f} s\n", t.first, t.second);
      total += t.second;
    }
    fmt::print(stderr, "  {:<22} {:10.3f} s\n  {:<22} {:10.1f} MiB\n", "total", total, "peak RSS", peakRssMiB());
  }

private:
  using Clock = std::chrono::steady_clock;
  bool on_;
  const char *current_ = nullptr;
  Clock::time_point last_;
  std::vector<std::pair<std::string, double>> times_;
};

void setupDiags(const Options &o, DiagEngine &diags) {
  diags.setFormat(o.format);
  diags.setReport(o.report);
  diags.setColor(o.color == 1 || (o.color == -1 && o.format == DiagFormat::Text && ::isatty(2)));
  diags.setWarningsAsErrors(o.werror);
  diags.setErrorLimit(o.errorLimit);
  for (const std::string &c : o.disabled) {
    DiagCode code;
    findDiag(c, &code);
    diags.disable(code);
  }
}

// The front and middle of a compilation: load, elaborate, run the passes. False if
// errors were reported; `ioError` when the input could not be read at all.
bool compileToIR(const Options &o, const std::string &input, SourceManager &sm, DiagEngine &diags,
                 ast::Context &ctx, ir::Fabric &F, StageTimer &timer, bool &ioError, bool allowLibrary = false) {
  timer("parse");
  LoadOptions lo;
  lo.searchPath = searchPath(o, input);
  lo.maxFileSize = o.maxFileSize;
  lo.parse.maxTokens = std::max<uint64_t>(o.maxFileSize / 16, 1024);
  LoadedProgram prog;
  if (input == "-") {
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0 && text.size() <= lo.maxFileSize)
      text.append(buf, n);
    loadProgramText("<stdin>", std::move(text), lo, sm, diags, ctx, prog);
  } else {
    std::string text, err;
    if (!readSource(input, lo.maxFileSize, text, err)) {
      diags.report(err.rfind("too large", 0) == 0 ? DiagCode::E0005 : DiagCode::E0001, {}, "cannot read '{}': {}", input, err);
      ioError = err.rfind("too large", 0) != 0; // a file past --max-file-size is a diagnosed input, not an I/O failure
    } else {
      loadProgramText(input, std::move(text), lo, sm, diags, ctx, prog);
    }
  }
  if (!o.defines.empty() && !diags.hasErrors())
    prog.defines = parseDefines(o.defines, sm, diags, ctx);
  bool ok = !diags.hasErrors();
  if (ok) {
    timer("elaborate");
    ElabOptions eo;
    eo.limits = o.limits;
    eo.top = o.top;
    eo.allowLibrary = allowLibrary;
    ok = elaborate(prog, eo, diags, F);
  }
  if (ok)
    ok = runPasses(F, diags, [&](const char *stage) { timer(stage); });
  return ok;
}

// The backends of --emit, in order, each once; the default set without --emit.
std::vector<std::string> emitSet(const Options &o) {
  std::vector<std::string> emit;
  for (const std::string &name : o.emit)
    if (std::find(emit.begin(), emit.end(), name) == emit.end())
      emit.push_back(name);
  if (o.emit.empty())
    for (const Backend &b : backends())
      if (b.byDefault)
        emit.push_back(b.name);
  return emit;
}

// One compilation: load, elaborate, run the passes, then the output checks of the
// --emit set (the default backends without it) and, for build, the backends. check and
// build run the same checks in the same order, so they report the same diagnostics
// (docs/design-decisions.md#output-checks); build runs each backend's checks just before
// it, so that the report lists the diagnostics of the outputs before it, as it always has.
int compile(const Options &o, const std::string &input, bool build) {
  SourceManager sm;
  DiagEngine diags(sm);
  setupDiags(o, diags);
  StageTimer timer(o.timeStages);
  ast::Context ctx;
  ir::Fabric F;
  bool ioError = false;
  bool ok = compileToIR(o, input, sm, diags, ctx, F, timer, ioError, /*allowLibrary=*/!build);
  bool wrote = false;
  std::vector<std::string> files;
  Analyses an(F); // computed on first use, once, for the checks and every backend
  const std::vector<std::string> emit = emitSet(o);
  if (ok && !build && !F.name.empty()) { // a library file (no fabric) has no outputs to check
    timer("output checks");
    for (const std::string &name : emit)
      if (!checks::checkOutput(name, F, an, diags) || diags.hasErrors()) {
        ok = false;
        break;
      }
  }
  if (ok && build) {
    OutputDir out(o.outDir);
    BuildInfo info{input, FABC_VERSION};
    for (const std::string &name : emit) {
      const Backend *b = findBackend(name);
      timer(b->name);
      if (!checks::checkOutput(name, F, an, diags) || diags.hasErrors()) {
        ok = false;
        break;
      }
      BackendContext bc{F, an, out, diags, info, &sm};
      if (!b->run(bc) || diags.hasErrors()) {
        ok = false;
        break;
      }
    }
    timer("commit");
    if (ok) {
      files = out.written();
      if (!out.commit()) {
        fmt::print(stderr, "fabc: error: {}\n", out.error());
        diags.finish();
        return ExitUsage;
      }
      wrote = true;
    } else {
      out.abort();
      ioError |= !diags.hasErrors(); // a backend failed to write
    }
  }
  diags.finish();
  timer.report();
  if (ok && build && !o.quiet && o.format == DiagFormat::Text) { // check is silent when clean, like a linter
    const ir::Metrics &M = F.metrics;
    fmt::print(stdout, "fabc: {} '{}': {} GPUs, {} devices, {} links{}{}\n", build ? "built" : "checked", F.name, M.gpus,
                 F.numDevices(), F.numLinks(), wrote ? fmt::format(" -> {} ({} files)", o.outDir, files.size()) : "",
                 diags.warnings() ? fmt::format(", {} warning{}", diags.warnings(), diags.warnings() == 1 ? "" : "s") : "");
  }
  if (ioError && !diags.hasErrors())
    return ExitUsage;
  if (ioError)
    return ExitUsage;
  return diags.hasErrors() ? ExitErrors : ExitOk;
}

// fabc diff OLD NEW: both compiled with the same options, then compared (backends/diff).
int diffCommand(const Options &o) {
  if (o.inputs.size() != 2)
    return usageError("diff takes two designs: fabc diff OLD NEW");
  SourceManager sa, sb;
  DiagEngine da(sa), db(sb);
  setupDiags(o, da);
  setupDiags(o, db);
  StageTimer timer(o.timeStages);
  ast::Context ca, cb;
  ir::Fabric A, B;
  bool ioA = false, ioB = false;
  bool okA = compileToIR(o, o.inputs[0], sa, da, ca, A, timer, ioA);
  da.finish();
  bool okB = compileToIR(o, o.inputs[1], sb, db, cb, B, timer, ioB);
  db.finish();
  timer.report();
  if (ioA || ioB)
    return ExitUsage;
  if (!okA || !okB)
    return ExitErrors;
  DiffStats st = diffFabrics({A, o.inputs[0]}, {B, o.inputs[1]}, o.diffJson ? DiffFormat::Json : DiffFormat::Text,
                             stdout);
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return ExitUsage;
  return o.exitCode && st.any() ? 3 : ExitOk;
}

// docs/diagnostics.md puts <a id="fab-e0042"></a> before each code's section.
std::string docAnchor(const DiagInfo &d) {
  std::string r = std::string("fab-") + d.code;
  for (char &c : r)
    c = char(std::tolower((unsigned char)c));
  return r;
}

int explain(const Options &o) {
  if (o.list) {
    // One line per code, in DiagCodes.def order: CODE SEVERITY SUMMARY.
    if (!o.inputs.empty())
      return usageError("explain --list takes no code");
    for (size_t i = 0; i < diagCount(); ++i) {
      const DiagInfo &d = diagInfo(DiagCode(i));
      fmt::print("FAB-{} {:<7} {}\n", d.code, d.severity == Severity::Error ? "error" : "warning", d.summary);
    }
    return ExitOk;
  }
  if (o.inputs.size() != 1)
    return usageError("explain takes one diagnostic code, e.g. fabc explain E0042, or --list");
  const DiagInfo *d = findDiag(o.inputs[0]);
  if (!d)
    return usageError("unknown diagnostic code '" + o.inputs[0] + "' (fabc explain --list shows them all)");
  fmt::print("FAB-{} ({}): {}\n\n{}\n\nSee docs/diagnostics.md#{} for examples.\n", d->code,
             d->severity == Severity::Error ? "error" : "warning", d->summary, d->help, docAnchor(*d));
  return ExitOk;
}

struct ThreadArgs {
  int (*fn)(int, char **);
  int argc;
  char **argv;
  int result;
};

int dispatch(Options &o);

int run(int argc, char **argv) {
  Options o;
  int rc = parseArgs(argc, argv, o);
  if (rc >= 0)
    return rc;
  DiagReport report;
  if (o.format != DiagFormat::Text)
    o.report = &report;
  rc = dispatch(o);
  if (o.report)
    report.print(stderr, o.format);
  return rc;
}

int dispatch(Options &o) {
  if (o.command == "--help" || o.command == "-h" || o.command == "help") {
    fmt::print("{}", kUsage);
    return ExitOk;
  }
  if (o.command == "version" || o.command == "--version") {
    fmt::print("fabc {}\n", FABC_VERSION);
    return ExitOk;
  }
  if (o.command == "explain")
    return explain(o);
  if (o.command == "diff")
    return diffCommand(o);
  if (o.command == "fmt") {
    FmtRequest r;
    r.inputs = o.inputs;
    r.inPlace = o.inPlace;
    r.check = o.fmtCheck;
    r.width = o.width;
    r.maxFileSize = o.maxFileSize;
    r.format = o.format;
    r.color = o.color;
    r.report = o.report;
    return fmtCommand(r);
  }
  if (o.command == "backends") {
    for (const Backend &b : backends())
      fmt::print("{:<10} {}{}\n", b.name, b.description, b.byDefault ? " [default]" : "");
    return ExitOk;
  }
  if (o.command == "build") {
    if (o.inputs.size() != 1)
      return usageError("build takes one input file");
    return compile(o, o.inputs[0], true);
  }
  if (o.command == "check") {
    if (o.inputs.empty())
      return usageError("check takes one or more input files");
    int worst = ExitOk;
    for (const std::string &in : o.inputs)
      worst = std::max(worst, compile(o, in, false));
    return worst;
  }
  return usageError("unknown command '" + o.command + "'");
}

void *threadMain(void *p) {
  auto *a = static_cast<ThreadArgs *>(p);
  // Memory is bounded by the limits, but a limit raised past the machine (or a ulimit)
  // must end in a message, not an abort. Outputs are never half-written either way:
  // OutputDir's destructor removes its temporaries.
  try {
    a->result = a->fn(a->argc, a->argv);
  } catch (const std::bad_alloc &) {
    std::fflush(stdout);
    std::fputs("fabc: error: out of memory (lower --max-file-size or the elaboration limits, or allow more memory)\n",
               stderr);
    a->result = ExitUsage;
  }
  return nullptr;
}

} // namespace

int driverMain(int argc, char **argv) {
  // The pipeline runs on a thread with a large stack, so that deep but legal nesting
  // in a design never meets the 8 MB default.
  ThreadArgs args{run, argc, argv, ExitUsage};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(256) << 20);
  pthread_t t;
  if (pthread_create(&t, &attr, threadMain, &args) != 0)
    return run(argc, argv);
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  return args.result;
}

} // namespace fabc
