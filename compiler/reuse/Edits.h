#pragma once
// Where an edit lies, for the reuses of an earlier compilation (compiler/reuse/): the line
// hunks between two texts of the main file, the declarations and fabric statements those
// hunks meet, and what may change in them. Text and tree only: nothing is evaluated.
#include "ast/AST.h"
#include "diag/Source.h"
#include "elab/Elaborator.h"

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace fabc::reuse {

// The spans of one text an edit changed ([begin, end), ascending; empty: an insertion).
using Spans = std::vector<std::pair<uint32_t, uint32_t>>;

// Where the main text moved between two versions: whole-line hunks, split where lines are
// the same in both (a comment typed at the end and a let edited above are two hunks).
TextShift shiftBetween(std::string_view oldText, std::string_view newText, uint32_t file);

// `name` as a whole word anywhere in `text` outside the `skip` spans (ascending; in
// comments and strings too: a false hit only costs the reuse).
bool mentions(std::string_view text, std::string_view name, const Spans &skip = {});

// A top-level declaration of the main file: where it is and whether an edit of it may
// reuse the check (a `let`, a `template`, an `fn`: the rest reads them by name only).
struct Decl {
  uint32_t begin, end;
  std::string_view name;
  bool reusable;
  bool inFabric = false; // a statement of a fabric's body (Edited::Options)
  SettingReader reader = SettingReader::Passes; // the first stage that reads it (a setting)
  bool declaration = false; // Edited::Options: a let, template or fn, reusable if nothing names it
};

// What an edit may change and be reused: top-level lets, templates and fns (the check
// reused), or options and policies (the elaboration or the checked IR reused).
enum class Edited { Declarations, Options };

// The declarations of a file, by place. `edited` Options: the statements of a fabric's
// body are listed only where they meet `spans` (declsCovering reads no other; an explicit
// file's body is millions of links).
std::vector<Decl> declsOf(const ast::File &f, std::string_view text, Edited edited, const Spans &spans = {});

// The declarations that overlap [begin, end) (or hold it, if empty), which must all be
// reusable ones with nothing but trivia between them and the edge of the span: the span
// [outBegin, outEnd) they and the region cover, their names added to `names`. False
// otherwise (a model, a fabric, a param, an option, or anything but trivia in the span).
bool declsCovering(const std::vector<Decl> &decls, std::string_view text, uint32_t begin, uint32_t end,
                   std::vector<std::string_view> &names, uint32_t &outBegin, uint32_t &outEnd);

// A setting whose expressions are literals, operators and names of top-level bindings
// (`globals`) only: its value is the same without the fabric's scope, which a
// settings-only run does not build (a name there could be a binding of the fabric's
// body, an instance, a model).
using Names = std::unordered_set<std::string_view>;
bool scopeFreeSetting(const ast::Stmt *s, const Names &globals);

// The same tokens but for numbers (a quantity's unit the same): evaluating either
// interns the same strings in the same order.
bool sameButNumbers(std::string_view a, std::string_view b);

// The let and param statements below the top level (in templates and fabrics), by place.
void statementsByPlace(const ast::Block &b, std::unordered_map<uint64_t, const ast::Stmt *> &out);

// An option or policy statement in a block (a template's body, a loop's, a branch's).
bool setsSettings(const ast::Block &b);

} // namespace fabc::reuse
