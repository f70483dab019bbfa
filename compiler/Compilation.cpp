// One compilation: load, elaborate, run the passes, then the analyses and output rules.
#include "diag/DiagCodes.h"
#include "Compilation.h"

#include "discovery/Observed.h"
#include "verify/PinGuids.h"
#include "verify/PinMacs.h"
#include "checks/OutputChecks.h"

#include "ast/Parser.h"
#include "ir/Verify.h"
#include "passes/Passes.h"
#include "loader/Imports.h"
#include "loader/Streams.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace fabc {
namespace {

std::string dirOf(const std::string &p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}

// An option of the main file's top level, or a setting of its fabric's body: what an edit
// may change and reuse the elaboration (Compilation::reuseElaboration).
bool setsSettings(const LoadedProgram &prog) {
  if (!prog.main)
    return false;
  for (const ast::Stmt *s : prog.main->topLevel)
    if (s->kind == ast::Stmt::Option)
      return true;
  for (const ast::Fabric *x : prog.main->fabrics)
    for (const ast::Stmt *s : x->body)
      if (isSetting(*s))
        return true;
  return false;
}

bool isDir(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

std::vector<std::string> stdlibDirs() {
  // The stdlib: installed next to the binary (PREFIX/bin/fabc, PREFIX/share/fabc/stdlib:
  // an install tree or a package, wherever it was unpacked), else the source tree it was
  // built from, else the configured install prefix. One of them only: an installed fabc
  // never reads a source tree that happens to remain on the machine that built it.
  std::vector<std::string> out;
  char exe[4096];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    std::string installed = dirOf(dirOf(exe)) + "/share/fabc/stdlib";
    if (isDir(installed)) {
      out.push_back(installed);
      return out;
    }
  }
  if (isDir(FABC_SOURCE_STDLIB))
    out.push_back(FABC_SOURCE_STDLIB);
  else if (isDir(FABC_INSTALL_STDLIB))
    out.push_back(FABC_INSTALL_STDLIB);
  return out;
}

std::vector<std::string> searchPath(const CompileOptions &o, const CompileInput &input) {
  std::vector<std::string> path;
  if (o.standardSearchPath) {
    if (input.fromText) {
      if (!input.dir.empty())
        path.push_back(input.dir);
    } else if (input.name != "-") {
      path.push_back(dirOf(input.name));
    }
  }
  for (const std::string &i : o.includes)
    path.push_back(i);
  if (!o.standardSearchPath)
    return path;
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
  for (const std::string &d : stdlibDirs())
    path.push_back(d);
  return path;
}

Compilation::Compilation(CompileOptions opts)
    : opts_(std::move(opts)), ownSm_(std::make_unique<SourceManager>()),
      ownDiags_(std::make_unique<DiagEngine>(*ownSm_)), sm_(ownSm_.get()), diags_(ownDiags_.get()) {}

Compilation::Compilation(CompileOptions opts, SourceManager &sm, DiagEngine &diags)
    : opts_(std::move(opts)), sm_(&sm), diags_(&diags) {}

Compilation::~Compilation() = default;

bool Compilation::run(CompileInput input) {
  bool ok = runStages(std::move(input));
  opts_.reuse.reset(); // also when it stopped before elaboration
  opts_.reuseValues = nullptr;
  finalMark_ = diags_->mark();
  diags_->all(); // the fold notes written now: nothing writes them once others may read
  finished_ = true;
  return ok;
}

bool Compilation::runStages(CompileInput input) {
  assert((opts_.stopAfter.empty() || passes::findPass(opts_.stopAfter)) && "stopAfter names no pass");
  SourceManager &sm = *sm_;
  DiagEngine &diags = *diags_;
  stage("parse");
  LoadOptions lo;
  lo.searchPath = searchPath(opts_, input);
  lo.catalogDirs = stdlibDirs();
  lo.maxFileSize = opts_.maxFileSize;
  // One token per 4 bytes: an explicit file (fabc import's) has ~3.5 bytes a token but its
  // long lines of names pass 4 bytes a token on average; what the limit stops is a file of
  // tiny tokens, whose AST costs up to ~55 bytes a token (docs/diagnostics.md, FAB-E0005).
  lo.parse.maxTokens = std::max<uint64_t>(opts_.maxFileSize / CompileOptions::kBytesPerToken, 1024);
  lo.parse.engine = opts_.parser;
  lo.overlay = opts_.overlay;
  lo.importsPastSyntaxErrors = opts_.importsPastSyntaxErrors;
  LoadedProgram &prog = prog_;
  if (input.fromText) {
    parsed_ = loadProgramText(input.name, std::move(input.text), lo, sm, diags, ctx_, prog);
  } else {
    // '-' is standard input, read as a stream (to the end, within --max-file-size).
    bool std_in = input.name == "-";
    std::string text, err;
    if (!(std_in ? readStream(0, lo.maxFileSize, text, err) : readSource(input.name, lo.maxFileSize, text, err))) {
      bool tooLarge = err.rfind("too large", 0) == 0;
      diags.report(tooLarge ? DiagCode::E0005 : DiagCode::E0001, {}, "cannot read '{}': {}",
                   std_in ? "<stdin>" : input.name, err);
      ioError_ = !tooLarge; // a file past --max-file-size is a diagnosed input, not an I/O failure
    } else {
      parsed_ = loadProgramText(std_in ? "<stdin>" : input.name, std::move(text), lo, sm, diags, ctx_, prog);
    }
  }
  parsed_ = parsed_ && !prog.files.empty();
  if (!opts_.defines.empty() && !diags.hasErrors())
    prog.defines = parseDefines(opts_.defines, sm, diags, ctx_);
  bool ok = !diags.hasErrors();
  if (opts_.parseOnly)
    return ok;
  if (ok) {
    bool reused = false, same = false;
    TextShift shift;
    if (opts_.reuse) {
      stage("reuse");
      same = sameSetup(*opts_.reuse);
      if (same)
        shift = editedSince(*opts_.reuse);
      reused = same && reuse(shift);
    }
    if (reused) {
      stage("reused check");
      return !diags.hasErrors();
    }
    bool settingsEdit = false, reusedElaboration = false;
    if (same) {
      stage("reuse elaboration");
      SettingReader reader = SettingReader::Passes;
      settingsEdit = settingsEdited(*opts_.reuse, shift, reader);
      passesReused_ = settingsEdit && reader != SettingReader::Passes && reusePasses(*opts_.reuse, shift, reader);
      reusedElaboration =
          !passesReused_ && settingsEdit && opts_.reuse->elaborated_ && reuseElaboration(*opts_.reuse, shift);
    }
    using Keep = CompileOptions::Keep;
    const bool keep = opts_.keepElaborated == Keep::Yes || (opts_.keepElaborated == Keep::AfterSettingsEdit && settingsEdit);
    // Held by base_ when reused; else let go, or every compilation would keep the one
    // before it alive, and that one the one before it.
    opts_.reuse.reset();
    opts_.reuseValues = nullptr;
    if (passesReused_) {
      stage("reused passes");
    } else if (reusedElaboration) {
      stage("reused elaboration");
      atFabric_ = atPasses_ = diags.mark();
    } else {
      stage("elaborate");
      ElabOptions eo = elabOptions(opts_.values);
      uint32_t stringsAtFabric = 0;
      eo.afterGlobals = [&] {
        atFabric_ = diags.mark();
        stringsAtFabric = uint32_t(F_.strings.size());
      };
      DiagEngine::Mark before = diags.mark();
      ok = elaborate(prog, eo, diags, F_);
      atPasses_ = diags.mark();
      cleanElaboration_ = ok && atFabric_ && *atPasses_ == before;
      stringsAtFabric_ = stringsAtFabric;
      // Kept only from a clean elaboration: the reuse then knows it reported nothing.
      if (keep && cleanElaboration_ && opts_.guidsFrom.empty() && setsSettings(prog))
        elaborated_ = std::make_shared<const ElaboratedIR>(
            ElaboratedIR{F_, stringsAtFabric, std::string(sm.text(prog.main->fileId))});
    }
#ifdef FABC_VERIFY_IR
    if (ok)
      ir::verifyOrAbort(F_, "elaborate");
#endif
  }
  if (ok && !opts_.guidsFrom.empty()) {
    stage("guids-from");
    discovery::Observed obs;
    discovery::ReadLimits limits;
    limits.maxPorts = std::max<uint64_t>(2 * uint64_t(F_.numPorts()), 1u << 20);
    for (const std::string &file : opts_.guidsFrom)
      ok &= discovery::readDiscovery(file, "", limits, obs, sm, diags);
    if (ok) {
      verify::pinGuids(F_, obs, sm, diags);
      verify::pinMacs(F_, obs, sm, diags); // LLDP: the host NICs' MACs, for netplan's match
    }
    ok = ok && !diags.hasErrors();
  }
  if (ok && passesReused_) {
    ok = !diags.hasErrors();
  } else if (ok) {
    // Where the lengths and validate passes' diagnostics begin and end (reusePasses).
    std::optional<DiagEngine::Mark> lengths, afterLengths, validate, afterValidate;
    const char *previous = "";
    auto ended = [&](const char *pass) {
      if (std::strcmp(pass, "lengths") == 0)
        afterLengths = diags.mark();
      else if (std::strcmp(pass, "validate") == 0)
        afterValidate = diags.mark();
    };
    auto timer = [&](const char *name) {
      ended(previous);
      if (std::strcmp(name, "lengths") == 0)
        lengths = diags.mark();
      else if (std::strcmp(name, "validate") == 0)
        validate = diags.mark();
      previous = name;
      stage(name);
    };
    ok = runPasses(F_, diags, timer, opts_.stopAfter);
    ended(previous);
    if (afterLengths && afterValidate && opts_.stopAfter.empty() && opts_.guidsFrom.empty())
      passMarks_ = PassMarks{*lengths, *validate, *afterValidate, diags.mark(), *lengths == *afterLengths};
  }
  // A pipeline stopped early leaves facts unset that analyses and output rules need; a
  // library file (no fabric block) has no outputs to check.
  if (!ok)
    return false;
  // Computed on first use: a pipeline stopped early (--emit=ir) hands it to its backend
  // unread.
  an_ = std::make_unique<Analyses>(F_);
  if (!opts_.stopAfter.empty())
    return true;
  if (opts_.checkOutputsInRun && !F_.name.empty()) {
    stage("output checks");
    an_->checksOnly = true; // no backend follows in this run: the rules read only what they need
    for (const std::string &name : opts_.outputs)
      if (!checkOutput(name))
        return false;
  }
  return true;
}

ElabOptions Compilation::elabOptions(BindingValues *values) const {
  ElabOptions eo;
  eo.limits = opts_.limits;
  eo.top = opts_.top;
  eo.allowLibrary = opts_.allowLibrary;
  eo.stamp = opts_.stampInstances;
  eo.linkNests = opts_.linkNests;
  eo.values = values;
  eo.cancel = opts_.cancel;
  return eo;
}

bool Compilation::checkOutput(const std::string &output) {
  return checks::checkOutput(output, F_, *an_, *diags_) && !diags_->hasErrors();
}

} // namespace fabc
