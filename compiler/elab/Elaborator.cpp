#include "elab/Elaborator.h"
#include "diag/Diag.h"
#include "elab/Value.h"
#include "loader/Imports.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>

namespace fabc {
namespace elab {
const char *typeName(const Value &v) {
  switch (v.type) {
  case Value::Void: return "nothing";
  case Value::Int: return "an integer";
  case Value::Real: return "a number";
  case Value::Qty: return "a quantity";
  case Value::Str: return "a string";
  case Value::Bool: return "a boolean";
  case Value::List: return "a list";
  case Value::ModelRef: return "a model";
  }
  return "?";
}
} // namespace elab

namespace {
using elab::Value;
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
// DenseMapInfo<uint64_t> hashes with (unsigned)(x * 37): the high half (the parent node
// above) never reaches the bucket index, so every 'leaf' of every pod collided and
// lookups went quadratic. A full 64-bit mix (the splitmix64 finalizer) instead.
inline unsigned mixHash(uint64_t h) {
  h ^= h >> 30;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  h *= 0x94D049BB133111EBull;
  h ^= h >> 31;
  return unsigned(h);
}
struct RackKey {
  uint32_t hall;
  int64_t row, pos;
  bool operator==(const RackKey &o) const { return hall == o.hall && row == o.row && pos == o.pos; }
};
} // namespace
} // namespace fabc

namespace llvm {
template <> struct DenseMapInfo<fabc::EntryKey> {
  static fabc::EntryKey getEmptyKey() { return {~0u, ~0u}; }
  static fabc::EntryKey getTombstoneKey() { return {~0u - 1, ~0u}; }
  static unsigned getHashValue(const fabc::EntryKey &k) {
    return fabc::mixHash((uint64_t(k.parent) << 32) | k.sym);
  }
  static bool isEqual(const fabc::EntryKey &a, const fabc::EntryKey &b) { return a == b; }
};
template <> struct DenseMapInfo<fabc::ElemKey> {
  static fabc::ElemKey getEmptyKey() { return {~0u, ~0u, 0}; }
  static fabc::ElemKey getTombstoneKey() { return {~0u - 1, ~0u, 0}; }
  static unsigned getHashValue(const fabc::ElemKey &k) {
    uint64_t h = (uint64_t(k.parent) << 32) | k.sym;
    h ^= uint64_t(k.index) * 0x9E3779B97F4A7C15ull;
    return fabc::mixHash(h);
  }
  static bool isEqual(const fabc::ElemKey &a, const fabc::ElemKey &b) { return a == b; }
};
template <> struct DenseMapInfo<fabc::RackKey> {
  static fabc::RackKey getEmptyKey() { return {~0u, 0, 0}; }
  static fabc::RackKey getTombstoneKey() { return {~0u - 1, 0, 0}; }
  static unsigned getHashValue(const fabc::RackKey &k) {
    uint64_t h = k.hall * 0x9E3779B97F4A7C15ull ^ uint64_t(k.row) * 0xC2B2AE3D27D4EB4Full ^ uint64_t(k.pos);
    return fabc::mixHash(h);
  }
  static bool isEqual(const fabc::RackKey &a, const fabc::RackKey &b) { return a == b; }
};
} // namespace llvm

namespace fabc {
namespace {

// An instance-tree entry: a scalar instance or an array of them.
struct Entry {
  bool array = false;
  bool device = false;
  uint32_t node = None; // scalar
  int64_t lo = 0, hi = 0; // array: indices seen, [lo, hi)
  SourceRange loc;
};

const char *const kOptionNames = "default_cable_length cable_slack pue nic_latency"
#define OPTION(N, HELP) " " #N
#define POLICY(K, PROPS, HELP)
#include "ir/Settings.def"
#undef OPTION
#undef POLICY
    ;
const char *const kPolicyNames = "policies: power, oversubscription, latency, nvlink, rail_optimized"
#define OPTION(N, HELP)
#define POLICY(K, PROPS, HELP) ", " #K
#include "ir/Settings.def"
#undef OPTION
#undef POLICY
    ;

struct Abort {}; // thrown to unwind elaboration after a limit; caught in elaborate()

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
  uint32_t sym(const std::string &s, uint32_t &cache) {
    if (cache == UINT32_MAX)
      cache = F.strings.intern(s);
    return cache;
  }
  uint32_t exprSym(const ast::Expr *e) { return sym(e->text, e->sym); }

  template <typename... Args>
  Diagnostic *error(DiagCode c, SourceRange r, fmt::format_string<Args...> f, Args &&...args) {
    Diagnostic *d = diags_.report(c, r, fmt::format(f, std::forward<Args>(args)...));
    if (diags_.tooManyErrors())
      throw Abort{};
    return d;
  }
  void step(SourceRange r) {
    if (++steps_ > opts_.limits.maxSteps) {
      Diagnostic *d = error(DiagCode::E0030, r, "elaboration took more than {} steps", opts_.limits.maxSteps);
      DiagEngine::note(d, {}, "raise the limit with --max-steps if the design is really this large");
      throw Abort{};
    }
  }

  // ---- models ----
  void declareModels();
  void convertModel(const ast::Model &m, ir::Model &out);
  bool figure(const ast::Prop &p, const Dim &want, ir::Figure &out);
  bool propInt(const ast::Prop &p, int64_t lo, int64_t hi, int64_t &out);
  bool propStr(const ast::Prop &p, uint32_t &out);
  bool propBool(const ast::Prop &p, bool &out);
  // A property set twice in one block is an error (FAB-E0038), never "the last one wins".
  void duplicateProps(const std::vector<ast::Prop> &props, const char *block) {
    std::map<std::string_view, const ast::Prop *> first;
    for (const ast::Prop &p : props) {
      auto ins = first.emplace(p.key, &p);
      if (ins.second)
        continue;
      Diagnostic *d = error(DiagCode::E0038, p.keyRange, "property '{}' is set twice in {}", p.key, block);
      DiagEngine::note(d, ins.first->second->keyRange, "first set here");
    }
  }
  // Statements' property blocks, checked once each before anything runs (not once per
  // loop iteration): instances, links, places, buildings and halls, spans, policies.
  void duplicateStmtProps(const ast::Block &b);
  bool propQty(const ast::Prop &p, const Dim &want, double &out);
  void unknownProp(const ast::Prop &p, const char *what, const char *accepted) {
    Diagnostic *d = error(DiagCode::E0033, p.keyRange, "unknown property '{}' for {}", p.key, what);
    DiagEngine::note(d, {}, std::string("accepted: ") + accepted);
  }

  // ---- evaluation ----
  Value eval(const ast::Expr *e);
  Value evalBinary(const ast::Expr *e);
  Value evalCall(const ast::Expr *e);
  std::string show(const Value &v); // the text str() gives
  Value lookup(const ast::Expr *e);
  bool toInt(const Value &v, const ast::Expr *e, int64_t &out, const char *what);
  bool toBool(const Value &v, const ast::Expr *e, bool &out);
  bool checkFinite(double v, const ast::Expr *e) {
    if (std::isfinite(v))
      return true;
    error(DiagCode::E0027, e->range, "result is not a finite number");
    return false;
  }
  void bind(uint32_t s, Value v) { env_.push_back({s, std::move(v), false}); }

  // ---- statements ----
  void execBlock(const ast::Block &b);
  void exec(const ast::Stmt *s);
  void execInst(const ast::Stmt *s);
  bool checkTarget(const ast::Stmt *s);
  uint32_t targetModel(const ast::Stmt *s);
  void instantiate(const ast::Stmt *s, int64_t index, bool isArray);
  void execLink(const ast::Stmt *s);
  void execGroup(const ast::Stmt *s);
  void execPlace(const ast::Stmt *s);
  void execBuilding(const ast::Stmt *s);
  void execSpan(const ast::Stmt *s);
  void execPolicy(const ast::Stmt *s);
  void execOption(const ast::Stmt *s);
  static bool isExtraOption(const std::string &name);
  bool setting(const ast::Prop &p, ir::Setting &out);
  void extraPolicy(const ast::Stmt *s, const char *props);
  void execParam(const ast::Stmt *s);

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
  void resolveFrom(uint32_t scope, const ast::Path &p, size_t seg, bool allowPort, bool allowStar,
                   llvm::SmallVectorImpl<Endpoint> &out, bool first);
  uint32_t findEntryScope(uint32_t scope, uint32_t name);
  bool addLink(const Endpoint &a, const Endpoint &b, const ast::Stmt *s, float length, uint8_t flags,
               ir::Media media);
  uint32_t takePort(const Endpoint &e, const ast::Path &p);

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
  llvm::DenseMap<ElemKey, uint32_t> elems_;
  std::vector<uint32_t> nodeDevice_, nodeDevBegin_, nodeDevEnd_;
  llvm::DenseMap<uint32_t, uint32_t> defaultLayout_;
  std::map<std::vector<uint32_t>, uint32_t> layoutCache_;
  llvm::DenseMap<uint32_t, uint32_t> buildingIndex_;
  llvm::DenseMap<EntryKey, uint32_t> hallIndex_;
  llvm::DenseMap<RackKey, uint32_t> rackIndex_;
  std::vector<bool> rackFullReported_;
  std::vector<std::vector<uint32_t>> rackOccupant_; // per rack, per U: the device there
  std::vector<SourceLoc> devPlaceLoc_;              // the place statement of each device
  std::vector<uint32_t> linkStmtOf_; // for notes on port reuse: link -> its location
};

// ================= models =================

bool Elab::figure(const ast::Prop &p, const Dim &want, ir::Figure &out) {
  double v;
  if (!propQty(p, want, v))
    return false;
  out.value = v;
  out.known = true;
  out.estimate = p.annot == ast::Prop::Estimate;
  out.source = p.annot == ast::Prop::None ? 0 : F.strings.intern(p.annotText);
  return true;
}

bool Elab::propQty(const ast::Prop &p, const Dim &want, double &out) {
  Value v = eval(p.value);
  if (!v.ok())
    return false;
  if (!v.numeric()) {
    error(DiagCode::E0026, p.value->range, "'{}' must be {}, not {}", p.key,
          want.none() ? "a number" : "a " + dimName(want), elab::typeName(v));
    return false;
  }
  if (v.dimension() != want) {
    Diagnostic *d = error(DiagCode::E0025, p.value->range, "'{}' must be {}, but this is {}", p.key,
                          want.none() ? std::string("a plain number") : dimName(want), dimName(v.dimension()));
    if (!want.none() && v.dimension().none())
      DiagEngine::note(d, {}, "add a unit, for example " + formatQuantity(v.asDouble() * (want == dims::Bandwidth ? 1e9 : 1), want));
    return false;
  }
  out = v.asDouble();
  return true;
}

bool Elab::propInt(const ast::Prop &p, int64_t lo, int64_t hi, int64_t &out) {
  Value v = eval(p.value);
  if (!v.ok() || !toInt(v, p.value, out, p.key.c_str()))
    return false;
  if (out < lo || out > hi) {
    error(DiagCode::E0034, p.value->range, "'{}' is {}, outside {}..{}", p.key, out, lo, hi);
    return false;
  }
  return true;
}

bool Elab::propStr(const ast::Prop &p, uint32_t &out) {
  Value v = eval(p.value);
  if (!v.ok())
    return false;
  if (v.type == Value::ModelRef) {
    out = F.models[v.s].name;
    return true;
  }
  if (v.type != Value::Str) {
    error(DiagCode::E0026, p.value->range, "'{}' must be a string, not {}", p.key, elab::typeName(v));
    return false;
  }
  out = v.s;
  return true;
}

bool Elab::propBool(const ast::Prop &p, bool &out) {
  Value v = eval(p.value);
  return v.ok() && toBool(v, p.value, out);
}

static bool modelKind(const std::string &k, ir::ModelKind &out) {
  static const std::pair<const char *, ir::ModelKind> kinds[] = {
      {"gpu", ir::ModelKind::Gpu},       {"system", ir::ModelKind::System}, {"nic", ir::ModelKind::Nic},
      {"switch", ir::ModelKind::Switch}, {"nvswitch", ir::ModelKind::NvSwitch},
      {"optic", ir::ModelKind::Optic},   {"cable", ir::ModelKind::Cable}};
  for (auto &kv : kinds)
    if (k == kv.first) {
      out = kv.second;
      return true;
    }
  return false;
}

void Elab::declareModels() {
  for (const ast::File *f : prog_.files) {
    for (const ast::Model *m : f->models) {
      uint32_t name = F.strings.intern(m->name);
      if (modelAst_.count(name) || templates_.count(name)) {
        Diagnostic *d = error(DiagCode::E0021, m->range, "redefinition of '{}'", m->name);
        auto it = modelAst_.find(name);
        if (it != modelAst_.end())
          DiagEngine::note(d, it->second->range, "previous definition is here");
        continue;
      }
      ir::ModelKind kind;
      if (!modelKind(m->kind, kind)) {
        Diagnostic *d = error(DiagCode::E0034, m->kindRange, "unknown model kind '{}'", m->kind);
        DiagEngine::note(d, {}, "kinds: gpu, system, nic, switch, nvswitch, optic, cable");
        continue;
      }
      modelAst_[name] = m;
      modelIndex_[name] = uint32_t(F.models.size());
      F.models.emplace_back();
      F.models.back().name = name;
      F.models.back().kind = kind;
      F.models.back().loc = m->range;
    }
    for (const ast::Template *t : f->templates) {
      uint32_t name = F.strings.intern(t->name);
      if (modelAst_.count(name) || templates_.count(name)) {
        error(DiagCode::E0021, t->range, "redefinition of '{}'", t->name);
        continue;
      }
      templates_[name] = t;
    }
  }
  // Properties after all names exist, so models may refer to each other (gpu = B200).
  for (auto &kv : modelAst_)
    convertModel(*kv.second, F.models[modelIndex_[kv.first]]);
}

void Elab::convertModel(const ast::Model &m, ir::Model &out) {
  using K = ir::ModelKind;
  bool device = out.kind == K::System || out.kind == K::Switch || out.kind == K::Nic || out.kind == K::NvSwitch;
  bool media = out.kind == K::Optic || out.kind == K::Cable;
  duplicateProps(m.props, ("model '" + m.name + "'").c_str());
  for (const ast::Prop &p : m.props) {
    const std::string &k = p.key;
    int64_t iv;
    if (k == "vendor") propStr(p, out.vendor);
    else if (k == "sku") propStr(p, out.sku);
    else if (k == "description") propStr(p, out.description);
    else if (k == "power") figure(p, dims::Power, out.power);
    else if (k == "price") figure(p, dims::Money, out.price);
    else if (k == "rack_units" && device) { if (propInt(p, 0, 64, iv)) out.rackUnits = uint32_t(iv); }
    else if (k == "latency" && (device || out.kind == K::Gpu)) figure(p, dims::Time, out.latency);
    else if (k == "gpus" && out.kind == K::System) { if (propInt(p, 0, 1 << 20, iv)) out.gpus = uint32_t(iv); }
    else if (k == "nvlink_domain" && out.kind == K::System) { if (propInt(p, 0, 1 << 20, iv)) out.nvlinkDomain = uint32_t(iv); }
    else if (k == "gpu" && out.kind == K::System) {
      Value v = eval(p.value);
      if (v.type == Value::ModelRef && F.models[v.s].kind == K::Gpu)
        out.gpuModel = v.s;
      else if (v.ok())
        error(DiagCode::E0026, p.value->range, "'gpu' must name a model of kind gpu");
    }
    else if (media && k == "media") {
      uint32_t s;
      if (propStr(p, s)) {
        std::string_view name = F.strings.str(s);
        if (name == "CPO") {
          out.cpoEngine = true;
        } else {
          out.media = ir::mediaFromName(name);
          if (out.media == ir::Media::None) {
            Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown media '{}'", name);
            DiagEngine::note(d, {}, "media: DAC, ACC, AOC, MMF, SMF, DCI, CPO");
          }
        }
      }
    }
    else if (media && k == "speed") propQty(p, dims::Bandwidth, out.speed);
    else if (media && k == "form") propStr(p, out.form);
    else if (media && k == "reach") figure(p, dims::Length, out.reach);
    else if (media && k == "ports") { if (propInt(p, 1, 8, iv)) out.portsPerUnit = uint32_t(iv); }
    else if (out.kind == K::Optic && k == "lasers") figure(p, dims::None, out.lasers);
    else if (out.kind == K::Optic && k == "interface") propStr(p, out.interface);
    else if (k == "protocol" && (out.kind == K::Switch || out.kind == K::Nic)) {
      uint32_t s;
      if (propStr(p, s)) {
        std::string_view v = F.strings.str(s);
        if (v == "ethernet") out.protocol = ir::Protocol::Ethernet;
        else if (v == "infiniband") out.protocol = ir::Protocol::InfiniBand;
        else {
          Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown protocol '{}'", v);
          DiagEngine::note(d, {}, "protocol is \"ethernet\" or \"infiniband\"");
        }
      }
    }
    else if (out.kind == K::Gpu && (k == "memory" || k == "nvlink_bandwidth")) {
      double unused;
      propQty(p, k == "memory" ? dims::Data : dims::Bandwidth, unused);
    }
    else
      unknownProp(p, (std::string("a model of kind ") + ir::modelKindName(out.kind)).c_str(),
                  device ? "vendor sku description power price rack_units latency; switches and NICs: protocol; systems: gpus gpu nvlink_domain"
                  : media ? "vendor sku description power price media speed form reach ports lasers interface"
                          : "vendor sku description power price latency memory nvlink_bandwidth");
  }
  if (!m.ports.empty() && !device)
    error(DiagCode::E0033, m.ports[0].range, "a model of kind {} has no ports", ir::modelKindName(out.kind));
  for (const ast::PortDecl &pd : m.ports) {
    ir::PortGroup g;
    g.name = F.strings.intern(pd.name);
    g.loc = pd.range;
    Value c = eval(pd.count);
    int64_t n;
    if (!c.ok() || !toInt(c, pd.count, n, "port count"))
      continue;
    if (n < 1 || n > 65536) {
      error(DiagCode::E0034, pd.count->range, "a port group has 1 to 65536 ports, not {}", n);
      continue;
    }
    g.count = uint32_t(n);
    bool haveSpeed = false;
    duplicateProps(pd.props, ("port group '" + pd.name + "' of model '" + m.name + "'").c_str());
    for (const ast::Prop &p : pd.props) {
      int64_t iv;
      if (p.key == "speed") haveSpeed = propQty(p, dims::Bandwidth, g.speed);
      else if (p.key == "lanes") { if (propInt(p, 1, 64, iv)) g.lanes = uint32_t(iv); }
      else if (p.key == "form") propStr(p, g.form);
      else if (p.key == "ports_per_cage") { if (propInt(p, 1, 8, iv)) g.portsPerCage = uint32_t(iv); }
      else if (p.key == "cpo") propBool(p, g.cpo);
      else if (p.key == "breakouts") {
        Value v = eval(p.value);
        if (v.type != Value::List) {
          if (v.ok())
            error(DiagCode::E0026, p.value->range, "'breakouts' is a list of factors, for example [2, 4]");
          continue;
        }
        for (size_t i = 0; i < v.list->size(); ++i) {
          int64_t f;
          if (!toInt((*v.list)[i], p.value, f, "breakout factor"))
            continue;
          if (f < 1 || f > 8 || (f & (f - 1))) {
            error(DiagCode::E0034, p.value->range, "breakout factors are 1, 2, 4 or 8, not {}", f);
            continue;
          }
          g.breakoutMask |= 1u << __builtin_ctzll(uint64_t(f));
        }
      } else
        unknownProp(p, "a port group", "speed lanes form ports_per_cage cpo breakouts");
    }
    if (!haveSpeed) {
      error(DiagCode::E0037, pd.range, "port group '{}' has no speed", pd.name);
      continue;
    }
    if (g.count % g.portsPerCage) {
      error(DiagCode::E0034, pd.count->range, "{} ports do not fill cages of {} ports", g.count, g.portsPerCage);
      continue;
    }
    out.ports.push_back(g);
  }
  if (out.kind == K::System && out.nvlinkDomain > out.gpus)
    error(DiagCode::E0034, m.range, "nvlink_domain ({}) is larger than gpus ({})", out.nvlinkDomain, out.gpus);
}

// ================= evaluation =================

bool Elab::toInt(const Value &v, const ast::Expr *e, int64_t &out, const char *what) {
  if (v.type == Value::Int) {
    out = v.i;
    return true;
  }
  if (v.type == Value::Real && std::floor(v.d) == v.d && std::fabs(v.d) < 9.2e18) {
    out = int64_t(v.d);
    return true;
  }
  if (v.ok())
    error(DiagCode::E0026, e->range, "{} must be an integer, not {}", what,
          v.type == Value::Real ? fmt::format("{:g}", v.d) : std::string(elab::typeName(v)));
  return false;
}

bool Elab::toBool(const Value &v, const ast::Expr *e, bool &out) {
  if (v.type == Value::Bool) {
    out = v.b;
    return true;
  }
  if (v.ok())
    error(DiagCode::E0026, e->range, "condition must be a boolean, not {}", elab::typeName(v));
  return false;
}

Value Elab::lookup(const ast::Expr *e) {
  uint32_t s = exprSym(e);
  for (size_t i = env_.size(); i > barrier_; --i)
    if (env_[i - 1].sym == s) {
      env_[i - 1].used = true;
      return env_[i - 1].value;
    }
  auto g = globals_.find(s);
  if (g != globals_.end())
    return g->second;
  auto m = modelIndex_.find(s);
  if (m != modelIndex_.end())
    return Value::model(m->second);
  if (e->text == "inf")
    return Value::real(std::numeric_limits<double>::infinity());
  error(DiagCode::E0020, e->range, "unknown name '{}'", e->text);
  return {};
}

Value Elab::eval(const ast::Expr *e) {
  using E = ast::Expr;
  switch (e->kind) {
  case E::Number:
    if (e->isInteger)
      return Value::integer(e->integer);
    if (!checkFinite(e->number, e))
      return {};
    return Value::real(e->number);
  case E::Quantity: {
    const UnitInfo *u = findUnit(e->text);
    if (!u) {
      Diagnostic *d = error(DiagCode::E0024, e->range, "unknown unit '{}'", e->text);
      DiagEngine::note(d, {}, "known units: " + unitList());
      return {};
    }
    double v = e->number * u->scale;
    if (!checkFinite(v, e))
      return {};
    return Value::qty(v, u->dim);
  }
  case E::String: return Value::str(sym(e->text, e->sym));
  case E::Bool: return Value::boolean(e->number != 0);
  case E::Name: {
    Value v = lookup(e);
    for (const ast::Expr *ix : e->kids) {
      if (!v.ok())
        return v;
      if (v.type != Value::List) {
        error(DiagCode::E0026, e->range, "'{}' is {}, not a list", e->text, elab::typeName(v));
        return {};
      }
      int64_t i;
      if (!toInt(eval(ix), ix, i, "list index"))
        return {};
      if (i < 0 || size_t(i) >= v.list->size()) {
        error(DiagCode::E0036, ix->range, "index {} is outside the list of {} items", i, v.list->size());
        return {};
      }
      Value item = (*v.list)[size_t(i)];
      v = item;
    }
    return v;
  }
  case E::Call: return evalCall(e);
  case E::List: {
    Value r;
    r.type = Value::List;
    r.list = std::make_shared<std::vector<Value>>();
    for (const ast::Expr *k : e->kids) {
      Value v = eval(k);
      if (!v.ok())
        return {};
      r.list->push_back(std::move(v));
    }
    return r;
  }
  case E::Unary: {
    Value v = eval(e->kids[0]);
    if (!v.ok())
      return v;
    if (e->op == E::Not) {
      bool b;
      return toBool(v, e->kids[0], b) ? Value::boolean(!b) : Value();
    }
    if (v.type == Value::Int) {
      if (v.i == std::numeric_limits<int64_t>::min()) {
        error(DiagCode::E0028, e->range, "integer overflow in negation");
        return {};
      }
      return Value::integer(-v.i);
    }
    if (v.numeric()) {
      v.d = -v.d;
      return v;
    }
    error(DiagCode::E0026, e->range, "cannot negate {}", elab::typeName(v));
    return {};
  }
  case E::Binary: return evalBinary(e);
  case E::Cond: {
    bool c;
    if (!toBool(eval(e->kids[0]), e->kids[0], c))
      return {};
    return eval(e->kids[c ? 1 : 2]);
  }
  }
  return {};
}

Value Elab::evalBinary(const ast::Expr *e) {
  using E = ast::Expr;
  const std::string &op = e->text; // for messages
  if (e->op == E::And || e->op == E::Or) {
    bool a;
    if (!toBool(eval(e->kids[0]), e->kids[0], a))
      return {};
    if (e->op == E::And ? !a : a)
      return Value::boolean(a);
    bool b;
    if (!toBool(eval(e->kids[1]), e->kids[1], b))
      return {};
    return Value::boolean(b);
  }
  Value l = eval(e->kids[0]), r = eval(e->kids[1]);
  if (!l.ok() || !r.ok())
    return {};
  if (e->op == E::Eq || e->op == E::Ne) {
    bool eq;
    if (l.numeric() && r.numeric()) {
      if (l.dimension() != r.dimension()) {
        error(DiagCode::E0025, e->range, "cannot compare {} with {}", dimName(l.dimension()), dimName(r.dimension()));
        return {};
      }
      eq = (l.type == Value::Int && r.type == Value::Int) ? l.i == r.i : l.asDouble() == r.asDouble();
    } else if (l.type == r.type && (l.type == Value::Str || l.type == Value::ModelRef)) {
      eq = l.s == r.s;
    } else if (l.type == Value::Bool && r.type == Value::Bool) {
      eq = l.b == r.b;
    } else {
      error(DiagCode::E0026, e->range, "cannot compare {} with {}", elab::typeName(l), elab::typeName(r));
      return {};
    }
    return Value::boolean(e->op == E::Eq ? eq : !eq);
  }
  if (e->op == E::Add && l.type == Value::Str && r.type == Value::Str)
    return Value::str(F.strings.intern(std::string(F.strings.str(l.s)) + std::string(F.strings.str(r.s))));
  if (!l.numeric() || !r.numeric()) {
    error(DiagCode::E0026, e->range, "operator '{}' needs numbers, not {} and {}", op, elab::typeName(l),
          elab::typeName(r));
    return {};
  }
  Dim ld = l.dimension(), rd = r.dimension();
  if (e->op == E::Lt || e->op == E::Le || e->op == E::Gt || e->op == E::Ge) {
    if (ld != rd) {
      error(DiagCode::E0025, e->range, "cannot compare {} with {}", dimName(ld), dimName(rd));
      return {};
    }
    double a = l.asDouble(), b = r.asDouble();
    if (l.type == Value::Int && r.type == Value::Int) {
      int64_t x = l.i, y = r.i;
      return Value::boolean(e->op == E::Lt ? x < y : e->op == E::Le ? x <= y : e->op == E::Gt ? x > y : x >= y);
    }
    return Value::boolean(e->op == E::Lt ? a < b : e->op == E::Le ? a <= b : e->op == E::Gt ? a > b : a >= b);
  }
  bool ints = l.type == Value::Int && r.type == Value::Int;
  if (e->op == E::Add || e->op == E::Sub) {
    if (ld != rd) {
      Diagnostic *d = error(DiagCode::E0025, e->range, "cannot {} {} and {}", e->op == E::Add ? "add" : "subtract",
                            dimName(ld), dimName(rd));
      DiagEngine::note(d, {}, "both sides of '" + op + "' need the same dimension");
      return {};
    }
    if (ints) {
      int64_t out;
      if (e->op == E::Add ? __builtin_add_overflow(l.i, r.i, &out) : __builtin_sub_overflow(l.i, r.i, &out)) {
        error(DiagCode::E0028, e->range, "integer overflow in '{}'", op);
        return {};
      }
      return Value::integer(out);
    }
    double v = e->op == E::Add ? l.asDouble() + r.asDouble() : l.asDouble() - r.asDouble();
    return checkFinite(v, e) ? Value::qty(v, ld) : Value();
  }
  if (e->op == E::Mul) {
    if (ints) {
      int64_t out;
      if (__builtin_mul_overflow(l.i, r.i, &out)) {
        error(DiagCode::E0028, e->range, "integer overflow in '*'");
        return {};
      }
      return Value::integer(out);
    }
    double v = l.asDouble() * r.asDouble();
    return checkFinite(v, e) ? Value::qty(v, ld * rd) : Value();
  }
  if (e->op == E::Div || e->op == E::Mod) {
    if (r.asDouble() == 0) {
      error(DiagCode::E0027, e->range, "{} by zero", e->op == E::Div ? "division" : "remainder");
      return {};
    }
    if (e->op == E::Mod) {
      if (!ints) {
        error(DiagCode::E0026, e->range, "'%' needs integers");
        return {};
      }
      if (r.i == -1)
        return Value::integer(0);
      return Value::integer(l.i % r.i);
    }
    if (ints && r.i != -1 && l.i % r.i == 0)
      return Value::integer(l.i / r.i);
    double v = l.asDouble() / r.asDouble();
    return checkFinite(v, e) ? Value::qty(v, ld / rd) : Value();
  }
  error(DiagCode::E0026, e->range, "unknown operator '{}'", op);
  return {};
}

std::string Elab::show(const Value &v) {
  switch (v.type) {
  case Value::Int: return std::to_string(v.i);
  case Value::Real: case Value::Qty: return formatQuantity(v.d, v.dimension());
  case Value::Str: return std::string(F.strings.str(v.s));
  case Value::Bool: return v.b ? "true" : "false";
  case Value::ModelRef: return std::string(F.strings.str(F.models[v.s].name));
  case Value::List: {
    std::string r = "[";
    for (size_t i = 0; i < v.list->size(); ++i)
      r += (i ? ", " : "") + show((*v.list)[i]);
    return r + "]";
  }
  case Value::Void: break;
  }
  return "";
}

Value Elab::evalCall(const ast::Expr *e) {
  const std::string &f = e->text; // for messages
  enum : uint8_t { Unresolved, Unknown, Min, Max, Ceil, Floor, Round, Abs, Log2, Sqrt, Len, Str };
  if (e->builtin == Unresolved) {
    static const std::pair<const char *, uint8_t> fns[] = {{"min", Min},   {"max", Max},   {"ceil", Ceil},
                                                         {"floor", Floor}, {"round", Round}, {"abs", Abs},
                                                         {"log2", Log2}, {"sqrt", Sqrt}, {"len", Len},
                                                         {"str", Str}};
    e->builtin = Unknown;
    for (const auto &[name, id] : fns)
      if (f == name)
        e->builtin = id;
  }
  const uint8_t fn = e->builtin;
  llvm::SmallVector<Value, 4> a;
  for (const ast::Expr *k : e->kids) {
    a.push_back(eval(k));
    if (!a.back().ok())
      return {};
  }
  auto arity = [&](size_t lo, size_t hi) {
    if (a.size() >= lo && a.size() <= hi)
      return true;
    error(DiagCode::E0029, e->range, "'{}' takes {} argument{}, not {}", f, lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi),
          hi == 1 ? "" : "s", a.size());
    return false;
  };
  auto num = [&](size_t i) {
    if (a[i].numeric())
      return true;
    error(DiagCode::E0026, e->kids[i]->range, "'{}' needs a number, not {}", f, elab::typeName(a[i]));
    return false;
  };
  if (fn == Min || fn == Max) {
    if (a.empty()) {
      error(DiagCode::E0029, e->range, "'{}' needs at least one argument", f);
      return {};
    }
    if (a.size() == 1 && a[0].type == Value::List) {
      std::vector<Value> items = *a[0].list;
      a.assign(items.begin(), items.end());
      if (a.empty()) {
        error(DiagCode::E0029, e->range, "'{}' of an empty list", f);
        return {};
      }
    }
    Value best = a[0];
    for (size_t i = 0; i < a.size(); ++i) {
      if (!a[i].numeric() || a[i].dimension() != best.dimension()) {
        error(DiagCode::E0025, e->range, "'{}' needs numbers of one dimension", f);
        return {};
      }
      if (fn == Min ? a[i].asDouble() < best.asDouble() : a[i].asDouble() > best.asDouble())
        best = a[i];
    }
    return best;
  }
  if (fn == Ceil || fn == Floor || fn == Round) {
    if (!arity(1, 1) || !num(0))
      return {};
    if (a[0].type == Value::Qty) {
      error(DiagCode::E0025, e->range, "'{}' of {}: divide by a unit first, for example {}(x / 1 m)", f,
            dimName(a[0].dim), f);
      return {};
    }
    double v = a[0].asDouble();
    v = fn == Ceil ? std::ceil(v) : fn == Floor ? std::floor(v) : std::round(v);
    if (std::fabs(v) > 9.2e18) {
      error(DiagCode::E0028, e->range, "'{}' result does not fit in an integer", f);
      return {};
    }
    return Value::integer(int64_t(v));
  }
  if (fn == Abs) {
    if (!arity(1, 1) || !num(0))
      return {};
    Value v = a[0];
    if (v.type == Value::Int && v.i == std::numeric_limits<int64_t>::min()) {
      error(DiagCode::E0028, e->range, "integer overflow in 'abs'");
      return {};
    }
    if (v.type == Value::Int)
      v.i = v.i < 0 ? -v.i : v.i;
    else
      v.d = std::fabs(v.d);
    return v;
  }
  if (fn == Log2 || fn == Sqrt) {
    if (!arity(1, 1) || !num(0))
      return {};
    if (a[0].type == Value::Qty) {
      error(DiagCode::E0025, e->range, "'{}' needs a plain number", f);
      return {};
    }
    double v = fn == Log2 ? std::log2(a[0].asDouble()) : std::sqrt(a[0].asDouble());
    return checkFinite(v, e) ? Value::real(v) : Value();
  }
  if (fn == Len) {
    if (!arity(1, 1))
      return {};
    if (a[0].type != Value::List) {
      error(DiagCode::E0026, e->range, "'len' needs a list");
      return {};
    }
    return Value::integer(int64_t(a[0].list->size()));
  }
  if (fn == Str) {
    if (!arity(1, 1))
      return {};
    return Value::str(F.strings.intern(show(a[0])));
  }
  Diagnostic *d = error(DiagCode::E0020, e->range, "unknown function '{}'", f);
  DiagEngine::note(d, {}, "functions: min max ceil floor round abs log2 sqrt len str");
  return {};
}

// ================= statements =================

void Elab::execBlock(const ast::Block &b) {
  size_t mark = env_.size();
  for (const ast::Stmt *s : b)
    exec(s);
  env_.resize(mark);
}

void Elab::exec(const ast::Stmt *s) {
  using K = ast::Stmt;
  step(s->range);
  switch (s->kind) {
  case K::Let: {
    Value v = eval(s->e1);
    bind(sym(s->name, s->sym), v);
    break;
  }
  case K::Param: execParam(s); break;
  case K::Option: execOption(s); break;
  case K::Inst: execInst(s); break;
  case K::For: {
    int64_t from, to;
    if (!toInt(eval(s->e1), s->e1, from, "loop start") || !toInt(eval(s->e2), s->e2, to, "loop end"))
      return;
    uint32_t var = sym(s->name, s->sym);
    for (int64_t i = from; i < to; ++i) {
      step(s->range);
      size_t mark = env_.size();
      bind(var, Value::integer(i));
      for (const ast::Stmt *b : s->body)
        exec(b);
      env_.resize(mark);
    }
    break;
  }
  case K::If: {
    bool c;
    if (!toBool(eval(s->e1), s->e1, c))
      return;
    execBlock(c ? s->body : s->elseBody);
    break;
  }
  case K::Link: execLink(s); break;
  case K::Group: execGroup(s); break;
  case K::Place: execPlace(s); break;
  case K::Building: execBuilding(s); break;
  case K::Span: execSpan(s); break;
  case K::Policy: execPolicy(s); break;
  case K::Assert: {
    bool c;
    if (!toBool(eval(s->e1), s->e1, c))
      return;
    if (!c)
      error(DiagCode::E0032, s->e1->range, "assertion failed{}", s->message.empty() ? "" : ": " + s->message);
    break;
  }
  }
}

void Elab::execParam(const ast::Stmt *s) {
  uint32_t name = sym(s->name, s->sym);
  auto d = defines_.find(name);
  Value v;
  if (d != defines_.end()) {
    v = d->second.first;
    definesUsed_[name] = true;
    Value deflt = eval(s->e1); // the default still has to be valid, and fixes the dimension
    if (deflt.ok() && v.ok() && (deflt.numeric() != v.numeric() || (!deflt.numeric() && deflt.type != v.type))) {
      Diagnostic *dg = error(DiagCode::E0026, d->second.second, "-D {} is {}, but the parameter is {}", s->name,
                             elab::typeName(v), elab::typeName(deflt));
      DiagEngine::note(dg, s->nameRange, "parameter declared here");
      v = {};
    } else if (deflt.ok() && v.ok() && deflt.numeric() && v.numeric() && deflt.dimension() != v.dimension()) {
      Diagnostic *dg = error(DiagCode::E0025, d->second.second, "-D {} is {}, but the parameter is {}", s->name,
                             dimName(v.dimension()), dimName(deflt.dimension()));
      DiagEngine::note(dg, s->nameRange, "parameter declared here");
      v = {};
    }
  } else {
    v = eval(s->e1);
  }
  if (env_.size() == barrier_ && !inFabric_)
    globals_[name] = v;
  else
    bind(name, v);
}

void Elab::execOption(const ast::Stmt *s) {
  ast::Prop p;
  p.key = s->name;
  p.keyRange = s->nameRange;
  p.value = s->e1;
  ir::Options &o = F.options;
  if (s->name == "default_cable_length") {
    if (propQty(p, dims::Length, o.defaultCableLength))
      o.defaultCableLengthLoc = s->range;
  } else if (s->name == "cable_slack")
    propQty(p, dims::Length, o.cableSlack);
  else if (s->name == "pue")
    propQty(p, dims::None, o.pue);
  else if (s->name == "nic_latency")
    propQty(p, dims::Time, o.gpuNicLatency);
  else if (isExtraOption(s->name)) {
    ir::Setting st;
    if (setting(p, st))
      F.extraOptions.push_back(std::move(st));
  } else
    unknownProp(p, "an option", kOptionNames);
}

bool Elab::isExtraOption(const std::string &name) {
#define OPTION(N, HELP) if (name == #N) return true;
#define POLICY(K, PROPS, HELP)
#include "ir/Settings.def"
#undef OPTION
#undef POLICY
  return false;
}

bool Elab::setting(const ast::Prop &p, ir::Setting &out) {
  out.name = F.strings.intern(p.key);
  out.loc = p.value->range;
  Value v = eval(p.value);
  switch (v.type) {
  case Value::Void: return false;
  case Value::Int: case Value::Real: case Value::Qty:
    out.type = ir::Setting::Number;
    out.number = v.asDouble();
    out.dim = v.dimension();
    return true;
  case Value::Str: out.type = ir::Setting::String; out.str = v.s; return true;
  case Value::ModelRef: out.type = ir::Setting::String; out.str = F.models[v.s].name; return true;
  case Value::Bool: out.type = ir::Setting::Bool; out.boolean = v.b; return true;
  case Value::List:
    out.type = ir::Setting::List;
    for (const Value &x : *v.list) {
      if (!x.numeric()) {
        error(DiagCode::E0026, p.value->range, "'{}' is a list of numbers", p.key);
        return false;
      }
      out.list.push_back(x.asDouble());
    }
    return true;
  }
  return false;
}

uint32_t Elab::declare(uint32_t parent, uint32_t name, int64_t index, bool isArray, bool device, SourceRange r) {
  auto ins = entries_.try_emplace(EntryKey{parent, name});
  Entry &e = ins.first->second;
  if (!ins.second) {
    bool clash = !isArray || !e.array || e.device != device || elems_.count(ElemKey{parent, name, index});
    if (clash) {
      Diagnostic *d = error(DiagCode::E0021, r, "redefinition of '{}{}'", F.strings.str(name),
                            isArray ? fmt::format("[{}]", index) : std::string());
      DiagEngine::note(d, e.loc, "previous definition is here");
      return None;
    }
  } else {
    e.array = isArray;
    e.device = device;
    e.loc = r;
    e.lo = index;
    e.hi = index + 1;
  }
  uint32_t node = newNode(parent, name, isArray ? index : -1);
  if (isArray) {
    elems_[ElemKey{parent, name, index}] = node;
    e.lo = std::min(e.lo, index);
    e.hi = std::max(e.hi, index + 1);
  } else {
    e.node = node;
  }
  return node;
}

uint32_t Elab::layoutFor(uint32_t model, const std::vector<uint32_t> &breakouts) {
  bool plain = true;
  for (uint32_t b : breakouts)
    plain &= b == 1;
  if (plain) {
    auto it = defaultLayout_.find(model);
    if (it != defaultLayout_.end())
      return it->second;
  }
  std::vector<uint32_t> key{model};
  key.insert(key.end(), breakouts.begin(), breakouts.end());
  if (!plain) {
    auto it = layoutCache_.find(key);
    if (it != layoutCache_.end())
      return it->second;
  }
  const ir::Model &m = F.models[model];
  ir::Layout l;
  l.model = model;
  for (size_t g = 0; g < m.ports.size(); ++g) {
    const ir::PortGroup &pg = m.ports[g];
    uint32_t b = breakouts.empty() ? 1 : breakouts[g];
    ir::GroupLayout gl;
    gl.offset = l.ports;
    gl.breakout = b;
    gl.count = pg.count * b;
    gl.speed = pg.speed / b;
    gl.lanes = pg.lanes ? std::max(1u, pg.lanes / b) : 0;
    gl.portsPerCage = pg.portsPerCage * b;
    l.ports += gl.count;
    l.groups.push_back(gl);
  }
  F.layouts.push_back(std::move(l));
  uint32_t id = uint32_t(F.layouts.size() - 1);
  if (plain)
    defaultLayout_[model] = id;
  else
    layoutCache_[key] = id;
  return id;
}

uint32_t Elab::createDevice(uint32_t node, uint32_t model, const ast::Stmt *s) {
  if (F.numDevices() >= opts_.limits.maxDevices) {
    Diagnostic *d = error(DiagCode::E0030, s->range, "more than {} devices", opts_.limits.maxDevices);
    DiagEngine::note(d, {}, "raise the limit with --max-devices if the design is really this large");
    throw Abort{};
  }
  const ir::Model &m = F.models[model];
  uint8_t tier = m.kind == ir::ModelKind::Switch ? 255 : 0;
  ir::Role role = m.kind == ir::ModelKind::Switch ? ir::Role::Switch : ir::Role::Compute;
  std::vector<uint32_t> breakouts;
  uint32_t asn = 0, loopback = 0;
  uint64_t guid = 0;
  for (const ast::Prop &p : s->props) {
    if (p.key == "tier" && m.kind == ir::ModelKind::Switch) {
      Value v = eval(p.value);
      if (v.type == Value::Str) {
        std::string_view t = F.strings.str(v.s);
        tier = t == "leaf" ? 1 : t == "spine" ? 2 : t == "core" ? 3 : t == "super" ? 4 : 0;
        if (!tier) {
          Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown tier '{}'", t);
          DiagEngine::note(d, {}, "tiers: \"leaf\", \"spine\", \"core\", \"super\" (or 1 to 4)");
          tier = 255;
        }
      } else {
        int64_t t;
        if (toInt(v, p.value, t, "tier")) {
          if (t < 1 || t > 4)
            error(DiagCode::E0034, p.value->range, "tier is 1 to 4, not {}", t);
          else
            tier = uint8_t(t);
        }
      }
    } else if (p.key == "role" && m.kind != ir::ModelKind::Switch) {
      uint32_t r;
      if (propStr(p, r)) {
        std::string_view t = F.strings.str(r);
        if (t == "compute") role = ir::Role::Compute;
        else if (t == "storage") role = ir::Role::Storage;
        else if (t == "management") role = ir::Role::Management;
        else {
          Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown role '{}'", t);
          DiagEngine::note(d, {}, "roles: \"compute\", \"storage\", \"management\"");
        }
      }
    } else if (p.key.rfind("breakout_", 0) == 0) {
      std::string gname = p.key.substr(9);
      size_t g = 0;
      while (g < m.ports.size() && F.strings.str(m.ports[g].name) != gname)
        ++g;
      if (g == m.ports.size()) {
        error(DiagCode::E0033, p.keyRange, "model '{}' has no port group '{}'", F.strings.str(m.name), gname);
        continue;
      }
      int64_t f;
      if (!propInt(p, 1, 8, f))
        continue;
      const ir::PortGroup &pg = m.ports[g];
      bool pow2 = (f & (f - 1)) == 0;
      if (!pow2 || !(pg.breakoutMask & (1u << __builtin_ctzll(uint64_t(f)))) || (pg.lanes && pg.lanes % f)) {
        Diagnostic *d = error(DiagCode::E0043, p.value->range, "port group '{}' of '{}' cannot break out 1:{}", gname,
                              F.strings.str(m.name), f);
        std::string allowed;
        for (int k = 1; k < 4; ++k)
          if (pg.breakoutMask & (1u << k))
            allowed += (allowed.empty() ? "" : ", ") + std::to_string(1 << k);
        DiagEngine::note(d, pg.loc, allowed.empty() ? "the port group allows no breakout"
                                                    : "the port group allows breakouts of " + allowed);
        continue;
      }
      if (breakouts.empty())
        breakouts.assign(m.ports.size(), 1);
      breakouts[g] = uint32_t(f);
    } else if (p.key == "asn") {
      int64_t v;
      if (propInt(p, 1, 4294967295LL, v))
        asn = uint32_t(v);
    } else if (p.key == "loopback") {
      uint32_t v;
      if (propStr(p, v)) {
        unsigned a, b, c, d;
        char tail;
        std::string t(F.strings.str(v));
        if (std::sscanf(t.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) != 4 || a > 255 || b > 255 || c > 255 || d > 255)
          error(DiagCode::E0034, p.value->range, "loopback '{}' is not an IPv4 address", t);
        else
          loopback = (a << 24) | (b << 16) | (c << 8) | d;
      }
    } else if (p.key == "guid") {
      // InfiniBand node GUID, as printed on the device: "0x" and 1 to 16 hex digits.
      uint32_t v;
      if (propStr(p, v)) {
        std::string t(F.strings.str(v));
        size_t digits = t.size() > 2 ? t.size() - 2 : 0;
        bool ok = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && digits <= 16 &&
                  t.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
        if (ok)
          guid = std::strtoull(t.c_str() + 2, nullptr, 16);
        if (!ok || !guid)
          error(DiagCode::E0034, p.value->range, "guid '{}' is not a non-zero 64-bit hex number such as \"0x0002c90300a1b2c3\"", t);
      }
    } else {
      unknownProp(p, "an instance", m.kind == ir::ModelKind::Switch ? "tier breakout_<group> asn loopback guid"
                                                                    : "role breakout_<group> guid");
    }
  }
  uint32_t layout = layoutFor(model, breakouts);
  const ir::Layout &l = F.layouts[layout];
  uint32_t dev = uint32_t(F.numDevices());
  F.devModel.push_back(model);
  F.devLayout.push_back(layout);
  F.devNode.push_back(node);
  F.devPortBase.push_back(uint32_t(F.numPorts()));
  F.devRack.push_back(None);
  F.devTier.push_back(tier);
  F.devRole.push_back(role);
  F.devU.push_back(0);
  F.devLoc.push_back(s->nameRange.begin);
  F.devCursorBase.push_back(uint32_t(F.cursors.size()));
  F.devAsn.push_back(asn);
  F.devLoopback.push_back(loopback);
  F.devGuid.push_back(guid);
  for (const ir::GroupLayout &g : l.groups)
    F.cursors.push_back(g.offset);
  F.portDevice.insert(F.portDevice.end(), l.ports, dev);
  F.portLink.insert(F.portLink.end(), l.ports, None);
  nodeDevice_[node] = dev;
  return dev;
}

void Elab::execInst(const ast::Stmt *s) {
  int64_t lo = 0, hi = 0;
  bool isArray = s->e1 != nullptr;
  if (isArray) {
    if (s->e2) {
      if (!toInt(eval(s->e2), s->e2, lo, "array start") || !toInt(eval(s->e1), s->e1, hi, "array end"))
        return;
    } else if (!toInt(eval(s->e1), s->e1, hi, "array size")) {
      return;
    }
    if (hi < lo || lo < 0) {
      error(DiagCode::E0034, s->e1->range, "array range {}..{} is empty or negative", lo, hi);
      return;
    }
  }
  if (!checkTarget(s))
    return;
  if (!isArray) {
    instantiate(s, -1, false);
    return;
  }
  // An array of devices that alone passes the device limit fails now, not after
  // creating millions of them (minutes and gigabytes).
  if (modelIndex_.count(sym(s->name2, s->sym2)) &&
      uint64_t(hi - lo) > opts_.limits.maxDevices - std::min<uint64_t>(F.numDevices(), opts_.limits.maxDevices)) {
    Diagnostic *d = error(DiagCode::E0030, s->range, "more than {} devices", opts_.limits.maxDevices);
    DiagEngine::note(d, {}, fmt::format("this array alone adds {}; raise the limit with --max-devices if the design "
                                        "is really this large", hi - lo));
    throw Abort{};
  }
  uint32_t var = s->name3.empty() ? UINT32_MAX : sym(s->name3, s->sym3);
  for (int64_t i = lo; i < hi; ++i) {
    step(s->range);
    size_t mark = env_.size();
    if (var != UINT32_MAX)
      bind(var, Value::integer(i));
    instantiate(s, i, true);
    env_.resize(mark);
  }
}

// What an instance statement names must exist and fit, checked once per statement
// (not once per array element).
// The model an instance names: a model, or a binding holding one (a template parameter
// `leaf_model = QM9700`); None if it names a template or nothing.
uint32_t Elab::targetModel(const ast::Stmt *s) {
  uint32_t target = sym(s->name2, s->sym2);
  auto mi = modelIndex_.find(target);
  if (mi != modelIndex_.end())
    return mi->second;
  if (templates_.count(target))
    return None;
  for (size_t i = env_.size(); i > barrier_; --i)
    if (env_[i - 1].sym == target) {
      env_[i - 1].used = true;
      return env_[i - 1].value.type == Value::ModelRef ? env_[i - 1].value.s : None;
    }
  auto g = globals_.find(target);
  return g != globals_.end() && g->second.type == Value::ModelRef ? g->second.s : None;
}

bool Elab::checkTarget(const ast::Stmt *s) {
  uint32_t target = sym(s->name2, s->sym2);
  uint32_t model = targetModel(s);
  if (model != None) {
    const ir::Model &m = F.models[model];
    if (m.kind == ir::ModelKind::Optic || m.kind == ir::ModelKind::Cable || m.kind == ir::ModelKind::Gpu) {
      Diagnostic *d = error(DiagCode::E0023, s->name2Range, "'{}' is a model of kind {} and cannot be a device",
                            s->name2, ir::modelKindName(m.kind));
      DiagEngine::note(d, m.loc, "declared here");
      return false;
    }
    if (s->hasArgs) {
      error(DiagCode::E0029, s->name2Range, "'{}' is a model and takes no arguments", s->name2);
      return false;
    }
    return true;
  }
  if (!templates_.count(target)) {
    Diagnostic *d = error(DiagCode::E0022, s->name2Range, "unknown model or template '{}'", s->name2);
    DiagEngine::note(d, {}, "import the catalog that declares it, for example import \"nvidia/switches.fab\";");
    return false;
  }
  if (!s->props.empty()) {
    error(DiagCode::E0033, s->props[0].keyRange, "a template instance takes arguments in (...), not properties");
    return false;
  }
  return true;
}

void Elab::instantiate(const ast::Stmt *s, int64_t index, bool isArray) {
  uint32_t name = sym(s->name, s->sym);
  uint32_t target = sym(s->name2, s->sym2);
  uint32_t model = targetModel(s);
  if (model != None) {
    uint32_t node = declare(scope_, name, index, isArray, true, s->nameRange);
    if (node == None)
      return;
    createDevice(node, model, s);
    for (uint32_t n = scope_; n != None; n = F.nodes[n].parent)
      nodeDevEnd_[n] = uint32_t(F.numDevices());
    return;
  }
  const ast::Template *t = templates_.find(target)->second;
  if (depth_ >= opts_.limits.maxDepth) {
    Diagnostic *d = error(DiagCode::E0031, s->name2Range, "templates nest deeper than {} levels", opts_.limits.maxDepth);
    DiagEngine::note(d, t->range, "in template '" + t->name + "'");
    throw Abort{};
  }
  // Arguments are evaluated in the caller's scope.
  std::vector<Value> args(t->params.size());
  std::vector<bool> given(t->params.size());
  size_t positional = 0;
  for (const ast::Arg &a : s->args) {
    size_t idx;
    if (a.name.empty()) {
      idx = positional++;
      if (idx >= t->params.size()) {
        error(DiagCode::E0029, a.range, "'{}' takes {} arguments", t->name, t->params.size());
        return;
      }
    } else {
      idx = 0;
      while (idx < t->params.size() && t->params[idx].name != a.name)
        ++idx;
      if (idx == t->params.size()) {
        Diagnostic *d = error(DiagCode::E0029, a.range, "'{}' has no parameter '{}'", t->name, a.name);
        std::string list;
        for (const ast::Param &p : t->params)
          list += (list.empty() ? "" : ", ") + p.name;
        DiagEngine::note(d, t->range, "parameters: " + (list.empty() ? std::string("none") : list));
        return;
      }
    }
    if (given[idx]) {
      error(DiagCode::E0029, a.range, "parameter '{}' given twice", t->params[idx].name);
      return;
    }
    args[idx] = eval(a.value);
    given[idx] = true;
  }
  uint32_t node = declare(scope_, name, index, isArray, false, s->nameRange);
  if (node == None)
    return;
  uint32_t devBegin = uint32_t(F.numDevices());
  size_t savedBarrier = barrier_;
  uint32_t savedScope = scope_;
  size_t mark = env_.size();
  barrier_ = env_.size(); // a template sees globals and its parameters only
  scope_ = node;
  ++depth_;
  for (size_t i = 0; i < t->params.size(); ++i) {
    const ast::Param &p = t->params[i];
    uint32_t ps = F.strings.intern(p.name);
    if (given[i]) {
      bind(ps, args[i]);
    } else if (p.deflt) {
      bind(ps, eval(p.deflt));
    } else {
      Diagnostic *d = error(DiagCode::E0029, s->name2Range, "missing argument '{}' for template '{}'", p.name, t->name);
      DiagEngine::note(d, p.range, "parameter declared here");
      bind(ps, Value());
    }
  }
  for (const ast::Stmt *b : t->body)
    exec(b);
  --depth_;
  std::vector<bool> &used = paramUsed_[t];
  used.resize(t->params.size());
  for (size_t i = 0; i < t->params.size(); ++i)
    used[i] = used[i] || env_[mark + i].used;
  env_.resize(mark);
  barrier_ = savedBarrier;
  scope_ = savedScope;
  if (!t->kind.empty()) {
    ir::Group g;
    g.kind = ir::groupKindFromName(t->kind);
    g.kindName = F.strings.intern(t->kind);
    g.node = node;
    g.begin = devBegin;
    g.end = uint32_t(F.numDevices());
    g.loc = s->nameRange;
    F.groups.push_back(std::move(g));
  }
}

uint32_t Elab::findEntryScope(uint32_t scope, uint32_t name) {
  for (uint32_t sc = scope;; sc = F.nodes[sc].parent) {
    if (entries_.count(EntryKey{sc, name}))
      return sc;
    if (F.nodes[sc].parent == None)
      return None;
  }
}

void Elab::resolvePath(const ast::Path &p, bool allowPort, bool allowStar, llvm::SmallVectorImpl<Endpoint> &out) {
  uint32_t first = sym(p.segs[0].name, p.segs[0].sym);
  uint32_t sc = findEntryScope(scope_, first);
  if (sc == None) {
    error(DiagCode::E0035, p.segs[0].range, "no instance named '{}' in scope", p.segs[0].name);
    return;
  }
  resolveFrom(sc, p, 0, allowPort, allowStar, out, true);
}

void Elab::resolveFrom(uint32_t scope, const ast::Path &p, size_t i, bool allowPort, bool allowStar,
                       llvm::SmallVectorImpl<Endpoint> &out, bool first) {
  const ast::Segment &seg = p.segs[i];
  uint32_t name = sym(seg.name, seg.sym);
  auto it = entries_.find(EntryKey{scope, name});
  if (it == entries_.end()) {
    error(DiagCode::E0035, seg.range, "'{}' has no instance named '{}'", F.nodeName(scope), seg.name);
    return;
  }
  (void)first;
  const Entry &e = it->second;
  auto visit = [&](uint32_t node) {
    if (i + 1 == p.segs.size()) {
      Endpoint ep;
      ep.node = node;
      ep.device = nodeDevice_[node];
      out.push_back(ep);
      return;
    }
    uint32_t dev = nodeDevice_[node];
    if (dev == None) {
      resolveFrom(node, p, i + 1, allowPort, allowStar, out, false);
      return;
    }
    // Past a device, the next segment is a port group, and it must be the last.
    const ast::Segment &ps = p.segs[i + 1];
    if (!allowPort) {
      error(DiagCode::E0035, ps.range, "a port is not allowed here; name a device or an instance");
      return;
    }
    if (i + 2 != p.segs.size()) {
      error(DiagCode::E0035, p.segs[i + 2].range, "nothing can follow a port");
      return;
    }
    const ir::Model &m = F.modelOf(dev);
    int32_t g = -1;
    uint32_t psym = sym(ps.name, ps.sym);
    for (size_t k = 0; k < m.ports.size(); ++k)
      if (m.ports[k].name == psym)
        g = int32_t(k);
    if (g < 0) {
      Diagnostic *d = error(DiagCode::E0035, ps.range, "'{}' ({}) has no port group '{}'", F.nodeName(node),
                            F.strings.str(m.name), ps.name);
      std::string list;
      for (const ir::PortGroup &pg : m.ports)
        list += (list.empty() ? "" : ", ") + std::string(F.strings.str(pg.name));
      DiagEngine::note(d, m.loc, "port groups: " + (list.empty() ? std::string("none") : list));
      return;
    }
    Endpoint ep;
    ep.node = node;
    ep.device = dev;
    ep.group = g;
    ep.groupRange = ps.range;
    if (ps.star) {
      error(DiagCode::E0035, ps.range, "a link names one port; use a for loop for many");
      return;
    }
    if (ps.index) {
      int64_t idx;
      if (!toInt(eval(ps.index), ps.index, idx, "port index"))
        return;
      const ir::GroupLayout &gl = F.layoutOf(dev).groups[size_t(g)];
      if (idx < 0 || idx >= int64_t(gl.count)) {
        Diagnostic *d = error(DiagCode::E0036, ps.index->range, "port {}[{}] does not exist: '{}' has {} ports in '{}'",
                              ps.name, idx, F.nodeName(node), gl.count, ps.name);
        if (gl.breakout > 1)
          DiagEngine::note(d, {}, fmt::format("after its 1:{} breakout", gl.breakout));
        return;
      }
      ep.port = idx;
      ep.portRange = ps.index->range;
    }
    out.push_back(ep);
  };
  if (!e.array) {
    if (seg.index || seg.star) {
      error(DiagCode::E0036, seg.range, "'{}' is not an array", seg.name);
      return;
    }
    visit(e.node);
    return;
  }
  if (seg.star) {
    if (!allowStar) {
      error(DiagCode::E0035, seg.range, "'[*]' is not allowed here; a link joins two single ports");
      return;
    }
    for (int64_t k = e.lo; k < e.hi; ++k) {
      auto el = elems_.find(ElemKey{scope, name, k});
      if (el != elems_.end())
        visit(el->second);
    }
    return;
  }
  if (!seg.index) {
    error(DiagCode::E0036, seg.range, "'{}' is an array: give an index, or [*] for all", seg.name);
    return;
  }
  int64_t k;
  if (!toInt(eval(seg.index), seg.index, k, "index"))
    return;
  auto el = elems_.find(ElemKey{scope, name, k});
  if (el == elems_.end()) {
    error(DiagCode::E0036, seg.index->range, "'{}[{}]' does not exist (indices {}..{})", seg.name, k, e.lo, e.hi - 1);
    return;
  }
  visit(el->second);
}

uint32_t Elab::takePort(const Endpoint &e, const ast::Path &p) {
  const ir::Layout &l = F.layoutOf(e.device);
  uint32_t g = e.group < 0 ? 0 : uint32_t(e.group);
  if (l.groups.empty()) {
    error(DiagCode::E0035, p.range, "'{}' has no ports", F.nodeName(e.node));
    return None;
  }
  const ir::GroupLayout &gl = l.groups[g];
  uint32_t base = F.devPortBase[e.device];
  const std::string_view gname = F.strings.str(F.modelOf(e.device).ports[g].name);
  if (e.port >= 0) {
    uint32_t port = base + gl.offset + uint32_t(e.port);
    if (F.portLink[port] != None) {
      Diagnostic *d = error(DiagCode::E0040, e.portRange.begin.valid() ? e.portRange : p.range,
                            "port '{}' is already in use", F.portName(port));
      DiagEngine::note(d, {F.linkLoc[F.portLink[port]], 4}, "first used by this link");
      return None;
    }
    return port;
  }
  uint32_t &cur = F.cursors[F.devCursorBase[e.device] + g];
  while (cur < gl.offset + gl.count && F.portLink[base + cur] != None)
    ++cur;
  if (cur >= gl.offset + gl.count) {
    Diagnostic *d = error(DiagCode::E0041, p.range, "'{}' has no free port in '{}' (all {} used)", F.nodeName(e.node),
                          gname, gl.count);
    DiagEngine::note(d, {}, "add ports with a breakout, or use a device with more ports");
    return None;
  }
  return base + cur;
}

bool Elab::addLink(const Endpoint &a, const Endpoint &b, const ast::Stmt *s, float length, uint8_t flags,
                   ir::Media media) {
  if (F.numLinks() >= opts_.limits.maxLinks) {
    Diagnostic *d = error(DiagCode::E0030, s->range, "more than {} links", opts_.limits.maxLinks);
    DiagEngine::note(d, {}, "raise the limit with --max-links if the design is really this large");
    throw Abort{};
  }
  uint32_t pa = takePort(a, s->paths[0]);
  if (pa == None)
    return false;
  F.portLink[pa] = uint32_t(F.numLinks()); // reserve before the other end (same device, same group)
  uint32_t pb = takePort(b, s->paths[1]);
  F.portLink[pa] = None;
  if (pb == None)
    return false;
  double sa = F.portSpeed(pa), sb = F.portSpeed(pb);
  if (sa != sb) {
    Diagnostic *d = error(DiagCode::E0042, s->range, "speed mismatch: '{}' runs at {} but '{}' at {}", F.portName(pa),
                          formatQuantity(sa, dims::Bandwidth), F.portName(pb), formatQuantity(sb, dims::Bandwidth));
    double hi = std::max(sa, sb), lo = std::min(sa, sb);
    if (std::fmod(hi, lo) == 0)
      DiagEngine::note(d, {}, fmt::format("break the {} port out 1:{} with breakout_<group> = {} on its instance",
                                          formatQuantity(hi, dims::Bandwidth), hi / lo, hi / lo));
    return false;
  }
  uint32_t id = uint32_t(F.numLinks());
  F.portLink[pa] = id;
  F.portLink[pb] = id;
  F.linkA.push_back(pa);
  F.linkB.push_back(pb);
  F.linkLength.push_back(length);
  F.linkFlags.push_back(flags);
  F.linkMediaReq.push_back(media);
  F.linkLoc.push_back(s->range.begin);
  return true;
}

// One link, or a wiring pattern when a path has [*]: "mesh" (the default) joins every
// matched A to every matched B; "pairwise" joins the i-th A to the i-th B.
void Elab::execLink(const ast::Stmt *s) {
  llvm::SmallVector<Endpoint, 1> a, b; // one endpoint each, without a heap allocation
  resolvePath(s->paths[0], true, true, a);
  resolvePath(s->paths[1], true, true, b);
  if (a.empty() || b.empty())
    return;
  for (size_t side = 0; side < 2; ++side)
    for (const Endpoint &e : side ? b : a)
      if (e.device == None) {
        error(DiagCode::E0035, s->paths[side].range, "'{}' is a template instance, not a device", F.nodeName(e.node));
        return;
      }
  int64_t count = 1;
  float length = 0;
  uint8_t flags = 0;
  ir::Media media = ir::Media::None;
  bool pairwise = false;
  for (const ast::Prop &p : s->props) {
    if (p.key == "count") {
      if (!propInt(p, 1, 1 << 16, count))
        return;
    } else if (p.key == "length") {
      double v;
      if (!propQty(p, dims::Length, v))
        return;
      if (v <= 0 || v > 2e7) {
        error(DiagCode::E0034, p.value->range, "link length {} is not a real cable", formatQuantity(v, dims::Length));
        return;
      }
      length = float(v);
      flags |= ir::LinkLengthExplicit;
    } else if (p.key == "media") {
      uint32_t m;
      if (!propStr(p, m))
        return;
      media = ir::mediaFromName(F.strings.str(m));
      if (media == ir::Media::None) {
        Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown media '{}'", F.strings.str(m));
        DiagEngine::note(d, {}, "media: DAC, ACC, AOC, MMF, SMF, DCI");
        return;
      }
    } else if (p.key == "pattern") {
      uint32_t v;
      if (!propStr(p, v))
        return;
      std::string_view t = F.strings.str(v);
      if (t != "mesh" && t != "pairwise") {
        Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown wiring pattern '{}'", t);
        DiagEngine::note(d, {}, "patterns: \"mesh\" (every A to every B), \"pairwise\" (A[i] to B[i])");
        return;
      }
      pairwise = t == "pairwise";
    } else {
      unknownProp(p, "a link", "count length media pattern");
    }
  }
  // A named port can carry one link: an end used by several (count, or a mesh to many
  // far ends) must take the next free ports instead.
  bool reuseA = count > 1 || (!pairwise && b.size() > 1), reuseB = count > 1 || (!pairwise && a.size() > 1);
  if ((reuseA && a[0].port >= 0) || (reuseB && b[0].port >= 0)) {
    error(DiagCode::E0034, s->range, "a link with count > 1 or [*] takes the next free ports: omit the port indices");
    return;
  }
  if (pairwise && a.size() != b.size()) {
    error(DiagCode::E0034, s->range, "a pairwise pattern needs as many ends on each side, not {} and {}", a.size(),
          b.size());
    return;
  }
  auto join = [&](const Endpoint &x, const Endpoint &y) {
    if (x.device == y.device) {
      error(DiagCode::E0045, s->range, "link connects '{}' to itself", F.deviceName(x.device));
      return false;
    }
    for (int64_t i = 0; i < count; ++i)
      if (!addLink(x, y, s, length, flags, media))
        return false; // the rest of the count would fail the same way
    return true;
  };
  if (pairwise) {
    for (size_t i = 0; i < a.size(); ++i)
      if (!join(a[i], b[i]))
        return;
    return;
  }
  for (const Endpoint &x : a)
    for (const Endpoint &y : b)
      if (!join(x, y))
        return;
}

void Elab::execGroup(const ast::Stmt *s) {
  ir::Group g;
  g.kind = ir::groupKindFromName(s->name2);
  g.kindName = sym(s->name2, s->sym2);
  int64_t index = -1;
  if (s->e1 && !toInt(eval(s->e1), s->e1, index, "group index"))
    return;
  g.node = newNode(scope_, sym(s->name, s->sym), index);
  g.contiguous = false;
  g.loc = s->nameRange;
  for (const ast::Path &p : s->paths) {
    llvm::SmallVector<Endpoint, 4> eps;
    resolvePath(p, false, true, eps);
    for (const Endpoint &e : eps) {
      if (e.device != None)
        g.members.push_back(e.device);
      else
        for (uint32_t d = nodeDevBegin_[e.node]; d < nodeDevEnd_[e.node]; ++d)
          g.members.push_back(d);
    }
  }
  // A device named twice (n[*] and n[3]) is one member: its GPUs count once.
  std::sort(g.members.begin(), g.members.end());
  g.members.erase(std::unique(g.members.begin(), g.members.end()), g.members.end());
  F.groups.push_back(std::move(g));
}

void Elab::execBuilding(const ast::Stmt *s) {
  uint32_t name = sym(s->name, s->sym);
  if (buildingIndex_.count(name)) {
    Diagnostic *d = error(DiagCode::E0021, s->nameRange, "redefinition of building '{}'", s->name);
    DiagEngine::note(d, F.buildings[buildingIndex_[name]].loc, "previous definition is here");
    return;
  }
  uint32_t bi = uint32_t(F.buildings.size());
  buildingIndex_[name] = bi;
  ir::Building b;
  b.name = name;
  b.loc = s->nameRange;
  for (const ast::Prop &p : s->props) {
    if (p.key == "hall_distance")
      propQty(p, dims::Length, b.hallDistance);
    else
      unknownProp(p, "a building", "hall_distance");
  }
  F.buildings.push_back(b);
  for (const ast::Stmt::Hall &h : s->halls) {
    uint32_t hn = F.strings.intern(h.name);
    if (hallIndex_.count(EntryKey{bi, hn})) {
      error(DiagCode::E0021, h.range, "redefinition of hall '{}'", h.name);
      continue;
    }
    ir::Hall hall;
    hall.name = hn;
    hall.building = bi;
    hall.loc = h.range;
    for (const ast::Prop &p : h.props) {
      int64_t iv;
      if (p.key == "row_pitch") propQty(p, dims::Length, hall.rowPitch);
      else if (p.key == "rack_width") propQty(p, dims::Length, hall.rackWidth);
      else if (p.key == "tray_drop") propQty(p, dims::Length, hall.trayDrop);
      else if (p.key == "rack_units") { if (propInt(p, 1, 100, iv)) hall.rackUnits = uint32_t(iv); }
      else unknownProp(p, "a hall", "row_pitch rack_width tray_drop rack_units");
    }
    hallIndex_[EntryKey{bi, hn}] = uint32_t(F.halls.size());
    F.halls.push_back(hall);
  }
}

void Elab::execSpan(const ast::Stmt *s) {
  auto a = buildingIndex_.find(sym(s->name, s->sym)), b = buildingIndex_.find(sym(s->name2, s->sym2));
  if (a == buildingIndex_.end() || b == buildingIndex_.end()) {
    error(DiagCode::E0050, a == buildingIndex_.end() ? s->nameRange : s->name2Range, "unknown building '{}'",
          a == buildingIndex_.end() ? s->name : s->name2);
    return;
  }
  ir::Span sp;
  sp.a = a->second;
  sp.b = b->second;
  sp.loc = s->range;
  bool haveLength = false;
  for (const ast::Prop &p : s->props) {
    if (p.key == "length")
      haveLength = propQty(p, dims::Length, sp.length);
    else
      unknownProp(p, "a span", "length");
  }
  if (!haveLength) {
    error(DiagCode::E0037, s->range, "span needs a length");
    return;
  }
  F.spans.push_back(sp);
}

void Elab::execPlace(const ast::Stmt *s) {
  auto b = buildingIndex_.find(sym(s->name2, s->sym2));
  if (b == buildingIndex_.end()) {
    Diagnostic *d = error(DiagCode::E0050, s->name2Range, "unknown building '{}'", s->name2);
    DiagEngine::note(d, {}, "declare it first: building NAME { hall NAME { } }");
    return;
  }
  uint32_t hall = None;
  if (s->name3.empty()) {
    for (uint32_t h = 0; h < F.halls.size(); ++h)
      if (F.halls[h].building == b->second) {
        hall = h;
        break;
      }
  } else {
    auto h = hallIndex_.find(EntryKey{b->second, sym(s->name3, s->sym3)});
    if (h != hallIndex_.end())
      hall = h->second;
  }
  if (hall == None) {
    error(DiagCode::E0050, s->name3.empty() ? s->name2Range : s->name3Range, "building '{}' has no hall{}{}", s->name2,
          s->name3.empty() ? "" : " named ", s->name3);
    return;
  }
  int64_t row = 0, pos = 0, u = 0;
  for (const ast::Prop &p : s->props) {
    if (p.key == "row") { if (!propInt(p, 0, 1 << 20, row)) return; }
    else if (p.key == "rack") { if (!propInt(p, 0, 1 << 20, pos)) return; }
    else if (p.key == "u") { if (!propInt(p, 1, 100, u)) return; }
    else unknownProp(p, "a place statement", "row rack u");
  }
  auto ins = rackIndex_.try_emplace(RackKey{hall, row, pos}, uint32_t(F.racks.size()));
  if (ins.second) {
    ir::Rack r;
    r.hall = hall;
    r.row = row;
    r.pos = pos;
    r.loc = s->range;
    F.racks.push_back(r);
    rackFullReported_.push_back(false);
    rackOccupant_.emplace_back(F.halls[hall].rackUnits + 1, None);
  }
  uint32_t rack = ins.first->second;
  llvm::SmallVector<Endpoint, 4> eps;
  resolvePath(s->paths[0], false, true, eps);
  auto put = [&](uint32_t dev) {
    ir::Rack &r = F.racks[rack];
    uint32_t units = std::max(1u, F.modelOf(dev).rackUnits);
    uint32_t at = u ? uint32_t(u) : r.usedU + 1;
    if (devPlaceLoc_.size() < F.numDevices())
      devPlaceLoc_.resize(F.numDevices());
    if (F.devRack[dev] != None) {
      Diagnostic *d = error(DiagCode::E0055, s->range, "'{}' is already placed, in rack {}", F.deviceName(dev),
                            F.rackName(F.devRack[dev]));
      DiagEngine::note(d, {devPlaceLoc_[dev], 5}, "placed here first");
      return;
    }
    std::vector<uint32_t> &occ = rackOccupant_[rack];
    for (uint32_t k = at; k < at + units && k < occ.size(); ++k)
      if (occ[k] != None) {
        Diagnostic *d = error(DiagCode::E0054, s->range, "'{}' at U{}-U{} overlaps '{}' at U{} of rack {}",
                              F.deviceName(dev), at, at + units - 1, F.deviceName(occ[k]), k, F.rackName(rack));
        DiagEngine::note(d, {devPlaceLoc_[occ[k]], 5}, "placed here");
        return;
      }
    for (uint32_t k = at; k < at + units && k < occ.size(); ++k)
      occ[k] = dev;
    devPlaceLoc_[dev] = s->range.begin;
    F.devRack[dev] = rack;
    F.devU[dev] = uint16_t(at);
    r.usedU = std::max(r.usedU, at + units - 1);
    if (u)
      u += units;
    if (r.usedU > F.halls[hall].rackUnits && !rackFullReported_[rack]) {
      rackFullReported_[rack] = true;
      Diagnostic *d = error(DiagCode::E0051, s->range, "rack {} needs {} U, more than its {} U", F.rackName(rack),
                            r.usedU, F.halls[hall].rackUnits);
      DiagEngine::note(d, {}, "placing '" + F.deviceName(dev) + "' overflowed it");
    }
  };
  for (const Endpoint &e : eps) {
    if (e.device != None)
      put(e.device);
    else
      for (uint32_t d = nodeDevBegin_[e.node]; d < nodeDevEnd_[e.node]; ++d)
        put(d);
  }
}

void Elab::execPolicy(const ast::Stmt *s) {
  ir::Policy pol;
  pol.loc = s->nameRange;
  const std::string &k = s->name;
  const char *accepted = "";
  if (k == "power") { pol.kind = ir::PolicyKind::Power; pol.scope = F.strings.intern("rack"); accepted = "per max"; }
  else if (k == "oversubscription") { pol.kind = ir::PolicyKind::Oversubscription; pol.scope = F.strings.intern("leaf"); accepted = "tier max"; }
  else if (k == "latency") { pol.kind = ir::PolicyKind::Latency; accepted = "max"; }
  else if (k == "nvlink") { pol.kind = ir::PolicyKind::NvLink; pol.max = 576; accepted = "max"; }
  else if (k == "rail_optimized") { pol.kind = ir::PolicyKind::RailOptimized; }
#define OPTION(N, HELP)
#define POLICY(K, PROPS, HELP) else if (k == #K) { extraPolicy(s, PROPS); return; }
#include "ir/Settings.def"
#undef OPTION
#undef POLICY
  else {
    Diagnostic *d = error(DiagCode::E0034, s->nameRange, "unknown policy '{}'", k);
    DiagEngine::note(d, {}, kPolicyNames);
    return;
  }
  bool haveMax = pol.kind == ir::PolicyKind::NvLink || pol.kind == ir::PolicyKind::RailOptimized;
  for (const ast::Prop &p : s->props) {
    if (p.key == "max" && pol.kind != ir::PolicyKind::RailOptimized) {
      Dim want = pol.kind == ir::PolicyKind::Power ? dims::Power : pol.kind == ir::PolicyKind::Latency ? dims::Time : dims::None;
      haveMax = propQty(p, want, pol.max);
    } else if (p.key == "per" && pol.kind == ir::PolicyKind::Power) {
      uint32_t v;
      if (propStr(p, v)) {
        std::string_view t = F.strings.str(v);
        if (t != "rack" && t != "hall" && t != "building") {
          error(DiagCode::E0034, p.value->range, "power budgets are per \"rack\", \"hall\" or \"building\", not '{}'", t);
          return;
        }
        pol.scope = v;
      }
    } else if (p.key == "tier" && pol.kind == ir::PolicyKind::Oversubscription) {
      uint32_t v;
      if (propStr(p, v)) {
        std::string_view t = F.strings.str(v);
        if (t != "leaf" && t != "spine" && t != "core") {
          error(DiagCode::E0034, p.value->range, "tier is \"leaf\", \"spine\" or \"core\", not '{}'", t);
          return;
        }
        pol.scope = v;
      }
    } else {
      unknownProp(p, ("the " + k + " policy").c_str(), *accepted ? accepted : "no properties");
    }
  }
  if (!haveMax) {
    error(DiagCode::E0037, s->nameRange, "policy '{}' needs max", k);
    return;
  }
  F.policies.push_back(pol);
}

void Elab::extraPolicy(const ast::Stmt *s, const char *props) {
  ir::PolicyBlock pb;
  pb.kind = F.strings.intern(s->name);
  pb.loc = s->nameRange;
  std::string accepted = std::string(" ") + props + " ";
  for (const ast::Prop &p : s->props) {
    if (accepted.find(" " + p.key + " ") == std::string::npos) {
      unknownProp(p, ("the " + s->name + " policy").c_str(), props);
      continue;
    }
    ir::Setting st;
    if (setting(p, st))
      pb.props.push_back(std::move(st));
  }
  F.extraPolicies.push_back(std::move(pb));
}

void Elab::duplicateStmtProps(const ast::Block &b) {
  using K = ast::Stmt;
  for (const ast::Stmt *s : b) {
    switch (s->kind) {
    case K::Inst: duplicateProps(s->props, ("instance '" + s->name + "'").c_str()); break;
    case K::Link: duplicateProps(s->props, "a link"); break;
    case K::Place: duplicateProps(s->props, "a place"); break;
    case K::Span: duplicateProps(s->props, "a span"); break;
    case K::Policy: duplicateProps(s->props, ("policy '" + s->name + "'").c_str()); break;
    case K::Building:
      duplicateProps(s->props, ("building '" + s->name + "'").c_str());
      for (const ast::Stmt::Hall &h : s->halls)
        duplicateProps(h.props, ("hall '" + h.name + "'").c_str());
      break;
    default: break;
    }
    duplicateStmtProps(s->body);
    duplicateStmtProps(s->elseBody);
  }
}

bool Elab::run() {
  try {
    declareModels();
    for (const ast::File *f : prog_.files) {
      for (const ast::Template *t : f->templates)
        duplicateStmtProps(t->body);
      for (const ast::Fabric *x : f->fabrics)
        duplicateStmtProps(x->body);
    }
    // -D overrides, evaluated first: literals and catalog names only, no design bindings.
    if (prog_.defines)
      for (const ast::Stmt *s : prog_.defines->topLevel) {
        uint32_t n = sym(s->name, s->sym);
        defines_[n] = {eval(s->e1), s->range};
      }
    for (const ast::File *f : prog_.files)
      for (const ast::Stmt *s : f->topLevel) {
        if (s->kind != ast::Stmt::Let && s->kind != ast::Stmt::Param && s->kind != ast::Stmt::Option) {
          error(DiagCode::E0002, s->range, "only let, param and option statements may stand outside a fabric");
          continue;
        }
        if (s->kind == ast::Stmt::Let)
          globals_[sym(s->name, s->sym)] = eval(s->e1);
        else
          exec(s);
      }
    const ast::Fabric *fab = nullptr;
    const ast::File *mainFile = prog_.main;
    std::vector<const ast::Fabric *> all;
    for (const ast::File *f : prog_.files)
      for (const ast::Fabric *x : f->fabrics)
        all.push_back(x);
    if (!opts_.top.empty()) {
      for (const ast::Fabric *x : all)
        if (x->name == opts_.top)
          fab = x;
      if (!fab) {
        diags_.report(DiagCode::E0013, {}, "no fabric named '{}'", opts_.top);
        return false;
      }
    } else if (mainFile && mainFile->fabrics.size() == 1) {
      fab = mainFile->fabrics[0];
    } else if (mainFile && mainFile->fabrics.size() > 1) {
      Diagnostic *d = diags_.report(DiagCode::E0013, mainFile->fabrics[1]->range, "more than one fabric in the file");
      DiagEngine::note(d, {}, "pick one with --top NAME");
      return false;
    } else if (opts_.allowLibrary) {
      return !diags_.hasErrors();
    } else {
      diags_.report(DiagCode::E0013, {{mainFile ? mainFile->fileId : 0, 0}, 1}, "no 'fabric NAME { ... }' block to build");
      return false;
    }
    F.name = fab->name;
    F.loc = fab->range;
    scope_ = newNode(None, 0, -1);
    inFabric_ = true;
    for (const ast::Stmt *s : fab->body)
      exec(s);
    // A parameter that no instance of its template reads is a lint (W0104).
    std::vector<std::pair<const ast::Template *, size_t>> unused;
    for (auto &kv : paramUsed_)
      for (size_t i = 0; i < kv.second.size(); ++i)
        if (!kv.second[i])
          unused.push_back({kv.first, i});
    std::sort(unused.begin(), unused.end(), [](auto &a, auto &b) {
      return a.first->params[a.second].range.begin.offset < b.first->params[b.second].range.begin.offset ||
             (a.first->params[a.second].range.begin.offset == b.first->params[b.second].range.begin.offset &&
              a.first->params[a.second].range.begin.file < b.first->params[b.second].range.begin.file);
    });
    for (auto &u : unused) {
      const ast::Param &p = u.first->params[u.second];
      Diagnostic *d = diags_.report(DiagCode::W0104, p.range, "parameter '{}' of template '{}' is never used", p.name,
                                    u.first->name);
      DiagEngine::note(d, {}, "remove it, or use it in the template's body");
    }
    for (auto &kv : defines_)
      if (!definesUsed_.count(kv.first)) {
        Diagnostic *d = diags_.report(DiagCode::E0020, kv.second.second, "-D {}: no 'param' of that name",
                                      F.strings.str(kv.first));
        DiagEngine::note(d, {}, "-D overrides a 'param' statement of the design");
      }
  } catch (Abort &) {
    return false;
  }
  return !diags_.hasErrors();
}

} // namespace

bool elaborate(const LoadedProgram &prog, const ElabOptions &opts, DiagEngine &diags, ir::Fabric &out) {
  Elab e(prog, opts, diags, out);
  return e.run();
}

} // namespace fabc
