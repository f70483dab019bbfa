#pragma once
// The Fabric AST: plain structs with source ranges, owned by an ast::Context arena.
// Built from the ANTLR tree by ASTBuilder; nothing outside compiler/ast/ sees ANTLR.
#include "diag/Source.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace fabc::ast {

struct Expr {
  enum Kind : uint8_t { Number, Quantity, String, Bool, Name, Call, List, Unary, Binary, Cond, Comp };
  // Unary/Binary operator, decoded once by the AST builder so evaluation never compares text.
  enum Op : uint8_t { NoOp, And, Or, Eq, Ne, Lt, Le, Gt, Ge, Add, Sub, Mul, Div, Mod, Not };
  Kind kind;
  Op op = NoOp;
  SourceRange range;
  std::string text;          // Name/Call: identifier; Comp: loop variable; String: decoded text; Quantity: unit; op text
  double number = 0;         // Number/Quantity value; Bool: 0/1
  bool isInteger = false;    // Number literal without '.' or exponent that fits in 64 bits
  int64_t integer = 0;       // its exact value
  // Operands, call arguments, list items, Name: index expressions. Comp (`[e for x in a..b if c]`):
  // always 4, {e, a, b or nullptr (`in LIST`), c or nullptr (no filter)}.
  std::vector<Expr *> kids;
  mutable uint32_t sym = UINT32_MAX; // interned `text`, filled on first evaluation
  mutable uint8_t builtin = 0;       // Call: the elaborator's builtin function, decoded on first call
};

// The operator spelled `text` (NoOp if none): `-` is Sub, the builder's unary minus too.
Expr::Op opFromText(const std::string &text);

struct Prop {
  std::string key;
  SourceRange keyRange;
  Expr *value = nullptr;
  enum Annot : uint8_t { None, Source, Estimate } annot = None;
  std::string annotText;
  mutable uint32_t sym = UINT32_MAX;
};

struct Segment {
  std::string name;
  SourceRange range;
  Expr *index = nullptr; // nullptr: no index
  bool star = false;     // [*]
  mutable uint32_t sym = UINT32_MAX;
};

struct Path {
  std::vector<Segment> segs;
  SourceRange range;
};

struct Stmt;
using Block = std::vector<Stmt *>;

struct Arg {
  std::string name; // empty: positional
  SourceRange range;
  Expr *value = nullptr;
  mutable uint32_t sym = UINT32_MAX;
};

struct Stmt {
  enum Kind : uint8_t { Let, Param, Option, Inst, For, If, Link, Group, Place, Building, Span, Policy, Assert };
  Kind kind;
  SourceRange range;
  std::string name;            // Let/Param/Option/For var/Inst name/Group name/Building/Policy kind
  SourceRange nameRange;
  std::string name2;           // Inst: model or template; Group: kind; Place: building; Span: second building
  SourceRange name2Range;
  std::string name3;           // Place: hall; Inst: array binding variable
  SourceRange name3Range;
  Expr *e1 = nullptr;          // Let/Param/Option value; For from; If cond; Inst array count (or range end); Group index; Assert cond
  Expr *e2 = nullptr;          // For to; Inst range start
  std::vector<Arg> args;       // Inst template arguments
  bool hasArgs = false;
  std::vector<Prop> props;     // Inst/Link/Place/Building/Span/Policy
  std::vector<Path> paths;     // Link: 2; Group members; Place: 1
  Block body, elseBody;        // For/If bodies
  struct Hall {
    std::string name;
    SourceRange range;
    std::vector<Prop> props;
  };
  std::vector<Hall> halls;     // Building
  std::string message;         // Assert
  mutable uint32_t sym = UINT32_MAX, sym2 = UINT32_MAX, sym3 = UINT32_MAX;
};

struct PortDecl {
  std::string name;
  SourceRange range;
  Expr *count = nullptr;
  std::vector<Prop> props;
};

struct Model {
  std::string name, kind;
  SourceRange range, kindRange;
  std::vector<Prop> props;
  std::vector<PortDecl> ports;
};

struct Param {
  std::string name;
  SourceRange range;
  Expr *deflt = nullptr;
  mutable uint32_t sym = UINT32_MAX; // interned `name`, filled on first use
};

struct Template {
  std::string name, kind; // kind: group kind created per instance ("su", "pod", ...), may be empty
  SourceRange range, kindRange;
  std::vector<Param> params;
  Block body;
};

// `fn NAME(P1, P2) = EXPR;`: a pure function (no defaults: params[i].deflt is nullptr).
struct Function {
  std::string name;
  SourceRange range; // the name
  std::vector<Param> params;
  Expr *body = nullptr;
};

struct Fabric {
  std::string name;
  SourceRange range;
  Block body;
};

struct Import {
  std::string path;
  SourceRange range;
  uint32_t file = UINT32_MAX; // the file it loaded (SourceManager id), set by the loader
};

struct File {
  uint32_t fileId = 0;
  bool catalog = false; // found in a catalog directory of the search path (the stdlib)
  std::vector<Import> imports;
  std::vector<Model *> models;
  std::vector<Template *> templates;
  std::vector<Function *> functions;
  std::vector<Fabric *> fabrics;
  Block topLevel; // let/param/option statements outside any fabric
};

// Owns every node; deques keep addresses stable.
class Context {
public:
  Expr *expr(Expr::Kind k, SourceRange r) {
    exprs_.emplace_back();
    exprs_.back().kind = k;
    exprs_.back().range = r;
    return &exprs_.back();
  }
  Stmt *stmt(Stmt::Kind k, SourceRange r) {
    stmts_.emplace_back();
    stmts_.back().kind = k;
    stmts_.back().range = r;
    return &stmts_.back();
  }
  Model *model() { return &models_.emplace_back(); }
  Template *tmpl() { return &templates_.emplace_back(); }
  Function *function() { return &functions_.emplace_back(); }
  Fabric *fabric() { return &fabrics_.emplace_back(); }
  File *file() { return &files_.emplace_back(); }

  // Everything allocated after mark() is freed by rollback(mark): a parse that gives up
  // (the hand-written parser, on a file the grammar rejects) leaves nothing behind.
  struct Mark {
    size_t exprs, stmts, models, templates, functions, fabrics, files;
  };
  Mark mark() const {
    return {exprs_.size(),  stmts_.size(),   models_.size(), templates_.size(),
            functions_.size(), fabrics_.size(), files_.size()};
  }
  void rollback(const Mark &m) {
    shrink(exprs_, m.exprs);
    shrink(stmts_, m.stmts);
    shrink(models_, m.models);
    shrink(templates_, m.templates);
    shrink(functions_, m.functions);
    shrink(fabrics_, m.fabrics);
    shrink(files_, m.files);
  }

private:
  template <typename T> static void shrink(std::deque<T> &d, size_t n) {
    while (d.size() > n)
      d.pop_back();
  }
  std::deque<Expr> exprs_;
  std::deque<Stmt> stmts_;
  std::deque<Model> models_;
  std::deque<Template> templates_;
  std::deque<Function> functions_;
  std::deque<Fabric> fabrics_;
  std::deque<File> files_;
};

} // namespace fabc::ast
