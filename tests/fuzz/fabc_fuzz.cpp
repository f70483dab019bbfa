// libFuzzer target: one input is the text of a .fab file, compiled the way `fabc check`
// compiles it (parse, imports from the stdlib, elaboration with small limits, every pass)
// and, when it parses, formatted the way `fabc fmt` formats it. What counts as a bug:
//   - a crash, a sanitizer report (ASan, UBSan), an uncaught exception, a hang or
//     unbounded memory (libFuzzer's -timeout and -rss_limit_mb);
//   - an error count without a diagnostic, or a diagnostic with a location outside its
//     file;
//   - fmt failing its own self-check (FAB-E0160) on a file that parses, not being
//     idempotent (formatting the output again changes it), or taking longer than its
//     per-input budget (linear in the input: fmt runs in pre-commit);
//   - the two parsers disagreeing: the hand-written one of the compile path must build the
//     same AST (dumpAST) as the ANTLR parser generated from grammar/Fabric.g4 where that
//     one accepts the file, and reject the file where it reports an error;
//   - in semantic mode, a design that compiles clean with a figure that is not finite
//     and physical (a negative or infinite length, power, latency or energy).
// An input is one of these kinds, by its first byte:
//   0x01  semantic mode: the rest picks (slot, value) pairs in tests/fuzz/semantic.json's
//         design, valid designs with boundary values in every property, pool and option;
//   0x02  nesting mode: the rest drives a generator of deep and long structures (else-if
//         chains, nested blocks, brace lists, parentheses) for the parser and fmt;
//   0x03  LSP session mode, raw: after an initialize and a didOpen of a small design,
//         the rest is the byte stream a client sends `fabc lsp` (framing included);
//   0x04  LSP session mode, framed: the same, the rest being message bodies one a line
//         (framed here, so that the fuzzer spends its time on JSON-RPC, not on headers);
//         every answer must be a framed JSON object, and the server must never crash;
//   0x05  value growth: fns and comprehensions that double lists and strings, with the
//         time and the string memory asserted (LangModes.cpp);
//   0x06  LSP rename: every rename the server accepts, applied as a client applies it,
//         must elaborate to the same IR dump and diagnostics;
//   0x07  LSP edits: a didChange of up to 10,000 ranged changes must leave the text that
//         applying them one by one leaves, in bounded time;
//   0x08  discovery mode: the rest is a discovery file (ibnetdiscover, lldpctl JSON,
//         SONiC's table) read as `fabc import` reads it, with an amplifier for nesting
//         and size past -max_len: bytes 1-2 are a count R, and the text A\0B\0C is
//         A + R x B + C (at most 8 MiB). When it reads clean, fabc import's design must
//         compile (the importer compiles its output: FAB-E0191 is a finding), so the
//         readers' bounds and import's round trip are both fuzzed;
//   0x09  reuse across an edit: one to three edits of a generated design (lines inserted,
//         spans deleted, bytes replaced); compiling the edited text reusing the check
//         before the edit must give what compiling it afresh gives (LangModes.cpp);
//   else  the text of a .fab file.
// Build: -DFABC_FUZZ=ON with clang-14 (CMakePresets.json 'fuzz'); run: scripts/fuzz.sh.
#include "diag/DiagCodes.h"
#include "Compilation.h"
#include "ast/Format.h"
#include "tools/lsp/Server.h"
#include "ast/Parser.h"
#include "diag/Diag.h"

#include "discovery/Observed.h"
#include "import/Import.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "checks/OutputChecks.h"
#include "tests/fuzz/LangModes.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>

#include <time.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

FILE *devNull() {
  static FILE *f = std::fopen("/dev/null", "w");
  return f;
}

using fabc_fuzz::bug;

// Small limits: an input explores the compiler, it does not build a large fabric.
constexpr uint64_t kMaxFile = 1 << 20;

void checkLocations(const fabc::SourceManager &sm, const fabc::DiagEngine &diags) {
  auto check = [&](fabc::SourceRange r) {
    if (!r.begin.valid())
      return;
    if (r.begin.file >= sm.size() || r.begin.offset > sm.text(r.begin.file).size())
      bug("diagnostic location outside its file");
    (void)sm.lineCol(r.begin);
    (void)sm.lineText(r.begin);
  };
  for (const fabc::Diagnostic &d : diags.all()) {
    check(d.range);
    for (const fabc::DiagNote &n : d.notes)
      check(n.range);
  }
}

// fmt's budget for one input: generous (the fuzzer runs under ASan), but linear in its
// size, so that a superlinear formatter (2^n in an else-if chain once) is a finding
// long before libFuzzer's -timeout.
void formatTimed(uint32_t id, fabc::SourceManager &sm, fabc::DiagEngine &diags, std::string &out,
                 const fabc::FormatOptions &fo, bool &ok) {
  double start = fabc_fuzz::threadSeconds();
  ok = fabc::formatSource(id, sm, diags, out, fo);
  double s = fabc_fuzz::threadSeconds() - start;
  double budget = 5.0 + 200e-6 * double(sm.text(id).size());
  if (s > budget)
    bug("fmt took longer than its budget", std::to_string(s) + " s for " + std::to_string(sm.text(id).size()) +
                                               " bytes (budget " + std::to_string(budget) + " s)");
}

// The differential test of the parsers (as `fabc parse-diff`): ANTLR's is the reference.
void parsersAgree(const std::string &text) {
  using namespace fabc;
  SourceManager sm;
  DiagEngine diags(sm);
  diags.setOutput(devNull());
  uint32_t id = sm.add("fuzz.fab", text);
  ParseLimits limits;
  limits.maxTokens = kMaxFile / 16;
  ParserComparison c = compareParsers(id, sm, diags, limits);
  if (c.result == ParserComparison::HandRejects)
    bug("the hand-written parser rejects a file the grammar accepts", text);
  if (c.result == ParserComparison::HandAccepts)
    bug("the hand-written parser accepts a file the grammar rejects", text);
  if (c.result == ParserComparison::RecoveryBroken)
    bug(("the hand-written parser's recovery from a syntax error: " + c.antlrError).c_str(),
        "--- antlr:\n" + c.antlrDump + "--- hand:\n" + c.handDump);
  if (c.result == ParserComparison::AstsDiffer)
    bug("the two parsers build different ASTs", "--- antlr:\n" + c.antlrDump + "\n--- hand:\n" + c.handDump);
}

void compileOne(const std::string &text) {
  using namespace fabc;
  parsersAgree(text);
  CompileOptions co;
  co.standardSearchPath = false;
  co.includes = {FABC_SOURCE_STDLIB};
  co.maxFileSize = kMaxFile;
  co.limits.maxDevices = 2000;
  co.limits.maxLinks = 20000;
  co.limits.maxSteps = 200000;
  co.limits.maxDepth = 16;
  co.allowLibrary = true; // like fabc check: a file without a fabric block is a library
  Compilation c(co);
  const SourceManager &sm = c.sources();
  DiagEngine &diags = c.diags();
  // The printers run too (carets, JSON and SARIF escaping), into /dev/null.
  DiagFormat format = DiagFormat(text.size() % 3);
  DiagReport report;
  diags.setFormat(format);
  diags.setOutput(devNull());
  if (format != DiagFormat::Text)
    diags.setReport(&report);
  diags.setErrorLimit(20);
  bool ok = c.run(CompileInput::source("fuzz.fab", text));
  if (!ok && !diags.hasErrors())
    bug("a stage failed without reporting an error");
  if (diags.hasErrors() && diags.all().empty())
    bug("errors counted but none kept");
  checkLocations(sm, diags);
  diags.finish();
  if (format != DiagFormat::Text)
    report.print(devNull(), format);

  // fmt: only for files that parse (fmt reports syntax errors itself, that is no bug).
  if (!c.parsed())
    return;
  SourceManager fsm;
  DiagEngine fdiags(fsm);
  fdiags.setOutput(devNull());
  uint32_t id = fsm.add("fuzz.fab", text);
  FormatOptions fo;
  fo.parse.maxTokens = kMaxFile / 16;
  std::string once;
  bool formatted;
  formatTimed(id, fsm, fdiags, once, fo, formatted);
  if (!formatted) {
    for (const Diagnostic &d : fdiags.all())
      if (d.code == DiagCode::E0160)
        bug("fmt failed its self-check on a file that parses", d.message);
    return; // a limit of the formatter (reported), not a bug
  }
  uint32_t id2 = fsm.add("fuzz-formatted.fab", once);
  std::string twice;
  formatTimed(id2, fsm, fdiags, twice, fo, formatted);
  if (!formatted)
    bug("fmt's output does not format again", once);
  if (once != twice)
    bug("fmt is not idempotent", "--- once:\n" + once + "\n--- twice:\n" + twice);
  fdiags.finish();
}

// ---- semantic mode ----
struct SemanticTable {
  std::string tmpl;
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> values;
  std::vector<std::string> defaults;
};

const SemanticTable &semanticTable() {
  static SemanticTable t = [] {
    SemanticTable r;
    auto buf = llvm::MemoryBuffer::getFile(FABC_FUZZ_SEMANTIC);
    if (!buf)
      bug("cannot read " FABC_FUZZ_SEMANTIC);
    llvm::Expected<llvm::json::Value> v = llvm::json::parse((*buf)->getBuffer());
    if (!v)
      bug("semantic.json does not parse");
    const llvm::json::Object *o = v->getAsObject();
    r.tmpl = o->getString("template")->str();
    const llvm::json::Object *slots = o->getObject("slots"), *defs = o->getObject("defaults");
    for (const auto &kv : *slots) {
      r.names.push_back(kv.first.str());
      std::vector<std::string> vals;
      for (const llvm::json::Value &x : *kv.second.getAsArray())
        vals.push_back(x.getAsString()->str());
      r.values.push_back(std::move(vals));
      r.defaults.push_back(defs->getString(kv.first)->str());
    }
    return r;
  }();
  return t;
}

std::string semanticDesign(const uint8_t *data, size_t size) {
  const SemanticTable &t = semanticTable();
  std::vector<std::string> chosen = t.defaults;
  for (size_t i = 0; i + 1 < size; i += 2) {
    size_t slot = data[i] % t.names.size();
    chosen[slot] = t.values[slot][data[i + 1] % t.values[slot].size()];
  }
  std::string out;
  for (size_t i = 0; i < t.tmpl.size();) {
    size_t at = t.tmpl.find('@', i);
    if (at == std::string::npos) {
      out.append(t.tmpl, i, std::string::npos);
      break;
    }
    size_t end = t.tmpl.find('@', at + 1);
    out.append(t.tmpl, i, at - i);
    std::string name = t.tmpl.substr(at + 1, end - at - 1);
    for (size_t k = 0; k < t.names.size(); ++k)
      if (t.names[k] == name)
        out += chosen[k];
    i = end + 1;
  }
  return out;
}

// A design that compiles clean is finite and physical in every figure the outputs print.
void checkFigures(fabc::Compilation &c) {
  using namespace fabc;
  const ir::Fabric &F = c.fabric();
  auto physical = [](double v) { return std::isfinite(v) && v >= 0; };
  for (size_t l = 0; l < F.numLinks(); ++l)
    if (!physical(F.linkLength[l]))
      bug("a link length that is not finite and >= 0", std::to_string(F.linkLength[l]));
  for (size_t d = 0; d < F.numDevices(); ++d)
    if (!physical(F.devPower[d]) || !physical(F.devOpticPower[d]))
      bug("a device power that is not finite and >= 0");
  const ir::Metrics &M = F.metrics;
  if (!physical(M.worstLatency) || !physical(M.worstFibre) || !physical(M.bisection))
    bug("a path or bisection figure that is not finite and >= 0");
  const EnergyModel &E = c.analyses().energy();
  if (!physical(E.it) || !physical(E.facility()) || !physical(E.annualMWh()))
    bug("an energy figure that is not finite and >= 0", std::to_string(E.it));
  for (const char *out : {"report", "dot", "infiniband", "slurm", "sonic", "frr", "nvue"})
    (void)c.checkOutput(out); // the output rules run on boundary values too
}

void semanticOne(const uint8_t *data, size_t size) {
  using namespace fabc;
  std::string text = semanticDesign(data, size);
  CompileOptions co;
  co.standardSearchPath = false;
  co.checkOutputsInRun = false;
  Compilation c(co);
  c.diags().setOutput(devNull());
  bool ok = c.run(CompileInput::source("semantic.fab", text));
  if (!ok && !c.diags().hasErrors())
    bug("a stage failed without reporting an error", text);
  checkLocations(c.sources(), c.diags());
  if (ok)
    checkFigures(c);
}

// ---- discovery mode ----

// The catalog fabc import recognizes models from (tools/fabc/Import.cpp), compiled once.
const fabc::import::Catalog &importCatalog() {
  using namespace fabc;
  static Compilation *cat = nullptr;
  static import::Catalog catalog;
  if (cat)
    return catalog;
  CompileOptions co;
  co.standardSearchPath = false;
  co.includes = {FABC_SOURCE_STDLIB};
  co.allowLibrary = true;
  cat = new Compilation(co);
  cat->diags().setOutput(devNull());
  static const char *const files[] = {"nvidia/switches.fab", "nvidia/systems.fab"};
  if (!cat->run(CompileInput::source("<catalog>", "import \"nvidia/switches.fab\";\nimport \"nvidia/systems.fab\";\n")))
    bug("the stdlib catalog does not compile");
  catalog.F = &cat->fabric();
  for (const ir::Model &m : cat->fabric().models) {
    std::string path = m.loc.begin.valid() ? std::string(cat->sources().path(m.loc.begin.file)) : "";
    std::string file;
    for (const char *f : files)
      if (path.size() >= std::strlen(f) && path.compare(path.size() - std::strlen(f), std::string::npos, f) == 0)
        file = f;
    catalog.fileOf.push_back(file);
  }
  return catalog;
}

void discoveryOne(const uint8_t *data, size_t size) {
  using namespace fabc;
  if (size < 2)
    return;
  size_t reps = size_t(data[0]) << 8 | data[1];
  std::string_view in(reinterpret_cast<const char *>(data + 2), size - 2);
  size_t a = in.find('\0'), b = a == std::string_view::npos ? a : in.find('\0', a + 1);
  std::string text;
  if (b == std::string_view::npos) {
    text = in;
  } else {
    std::string_view A = in.substr(0, a), B = in.substr(a + 1, b - a - 1), C = in.substr(b + 1);
    constexpr size_t Max = 8 << 20;
    if (!B.empty())
      reps = std::min(reps, (Max - std::min(Max, A.size() + C.size())) / B.size());
    text.reserve(A.size() + reps * B.size() + C.size());
    text += A;
    for (size_t i = 0; i < reps; ++i)
      text += B;
    text += C;
  }
  // A regular file by a path, as the reader takes it (format detection, the size limit,
  // carets read back from the file).
  int fd = ::memfd_create("fuzz.disc", MFD_CLOEXEC);
  if (fd < 0 || ::write(fd, text.data(), text.size()) != ssize_t(text.size())) {
    if (fd >= 0)
      ::close(fd);
    return;
  }
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  SourceManager sm;
  DiagEngine diags(sm);
  diags.setOutput(devNull());
  diags.setErrorLimit(20);
  discovery::Observed obs;
  discovery::ReadLimits limits;
  limits.maxPorts = 1 << 16;
  limits.maxNodes = 1 << 15;
  bool ok = discovery::readDiscovery(path, "", limits, obs, sm, diags);
  if (!ok && !diags.hasErrors())
    bug("a discovery reader failed without reporting an error");
  checkLocations(sm, diags);
  if (ok && !diags.hasErrors() && !obs.nodes.empty()) {
    CompileOptions co;
    co.standardSearchPath = false;
    co.includes = {FABC_SOURCE_STDLIB};
    import::Options io;
    io.inputs = {path};
    io.check = &co;
    import::Summary sum;
    std::string design;
    bool imported = import::importFabric(obs, importCatalog(), io, sm, diags, design, sum);
    for (const Diagnostic &d : diags.all())
      if (d.code == DiagCode::E0191)
        bug("fabc import wrote a design that does not compile", d.message + "\n--- discovery:\n" + text.substr(0, 4000));
    if (imported && design.empty())
      bug("fabc import succeeded with no design");
    checkLocations(sm, diags);
  }
  diags.finish();
  ::close(fd);
}

// ---- nesting mode ----
// Each byte adds one piece; the structure stays balanced and bounded, so the input is
// valid or nearly so, and deep or long where the bytes say.
std::string nestingDesign(const uint8_t *data, size_t size) {
  std::string out = "fabric f {\n";
  std::vector<char> open; // '{' block, '(' parenthesis inside a let
  for (size_t i = 0; i < size && out.size() < (1u << 16); ++i) {
    switch (data[i] % 8) {
    case 0: out += "if true {"; open.push_back('{'); break;
    case 1: if (!open.empty() && open.back() == '{') { out += "} else if x > 1 {"; } break;
    case 2: if (!open.empty() && open.back() == '{') { out += "} else {"; } break;
    case 3: out += " if true {} else if false {}"; break;
    case 4: out += "let x = ("; open.push_back('('); break;
    case 5: out += "assert true;"; break;
    case 6: out += std::string(data[i] % 3 + 1, '\n'); break;
    case 7:
      if (!open.empty()) {
        out += open.back() == '(' ? "1);" : "}";
        open.pop_back();
      }
      break;
    }
  }
  while (!open.empty()) {
    out += open.back() == '(' ? "1);" : "}";
    open.pop_back();
  }
  return out + "\n}\n";
}

// ---- LSP session mode ----
// The server's answers: each a framed JSON object (a bug otherwise).
void checkAnswer(const std::string &framed) {
  size_t end = framed.find("\r\n\r\n");
  if (framed.rfind("Content-Length: ", 0) != 0 || end == std::string::npos)
    bug("the language server sent a message without its header", framed.substr(0, 200));
  size_t len = std::strtoull(framed.c_str() + 16, nullptr, 10);
  if (framed.size() != end + 4 + len)
    bug("the language server's Content-Length is not its body's length", framed.substr(0, 200));
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(llvm::StringRef(framed).substr(end + 4));
  if (!v) {
    llvm::consumeError(v.takeError());
    bug("the language server sent a body that is not JSON", framed.substr(0, 400));
  }
  if (!v->getAsObject())
    bug("the language server sent a JSON value that is not an object", framed.substr(0, 400));
}

void lspSession(const uint8_t *data, size_t size, bool framed) {
  using namespace fabc;
  lsp::ServerOptions so;
  so.compile.standardSearchPath = false;
  so.compile.includes = {FABC_SOURCE_STDLIB};
  so.compile.maxFileSize = kMaxFile;
  so.compile.limits.maxDevices = 2000;
  so.compile.limits.maxLinks = 20000;
  so.compile.limits.maxSteps = 200000;
  so.compile.limits.maxDepth = 16;
  so.debounceMs = 0;
  so.maxWorkspaceFiles = 0; // no workspace folder is read
  lsp::Server server(so, checkAnswer);
  lsp::MessageReader reader(2 * kMaxFile);
  auto feed = [&](std::string_view bytes) {
    reader.feed(bytes.data(), bytes.size());
    std::string body, err;
    for (;;) {
      lsp::MessageReader::Result r = reader.next(body, err);
      if (r == lsp::MessageReader::NeedMore)
        break;
      if (r == lsp::MessageReader::BadFraming)
        server.framingError(err);
      else
        server.handleMessage(body);
      if (server.exited())
        return;
      server.tick();
    }
  };
  feed(lsp::frame(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}})"));
  feed(lsp::frame(R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///fuzz/a.fab","languageId":"fabric","version":1,"text":"import "nvidia/switches.fab";
model S : system { port n[2] { speed = 400 Gb/s; } }
template t(k) { s[k] : S; l : QM9700; link s[0].n[0] -- l.p[0]; }
fabric f {
  let x = 2;
  u[x] : t(2);
}
"}}})"));
  std::string_view rest(reinterpret_cast<const char *>(data), size);
  if (!framed) {
    feed(rest);
  } else {
    while (!rest.empty() && !server.exited()) {
      size_t nl = rest.find('\n');
      feed(lsp::frame(rest.substr(0, nl)));
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
  }
  if (!server.exited())
    server.flush();
}

struct Job {
  const uint8_t *data;
  size_t size;
};

void *threadMain(void *p) {
  auto *j = static_cast<Job *>(p);
  if (j->size > 0 && j->data[0] == 1)
    semanticOne(j->data + 1, j->size - 1);
  else if (j->size > 0 && j->data[0] == 2)
    compileOne(nestingDesign(j->data + 1, j->size - 1));
  else if (j->size > 0 && (j->data[0] == 3 || j->data[0] == 4))
    lspSession(j->data + 1, j->size - 1, j->data[0] == 4);
  else if (j->size > 0 && j->data[0] == 5)
    fabc_fuzz::valueGrowthOne(j->data + 1, j->size - 1);
  else if (j->size > 0 && j->data[0] == 6)
    fabc_fuzz::renameOne(j->data + 1, j->size - 1);
  else if (j->size > 0 && j->data[0] == 7)
    fabc_fuzz::editsOne(j->data + 1, j->size - 1);
  else if (j->size > 0 && j->data[0] == 8)
    discoveryOne(j->data + 1, j->size - 1);
  else if (j->size > 0 && j->data[0] == 9)
    fabc_fuzz::reuseOne(j->data + 1, j->size - 1);
  else if (j->size > 0 && j->data[0] == 10)
    fabc_fuzz::linkNestOne(j->data + 1, j->size - 1);
  else
    compileOne(std::string(reinterpret_cast<const char *>(j->data), j->size));
  return nullptr;
}

} // namespace

namespace fabc_fuzz {
void bug(const char *what, const std::string &detail) {
  std::fprintf(stderr, "fabc_fuzz: %s\n%s\n", what, detail.c_str());
  std::fflush(stderr);
  std::abort();
}

double threadSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}
} // namespace fabc_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxFile)
    return -1; // not added to the corpus
  // As in fabc (driverMain): the pipeline runs on a thread with a 256 MB stack, so that
  // nesting up to the parser's limits never meets the main thread's 8 MB.
  Job job{data, size};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(256) << 20);
  pthread_t t;
  if (pthread_create(&t, &attr, threadMain, &job) != 0)
    threadMain(&job);
  else
    pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  return 0;
}
