// Fuzz modes of issue 30's language classes (LangModes.h). Each input drives a small
// generator, so that the fuzzer spends its time on values, renames and edits rather than
// on syntax errors.
#include "tests/fuzz/LangModes.h"

#include "Compilation.h"
#include "backends/ir/Ir.h"
#include "diag/Diag.h"
#include "tools/lsp/Server.h"

#include <llvm/Support/JSON.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace fabc_fuzz {
namespace {
using namespace fabc;
namespace json = llvm::json;

FILE *devNull() {
  static FILE *f = std::fopen("/dev/null", "w");
  return f;
}

CompileOptions smallOptions() {
  CompileOptions co;
  co.standardSearchPath = false;
  co.includes = {FABC_SOURCE_STDLIB};
  co.maxFileSize = 1 << 20;
  co.limits.maxDevices = 2000;
  co.limits.maxLinks = 20000;
  co.limits.maxSteps = 200000;
  co.limits.maxDepth = 16;
  co.limits.maxValueSize = 20000;
  co.allowLibrary = true;
  return co;
}

// The bytes an input reads, 0 past its end.
struct Bytes {
  const uint8_t *p;
  size_t n, i = 0;
  uint8_t next() { return i < n ? p[i++] : 0; }
  bool more() const { return i < n; }
};

// ---- 0x05: values under growth ----
// Doubling functions over lists and strings, comprehensions of them, str() of them,
// nested to the byte's depth: each stays within the step and depth limits, and its value
// within the value budget or an FAB-E0071. Asserted: the time (a budget well above what
// a bounded input needs, far below a runaway), and the memory the values hold (the
// strings interned: at most 256 x the value budget, plus the source's).
std::string growthDesign(Bytes &b) {
  std::string out = "fn dl(l, n) = n <= 0 ? l : dl([l, l], n - 1);\n"
                    "fn ds(s, n) = n <= 0 ? s : ds(s + s, n - 1);\n"
                    "fabric f {\n";
  static const char *const seeds[] = {"[1]", "[1, 2, 3]", "\"ab\"", "\"x\"", "[\"a\", [1, 2]]", "[]"};
  int k = 0;
  while (b.more() && k < 12) {
    uint8_t op = b.next(), n = b.next() % 64;
    std::string seed = seeds[b.next() % 6];
    std::string e;
    switch (op % 8) {
    case 0: e = "dl(" + seed + ", " + std::to_string(n) + ")"; break;
    case 1: e = "ds(" + seed + ", " + std::to_string(n) + ")"; break;
    case 2: e = "str(dl(" + seed + ", " + std::to_string(n) + "))"; break;
    case 3: e = "len([dl(" + seed + ", " + std::to_string(n % 16) + ") for i in 0.." + std::to_string(n * 100) + "])"; break;
    case 4: e = "[str(i) + \"-\" + str(dl(" + seed + ", " + std::to_string(n % 8) + ")) for i in 0.." + std::to_string(n * 50) + "]"; break;
    case 5: e = "sum([len(str(dl([i], " + std::to_string(n % 10) + "))) for i in 0.." + std::to_string(n * 20) + "])"; break;
    case 6: e = "ds(str(dl(" + seed + ", " + std::to_string(n % 12) + ")), " + std::to_string(n % 24) + ")"; break;
    case 7: e = "[[x, x] for x in dl(" + seed + ", " + std::to_string(n % 14) + ")]"; break;
    }
    out += "  let v" + std::to_string(k++) + " = " + e + ";\n";
  }
  return out + "}\n";
}
} // namespace

void valueGrowthOne(const uint8_t *data, size_t size) {
  Bytes b{data, size};
  std::string text = growthDesign(b);
  CompileOptions co = smallOptions();
  BindingValues values; // hover's renderings too
  co.values = &values;
  Compilation c(co);
  c.diags().setOutput(devNull());
  double start = threadSeconds();
  c.run(CompileInput::source("growth.fab", text));
  double s = threadSeconds() - start;
  // 200,000 steps and 20,000-item values take well under a second, even under ASan.
  if (s > 10)
    bug("values under growth took more than 10 s", text);
  uint64_t bytes = 0;
  const ir::StringPool &sp = c.fabric().strings;
  for (uint32_t i = 0; i < sp.size(); ++i)
    bytes += sp.str(i).size();
  if (bytes > 256 * co.limits.maxValueSize + text.size() + (1 << 20))
    bug("values under growth hold more string bytes than their budget", std::to_string(bytes) + "\n" + text);
  for (auto &kv : values.values)
    if (kv.second.text.size() > BindingValues::kMaxHoverText + 100)
      bug("a hover value is longer than its bound", kv.second.text.substr(0, 200));
}

// ---- the LSP modes ----
namespace {
struct Session {
  std::vector<json::Value> answers;
  lsp::Server server;
  explicit Session(lsp::ServerOptions so)
      : server(std::move(so), [this](const std::string &framed) {
          size_t end = framed.find("\r\n\r\n");
          llvm::Expected<json::Value> v = json::parse(llvm::StringRef(framed).substr(end + 4));
          if (!v) {
            llvm::consumeError(v.takeError());
            bug("the language server sent a body that is not JSON", framed.substr(0, 400));
          }
          answers.push_back(std::move(*v));
        }) {}
  void send(json::Value v) {
    std::string body;
    llvm::raw_string_ostream os(body);
    os << v;
    os.flush();
    server.handleMessage(body);
  }
  // The response to request `id`, or nullptr.
  const json::Object *response(int64_t id) {
    for (const json::Value &a : answers)
      if (const json::Object *o = a.getAsObject())
        if (o->getInteger("id") == id)
          return o;
    return nullptr;
  }
};

lsp::ServerOptions serverOptions() {
  lsp::ServerOptions so;
  CompileOptions co = smallOptions();
  co.allowLibrary = false;
  so.compile = co;
  so.debounceMs = 0;
  so.maxWorkspaceFiles = 0;
  return so;
}

// The IR dump and diagnostic codes of a text, as `fabc check` compiles it.
std::string elaborate(const std::string &text, std::string &codes) {
  CompileOptions co = smallOptions();
  Compilation c(co);
  c.diags().setOutput(devNull());
  c.run(CompileInput::source("/fuzz/r.fab", text));
  codes.clear();
  for (const Diagnostic &d : c.diags().all())
    codes += std::to_string(int(d.code)) + " ";
  if (c.diags().hasErrors())
    return {};
  std::string dump;
  dumpIr(c.fabric(), [&](std::string_view t) { dump += t; });
  return dump;
}

// A design with functions, parameters, global and local lets, loops and comprehensions,
// whose names come from a small set, so that renames meet every kind of clash.
std::string renameDesign(Bytes &b) {
  static const char *const names[] = {"a", "b", "n", "x", "k", "m"};
  auto name = [&] { return std::string(names[b.next() % 6]); };
  std::string out = "model SW : switch { protocol = \"ethernet\"; port p[64] { speed = 400 Gb/s; form = \"OSFP\"; } }\n";
  std::string p1 = name(), p2 = name();
  if (p2 == p1)
    p2 = p1 + "2";
  out += "fn f(" + p1 + ", " + p2 + ") = " + p1 + " * 2 + " + p2 + ";\n";
  out += "fn g(" + p1 + ") = f(" + p1 + ", 1) + len([" + p1 + " for " + p2 + " in 0..3]);\n";
  std::string glob = name();
  out += "let " + glob + " = " + std::to_string(b.next() % 4 + 1) + ";\n";
  out += "fabric t {\n";
  std::vector<std::string> bound{glob};
  for (int i = 0; i < 4 && b.more(); ++i) {
    std::string v = name(), use = bound[b.next() % bound.size()];
    if (v == glob || std::find(bound.begin(), bound.end(), v) != bound.end())
      v += std::to_string(i);
    out += "  let " + v + " = " + (b.next() % 2 ? "f(" + use + ", " + glob + ")" : "g(" + use + ") % 5 + 1") + ";\n";
    bound.push_back(v);
  }
  out += "  for i in 0.." + bound.back() + " % 6 + 1 { assert i >= 0; }\n";
  out += "  leaf[" + bound.back() + " % 6 + 1] : SW { tier = \"leaf\"; };\n";
  out += "  spine[" + bound[b.next() % bound.size()] + " % 3 + 1] : SW { tier = \"spine\"; };\n";
  return out + "}\n";
}

// Applies a WorkspaceEdit's changes to `text` (one document), as a client does.
bool applyEdit(std::string &text, const json::Object &result) {
  const json::Object *changes = result.getObject("changes");
  if (!changes || changes->size() != 1)
    return false;
  const json::Array *edits = changes->begin()->second.getAsArray();
  if (!edits)
    return false;
  std::vector<lsp::TextChange> list;
  std::vector<std::pair<lsp::Position, std::string>> sorted;
  for (const json::Value &e : *edits) {
    const json::Object *o = e.getAsObject();
    const json::Object *r = o ? o->getObject("range") : nullptr;
    auto t = o ? o->getString("newText") : llvm::None;
    if (!r || !t)
      return false;
    auto pos = [](const json::Object *p) {
      return lsp::Position{uint32_t(p->getInteger("line").getValueOr(0)), uint32_t(p->getInteger("character").getValueOr(0))};
    };
    lsp::TextChange c;
    c.start = pos(r->getObject("start"));
    c.end = pos(r->getObject("end"));
    sorted.push_back({c.start, t->str()});
    list.push_back(c);
  }
  // A WorkspaceEdit's edits refer to the original text: applied last first.
  std::vector<size_t> order(list.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return list[x].start.line != list[y].start.line ? list[x].start.line > list[y].start.line
                                                    : list[x].start.character > list[y].start.character;
  });
  std::vector<lsp::TextChange> ordered;
  for (size_t i : order) {
    ordered.push_back(list[i]);
    ordered.back().text = sorted[i].second;
  }
  return lsp::applyChanges(text, ordered, lsp::Encoding::Utf16);
}
// The name a rename's first edit replaces (the design is ASCII: UTF-16 units are bytes).
std::string oldNameAt(const std::string &text, const json::Object &edit) {
  const json::Object *changes = edit.getObject("changes");
  const json::Array *edits = changes && !changes->empty() ? changes->begin()->second.getAsArray() : nullptr;
  const json::Object *e = edits && !edits->empty() ? (*edits)[0].getAsObject() : nullptr;
  const json::Object *r = e ? e->getObject("range") : nullptr;
  if (!r || !r->getObject("start") || !r->getObject("end"))
    return {};
  auto offset = [&](const json::Object *p) {
    size_t line = size_t(p->getInteger("line").getValueOr(0)), at = 0;
    for (; line > 0 && at != std::string::npos; --line)
      at = text.find('\n', at) == std::string::npos ? std::string::npos : text.find('\n', at) + 1;
    return at == std::string::npos ? text.size() : std::min(text.size(), at + size_t(p->getInteger("character").getValueOr(0)));
  };
  size_t b = offset(r->getObject("start")), en = offset(r->getObject("end"));
  return b < en ? text.substr(b, en - b) : std::string();
}

// `s` with each whole word `from` (not part of a longer identifier) replaced by `to`.
std::string replaceWord(const std::string &s, const std::string &from, const std::string &to) {
  if (from.empty())
    return s;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, from.size(), from) == 0 && (i == 0 || !ident(s[i - 1])) &&
        (i + from.size() == s.size() || !ident(s[i + from.size()]))) {
      out += to;
      i += from.size();
    } else {
      out += s[i++];
    }
  }
  return out;
}
} // namespace

void renameOne(const uint8_t *data, size_t size) {
  Bytes b{data, size};
  std::string text = renameDesign(b);
  std::string codesBefore;
  std::string before = elaborate(text, codesBefore);
  Session s(serverOptions());
  s.send(json::Object{{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", json::Object{{"capabilities", json::Object{}}}}});
  s.send(json::Object{{"jsonrpc", "2.0"},
                      {"method", "textDocument/didOpen"},
                      {"params", json::Object{{"textDocument", json::Object{{"uri", "file:///fuzz/r.fab"},
                                                                            {"languageId", "fabric"},
                                                                            {"version", 1},
                                                                            {"text", text}}}}}});
  static const char *const names[] = {"a", "b", "n", "x", "k", "m", "f", "g", "min", "len", "i", "fresh", "SW"};
  // Renames at positions the bytes pick (on names or not), to names they pick.
  std::vector<uint32_t> lineStarts{0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n')
      lineStarts.push_back(uint32_t(i + 1));
  for (int64_t id = 1; id <= 4 && b.more(); ++id) {
    uint32_t line = b.next() % lineStarts.size(), ch = b.next() % 40;
    std::string to = names[b.next() % 13];
    s.send(json::Object{{"jsonrpc", "2.0"},
                        {"id", id},
                        {"method", "textDocument/rename"},
                        {"params", json::Object{{"textDocument", json::Object{{"uri", "file:///fuzz/r.fab"}}},
                                                {"position", json::Object{{"line", line}, {"character", ch}}},
                                                {"newName", to}}}});
    const json::Object *r = s.response(id);
    if (!r)
      bug("a rename got no response", text);
    const json::Object *result = r->getObject("result");
    if (!result)
      continue; // refused, with an error: the check's purpose
    std::string renamed = text, codesAfter;
    if (!applyEdit(renamed, *result))
      bug("a rename's WorkspaceEdit does not apply to its document", text);
    std::string after = elaborate(renamed, codesAfter);
    // A model's name is in the IR: renamed, the dump says the new name where it said the
    // old (the server's own check reads the dump the same way).
    bool same = after == before || after == replaceWord(before, oldNameAt(text, *result), to);
    if (codesAfter != codesBefore || !same)
      bug("an accepted rename changed the design's IR or diagnostics",
          "--- before:\n" + text + "--- after (to '" + to + "'):\n" + renamed);
  }
}

void editsOne(const uint8_t *data, size_t size) {
  Bytes b{data, size};
  static const char *const pieces[] = {"a", "let", "\n", "\r\n", "\r", "\xC3\xA9", "\xF0\x9F\x98\x80", " ", "{", "}"};
  std::string text;
  for (int i = 0, n = b.next() % 64; i < n; ++i)
    text += pieces[b.next() % 10];
  Session s(serverOptions());
  s.send(json::Object{{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", json::Object{{"capabilities", json::Object{}}}}});
  s.send(json::Object{{"jsonrpc", "2.0"},
                      {"method", "textDocument/didOpen"},
                      {"params", json::Object{{"textDocument", json::Object{{"uri", "file:///fuzz/e.fab"},
                                                                            {"languageId", "fabric"},
                                                                            {"version", 1},
                                                                            {"text", text}}}}}});
  // Many ranged changes in one didChange: runs in document order, reverse order, or none.
  json::Array changes;
  std::string expect = text;
  uint8_t order = b.next() % 3;
  uint32_t line = order == 1 ? 40 : 0, ch = order == 1 ? 40 : 0;
  size_t n = 1 + b.next() % 200 * (b.next() % 4 == 0 ? 50 : 1);
  for (size_t k = 0; k < n; ++k) {
    uint8_t x = b.next();
    if (order == 0) {
      line += x % 2;
      ch = x & 4 ? ch + x % 3 : x % 5;
    } else if (order == 1) {
      line -= line ? x % 2 : 0;
      ch = ch > 4 ? ch - x % 4 : 0;
    } else {
      line = x % 12;
      ch = (x >> 3) % 12;
    }
    std::string t = x & 8 ? pieces[x % 10] : "";
    lsp::Position end{line + (x % 7 == 0), uint32_t(x % 7 == 0 ? x % 5 : ch + x % 3)};
    changes.push_back(json::Object{{"range", json::Object{{"start", json::Object{{"line", line}, {"character", ch}}},
                                                          {"end", json::Object{{"line", end.line}, {"character", end.character}}}}},
                                   {"text", t}});
    // The reference: this change alone, applied to the text the others left.
    lsp::TextChange c;
    c.start = {line, ch};
    c.end = end;
    c.text = t;
    if (!lsp::applyChanges(expect, {c}, lsp::Encoding::Utf16))
      bug("one change did not apply");
  }
  double start = threadSeconds();
  s.send(json::Object{{"jsonrpc", "2.0"},
                      {"method", "textDocument/didChange"},
                      {"params", json::Object{{"textDocument", json::Object{{"uri", "file:///fuzz/e.fab"}, {"version", 2}}},
                                              {"contentChanges", std::move(changes)}}}});
  double sec = threadSeconds() - start;
  if (sec > 5)
    bug("a didChange of many ranged changes took more than 5 s of CPU");
  auto it = s.server.documents().find("file:///fuzz/e.fab");
  if (it == s.server.documents().end())
    bug("the document is not open");
  if (it->second->text != expect)
    bug("the server's text after a didChange is not the changes applied one by one",
        "--- server:\n" + it->second->text + "\n--- one by one:\n" + expect);
}

// ---- 0x09: a check reused across an edit ----
namespace {
struct Compiled {
  std::shared_ptr<Compilation> c;
  std::shared_ptr<BindingValues> values;
};

Compiled compileWithValues(const std::string &text, const Compiled *base, bool keep = false) {
  CompileOptions co = smallOptions();
  co.allowLibrary = false;
  // Kept: an edit of options reuses the elaboration (decision 0622). Either way one of
  // settings no pass reads reuses the checked IR (0623), whose output rules run here.
  co.keepElaborated = keep ? CompileOptions::Keep::Yes : CompileOptions::Keep::No;
  co.outputs = {"summary", "bom", "cabling", "energy"};
  Compiled out{nullptr, std::make_shared<BindingValues>()};
  co.values = out.values.get();
  if (base) {
    co.reuse = Compilation::reuseBase(base->c);
    co.reuseValues = base->values.get();
  }
  out.c = std::make_shared<Compilation>(co);
  out.c->diags().setOutput(devNull());
  out.c->run(CompileInput::source("/fuzz/u.fab", text));
  return out;
}

// Everything a client sees of a compilation: diagnostics (places, notes, fix-its), the
// values a hover shows (by statement place), and the IR when there are no errors.
std::string observed(Compiled &x) {
  std::string out;
  for (const Diagnostic &d : x.c->diags().all()) {
    out += std::to_string(int(d.code)) + " " + std::to_string(d.range.begin.offset) + "+" +
           std::to_string(d.range.length) + " " + d.message + "\n";
    for (const DiagNote &n : d.notes)
      out += "  " + std::to_string(n.range.begin.file) + ":" + std::to_string(n.range.begin.offset) + " " +
             n.message + "\n";
    for (const FixIt &f : d.fixits)
      out += "  fix " + std::to_string(f.range.begin.offset) + " " + f.replacement + "\n";
  }
  std::map<std::pair<uint32_t, uint32_t>, std::string> values;
  for (const auto &kv : x.values->values)
    values[{kv.first->range.begin.file, kv.first->range.begin.offset}] =
        kv.second.text + " " + kv.second.type + " " + std::to_string(kv.second.times);
  for (const auto &kv : values)
    out += "value " + std::to_string(kv.first.second) + " " + kv.second + "\n";
  if (!x.c->diags().hasErrors())
    dumpIr(x.c->fabric(), [&](std::string_view t) { out += t; });
  return out;
}
} // namespace

void reuseOne(const uint8_t *data, size_t size) {
  Bytes b{data, size};
  std::string text;
  // Top-level lets, some read by the fabric, some not, around the rename design.
  for (int i = 0, n = b.next() % 4; i < n; ++i)
    text += "let u" + std::to_string(i) + " = " + std::to_string(b.next() % 5) + ";\n";
  text += renameDesign(b);
  // Links, settings and policies, whose digits the edits below may change: the reuses of
  // the elaboration and of the checked IR.
  const int settings = b.next();
  if (settings & 1) {
    static const char *const inFabric[] = {"  for i in 0..2 { link leaf[0].p[i] -- spine[0].p[i]; }\n",
                                           "  policy oversubscription { max = 3; }\n",
                                           "  policy power { max = 9 kW; }\n",
                                           "  policy spares { switch_percent = 5; cable_percent = 2; }\n",
                                           "  policy latency { max = 5 us; }\n",
                                           "  policy nvlink { max = 72; }\n",
                                           "  option cable_slack = 1 m;\n"};
    std::string add;
    for (const char *line : inFabric)
      if (b.next() % 2)
        add += line;
    text.insert(text.rfind('}'), add);
    if (settings & 2)
      text += "option pue = 1.3;\n";
    if (settings & 4)
      text += "option default_cable_length = 2 m;\n";
  }
  const bool keep = settings & 8;
  Compiled base = compileWithValues(text, nullptr, keep);
  // One to three edits: a line inserted at a line's start, a span deleted, a byte replaced.
  static const char *const lines[] = {"let q = 3;\n", "let z = u0 + 1;\n", "// ", "let ", "let w = 2 km + 5 W;\n",
                                      "/* ", " */", "\n", "let k = 1 / 0;\n", "let b = [1, 2];\n",
                                      "model X : switch { port p[2] { speed = 400 Gb/s; } }\n", "let a = x;\n",
                                      "template tt(n) { s[n] : SW; }\n", "fn h(v) = v + 1;\n", "let c = h(2);\n"};
  std::string edited = text;
  for (int e = 0, n = b.next() % 3 + 1; e < n && !edited.empty(); ++e) {
    size_t at = (size_t(b.next()) << 8 | b.next()) % edited.size();
    switch (b.next() % 3) {
    case 0:
      at = edited.rfind('\n', at);
      at = at == std::string::npos ? 0 : at + 1;
      edited.insert(at, lines[b.next() % (sizeof lines / sizeof *lines)]);
      break;
    case 1: edited.erase(at, b.next() % 24); break;
    default: edited[at] = "0123456789 ;=+-*/xkm\n"[b.next() % 21]; break;
    }
  }
  Compiled reused = compileWithValues(edited, &base, keep), fresh = compileWithValues(edited, nullptr);
  std::string a = observed(reused), f = observed(fresh);
  if (a != f)
    bug("a compilation reused across an edit differs from a fresh one",
        "--- before:\n" + text + "--- after:\n" + edited + "--- reused:\n" + a + "--- fresh:\n" + f);
}

// ---- 0x0a: loop nests of links, compiled or run as statements ----
namespace {
// An integer expression over the loop variables visible (v0..v<vars-1>), g and literals,
// with the operators a compiled index takes and some it does not (min, a comparison).
std::string nestExpr(Bytes &b, int vars, int depth) {
  const uint8_t c = b.next();
  if (depth > 3 || c % 8 < 3) {
    switch (c % 4) {
    case 0: return vars ? "v" + std::to_string(b.next() % vars) : "g";
    case 1: return std::to_string(int(b.next() % 12) - 2);
    case 2: return "g";
    default: return vars ? "v" + std::to_string(vars - 1) : "3";
    }
  }
  static const char *const ops[] = {" + ", " - ", " * ", " / ", " % "};
  std::string l = nestExpr(b, vars, depth + 1), r = nestExpr(b, vars, depth + 1);
  switch (c % 8) {
  case 3: case 4: return "(" + l + ops[b.next() % 5] + r + ")";
  case 5: return std::string(b.next() % 2 ? "floor(" : b.next() % 2 ? "ceil(" : "round(") + l + " / " + r + ")";
  case 6: return "-" + l;
  default: return b.next() % 4 ? "floor(" + l + ")" : "min(" + l + ", " + r + ")";
  }
}

std::string nestPath(Bytes &b, int vars) {
  switch (b.next() % 8) {
  case 0: return "s";
  case 1: return "a[" + nestExpr(b, vars, 0) + "]";
  case 2: return "s.p[" + nestExpr(b, vars, 0) + "]";
  case 3: return "t[" + nestExpr(b, vars, 0) + "].x[" + nestExpr(b, vars, 0) + "].p[" + nestExpr(b, vars, 0) + "]";
  case 4: return "a[" + nestExpr(b, vars, 0) + "].q[0]";
  case 5: return "t[" + nestExpr(b, vars, 0) + "]";
  case 6: return "zz[" + nestExpr(b, vars, 0) + "].p[0]";
  default: return "b[" + nestExpr(b, vars, 0) + "].p[" + nestExpr(b, vars, 0) + "]";
  }
}
} // namespace

void linkNestOne(const uint8_t *data, size_t size) {
  Bytes b{data, size};
  std::string text = "model SW : switch { power = 500 W; latency = 100 ns; port p[12] { speed = 400 Gb/s; } }\n"
                     "model SL : switch { power = 300 W; latency = 100 ns; port p[4] { speed = 100 Gb/s; } }\n"
                     "template pair(n) { x[n] : SW; }\n"
                     "let g = " + std::to_string(b.next() % 6) + ";\n";
  std::string nest;
  const int levels = b.next() % 3 + 1;
  for (int l = 0; l < levels; ++l)
    nest += "for v" + std::to_string(l) + " in " + nestExpr(b, l, 2) + " .. " + nestExpr(b, l, 2) + " { ";
  // One or two links, with properties the nest takes (literals, names it does not bind)
  // and ones it does not (a loop variable's value).
  static const char *const props[] = {"", "", " { length = 3 m; }", " { count = g; }", " { count = 2; }",
                                      " { optic = SW; }", " { media = \"AOC\"; length = 2 m; }", " { colour = 1; }",
                                      " { count = v0; }", " { length = 0 m; }", " { pattern = \"pairwise\"; }"};
  for (int k = 0, links = b.next() % 3 == 0 ? 2 : 1; k < links; ++k) {
    nest += "link " + nestPath(b, levels) + " -- " + nestPath(b, levels);
    const char *pr = props[b.next() % (sizeof props / sizeof *props)];
    nest += *pr ? std::string(pr) + " " : "; ";
  }
  nest += std::string(size_t(levels), '}');
  const bool inTemplate = b.next() % 2;
  if (inTemplate)
    text += "template tn(g) { a[4] : SW; b[3] : SL; s : SW; t[2] : pair(3); " + nest + " }\n"
            "fabric f { i[3] : tn(" + std::to_string(b.next() % 4) + "); }\n";
  else
    text += "fabric f { a[4] : SW; b[3] : SL; s : SW; t[2] : pair(3); " + nest + " }\n";
  std::string out[2];
  for (int on = 0; on < 2; ++on) {
    CompileOptions co = smallOptions();
    co.allowLibrary = false;
    co.linkNests = on;
    co.limits.maxSteps = 20000;
    Compiled x{std::make_shared<Compilation>(co), std::make_shared<BindingValues>()};
    x.c->diags().setOutput(devNull());
    x.c->run(CompileInput::source("/fuzz/n.fab", text));
    out[on] = observed(x);
    const ir::Fabric &F = x.c->fabric();
    for (size_t k = 0; k < F.numLinks(); ++k)
      out[on] += std::to_string(F.linkA[k]) + "-" + std::to_string(F.linkB[k]) + "\n";
  }
  if (out[0] != out[1])
    bug("a link nest compiled differs from its statements",
        text + "--- statements:\n" + out[0] + "--- compiled:\n" + out[1]);
}

} // namespace fabc_fuzz
