#pragma once
// Private to compiler/elab/: the elaborator's state, shared by the files that implement
// it by concern (Models, Expr, Instances, Links, Placement, Settings, and Elaborator.cpp
// for statements and the driver loop). Never include it outside elab/; the public
// interface is elab/Elaborator.h.
#include "diag/DiagCodes.h"
#include "elab/Elaborator.h"
#include "diag/Diag.h"
#include "elab/Value.h"
#include "ir/DenseKeys.h"
#include "loader/Imports.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace fabc::elab {
using ir::None;

struct EntryKey {
  uint32_t parent, sym;
  bool operator==(const EntryKey &o) const { return parent == o.parent && sym == o.sym; }
};
struct ElemKey {
  uint32_t parent, sym;
  int64_t index;
  bool operator==(const ElemKey &o) const { return parent == o.parent && sym == o.sym && index == o.index; }
};
// Keys hashed whole with ir::mixKey (DenseMap's default drops the parent's half).
inline unsigned mixHash(uint64_t h) { return unsigned(ir::mixKey(h)); }
struct RackKey {
  uint32_t hall;
  int64_t row, pos;
  bool operator==(const RackKey &o) const { return hall == o.hall && row == o.row && pos == o.pos; }
};
} // namespace fabc::elab

namespace llvm {
template <> struct DenseMapInfo<fabc::elab::EntryKey> {
  static fabc::elab::EntryKey getEmptyKey() { return {~0u, ~0u}; }
  static fabc::elab::EntryKey getTombstoneKey() { return {~0u - 1, ~0u}; }
  static unsigned getHashValue(const fabc::elab::EntryKey &k) {
    return fabc::elab::mixHash((uint64_t(k.parent) << 32) | k.sym);
  }
  static bool isEqual(const fabc::elab::EntryKey &a, const fabc::elab::EntryKey &b) { return a == b; }
};
template <> struct DenseMapInfo<fabc::elab::ElemKey> {
  static fabc::elab::ElemKey getEmptyKey() { return {~0u, ~0u, 0}; }
  static fabc::elab::ElemKey getTombstoneKey() { return {~0u - 1, ~0u, 0}; }
  static unsigned getHashValue(const fabc::elab::ElemKey &k) {
    uint64_t h = (uint64_t(k.parent) << 32) | k.sym;
    h ^= uint64_t(k.index) * 0x9E3779B97F4A7C15ull;
    return fabc::elab::mixHash(h);
  }
  static bool isEqual(const fabc::elab::ElemKey &a, const fabc::elab::ElemKey &b) { return a == b; }
};
template <> struct DenseMapInfo<fabc::elab::RackKey> {
  static fabc::elab::RackKey getEmptyKey() { return {~0u, 0, 0}; }
  static fabc::elab::RackKey getTombstoneKey() { return {~0u - 1, 0, 0}; }
  static unsigned getHashValue(const fabc::elab::RackKey &k) {
    uint64_t h = k.hall * 0x9E3779B97F4A7C15ull ^ uint64_t(k.row) * 0xC2B2AE3D27D4EB4Full ^ uint64_t(k.pos);
    return fabc::elab::mixHash(h);
  }
  static bool isEqual(const fabc::elab::RackKey &a, const fabc::elab::RackKey &b) { return a == b; }
};
} // namespace llvm

namespace fabc::elab {

// An instance-tree entry: a scalar instance or an array of them.
struct Entry {
  bool array = false;
  bool device = false;
  uint32_t node = None; // scalar
  int64_t lo = 0, hi = 0; // array: indices seen, [lo, hi)
  SourceRange loc;
  // array: where its elements' nodes are (Elab::findElem): kDenseNone before the first,
  // an index into Elab::dense_, or kSparse (in Elab::elems_) once they spread too thin.
  uint32_t dense = kDenseNone;
  static constexpr uint32_t kDenseNone = ~0u, kSparse = ~0u - 1;
};

struct Abort {}; // thrown to unwind elaboration after a limit; caught in Elab::run()

// A resolved path end.
struct Endpoint {
  uint32_t node = None;   // scope or device node
  uint32_t device = None; // device, when the path reaches one
  int32_t group = -1;     // port group, when named
  int64_t port = -1;      // index in the group, -1: next free
  SourceRange groupRange, portRange;
};

class Elab {
public:
  Elab(const LoadedProgram &prog, const ElabOptions &opts, DiagEngine &diags, ir::Fabric &f)
      : prog_(prog), opts_(opts), diags_(diags), F(f) {}

  bool run();

private:
  // ---- symbols ----
  uint32_t sym(std::string_view s, uint32_t &cache) {
    if (cache != UINT32_MAX)
      return cache;
    uint32_t id = F.strings.intern(s);
    // A run that stops after the top-level bindings interns into a scratch IR that is
    // dropped (Compilation::reuse): ids cached in the tree would be that pool's, wrong for
    // the elaboration that may follow on the same tree.
    if (!opts_.globalsOnly && !opts_.settingsOnly)
      cache = id;
    return id;
  }
  uint32_t exprSym(const ast::Expr *e) { return sym(e->text, e->sym); }

  template <typename... Args>
  Diagnostic *error(DiagCode c, SourceRange r, fmt::format_string<Args...> f, Args &&...args) {
    ++reported_; // a template body that reports is never stamped (Stamp.cpp)
    Diagnostic *d = diags_.report(c, r, fmt::format(f, std::forward<Args>(args)...));
    callNotes(d); // function calls are innermost: they are inside an expression
    backtrace(d);
    if (diags_.tooManyErrors())
      throw Abort{};
    return d;
  }
  // The instantiation backtrace (Backtrace.cpp): what was being elaborated when a
  // diagnostic was reported, innermost first, one note per template instance and loop
  // iteration, so an error inside a stdlib template says where the user's file asked for
  // it. At most DiagEngine::kBacktraceLimit notes: the innermost and outermost halves.
  struct Frame {
    const ast::Stmt *stmt;        // the instance statement, or the for loop
    const ast::Template *tmpl;    // the template instantiated; nullptr for a loop
    uint32_t node;                // the template instance
    int64_t index;                // the loop's iteration
  };
  void backtrace(Diagnostic *d);
  std::vector<Frame> frames_;
  void step(SourceRange r, uint64_t n = 1) {
    uint64_t before = steps_;
    steps_ += n;
    // Stale (ElabOptions::cancel), looked at every 4,096 steps: no diagnostic, the caller
    // drops the result.
    if (opts_.cancel && (before >> 12) != (steps_ >> 12) && opts_.cancel->load(std::memory_order_relaxed))
      throw Abort{};
    if (steps_ > opts_.limits.maxSteps) {
      Diagnostic *d = error(DiagCode::E0030, r, "elaboration took more than {} steps", opts_.limits.maxSteps);
      DiagEngine::note(d, {}, "raise the limit with --max-steps if the design is really this large");
      throw Abort{};
    }
  }

  // ---- models ----
  void declareModels();
  void convertModels();
  struct PendingModel {
    const ast::Model *m;
    uint32_t index, base; // base: None, or the model it derives from (converted before it)
  };
  std::vector<PendingModel> pendingModels_;
  static bool modelKind(std::string_view k, ir::ModelKind &out);
  static SourceRange propRange(const ast::Prop &p); // from the key to the end of the value
  void convertModel(const ast::Model &m, ir::Model &out);
  void checkLanes(const ast::Model &m, const ir::Model &out); // lanes x lane_rate = speed (FAB-E0056)
  void portLanes(const ast::Model &m, const ast::PortDecl &pd, ir::PortGroup &g);
  bool figure(const ast::Prop &p, const Dim &want, ir::Figure &out);
  bool propInt(const ast::Prop &p, int64_t lo, int64_t hi, int64_t &out);
  void orderLengths(const ast::Prop &p, ir::Model &out);
  bool propStr(const ast::Prop &p, uint32_t &out);
  bool propBool(const ast::Prop &p, bool &out);
  // A property set twice in one block is an error (FAB-E0038), never "the last one wins".
  // Bounds (`estimate LOW..HIGH`) belong to catalog figures: a block without figures
  // (figures = false) refuses them here; a model refuses them on its other properties
  // (convertModel, FAB-E0391).
  // `block` words the block ("instance 'x'"), asked only for a message: an explicit file
  // checks a property block per statement.
  void duplicateProps(const ast::List<ast::Prop> &props, llvm::function_ref<std::string()> block,
                      bool figures = false);
  // Statements' property blocks, checked once each before anything runs (not once per
  // loop iteration): instances, links, places, buildings and halls, spans, policies.
  void duplicateStmtProps(const ast::Block &b);
  bool propQty(const ast::Prop &p, const Dim &want, double &out);
  // An expression that must be a quantity of `want`, for property `key` (its messages).
  bool exprQty(const ast::Expr *e, std::string_view key, const Dim &want, double &out);
  // `estimate LOW..HIGH "..."`: the figure's bounds, around its value (FAB-E0390).
  bool figureBounds(const ast::Prop &p, const Dim &want, ir::Figure &out);
  void boundsWithoutFigure(const ast::Prop &p, const char *block); // FAB-E0391
  const ast::Prop *boundsRead_ = nullptr; // the last property whose bounds figure() read
  // The same, then the property's range from Ranges.def (FAB-E0034 outside it).
  bool propQty(const char *where, const ast::Prop &p, const Dim &want, double &out);
  bool figure(const char *where, const ast::Prop &p, const Dim &want, ir::Figure &out);
  bool failureRate(const ast::Prop &p, ir::Figure &out); // `afr` or `mtbf`, as failures per unit-year
  bool inRange(const char *where, const ast::Prop &p, double v, const Dim &d);
  bool optionValue(const ast::Prop &p, const ir::Setting &st);
  bool policyValue(const char *where, const ast::Prop &p, const ir::Setting &st);
  static bool findRangeRow(const char *where, std::string_view key);
  void unknownProp(const ast::Prop &p, const char *what, const char *accepted) {
    Diagnostic *d = error(DiagCode::E0033, p.keyRange, "unknown property '{}' for {}", p.key, what);
    if (std::string_view(accepted) != "no properties")
      diags_.suggest(d, p.keyRange, p.key, accepted);
    DiagEngine::note(d, {}, std::string("accepted: ") + accepted);
  }

  // ---- evaluation ----
  Value eval(const ast::Expr *e);
  Value evalComp(const ast::Expr *e); // [e for x in a..b if c]
  // User functions (Functions.cpp): declared once before anything runs, called by evalCall.
  void declareFunctions();
  Value callFunction(const ast::Function *fn, const ast::Expr *call, llvm::SmallVectorImpl<Value> &args);
  // The calls being evaluated, innermost last: an error inside a function gets one note
  // per call ("in call to 'f' here"), innermost first, pointing at the caller's text.
  struct Call {
    const ast::Function *fn;
    SourceRange at;
  };
  std::vector<Call> calls_;
  uintptr_t stackBase_ = 0; // the frame address of run(): how deep the native stack is, in callFunction
  llvm::DenseMap<uint32_t, const ast::Function *> functions_;
  // A run of calls from one place (a recursion) is one note; past 10 notes, the 5
  // innermost and the 5 outermost are kept, as clang does.
  void callNotes(Diagnostic *d) {
    if (!d || calls_.empty())
      return;
    std::vector<std::pair<size_t, size_t>> runs; // innermost first: (call index, calls in the run)
    for (size_t i = calls_.size(); i-- > 0;) {
      if (!runs.empty() && calls_[runs.back().first].fn == calls_[i].fn &&
          calls_[runs.back().first].at.begin == calls_[i].at.begin) {
        ++runs.back().second;
        continue;
      }
      runs.push_back({i, 1});
    }
    for (size_t k = 0; k < runs.size(); ++k) {
      if (runs.size() > 10 && k == 5) {
        DiagEngine::note(d, {}, fmt::format("(skipping {} call sites)", runs.size() - 10));
        k = runs.size() - 6;
        continue;
      }
      const Call &c = calls_[runs[k].first];
      DiagEngine::note(d, c.at,
                       runs[k].second == 1
                           ? "in call to '" + std::string(c.fn->name) + "' here"
                           : fmt::format("in {} nested calls to '{}' here", runs[k].second, c.fn->name));
    }
  }
  static bool isBuiltin(std::string_view name);
  Value evalBinary(const ast::Expr *e); // evalArith, then whether the result is a percent
  Value evalArith(const ast::Expr *e);
  bool percentResult_ = false; // set by evalArith for evalBinary
  Value evalCall(const ast::Expr *e);
  std::string show(const Value &v); // the text str() gives
  // Appends v's text to out; false (out then longer than cap, cut mid-way) once it passes
  // cap bytes, so rendering costs O(cap) whatever the value's size.
  bool render(const Value &v, std::string &out, size_t cap);
  // The value size budget (ElabLimits::maxValueSize, FAB-E0071): false after the error.
  bool fitsValueSize(uint64_t size, const char *unit, const char *what, SourceRange r);
  // A string an expression built: its size checked, its bytes charged as steps (one per
  // 64) and counted toward the run's budget of built strings; None after an error.
  uint32_t builtString(std::string_view s, const ast::Expr *e);
  uint64_t builtStringBytes_ = 0; // new bytes interned by builtString
  // A name's binding: the innermost loop variable or parameter (marked used), else the
  // global; nullptr if neither (lookup then tries models and `inf`).
  const Value *findValue(uint32_t s);
  Value lookup(const ast::Expr *e);
  bool toInt(const Value &v, const ast::Expr *e, int64_t &out, const char *what);
  // An integer expression (an index, a loop bound): evalInt computes the common ones
  // (integer names and literals, + - * % and exact /, floor/ceil/round) without a Value,
  // and says false for anything else or anything that would fail; eval then gives the
  // same value or reports. A million-GPU loop evaluates millions of indices: the leaves,
  // most of their nodes, are read here without a call (evalIntNode does the rest).
  bool evalInt(const ast::Expr *e, int64_t &out) {
    if (e->kind == ast::Expr::Number) {
      out = e->integer;
      return e->isInteger;
    }
    if (e->kind != ast::Expr::Name)
      return evalIntNode(e, out);
    if (!e->kids.empty())
      return false;
    const Value *v = findValue(exprSym(e));
    if (!v || v->type != Value::Int)
      return false; // eval looks further (models, inf) or reports
    out = v->i;
    return true;
  }
  bool evalIntNode(const ast::Expr *e, int64_t &out);
  bool intValue(const ast::Expr *e, int64_t &out, const char *what);
  bool toBool(const Value &v, const ast::Expr *e, bool &out);
  bool checkFinite(double v, const ast::Expr *e) {
    if (std::isfinite(v))
      return true;
    error(DiagCode::E0027, e->range, "result is not a finite number");
    return false;
  }
  void bind(uint32_t s, Value v) { env_.push_back({s, std::move(v), false}); }
  void record(const ast::Stmt *s, const Value &v) { // ElabOptions::values
    if (!opts_.values || !v.ok())
      return;
    BindingValues::Seen &seen = opts_.values->values[s];
    if (!recordings_.empty()) // a copy of this body counts the evaluation again (stamp())
      valueLog_.push_back({s, 1});
    if (++seen.times > BindingValues::kMaxSeen)
      return;
    // Bounded: a value may be a million items or bytes, the hover shows the first
    // kMaxHoverText bytes and the full size.
    std::string text;
    if (!render(v, text, BindingValues::kMaxHoverText)) {
      text.resize(BindingValues::kMaxHoverText);
      while (!text.empty() && (uint8_t(text.back()) & 0xC0) == 0x80) // never cut a UTF-8 sequence
        text.pop_back();
      if (!text.empty() && uint8_t(text.back()) >= 0xC0)
        text.pop_back();
      text += v.type == Value::List  ? fmt::format("… ({} items in all, nested counted)", v.weight() - 1)
              : v.type == Value::Str ? fmt::format("… ({} bytes in all)", F.strings.str(v.s).size())
                                     : std::string("…");
    }
    if (seen.times == 1) {
      seen.text = std::move(text);
      seen.type = v.type == Value::Qty || v.type == Value::Real ? dimName(v.dimension()) : typeName(v);
    } else if (text != seen.text) {
      seen.varies = true;
    }
  }

  // ---- statements ----
  void execBlock(const ast::Block &b);
  void exec(const ast::Stmt *s);
  void execFor(const ast::Stmt *s); // exec's `for`, after the statement's step
  // A `for`'s iterations as the statement runs them: a step and the backtrace's frame
  // for each, room reserved after the first; body(i) does the iteration's work.
  template <class Body> void iterate(const ast::Stmt *s, int64_t from, int64_t to, Body &&body) {
    frames_.push_back({s, nullptr, None, from});
    const Sizes before = sizes();
    for (int64_t i = from; i < to; ++i) {
      step(s->range);
      frames_.back().index = i;
      body(i);
      if (i == from)
        reserveAhead(before, uint64_t(to - from - 1));
    }
    frames_.pop_back();
  }
  void execIteration(const ast::Stmt *s, uint32_t var, int64_t i); // its variable bound, its body run
  // ---- link nests (LinkNest.cpp) ----
  // A nest of `for`s down to a body of links, run with compiled indices (decision 0641);
  // false, having done nothing, when the loop is not one (the caller runs it).
  bool runLinkNest(const ast::Stmt *s, int64_t from, int64_t to);
  struct Nest;
  enum class NestState : uint8_t { Retry, Never, Ready }; // Retry: a name is not interned yet
  bool linkNestShape(const ast::Stmt *s);
  uint32_t peekSym(std::string_view text, uint32_t &cache); // None if never interned
  NestState compileNest(Nest &n);
  NestState nestCode(Nest &n, const ast::Expr *e, size_t visible, int32_t &code);
  NestState nestOps(Nest &n, size_t code, const ast::Expr *e, size_t visible, size_t &sp);
  void nestInner(Nest &n, size_t level);
  void nestLink(Nest &n);
  bool nestPath(Nest &n, size_t link, size_t side, Endpoint &ep);
  void markUsed(Nest &n, size_t code);
  size_t bindLevels(const Nest &n, size_t levels); // their variables, as statements bind them; the mark before
  llvm::DenseMap<const ast::Stmt *, bool> nestShape_; // linkNestShape, per for statement
  void execInst(const ast::Stmt *s);
  bool checkTarget(const ast::Stmt *s);
  uint32_t targetModel(const ast::Stmt *s);
  void instantiate(const ast::Stmt *s, int64_t index, bool isArray);
  struct LinkProps {
    int64_t count = 1;
    float length = 0;
    uint8_t flags = 0;
    ir::Media media = ir::Media::None;
    bool pairwise = false;
    ir::PartChoice parts;
    bool clean = false; // read without a diagnostic
  };
  // `read`: the properties, when the statement got past their checks (link nests reuse them).
  void execLink(const ast::Stmt *s, LinkProps *read = nullptr);
  bool linkProps(const ast::Stmt *s, LinkProps &lp);
  void execGroup(const ast::Stmt *s);
  void execPlace(const ast::Stmt *s);
  void execBuilding(const ast::Stmt *s);
  void execSpan(const ast::Stmt *s);
  void suggestBuilding(Diagnostic *d, SourceRange at, std::string_view name, bool sites = false); // did-you-mean
  uint32_t siteOf(const ast::Prop &p); // a building's `site`: into F.sites, None on error
  void execPolicy(const ast::Stmt *s);
  void execOption(const ast::Stmt *s);
  static bool isExtraOption(std::string_view name);
  bool setting(const ast::Prop &p, ir::Setting &out);
  bool latencyBetween(const ast::Stmt *s, ir::Policy &pol); // `policy latency` with between: true if so
  void extraPolicy(const ast::Stmt *s, const char *props);
  void execParam(const ast::Stmt *s);

  // ---- stamped template instances (Stamp.cpp) ----
  // A template body is a function of its arguments (it sees only globals and its
  // parameters), unless it reaches outside its instance (a path resolved in an enclosing
  // scope), places devices, declares buildings/spans/policies/options/params, reports a
  // diagnostic or chooses parts. A body that does none of these is recorded, and the next
  // instance of the template with the same arguments at the same depth copies it with
  // node, device, port, link and group ids offset instead of evaluating it again.
  struct DeclLog {   // an instance-tree declaration made while recording
    uint32_t parent, sym;
    int64_t index;   // elems_ key; unused for an entry
    bool elem;
  };
  struct Recording {
    uint32_t node, inst;
    bool pure = true;
    uint64_t steps, reported, impure;
    uint32_t nodeBegin, devBegin, portBegin, linkBegin, groupBegin, cursorBegin, instBegin;
    size_t logBegin, valueLogBegin;
  };
  struct DenseElems;
  struct Stamp {
    uint32_t node, inst; // the instance recorded
    uint32_t nodeBegin, nodeEnd, devBegin, devEnd, portBegin, portEnd, linkBegin, linkEnd, groupBegin, groupEnd,
        cursorBegin, instBegin, instEnd;
    uint64_t steps;
    std::vector<DeclLog> decls;
    // Per decl: the array of the body whose elements are copied whole with its entry (an
    // index into `arrays`, as the body left them), kReplay, or kCopied for an element of
    // such an array. A rack of 18 trays set them one by one, regrowing the vector each time:
    // half the cost of stamping it.
    static constexpr uint32_t kReplay = ~0u, kCopied = ~0u - 1;
    std::vector<uint32_t> declArray;
    std::vector<DenseElems> arrays;
    std::vector<uint32_t> portLink, cursors; // as the body left them (later links change the live ones)
    // ElabOptions::values: the let and param statements the body evaluated, and how often.
    // A copy adds the counts only: its values are the recorded ones (the body is a
    // function of its arguments), so the first value and `varies` stay as they are.
    std::vector<std::pair<const ast::Stmt *, uint64_t>> valueTimes;
  };
  uint32_t beginInstance(const ast::Template *t, const ast::Stmt *s, uint32_t node, size_t mark);
  void elaborateBody(const ast::Template *t, uint32_t node, uint32_t inst);
  bool encodeValue(const Value &v, std::vector<uint64_t> &key, unsigned &budget);
  bool stamp(const Stamp &st, uint32_t node, uint32_t inst, SourceRange r);
  void recordArrays(Stamp &st);
  void noteScope(uint32_t sc) { // a path inside a recorded body resolved from scope sc
    for (size_t k = recordings_.size(); k-- > 0 && recordings_[k].node > sc;)
      recordings_[k].pure = false;
  }
  void logDecl(uint32_t parent, uint32_t name, int64_t index, bool elem) {
    if (!recordings_.empty())
      declLog_.push_back({parent, name, index, elem});
  }
  uint64_t reported_ = 0, impure_ = 0;
  std::vector<Recording> recordings_;
  std::vector<DeclLog> declLog_;
  std::vector<std::pair<const ast::Stmt *, uint64_t>> valueLog_; // record()s under a recording
  std::vector<uint32_t> instStack_;                      // the template instances being elaborated
  std::map<std::vector<uint64_t>, uint32_t> argSetIndex_; // (template, depth, arguments) -> argSet
  std::vector<std::unique_ptr<Stamp>> stamps_;             // by argSet: the recorded body, if pure

  // ---- sizing ahead ----
  // After the first of `more` + 1 iterations that are likely alike (a loop's, an instance
  // array's elements), the arrays elaboration appends to get room for all of them at once.
  // Grown by doubling instead, a million-GPU design's arrays took twice their final
  // memory, every page of it zeroed by the kernel, and were copied at each growth. A
  // guess too high reserves address space only: pages no item is written to are never
  // touched.
  struct Sizes {
    uint64_t nodes, devs, ports, links, cursors;
  };
  Sizes sizes() const { return {F.nodes.size(), F.numDevices(), F.numPorts(), F.numLinks(), cursors_.size()}; }
  void reserveAhead(const Sizes &before, uint64_t more);

  // ---- instance tree ----
  uint32_t newNode(uint32_t parent, uint32_t name, int64_t index) {
    F.nodes.push_back({parent, name, index});
    nodeDevice_.push_back(None);
    nodeDevBegin_.push_back(uint32_t(F.numDevices()));
    nodeDevEnd_.push_back(uint32_t(F.numDevices()));
    return uint32_t(F.nodes.size() - 1);
  }
  // Declares (parent, name[index]); returns its node or None after a diagnostic.
  uint32_t declare(uint32_t parent, uint32_t name, int64_t index, bool isArray, bool device, SourceRange r);
  uint32_t createDevice(uint32_t node, uint32_t model, const ast::Stmt *s);
  uint32_t layoutFor(uint32_t model, const std::vector<uint32_t> &breakouts);
  void resolvePath(const ast::Path &p, bool allowPort, bool allowStar, llvm::SmallVectorImpl<Endpoint> &out);
  // `found`: the entry of p.segs[seg] in `scope` if the caller looked it up already.
  void resolveFrom(uint32_t scope, const ast::Path &p, size_t seg, bool allowPort, bool allowStar,
                   llvm::SmallVectorImpl<Endpoint> &out, const Entry *found);
  // The rest of a path from `node`, which p.segs[seg] named.
  void resolveAt(uint32_t node, const ast::Path &p, size_t seg, bool allowPort, bool allowStar,
                 llvm::SmallVectorImpl<Endpoint> &out);
  // Array elements a path named by index (rack[k] from the scope of the segment before,
  // or from the current scope for the first): a loop names the same few instances again
  // and again, and a hit costs no probe of entries_ and no element lookup. The table is
  // direct-mapped by (segment, scope, index). An entry holds while no name is declared
  // (entries_ only grows, and a new name could hide one found further out); an element,
  // once declared, is never redefined.
  struct SegMemo {
    const ast::Segment *seg = nullptr;
    uint32_t scope = None, node = None;
    uint32_t found = None; // the first segment's: the scope its entry was found in
    int64_t index = 0;
    size_t names = 0; // entries_.size() when stored
  };
  static constexpr size_t kSegMemo = 1024;
  std::vector<SegMemo> segMemo_ = std::vector<SegMemo>(kSegMemo);
  SegMemo &segMemo(const ast::Segment *seg, uint32_t scope, int64_t index) {
    uint64_t h = uint64_t(reinterpret_cast<uintptr_t>(seg)) ^ (uint64_t(scope) << 24) ^
                 uint64_t(index) * 0x9E3779B97F4A7C15ull;
    return segMemo_[ir::mixKey(h) & (kSegMemo - 1)];
  }
  const SegMemo *memoHit(const ast::Segment &seg, uint32_t scope) {
    if (!seg.hasIndex() || seg.star)
      return nullptr;
    int64_t k = seg.literal(); // an inline literal, else the expression's value
    if (seg.index() && !evalInt(seg.index(), k))
      return nullptr; // evalInt reports nothing: resolveFrom evaluates it again, and reports
    const SegMemo &m = segMemo(&seg, scope, k);
    return m.seg == &seg && m.scope == scope && m.index == k && m.names == entries_.size() ? &m : nullptr;
  }
  // The entry `name` names from `scope` (the innermost scope that has one, in `found`).
  const Entry *findEntry(uint32_t scope, uint32_t name, uint32_t &found);
  bool addLink(const Endpoint &a, const Endpoint &b, const ast::Stmt *s, float length, uint8_t flags,
               ir::Media media);
  uint32_t takePort(const Endpoint &e, const ast::Path &p, double &speed);
  void breakoutFix(Diagnostic *d, uint32_t port, double factor, double speed);
  // ---- chosen parts (Parts.cpp) ----
  bool partProp(const ast::Prop &p, bool optic, ir::PartChoice &c);
  uint32_t internChoice(const ir::PartChoice &c);
  uint32_t deviceChoices(const ir::Model &m, const std::vector<const ast::Prop *> &props);
  void setDeviceChoice(uint32_t dev, uint32_t set);
  void setLinkChoice(uint32_t choice);
  void partsPolicy(const ast::Stmt *s);
  std::map<std::vector<uint32_t>, uint32_t> choiceSets_;
  static bool isPartKey(std::string_view k) {
    return k == "optic" || k == "cable" || k.rfind("optic_", 0) == 0 || k.rfind("cable_", 0) == 0;
  }

  const LoadedProgram &prog_;
  const ElabOptions &opts_;
  DiagEngine &diags_;
  ir::Fabric &F;

  llvm::DenseMap<uint32_t, uint32_t> modelIndex_;
  llvm::DenseMap<uint32_t, const ast::Model *> modelAst_;
  llvm::DenseMap<uint32_t, const ast::Template *> templates_;
  llvm::DenseMap<uint32_t, Value> globals_;
  llvm::DenseMap<uint32_t, std::pair<Value, SourceRange>> defines_;
  llvm::DenseMap<uint32_t, bool> definesUsed_;
  struct Binding {
    uint32_t sym;
    Value value;
    bool used = false; // read at least once: for the unused-parameter warning
  };
  std::vector<Binding> env_;
  llvm::DenseMap<const ast::Template *, std::vector<bool>> paramUsed_; // read by some instance
  size_t barrier_ = 0;
  uint32_t scope_ = None;
  uint32_t depth_ = 0;
  uint64_t steps_ = 0;
  bool inFabric_ = false;

  llvm::DenseMap<EntryKey, Entry> entries_;
  // An array's elements, by index: a vector of nodes from the lowest index (None where
  // none was declared), so that a path such as rack[k].tray[t] costs two array reads and
  // not two probes of a hash table of every element of the fabric (the million-GPU bench
  // design resolves 4 million such segments). An array whose indices spread out
  // (x[0] and x[1000000]) moves to elems_ instead (Instances.cpp, setElem).
  // nodes[k] is index base + k. The vector grows at both ends geometrically (slack holds
  // None), so an array declared from its highest index down costs linear time too.
  struct DenseElems {
    int64_t base = 0;
    int64_t lo = 0, hi = 0; // the lowest declared index and one past the highest
    uint32_t count = 0;     // elements declared
    std::vector<uint32_t> nodes;
  };
  std::vector<DenseElems> dense_;
  llvm::DenseMap<ElemKey, uint32_t> elems_; // elements of the arrays that are kSparse
  uint32_t findElem(const Entry &e, uint32_t parent, uint32_t name, int64_t index) const {
    if (e.dense == Entry::kSparse) {
      auto it = elems_.find(ElemKey{parent, name, index}); // not lookup(): its "absent" is 0, a node
      return it == elems_.end() ? None : it->second;
    }
    if (e.dense == Entry::kDenseNone)
      return None;
    const DenseElems &d = dense_[e.dense];
    uint64_t k = uint64_t(index) - uint64_t(d.base); // below base wraps past the end
    return k < d.nodes.size() ? d.nodes[k] : None;
  }
  void setElem(Entry &e, uint32_t parent, uint32_t name, int64_t index, uint32_t node);
  std::vector<uint32_t> nodeDevice_, nodeDevBegin_, nodeDevEnd_;
  llvm::DenseMap<uint32_t, uint32_t> defaultLayout_;
  std::map<std::vector<uint32_t>, uint32_t> layoutCache_;
  llvm::DenseMap<uint32_t, uint32_t> buildingIndex_;
  llvm::DenseMap<uint32_t, uint32_t> siteIndex_; // site name -> Fabric::sites
  llvm::DenseMap<EntryKey, uint32_t> hallIndex_;
  llvm::DenseMap<RackKey, uint32_t> rackIndex_;
  std::vector<bool> rackFullReported_;
  std::vector<std::vector<uint32_t>> rackOccupant_; // per rack, per U: the device there
  std::vector<SourceLoc> devPlaceLoc_;              // the place statement of each device
  std::vector<uint32_t> linkStmtOf_; // for notes on port reuse: link -> its location
  // A port a failed link took (portLink holds kFailedLink: elaboration then fails, so no
  // pass ever reads it), and where that link is.
  static constexpr uint32_t kFailedLink = None - 1;
  llvm::DenseMap<uint32_t, SourceLoc> failedPortLoc_;
  // Next-free-port cursors (elaboration scratch, not in the IR): one per port group of
  // each device, from devCursorBase_[device]; relative to the device's first port.
  std::vector<uint32_t> devCursorBase_, cursors_;
};

} // namespace fabc::elab
