#pragma once
// The Fabric AST: plain, trivially destructible structs with source ranges, allocated
// from an ast::Context's arena (docs/decisions/0051-the-hand-written-front-end.md, "A compact AST"). Built by the
// hand-written parser (SyntaxParser.h), lowered by AstLower.cpp (ANTLR's tree too, as a CST: --parser=antlr); nothing
// outside compiler/ast/ sees ANTLR.
//
// Lifetimes: names are std::string_views of the SourceManager's text (which never moves
// and outlives every Context that parsed it); decoded texts (string literals, ANTLR's
// token texts) are saved in the Context's arena. Children are ast::Lists: arrays in the
// arena, read-only after the builder made them.
#include "diag/Source.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Allocator.h>

#include <string_view>
#include <type_traits>

namespace fabc::ast {

// An array in the Context's arena: a pointer and a 32-bit count, packed to 12 bytes so
// that a Path (segments and range) is 24. Read like a vector: range-for, size(), [].
template <typename T> class __attribute__((packed, aligned(4))) List {
public:
  List() = default;
  List(T *data, uint32_t n) : data_(data), size_(n) {}
  T *begin() const { return data_; }
  T *end() const { return data_ + size_; }
  T *data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T &operator[](size_t i) const { return data_[i]; }
  T &front() const { return data_[0]; }
  T &back() const { return data_[size_ - 1]; }
  operator llvm::ArrayRef<T>() const { return {data_, size_}; }

private:
  T *data_ = nullptr;
  uint32_t size_ = 0;
};

struct Expr {
  enum Kind : uint8_t { Number, Quantity, String, Bool, Name, Call, List, Unary, Binary, Cond, Comp };
  // Unary/Binary operator, decoded once by the AST builder so evaluation never compares text.
  enum Op : uint8_t { NoOp, And, Or, Eq, Ne, Lt, Le, Gt, Ge, Add, Sub, Mul, Div, Mod, Not };
  Kind kind;
  Op op = NoOp;
  bool isInteger = false;            // Number literal without '.' or exponent that fits in 64 bits
  mutable uint8_t builtin = 0;       // Call: the elaborator's builtin function, decoded on first call
  SourceRange range;
  std::string_view text;     // Name/Call: identifier; Comp: loop variable; String: decoded text; Quantity: unit; op text
  double number = 0;         // Number/Quantity value; Bool: 0/1
  int64_t integer = 0;       // its exact value
  // Operands, call arguments, list items, Name: index expressions. Comp (`[e for x in a..b if c]`):
  // always 4, {e, a, b or nullptr (`in LIST`), c or nullptr (no filter)}.
  ast::List<Expr *> kids;
  mutable uint32_t sym = UINT32_MAX; // interned `text`, filled on first evaluation
};

// The operator spelled `text` (NoOp if none): `-` is Sub, the builder's unary minus too.
Expr::Op opFromText(std::string_view text);

struct Prop {
  std::string_view key;
  SourceRange keyRange;
  enum Annot : uint8_t { None, Source, Estimate } annot = None;
  Expr *value = nullptr;
  Expr *low = nullptr, *high = nullptr; // `estimate LOW..HIGH "..."`: a figure's bounds
  std::string_view annotText;
  mutable uint32_t sym = UINT32_MAX;
};

// `name`, `name[*]`, `name[EXPR]`. The common index, an integer literal (`p[12]`), is kept
// inline (its value and source range) instead of as an Expr: both parsers do so for a
// literal of 0..2^32-1 (ast::setIndex), so an explicit link's four segments need no Expr.
// 40 bytes: the name is a pointer and a 32-bit size, and the inline literal shares its
// place with the index expression (an explicit file of 3M links holds 12M segments).
struct Segment {
private: // declared first: the layout is this order
  const char *name_ = nullptr;
  union {
    Expr *index_ = nullptr;
    struct {
      uint32_t value;
      uint16_t delta;
    } lit_;
  };

public:
  SourceRange range;
  mutable uint32_t sym = UINT32_MAX;

private:
  uint32_t nameSize_ = 0;
  uint8_t literalLength_ = 0;

public:
  bool star = false; // [*]

  std::string_view name() const { return {name_, nameSize_}; }
  void setName(std::string_view n) {
    name_ = n.data();
    nameSize_ = uint32_t(n.size()); // a source file is at most 4 GiB (SourceLoc's offset)
  }
  // The index expression: one other than an inline literal, nullptr otherwise.
  Expr *index() const { return literalLength_ ? nullptr : index_; }
  void setIndexExpr(Expr *e) {
    index_ = e;
    literalLength_ = 0;
  }
  bool hasLiteral() const { return literalLength_ != 0; }
  // hasLiteral(): the index's value; 0 otherwise.
  uint32_t literal() const { return literalLength_ ? lit_.value : 0; }
  // An inline literal: its value, and its source range as an offset from range's begin
  // and a length (not 0).
  void setLiteral(uint32_t value, uint16_t delta, uint8_t length) {
    lit_ = {value, delta};
    literalLength_ = length;
  }
  bool hasIndex() const { return index() || hasLiteral(); }
  // The index's source range (the literal's or the expression's).
  SourceRange indexRange() const {
    return hasLiteral() ? SourceRange{{range.begin.file, range.begin.offset + lit_.delta}, literalLength_}
           : index_     ? index_->range
                        : SourceRange{};
  }
};
static_assert(sizeof(Segment) == 40, "an explicit file's memory is mostly segments");

// Sets `seg`'s index to `e` (seg.range.begin set first): inline when `e` is an integer
// literal of 0..2^32-1 whose range fits the inline form. Both builders call this, so both
// parsers make the same form.
inline void setIndex(Segment &seg, Expr *e) {
  seg.setIndexExpr(e);
  if (!e || e->kind != Expr::Number || !e->isInteger || e->integer < 0 || e->integer > int64_t(UINT32_MAX))
    return;
  uint32_t delta = e->range.begin.offset - seg.range.begin.offset;
  if (e->range.begin.offset < seg.range.begin.offset || delta > UINT16_MAX || e->range.length == 0 ||
      e->range.length > UINT8_MAX)
    return;
  seg.setLiteral(uint32_t(e->integer), uint16_t(delta), uint8_t(e->range.length));
}

// A dotted path of one segment or more (both builders make none empty); its range runs
// from the first segment's begin to the last one's end, as the source's path does.
struct Path {
  ast::List<Segment> segs;

  SourceRange range() const {
    if (segs.empty())
      return {};
    const SourceRange &a = segs.front().range, &b = segs.back().range;
    return {a.begin, b.begin.offset + b.length - a.begin.offset};
  }
};

struct Stmt;
using Block = ast::List<Stmt *>;

struct Arg {
  std::string_view name; // empty: positional
  SourceRange range;
  Expr *value = nullptr;
  mutable uint32_t sym = UINT32_MAX;
};

struct Hall {
  std::string_view name;
  SourceRange range;
  ast::List<Prop> props;
};

// A statement. The fields a link needs are inline (56 bytes: an explicit file is millions
// of links); the rest, which other kinds use, are in an extension that the builders
// allocate for every kind but Link, read through the accessors (empty without one).
struct Stmt {
  enum Kind : uint8_t { Let, Param, Option, Inst, For, If, Link, Group, Place, Building, Span, Policy, Assert };
  using Hall = ast::Hall;
  Kind kind;
  bool hasArgs = false;        // Inst: `(...)` written (args() may still be empty)
  SourceRange range;
  Expr *e1 = nullptr;          // Let/Param/Option value; For from; If cond; Inst array count (or range end); Group index; Assert cond
  ast::List<Prop> props;       // Inst/Link/Place/Building/Span/Policy
  ast::List<Path> paths;       // Link: 2; Group members; Place: 1

  struct Ext {
    std::string_view name;     // Let/Param/Option/For var/Inst name/Group name/Building/Policy kind
    SourceRange nameRange;
    mutable uint32_t sym = UINT32_MAX;
    std::string_view name2;    // Inst: model or template; Group: kind; Place: building; Span: second building
    SourceRange name2Range;
    mutable uint32_t sym2 = UINT32_MAX;
    std::string_view name3;    // Place: hall; Inst: array binding variable
    SourceRange name3Range;
    mutable uint32_t sym3 = UINT32_MAX;
    Expr *e2 = nullptr;        // For to; Inst range start
    ast::List<Arg> args;       // Inst template arguments
    Block body, elseBody;      // For/If bodies
    ast::List<Hall> halls;     // Building
    std::string_view message;  // Assert
  };
  Ext *ext = nullptr;

  static bool hasExt(Kind k) { return k != Link; }
  const Ext &x() const { return ext ? *ext : empty(); }
  std::string_view name() const { return x().name; }
  SourceRange nameRange() const { return x().nameRange; }
  std::string_view name2() const { return x().name2; }
  SourceRange name2Range() const { return x().name2Range; }
  std::string_view name3() const { return x().name3; }
  SourceRange name3Range() const { return x().name3Range; }
  Expr *e2() const { return x().e2; }
  const ast::List<Arg> &args() const { return x().args; }
  const Block &body() const { return x().body; }
  const Block &elseBody() const { return x().elseBody; }
  const ast::List<Hall> &halls() const { return x().halls; }
  std::string_view message() const { return x().message; }
  // The interned name/name2/name3 caches (the kinds that have those names have an extension).
  uint32_t &sym() const { return ext ? ext->sym : scratchSym(); }
  uint32_t &sym2() const { return ext ? ext->sym2 : scratchSym(); }
  uint32_t &sym3() const { return ext ? ext->sym3 : scratchSym(); }

private:
  static const Ext &empty() {
    static const Ext e;
    return e;
  }
  static uint32_t &scratchSym() {
    thread_local uint32_t s;
    s = UINT32_MAX;
    return s;
  }
};
static_assert(sizeof(Stmt) == 56, "an explicit file's memory is mostly link statements");

struct PortDecl {
  std::string_view name;
  SourceRange range;
  Expr *count = nullptr;
  ast::List<Prop> props;
};

struct Model {
  std::string_view name, kind;
  SourceRange range, kindRange;
  ast::List<Prop> props;
  ast::List<PortDecl> ports;
};

struct Param {
  std::string_view name;
  SourceRange range;
  Expr *deflt = nullptr;
  mutable uint32_t sym = UINT32_MAX; // interned `name`, filled on first use
};

struct Template {
  std::string_view name, kind; // kind: group kind created per instance ("su", "pod", ...), may be empty
  SourceRange range, kindRange;
  ast::List<Param> params;
  Block body;
};

// `fn NAME(P1, P2) = EXPR;`: a pure function (no defaults: params[i].deflt is nullptr).
struct Function {
  std::string_view name;
  SourceRange range; // the name
  ast::List<Param> params;
  Expr *body = nullptr;
};

struct Fabric {
  std::string_view name;
  SourceRange range;
  Block body;
};

struct Import {
  std::string_view path;
  SourceRange range;
  uint32_t file = UINT32_MAX; // the file it loaded (SourceManager id), set by the loader
};

struct File {
  uint32_t fileId = 0;
  bool catalog = false; // found in a catalog directory of the search path (the stdlib)
  ast::List<Import> imports;
  ast::List<Model *> models;
  ast::List<Template *> templates;
  ast::List<Function *> functions;
  ast::List<Fabric *> fabrics;
  Block topLevel; // let/param/option statements outside any fabric
  // Where a lexer may resume in this file's text: ascending token starts, one every few
  // hundred tokens (the hand parser's; empty from ANTLR's). The language server compares
  // an edited text's tokens from the one before the edit (hand::sameTokens).
  List<uint32_t> tokenMarks;
};

// Owns every node, in slabs of a bump allocator: nodes are trivially destructible, so
// destroying the Context frees the slabs and nothing else. A parse that gives up (the
// hand-written parser, on a file the grammar rejects) leaves its nodes in the arena: at
// most one file's AST, once per file, before the ANTLR parse that costs far more.
class Context {
public:
  Context() = default;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  template <typename T> T *make() {
    static_assert(std::is_trivially_destructible_v<T>, "AST nodes are freed with their slabs");
    return new (alloc_.Allocate<T>()) T();
  }
  Expr *expr(Expr::Kind k, SourceRange r) {
    Expr *e = make<Expr>();
    e->kind = k;
    e->range = r;
    return e;
  }
  // A statement, with its extension for the kinds that use one (Stmt::hasExt).
  Stmt *stmt(Stmt::Kind k, SourceRange r) {
    Stmt *s = make<Stmt>();
    s->kind = k;
    s->range = r;
    if (Stmt::hasExt(k))
      s->ext = make<Stmt::Ext>();
    return s;
  }
  Model *model() { return make<Model>(); }
  Template *tmpl() { return make<Template>(); }
  Function *function() { return make<Function>(); }
  Fabric *fabric() { return make<Fabric>(); }
  File *file() { return make<File>(); }

  // A copy of `items` in the arena (the builders collect into SmallVectors first).
  template <typename T> ast::List<T> list(llvm::ArrayRef<T> items) {
    static_assert(std::is_trivially_destructible_v<T>, "AST nodes are freed with their slabs");
    if (items.empty())
      return {};
    T *p = alloc_.Allocate<T>(items.size());
    std::uninitialized_copy(items.begin(), items.end(), p);
    return {p, uint32_t(items.size())};
  }
  // A copy of `s` in the arena, for texts that are not in the source as they are.
  std::string_view save(std::string_view s) {
    if (s.empty())
      return {};
    char *p = alloc_.Allocate<char>(s.size());
    std::copy(s.begin(), s.end(), p);
    return {p, s.size()};
  }
  // Bytes the arena holds (its slabs), for measurements.
  size_t bytesAllocated() const { return alloc_.getTotalMemory(); }

private:
  // Slabs of 64 KiB, doubling every 8 (LLVM's default: 4 KiB, every 128): an explicit
  // file's AST reaches slabs of 2 MiB, which the command line's operator new backs with
  // huge pages (tools/fabc/HugePages.cpp), after 16 MB instead of 268 MB.
  llvm::BumpPtrAllocatorImpl<llvm::MallocAllocator, 65536, 65536, 8> alloc_;
};

// A File's lists as a parser collects them (both builders), copied into the arena at the end.
struct FileItems {
  llvm::SmallVector<Import, 4> imports;
  llvm::SmallVector<Model *, 8> models;
  llvm::SmallVector<Template *, 8> templates;
  llvm::SmallVector<Function *, 4> functions;
  llvm::SmallVector<Fabric *, 1> fabrics;
  llvm::SmallVector<Stmt *, 8> topLevel;
  void commit(Context &ctx, File *out) const {
    out->imports = ctx.list<Import>(imports);
    out->models = ctx.list<Model *>(models);
    out->templates = ctx.list<Template *>(templates);
    out->functions = ctx.list<Function *>(functions);
    out->fabrics = ctx.list<Fabric *>(fabrics);
    out->topLevel = ctx.list<Stmt *>(topLevel);
  }
};

} // namespace fabc::ast
