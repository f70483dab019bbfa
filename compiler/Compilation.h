#pragma once
// The one entry point into the library: a source (a file, or text with a name) and
// options in; diagnostics and the checked IR out. The command line, diff, the unit tests,
// the fuzzer and the coming language server all compile through it (docs/decisions/0014-one-entry-point-compilation.md,
// "One entry point: Compilation").
#include "analysis/Analyses.h"
#include "ast/AST.h"
#include "ast/Parser.h"
#include "diag/Diag.h"
#include "elab/Elaborator.h"
#include "ir/Fabric.h"
#include "loader/Imports.h"

#include <atomic>
#include <cassert>
#include <optional>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fabc {

class Compilation;

struct CompileOptions {
  std::vector<std::string> includes; // -I, in order, before FABC_PATH and the stdlib
  // The input's directory, FABC_PATH and the stdlib (next to the binary, else the source
  // tree's). Off: `includes` only (unit tests, the fuzzer).
  bool standardSearchPath = true;
  std::vector<std::pair<std::string, std::string>> defines; // -D NAME=VALUE, in order
  std::string top;                                          // --top
  ElabLimits limits;
  // --max-file-size: the largest source read. 256 MiB holds what `fabc import` writes for
  // about a million GPUs (3M links, ~160 MB) and bounds the parse to ~2.5 GB; a source
  // may hold at most maxFileSize / kBytesPerToken tokens. docs/diagnostics.md, FAB-E0005.
  uint64_t maxFileSize = 256ull << 20;
  static constexpr uint64_t kBytesPerToken = 4;
  ParserEngine parser = ParserEngine::Auto; // --parser (hidden): which parser builds the AST
  // A main file without a fabric block is a library, checked as far as it goes (check).
  bool allowLibrary = false;
  bool stampInstances = true; // ElabOptions::stamp
  bool linkNests = true;      // ElabOptions::linkNests
  // The outputs asked for (backend names): their output rules (compiler/checks/) run for
  // `check` as for `build`.
  std::vector<std::string> outputs;
  // Run those rules in run() (check). Off (build): the caller runs checkOutput(name) just
  // before each backend writes, in --emit order, so that the report lists the
  // diagnostics of the outputs before it, as it always has.
  bool checkOutputsInRun = true;
  // Stop after this pass (a name from passes::pipeline()); empty: run them all.
  std::string stopAfter;
  // --guids-from: discovery files whose GUIDs are pinned onto the design's devices
  // before the passes (compiler/verify/PinGuids.h).
  std::vector<std::string> guidsFrom;
  // The language server: imported files' unsaved text (LoadOptions::overlay), and where
  // to record the values of let/param statements (ElabOptions::values).
  std::function<bool(const std::string &realPath, std::string &text)> overlay;
  BindingValues *values = nullptr;
  // A file with syntax errors still loads its imports (the language server: the index of
  // the statements that parse resolves names from them). The command line does not.
  bool importsPastSyntaxErrors = false;
  // Stop after loading (parse and imports): the language server's workspace index.
  bool parseOnly = false;
  // Set by another thread to abandon the compilation (the language server: a newer edit
  // made it stale). Checked before each stage and pass (run() then throws
  // CompileCancelled) and every few thousand elaboration steps (elaborate() returns
  // false). The Compilation is then only fit to be destroyed.
  const std::atomic<bool> *cancel = nullptr;
  // The language server: the last compilation of this document that ran to its end.
  // When the edit since lies in top-level lets, templates and fns that nothing else
  // names, its check is taken over instead of compiled again (reuse/ReuseCheck.cpp);
  // `reuseValues` are its values.
  // Let go once used (run() does): the compilation keeps only the base it reused.
  std::shared_ptr<const Compilation> reuse;
  const BindingValues *reuseValues = nullptr;
  // Keep the IR as elaboration left it, so that a later edit of only options and
  // policies runs the passes on a copy instead of elaborating again (reuse/ReuseSettings.cpp,
  // docs/decisions/0622): never, once the edit since `reuse` was one of settings (the
  // language server: the memory is spent while the designer tries values), or always
  // (tests). Only a clean elaboration is kept.
  enum class Keep : uint8_t { No, AfterSettingsEdit, Yes };
  Keep keepElaborated = Keep::No;
  // An edit since `reuse` of only settings no pass reads but the validation checks
  // (policies' figures, pue, spares...; the lengths' options when the lengths come out the
  // same: firstReader) runs those checks again on a copy of its checked IR instead of
  // elaborating and running the passes (reuse/ReuseSettings.cpp, docs/decisions/0623).
  // Off: elaborate, or reuse the kept elaboration (the bench's before).
  bool recheckPolicies = true;
};

// Thrown out of Compilation::run() when CompileOptions::cancel was set.
struct CompileCancelled {};

// What to compile: a file ("-" is stdin), or text with the name diagnostics show.
struct CompileInput {
  std::string name;
  std::string text;    // with fromText
  std::string dir;     // with fromText: where relative imports start (empty: the search path only)
  bool fromText = false;

  static CompileInput file(std::string path) { return {std::move(path), {}, {}, false}; }
  static CompileInput source(std::string name, std::string text, std::string dir = {}) {
    return {std::move(name), std::move(text), std::move(dir), true};
  }
};

// The import search path for `input`: its directory, -I, FABC_PATH, the stdlib.
std::vector<std::string> searchPath(const CompileOptions &o, const CompileInput &input);
// The directories that hold the stdlib (the catalog), last on the search path.
std::vector<std::string> stdlibDirs();

// The IR as elaboration left it, before the passes, how many strings it had interned
// once the top-level bindings were evaluated, and the text it was elaborated from
// (CompileOptions::keepElaborated).
struct ElaboratedIR {
  ir::Fabric fabric;
  uint32_t stringsAtFabric = 0;
  std::string mainText; // the main file as elaborated: where the IR's places are
};

class Compilation {
public:
  // Owns its sources and its diagnostic engine (configure it through diags() before run).
  explicit Compilation(CompileOptions opts);
  // Reports into `diags`, whose sources must be `sm` (JSON/SARIF reports, tests).
  Compilation(CompileOptions opts, SourceManager &sm, DiagEngine &diags);
  ~Compilation();
  Compilation(const Compilation &) = delete;
  Compilation &operator=(const Compilation &) = delete;

  // Called with each stage's name before it runs ("parse"; "reuse" and "reuse
  // elaboration" when given a base; "reused check"; "lengths" (an option of the lengths),
  // "reuse checked IR", "validation checks" then "reused passes"; "reused elaboration" or
  // "elaborate"; each pass): --time-stages.
  void onStage(std::function<void(const char *)> fn) { onStage_ = std::move(fn); }

  // Load, elaborate, run the passes (up to stopAfter), then the analyses and the output
  // rules of the requested outputs. False if errors were reported or the input could not
  // be read (ioError()). Once per Compilation.
  bool run(CompileInput input); // by value: a source text is moved into the SourceManager

  bool ioError() const { return ioError_; }
  // The main file and its imports parsed and loaded without errors.
  bool parsed() const { return parsed_; }
  const CompileOptions &options() const { return opts_; }
  SourceManager &sources() { return *sm_; }
  DiagEngine &diags() { return *diags_; }
  // The main file and its imports as parsed (the language server's index), valid for
  // the Compilation's lifetime; empty if the input could not be read.
  const LoadedProgram &program() const { return prog_; }
  // A reused compilation's IR is its base's, whose places are those of the base's text
  // (map them with shift()).
  const ir::Fabric &fabric() const { return base_ ? base_->fabric() : F_; }
  // Its own IR, to change (the unit tests); never a base's.
  ir::Fabric &mutableFabric() {
    assert(!base_ && "a reused compilation's IR is its base's, read-only");
    return F_;
  }
  // Reuse across an edit (reuse/ReuseCheck.cpp, docs/decisions/0621): whether this compilation's
  // check can be taken over by a later one, the compilation it took its check from (null:
  // none), and where its main text differs from that one's.
  bool reusable() const;
  bool elaborated() const { return atPasses_.has_value(); } // elaboration ran (its IR is built)
  const std::shared_ptr<const Compilation> &base() const { return base_; }
  // Its IR a copy of an earlier compilation's elaboration, across an edit of top-level
  // options (reuseElaboration).
  bool elaborationReused() const { return elaborationReused_; }
  // Its IR a copy of an earlier compilation's checked one, with the validation checks run
  // again, across an edit the passes do not see (reusePasses).
  bool passesReused() const { return passesReused_; }
  // Of those, one whose edit changed the route lengths: the passes that read them ran
  // again too, and of the validate pass's measures those that read what they compute
  // (reusePasses, decision 0651).
  bool physicalRerun() const { return physicalRerun_; }
  const TextShift &shift() const { return shift_; }
  // What a later compilation of the same document may reuse: c's base, else c if it
  // ran to its end, else null.
  static std::shared_ptr<const Compilation> reuseBase(const std::shared_ptr<const Compilation> &c);
  // The analyses of the checked IR (compiler/analysis/), computed on first use, once;
  // valid after a successful run() (read them only when every pass ran).
  Analyses &analyses() { return *an_; }
  // The rules of one output (compiler/checks/), which also prepare what it writes. Once
  // per output; false if errors were reported.
  bool checkOutput(const std::string &output);

private:
  void stage(const char *name) {
    if (opts_.cancel && opts_.cancel->load(std::memory_order_relaxed))
      throw CompileCancelled{};
    if (onStage_)
      onStage_(name);
  }

  CompileOptions opts_;
  std::unique_ptr<SourceManager> ownSm_;
  std::unique_ptr<DiagEngine> ownDiags_;
  SourceManager *sm_;
  DiagEngine *diags_;
  ast::Context ctx_;
  LoadedProgram prog_;
  ir::Fabric F_;
  std::unique_ptr<Analyses> an_;
  std::function<void(const char *)> onStage_;
  bool ioError_ = false, parsed_ = false, elaborationReused_ = false, passesReused_ = false, physicalRerun_ = false;
  bool runStages(CompileInput input);
  // From opts_.reuse, which has the same setup, across `shift` (editedSince it); false:
  // compile as usual.
  bool reuse(TextShift shift);
  // Whether the edit since `base` (of the same setup, `shift`: editedSince it) lies only
  // in options and policies that a settings-only run evaluates as a full elaboration would.
  // `reader`: the first stage that reads a setting the edit meets (firstReader).
  bool settingsEdited(const Compilation &base, const TextShift &shift, SettingReader &reader) const;
  // Then, from base's kept IR: F_ a copy of it with the new settings, ready for the
  // passes. False: elaborate as usual.
  bool reuseElaboration(const Compilation &base, const TextShift &shift);
  // Or, across an edit of only settings `reader` Lengths or Checks: F_ a copy of base's
  // checked IR with the new settings, the lengths computed again (Lengths: when they do
  // not come out as the base's, the passes that read them run again, rerunPasses) and
  // the validation checks run again, the diagnostics as a full run's up to the end of the
  // passes. False: F_ empty, nothing reported.
  bool reusePasses(const Compilation &base, const TextShift &shift, SettingReader reader);
  // The top-level bindings and the fabric's own settings evaluated aside into `scratch`,
  // interning into F_'s pool (a copy of the base's): true when the bindings interned its
  // first `stringsAtFabric` strings in order, the settings none it lacked, and nothing
  // was reported.
  bool evaluateSettings(uint32_t stringsAtFabric, ir::Fabric &scratch, BindingValues &values);
  // F_'s places moved from `placesText` (the main text they were made in) to this one,
  // and scratch's settings put in. False when a place lies in an edit.
  bool placeSettings(std::string_view placesText, ir::Fabric &scratch);
  // What every reuse starts from, computed once: the same files but the main one and the
  // same options (false: nothing may be reused), and where the main text moved since.
  bool sameSetup(const Compilation &base) const;
  TextShift editedSince(const Compilation &base) const;
  // Whether a name of `names` (declared in the main text's `spans`) is written anywhere
  // else: in the main text outside them, in another file, on the command line (-D).
  bool namedElsewhere(const std::vector<std::string_view> &names,
                      const std::vector<std::pair<uint32_t, uint32_t>> &spans) const;
  // The top-level bindings of this program evaluated aside, as a compilation's first
  // stage would (into a copy of the diagnostics, and values when opts_.values is set).
  bool evaluateGlobals(DiagEngine &diags, BindingValues &values, ir::Fabric &scratch) const;
  // Elaboration's options from this compilation's (limits, --top, library, stamping,
  // cancellation), recording values into `values`.
  ElabOptions elabOptions(BindingValues *values) const;
  // The base's values of let and param statements below the top level, keyed by this
  // program's statements at the same places across `shift`.
  void carryValues(const TextShift &shift, BindingValues &values) const;
  std::shared_ptr<const ElaboratedIR> elaborated_;
  // Elaboration (or the one this compilation's IR was copied from) reported nothing; the
  // strings its top-level bindings had interned.
  bool cleanElaboration_ = false;
  uint32_t stringsAtFabric_ = 0;
  // The diagnostics at the lengths pass's start, at the validate pass's start and end and
  // after the last pass, and whether the lengths pass reported nothing, when every pass
  // ran (reusePasses).
  struct PassMarks {
    DiagEngine::Mark lengths, validate, afterValidate, end;
    bool lengthsQuiet = false;
  };
  std::optional<PassMarks> passMarks_;
  std::shared_ptr<const Compilation> base_;
  TextShift shift_;
  // The diagnostics when the top-level bindings were evaluated, when elaboration ended,
  // and when run() returned (finished_).
  std::optional<DiagEngine::Mark> atFabric_, atPasses_;
  DiagEngine::Mark finalMark_;
  bool finished_ = false;
};

} // namespace fabc
