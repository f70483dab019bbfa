#pragma once
// Elaboration: evaluates parameters, loops, templates and placement into the flat
// Fabric IR. Values carry physical dimensions, so unit errors surface with the
// expression's location. Evaluation is bounded (devices, links, steps, depth).
#include "ast/AST.h"
#include "ir/Fabric.h"

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fabc {
class DiagEngine;
struct LoadedProgram;

struct ElabLimits {
  uint64_t maxDevices = 20'000'000;
  uint64_t maxLinks = 50'000'000;
  uint64_t maxSteps = 200'000'000; // statements executed
  uint32_t maxDepth = 64;          // template nesting
  // The size of one value: the items of a list (nested lists counted item by item), the
  // bytes of a string, the text str() renders (FAB-E0071). Strings that expressions build
  // cost a step per 64 bytes, and all of them together at most 256 x this many bytes.
  uint64_t maxValueSize = 1'000'000;
};

// The values the `let` and `param` statements took, for the language server's hover: the
// first few evaluations of each are recorded (a statement in a loop or a template runs
// many times; after kMaxSeen only the count grows).
struct BindingValues {
  struct Seen {
    std::string text;    // the first value, as str() prints it ("400 Gb/s", "[1, 2]")
    std::string type;    // "int", "bandwidth", "string", ...
    uint64_t times = 0;  // evaluations
    bool varies = false; // a later evaluation printed differently
  };
  static constexpr uint64_t kMaxSeen = 8;
  static constexpr size_t kMaxHoverText = 400; // longer values are cut, with their size
  std::unordered_map<const ast::Stmt *, Seen> values;
};

struct ElabOptions {
  ElabLimits limits;
  std::string top;                          // fabric to build; empty: the only one
  // A main file without a fabric block is a library (a catalog, templates): checked as
  // far as it can be (syntax, imports, models, top-level bindings), not an error. The IR
  // is then empty. For `fabc check` (pre-commit lints every .fab file).
  bool allowLibrary = false;
  BindingValues *values = nullptr; // record let/param values (the language server)
  // Copy a template instance's body from an earlier instance with the same arguments
  // instead of evaluating it again (elab/Stamp.cpp). Off: every body is evaluated; the IR
  // is the same either way (tests compare the two).
  bool stamp = true;
  // Run a loop nest of links with compiled indices (elab/LinkNest.cpp). Off:
  // every iteration runs as a statement; the IR and the diagnostics are the same either
  // way (tests compare the two).
  bool linkNests = true;
  // Set by another thread to stop early (the language server, when a newer edit makes
  // this compile stale): checked every 4,096 steps, elaboration then returns false.
  const std::atomic<bool> *cancel = nullptr;
  // Called once the top-level bindings are evaluated (-D, let, param and option outside
  // a fabric), before the models and the fabric's body: what comes after reads the
  // top-level bindings only through their names (Compilation's reuse across an edit).
  std::function<void()> afterGlobals;
  bool globalsOnly = false; // stop there
  // Then evaluate only the chosen fabric's own `option` and `policy` statements (not
  // `policy parts`) into the IR's options and policies, and stop: the models are not
  // converted and nothing else of the body runs (Compilation::reuseElaboration). Either
  // run caches no interned ids in the tree.
  bool settingsOnly = false;
};

// A statement ElabOptions::settingsOnly evaluates when it stands in the fabric's body: an
// `option`, or a `policy` other than `parts` (which the elaborator itself reads).
bool isSetting(const ast::Stmt &s);
// The first stage after elaboration that reads a setting (Compilation::reusePasses), so
// that an edit of it need not run what comes before: the READER column of
// ir/Settings.def, whose comment says what each means. Passes for a statement that is no
// setting, or names none.
enum class SettingReader : uint8_t { Passes, Lengths, Checks };
SettingReader firstReader(const ast::Stmt &s);
// Every row of ir/Settings.def, core ones first (for the tests).
struct SettingRead {
  bool policy = false; // else an option
  std::string_view name;
  SettingReader reader = SettingReader::Passes;
};
std::vector<SettingRead> settingReaders();

// Returns false if errors were reported; the IR is then incomplete.
bool elaborate(const LoadedProgram &prog, const ElabOptions &opts, DiagEngine &diags, ir::Fabric &out);

} // namespace fabc
