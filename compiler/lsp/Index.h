#pragma once
// The language server's symbol index of one loaded program (the main file and its
// imports): every declaration (models, port groups, templates and their parameters,
// fabrics, let/param bindings, loop variables, instances, buildings, files) and every
// name that refers to one, resolved with the language's scoping rules from the AST the
// compiler parsed — never from the text. docs/lsp.md lists what the server builds on it.
#include "ast/AST.h"
#include "loader/Imports.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fabc {
class SourceManager;
}

namespace fabc::lsp {

constexpr uint32_t NoSymbol = UINT32_MAX;

enum class SymbolKind : uint8_t {
  Model,         // node: ast::Model
  PortGroup,     // node: ast::PortDecl; container: its model
  Template,      // node: ast::Template
  TemplateParam, // node: ast::Param; container: its template
  Fabric,        // node: ast::Fabric
  Param,         // node: ast::Stmt (param)
  Let,           // node: ast::Stmt (let)
  LoopVar,       // node: ast::Stmt (for, or an instance array's `s in 0..2`), ast::Expr (a comprehension's)
  Instance,      // node: ast::Stmt (instance); container: its template or fabric
  Building,      // node: ast::Stmt (building)
  Function,      // node: ast::Function (fn NAME(...) = EXPR;)
  FunctionParam, // node: ast::Param; container: its function
  File,          // a loaded file; nameRange: its first byte
};
const char *symbolKindName(SymbolKind k);

struct Symbol {
  SymbolKind kind;
  std::string name;
  SourceRange nameRange;
  const void *node = nullptr;
  uint32_t container = NoSymbol;
  uint32_t file = UINT32_MAX; // File: the SourceManager id
  uint32_t target = NoSymbol;  // Instance: the Model or Template it instantiates
};

// A name in the text and the symbol it declares or refers to.
struct Occurrence {
  SourceRange range;
  uint32_t symbol;
  bool declaration;
};

class Index {
public:
  // Indexes `prog` (which must outlive the index, with `sm`).
  void build(const LoadedProgram &prog, const SourceManager &sm);

  const std::vector<Symbol> &symbols() const { return symbols_; }
  const Symbol &symbol(uint32_t id) const { return symbols_[id]; }
  // The occurrence whose range holds `loc` (the name under the cursor), or nullptr.
  const Occurrence *at(SourceLoc loc) const;
  // Every occurrence, in file and offset order (semantic tokens).
  const std::vector<Occurrence> &occurrences() const { return occ_; }
  // Every occurrence of a symbol, in file and offset order.
  std::vector<const Occurrence *> occurrencesOf(uint32_t symbol) const;
  // A model, template, function or top-level binding by name; NoSymbol if none.
  uint32_t findGlobal(SymbolKind kind, std::string_view name) const;
  // The instance `name` declared in a template or fabric (by its symbol).
  uint32_t findInstance(uint32_t container, std::string_view name) const;
  // A port group of a model (or of the model it derives from).
  uint32_t findPortGroup(uint32_t model, std::string_view name) const;
  // The port groups of a model, its base's included.
  std::vector<uint32_t> portGroups(uint32_t model) const;
  // What an instance statement instantiates: a Model or Template symbol, or NoSymbol.
  uint32_t targetOf(uint32_t instance) const;
  // The instances declared in a template or fabric.
  std::vector<uint32_t> instancesOf(uint32_t container) const;
  // The template or fabric whose body holds `loc` (from its name to the next
  // declaration of the file), NoSymbol outside any.
  uint32_t containerAt(SourceLoc loc) const;
  // The bindings visible at `loc` (lets, params, loop variables, template parameters).
  std::vector<uint32_t> bindingsAt(SourceLoc loc) const;
  const LoadedProgram *program() const { return prog_; }

private:
  struct Scope;
  uint32_t add(SymbolKind kind, std::string_view name, SourceRange r, const void *node, uint32_t container);
  void use(SourceRange r, uint32_t symbol, bool decl = false);
  void declareInstances(const ast::Block &b, uint32_t container);
  void sortOccurrences();
  void walkBlock(const ast::Block &b, Scope &scope);
  void walkStmt(const ast::Stmt *s, Scope &scope);
  void walkExpr(const ast::Expr *e, const Scope &scope);
  void walkProps(const ast::List<ast::Prop> &props, const Scope &scope);
  void walkPath(const ast::Path &p, const Scope &scope);
  uint32_t lookup(std::string_view name, const Scope &scope) const;
  uint32_t resolveTarget(std::string_view name) const;

  const LoadedProgram *prog_ = nullptr;
  std::vector<Symbol> symbols_;
  std::vector<Occurrence> occ_; // sorted by (file, offset) after build
  // Open-addressed tables: a 100k-link file declares 150k instances and resolves each
  // path's first segment here (std::unordered_map's node walk was a tenth of the
  // server's compile of such a file).
  using NameMap = llvm::DenseMap<llvm::StringRef, uint32_t>;
  NameMap models_, templates_, globals_, functions_;
  const SourceManager *sm_ = nullptr;
  std::unordered_map<uint64_t, uint32_t> fileSymbols_;
  NameMap buildings_;
  std::unordered_map<const void *, uint32_t> byNode_;            // template -> symbol
  std::unordered_map<uint32_t, std::vector<uint32_t>> params_; // template -> its parameters
  // (template/fabric symbol, name) -> the instance declared there. Hashed by a word-wise
  // mix: llvm::hash_value's general string hash was a tenth of the index's build.
  struct InstanceKey {
    uint32_t container;
    std::string_view name;
  };
  struct InstanceKeyInfo {
    static InstanceKey getEmptyKey() { return {NoSymbol, {}}; }
    static InstanceKey getTombstoneKey() { return {NoSymbol - 1, {}}; }
    static unsigned getHashValue(const InstanceKey &k);
    static bool isEqual(const InstanceKey &a, const InstanceKey &b) {
      return a.container == b.container && a.name == b.name;
    }
  };
  llvm::DenseMap<InstanceKey, uint32_t, InstanceKeyInfo> instances_;
  // Bodies: the extent of each template and fabric (first to last offset of its
  // statements and names), and each binding's visible extent, for completion.
  struct Extent {
    uint32_t file, begin, end, symbol;
  };
  std::vector<Extent> bodies_, visible_;
};

} // namespace fabc::lsp
