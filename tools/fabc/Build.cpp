// fabc build and fabc check: one Compilation per input, then (build) the backends.
#include "Commands.h"
#include "StageTimer.h"

#include "backends/Backend.h"
#include "diag/SarifContext.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <unistd.h>

namespace fabc::cli {

bool useColor(const Options &o) {
  if (o.color != -1)
    return o.color == 1;
  if (o.format != DiagFormat::Text || !::isatty(2))
    return false;
  // no-color.org: NO_COLOR set and not empty; and a terminal that says it has no escapes.
  const char *noColor = std::getenv("NO_COLOR"), *term = std::getenv("TERM");
  return !(noColor && *noColor) && !(term && std::string(term) == "dumb");
}

void setupDiags(const Options &o, DiagEngine &diags) {
  diags.setFormat(o.format);
  diags.setReport(o.report);
  diags.setColor(useColor(o));
  diags.setWarningsAsErrors(o.werror);
  diags.setIgnoreWarnings(o.noWarnings);
  for (const std::string &c : o.promoted) {
    DiagCode code;
    findDiag(c, &code);
    diags.promote(code);
  }
  diags.setErrorLimit(o.errorLimit);
  for (const std::string &c : o.disabled) {
    DiagCode code;
    findDiag(c, &code);
    diags.disable(code);
  }
}

CompileOptions compileOptions(const Options &o, bool allowLibrary) {
  CompileOptions c;
  c.includes = o.includes;
  c.defines = o.defines;
  c.top = o.top;
  c.limits = o.limits;
  c.maxFileSize = o.maxFileSize;
  c.parser = o.parser;
  c.allowLibrary = allowLibrary;
  c.stopAfter = o.stopAfter;
  c.guidsFrom = o.guidsFrom;
  return c;
}

namespace {

// The backends a build runs: --emit, else the default set; in order, once each.
std::vector<std::string> outputsOf(const Options &o, bool build) {
  // build: --emit, else the defaults. check: --emit's rules in build's order, then the
  // defaults' not among them, so that for the same --emit both stop at the same first error.
  std::vector<std::string> want = o.emit;
  if (!build || o.emit.empty())
    for (const Backend &b : backends())
      if (b.byDefault)
        want.push_back(b.name);
  std::vector<std::string> r;
  for (const std::string &n : want)
    if (std::find(r.begin(), r.end(), n) == r.end())
      r.push_back(n);
  return r;
}

// A build whose leaks are checked (ASan's LeakSanitizer) frees everything.
#if defined(__SANITIZE_ADDRESS__)
#define FABC_LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FABC_LEAK_CHECKED 1
#endif
#endif
#ifndef FABC_LEAK_CHECKED
#define FABC_LEAK_CHECKED 0
#endif

// One compilation: load, elaborate, run the passes, and (for build) the backends.
int compile(const Options &o, const std::string &input, bool build) {
  CompileOptions co = compileOptions(o, /*allowLibrary=*/!build);
  co.outputs = outputsOf(o, build);
  co.checkOutputsInRun = !build;
  // The last compilation of the process is not freed (as clang's -disable-free): tearing
  // down the AST and the IR of a million links, node by node, costs a second for nothing.
  auto owner = std::make_unique<Compilation>(std::move(co));
  Compilation &c = *owner;
  struct DisableFree {
    std::unique_ptr<Compilation> &owner;
    bool last;
    ~DisableFree() {
#if !FABC_LEAK_CHECKED
      if (last)
        (void)owner.release();
#endif
    }
  } disableFree{owner, build || o.inputs.size() == 1};
  DiagEngine &diags = c.diags();
  setupDiags(o, diags);
  setDiagInput(input);
  StageTimer timer(o.timeStages);
  c.onStage([&](const char *stage) { timer(stage); });
  bool ok = c.run(CompileInput::file(input));
  bool ioError = c.ioError();
  const ir::Fabric &F = c.fabric();
  bool wrote = false;
  std::vector<std::string> files;
  if (ok && build && !o.sweepFile.empty()) {
    auto table = std::make_shared<SweepTable>();
    std::string err;
    if (!readSweepTable(o.sweepFile, *table, err)) {
      fmt::print(stderr, "fabc: error: --sweep: {}\n", err);
      diags.finish();
      return ExitUsage;
    }
    c.analyses().report.sweep = std::move(table);
    c.analyses().report.sweepFile = o.sweepFile;
  }
  if (ok && build) {
    OutputDir out(o.outDir);
    BuildInfo info{input, FABC_VERSION};
    // Every output's rules before any backend: the report lists every diagnostic of the
    // build, a later output's warnings (FAB-W0160 for ptm) included.
    unsigned reads = 0;
    for (const std::string &name : c.options().outputs)
      reads |= findBackend(name)->reads;
    timer("analyses");
    c.analyses().prepare(reads);
    timer("checks");
    for (const std::string &name : c.options().outputs)
      if (!c.checkOutput(name)) {
        ok = false;
        break;
      }
    for (const std::string &name : ok ? c.options().outputs : std::vector<std::string>{}) {
      const Backend *b = findBackend(name);
      timer(b->name);
      BackendContext bc{F, c.analyses(), out, diags, info, &c.sources()};
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
    fmt::print(stdout, "fabc: {} '{}': {}, {}, {}{}{}\n",
               o.command == "export" ? "exported" : build ? "built" : "checked", F.name, plural(M.gpus, "GPU"),
               plural(F.numDevices(), "device"), plural(F.numLinks(), "link"),
               wrote ? fmt::format(" -> {} ({})", o.outDir, plural(files.size(), "file")) : "",
               diags.warnings() ? ", " + plural(diags.warnings(), "warning") : "");
  }
  if (ioError)
    return ExitUsage;
  return diags.hasErrors() ? ExitErrors : ExitOk;
}

} // namespace

int buildCommand(Options &o) {
  if (o.inputs.size() != 1)
    return usageError("build takes one input file");
  // A pipeline stopped early leaves facts unset that every output but the IR dump reads.
  if (!o.stopAfter.empty()) {
    for (const std::string &e : o.emit)
      if (e != "ir")
        return usageError("--stop-after writes --emit=ir only (backend '" + e + "' needs every pass)");
    if (o.emit.empty())
      o.emit.push_back("ir");
  }
  return compile(o, o.inputs[0], true);
}

// fabc export: a build of one of the export backends (docs/export.md): the design as
// JSON (design), YAML (design-yaml) or NetBox's CSV (netbox), into -o DIR.
int exportCommand(Options &o) {
  if (o.inputs.size() != 1)
    return usageError("export takes one input file");
  o.emit = {o.exportFormat == "yaml" ? "design-yaml" : o.exportFormat == "netbox" ? "netbox" : "design"};
  return compile(o, o.inputs[0], true);
}

int checkCommand(Options &o) {
  if (o.inputs.empty())
    return usageError("check takes one or more input files");
  int worst = ExitOk;
  for (const std::string &in : o.inputs)
    worst = std::max(worst, compile(o, in, false));
  return worst;
}

} // namespace fabc::cli
