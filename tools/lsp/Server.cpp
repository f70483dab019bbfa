// The server's life cycle, the open documents, compiling and publishing diagnostics, and
// the stdio loop. The requests about a document's contents are in Features.cpp.
// Over 600 lines: the document's state machine (submit, install, the trivia check, stale
// answers) reads and writes the same Document fields from one place; split, each half
// would need the other's invariants (docs/lsp.md, "Threading").
#include "ast/HandLexer.h"
#include "diag/DiagCodes.h"
#include "tools/lsp/Server.h"

#include "tools/lsp/Features.h"
#include "tools/lsp/Worker.h"

#include "support/JsonRead.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace fabc::lsp {

namespace json = llvm::json;

std::string safeText(std::string s) { return json::isUTF8(s) ? s : json::fixUTF8(s); }

Server::Server(ServerOptions opts, Sink send) : opts_(std::move(opts)), send_(std::move(send)) {}
Server::~Server() {
  worker_.reset(); // it reads docs_ (the overlay): stopped first
}

void Server::send(const json::Value &v) {
  std::string body;
  llvm::raw_string_ostream os(body);
  os << v;
  os.flush();
  std::lock_guard<std::mutex> lk(sendMu_);
  send_(frame(body));
}

void Server::reply(const json::Value &id, json::Value result) {
  send(json::Object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::replyRaw(const json::Value &id, const std::string &resultJson) {
  // The members in the order llvm::json prints them (sorted), as reply() writes them.
  std::string body;
  llvm::raw_string_ostream os(body);
  os << "{\"id\":" << id << ",\"jsonrpc\":\"2.0\",\"result\":" << resultJson << "}";
  os.flush();
  std::lock_guard<std::mutex> lk(sendMu_);
  send_(frame(body));
}

void Server::replyError(const json::Value &id, int code, const std::string &message) {
  send(json::Object{{"jsonrpc", "2.0"},
                    {"id", id},
                    {"error", json::Object{{"code", code}, {"message", safeText(message)}}}});
}

void Server::notify(const std::string &method, json::Value params) {
  send(json::Object{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

void Server::log(int type, const std::string &message) {
  notify("window/logMessage", json::Object{{"type", type}, {"message", safeText(message)}});
}

void Server::framingError(const std::string &why) { replyError(nullptr, ParseError, "bad message framing: " + why); }

void Server::handleMessage(std::string_view body) {
  // support/JsonRead: nesting and the DOM's memory bounded before llvm::json parses.
  JsonError err;
  std::optional<json::Value> v = parseJson(llvm::StringRef(body.data(), body.size()), JsonLimits{}, err);
  if (!v) {
    replyError(nullptr, ParseError, fmt::format("the message is not JSON: byte {}: {}", err.offset, err.message));
    return;
  }
  // A batch (an array) is JSON-RPC 2.0 but not LSP: invalid here.
  const json::Object *msg = v->getAsObject();
  if (!msg) {
    replyError(nullptr, InvalidRequest, "a message is a JSON object");
    return;
  }
  dispatch(*msg);
}

void Server::dispatch(const json::Object &msg) {
  const json::Value *id = msg.get("id");
  auto method = msg.getString("method");
  bool validId = id && (id->kind() == json::Value::Number || id->kind() == json::Value::String);
  if (!method) {
    // A response to a request of ours (none is sent that needs one), or garbage.
    if (!msg.get("result") && !msg.get("error"))
      replyError(validId ? *id : json::Value(nullptr), InvalidRequest, "no 'method' in the message");
    return;
  }
  if (id && !validId) {
    replyError(nullptr, InvalidRequest, "'id' is a number or a string");
    return;
  }
  const json::Value *pv = msg.get("params");
  const json::Object *params = pv ? pv->getAsObject() : nullptr;
  if (pv && !params && pv->kind() != json::Value::Null) {
    if (id)
      replyError(*id, InvalidParams, "'params' is an object here");
    return;
  }
  if (id)
    request(method->str(), *id, params);
  else
    notification(method->str(), params);
}

void Server::request(const std::string &method, const json::Value &id, const json::Object *params) {
  if (method == "initialize") {
    if (initialized_)
      return replyError(id, InvalidRequest, "initialize was already received");
    initialized_ = true;
    return reply(id, initialize(params));
  }
  if (!initialized_)
    return replyError(id, ServerNotInitialized, "the first request must be 'initialize'");
  if (shutdown_)
    return replyError(id, InvalidRequest, "the server is shut down: only 'exit' is accepted");
  if (method == "shutdown") {
    shutdown_ = true;
    return reply(id, nullptr);
  }
  try {
    json::Value result = nullptr;
    rawResult.clear();
    // What a stale answer set ends with the request, however it ends.
    struct EndStale {
      Server &s;
      ~EndStale() {
        s.staleDenied_ = false;
        for (auto &kv : s.docs_)
          kv.second->stale.on = false;
      }
    } endStale{*this};
    bool handled;
    try {
      handled = Features::handle(*this, method, params, result);
    } catch (const StaleMiss &) {
      // The older parse's answer named a place the edit changed: the new text's parse.
      staleDenied_ = true;
      result = nullptr;
      rawResult.clear();
      handled = Features::handle(*this, method, params, result);
    }
    if (handled) {
      if (!rawResult.empty()) {
        std::string raw = std::move(rawResult);
        rawResult.clear();
        return replyRaw(id, raw);
      }
      return reply(id, std::move(result));
    }
  } catch (const RequestError &e) {
    return replyError(id, e.code, e.message);
  } catch (const std::bad_alloc &) {
    return replyError(id, RequestFailed, "out of memory while answering");
  }
  replyError(id, MethodNotFound, "unknown method '" + method + "'");
}

json::Value Server::initialize(const json::Object *params) {
  // Position encoding (3.17): UTF-16 unless the client offers UTF-8 (preferred: no
  // conversion) or UTF-32.
  if (params)
    if (const json::Object *caps = params->getObject("capabilities"))
      if (const json::Object *general = caps->getObject("general"))
        if (const json::Array *encs = general->getArray("positionEncodings")) {
          for (const json::Value &e : *encs)
            if (e.getAsString() && *e.getAsString() == "utf-8")
              enc_ = Encoding::Utf8;
          if (enc_ == Encoding::Utf16)
            for (const json::Value &e : *encs)
              if (e.getAsString() && *e.getAsString() == "utf-32")
                enc_ = Encoding::Utf32;
        }
  if (params) {
    if (const json::Array *folders = params->getArray("workspaceFolders"))
      for (const json::Value &f : *folders)
        if (const json::Object *o = f.getAsObject())
          if (auto uri = o->getString("uri"))
            if (std::string p = uriToPath(*uri); !p.empty())
              roots_.push_back(p);
    if (roots_.empty())
      if (auto uri = params->getString("rootUri"))
        if (std::string p = uriToPath(*uri); !p.empty())
          roots_.push_back(p);
    if (const json::Object *io = params->getObject("initializationOptions")) {
      if (auto d = io->getInteger("debounceMs"); d && *d >= 0 && *d <= 10000)
        opts_.debounceMs = unsigned(*d);
      if (auto d = io->getInteger("afterPauseMs"); d && *d >= 0 && *d <= 10000)
        opts_.afterPauseMs = unsigned(*d);
      if (auto b = io->getInteger("staleAboveBytes"); b && *b >= 0)
        opts_.staleAboveBytes = size_t(*b);
      if (auto k = io->getBoolean("keepElaboration"))
        opts_.keepElaboration = *k;
      if (auto k = io->getBoolean("recheckPolicies"))
        opts_.compile.recheckPolicies = *k;
      if (const json::Array *inc = io->getArray("includes"))
        for (const json::Value &i : *inc)
          if (auto s = i.getAsString())
            opts_.compile.includes.push_back(s->str());
    }
  }
  json::Object caps{
      {"positionEncoding", encodingName(enc_)},
      {"textDocumentSync", json::Object{{"openClose", true}, {"change", 2}, {"save", json::Object{}}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"documentSymbolProvider", true},
      {"documentFormattingProvider", true},
      {"renameProvider", json::Object{{"prepareProvider", true}}},
      {"completionProvider", json::Object{{"triggerCharacters", json::Array{".", ":", "\"", "/", " "}}}},
      {"semanticTokensProvider", Features::semanticTokensLegend()},
      {"workspaceSymbolProvider", true},
      {"codeActionProvider", json::Object{{"codeActionKinds", json::Array{"quickfix"}}}},
      {"foldingRangeProvider", true},
  };
  return json::Object{{"capabilities", std::move(caps)},
                      {"serverInfo", json::Object{{"name", "fabc"}, {"version", FABC_VERSION}}}};
}

namespace {
std::string uriParam(const json::Object &p) {
  const json::Object *td = p.getObject("textDocument");
  auto uri = td ? td->getString("uri") : llvm::None;
  return uri ? uri->str() : std::string();
}
} // namespace

void Server::notification(const std::string &method, const json::Object *params) {
  if (method == "exit") {
    exited_ = true;
    return;
  }
  if (!initialized_ || shutdown_)
    return; // dropped, as the protocol says
  static const json::Object empty;
  const json::Object &p = params ? *params : empty;
  // The worker reads the open documents' texts (imports of one another): changed under
  // the lock.
  std::lock_guard<std::mutex> lk(docsMu_);
  bool text = method == "textDocument/didOpen" || method == "textDocument/didChange" ||
              method == "textDocument/didClose";
  if (method == "textDocument/didOpen")
    didOpen(p);
  else if (method == "textDocument/didChange")
    didChange(p);
  else if (method == "textDocument/didClose")
    didClose(p);
  if (text) {
    // The others may import this one: their next edit is compiled, comments or not.
    std::string uri = uriParam(p);
    for (auto &kv : docs_)
      if (kv.first != uri)
        kv.second->depsChanged = true;
  } else if (method == "workspace/didChangeWatchedFiles" || method == "textDocument/didSave") {
    // An imported file may have changed on disk: recompile what is open.
    for (auto &kv : docs_) {
      kv.second->depsChanged = true;
      kv.second->dirty = true;
      kv.second->due = Clock::now() + std::chrono::milliseconds(opts_.debounceMs);
      kv.second->firstPending = Clock::now();
    }
  }
  // initialized, $/cancelRequest, $/setTrace, unknown notifications: nothing to do.
}


void Server::didOpen(const json::Object &p) {
  const json::Object *td = p.getObject("textDocument");
  auto uri = td ? td->getString("uri") : llvm::None;
  auto text = td ? td->getString("text") : llvm::None;
  if (!uri || !text)
    return log(1, "didOpen without textDocument.uri and .text: ignored");
  auto doc = std::make_unique<Document>();
  doc->uri = uri->str();
  doc->path = uriToPath(*uri);
  if (doc->path.empty())
    doc->path = doc->uri; // untitled:..., a name for diagnostics; imports from -I and the stdlib only
  doc->realPath = realPathOf(doc->path);
  setText(*doc, text->str());
  doc->version = td->getInteger("version").getValueOr(0);
  doc->due = doc->firstPending = Clock::now(); // a file just opened is compiled at once
  docs_[doc->uri] = std::move(doc);
}

void Server::didChange(const json::Object &p) {
  std::string uri = uriParam(p);
  auto it = docs_.find(uri);
  if (it == docs_.end())
    return log(2, "didChange for '" + uri + "', which is not open: ignored");
  Document &d = *it->second;
  const json::Object *td = p.getObject("textDocument");
  auto version = td ? td->getInteger("version") : llvm::None;
  if (version && *version <= d.version) {
    // Out of order or repeated: applying it would corrupt the text.
    return log(2, "didChange for '" + uri + "' with version " + std::to_string(*version) +
                      ", not after the current version " + std::to_string(d.version) + ": ignored");
  }
  const json::Array *changes = p.getArray("contentChanges");
  if (!changes)
    return log(1, "didChange without contentChanges: ignored");
  if (!applyContentChanges(d, *changes))
    return;
  if (version)
    d.version = *version;
  const auto now = Clock::now();
  const auto quiet = std::chrono::milliseconds(opts_.debounceMs);
  // An edit after a pause (no edit for the quiet period) is compiled almost at once
  // (afterPauseMs, for messages already on their way); one within the quiet period of the
  // last restarts it, so a burst (a paste, key repeat, a storm of edits) compiles after
  // its last edit, as it did when every edit waited for the quiet period.
  const bool afterPause = now - d.lastEdit >= quiet;
  d.lastEdit = now;
  if (!d.dirty)
    d.firstPending = now;
  d.dirty = true;
  d.due = now + (afterPause ? std::min(quiet, std::chrono::milliseconds(opts_.afterPauseMs)) : quiet);
}

void Server::didClose(const json::Object &p) {
  auto it = docs_.find(uriParam(p));
  if (it == docs_.end())
    return;
  std::string uri = it->first;
  drop(it->second);
  docs_.erase(it);
  // Clear what the editor shows for it, after which its compile may not publish.
  std::lock_guard<std::mutex> lk(publishMu_);
  if (worker_)
    worker_->cancel(uri);
  notify("textDocument/publishDiagnostics", json::Object{{"uri", uri}, {"diagnostics", json::Array{}}});
}

std::string Server::realPathOf(const std::string &path) {
  auto it = realPaths_.find(path);
  if (it != realPaths_.end())
    return it->second;
  char buf[PATH_MAX];
  std::string r = ::realpath(path.c_str(), buf) ? std::string(buf) : path;
  if (realPaths_.size() > 100000)
    realPaths_.clear(); // bounded over a long session
  realPaths_[path] = r;
  return r;
}

std::vector<std::string> Server::searchPathOf(const Document &d) const {
  size_t slash = d.path.rfind('/');
  std::string dir = slash == std::string::npos ? std::string() : d.path.substr(0, slash);
  return searchPath(opts_.compile, CompileInput::source(d.path, {}, dir));
}

void Server::findMainFile(Document &w) {
  // The main file's id: the first source of the compilation (a text that did not even
  // tokenize has no AST, a text past --max-file-size was not added: added here, so that
  // positions always have a text to count in).
  SourceManager &sm = w.comp->sources();
  w.mainFile = UINT32_MAX;
  for (uint32_t f = 0; f < sm.size() && w.mainFile == UINT32_MAX; ++f)
    if (sm.path(f) == w.path)
      w.mainFile = f;
  if (w.mainFile == UINT32_MAX)
    w.mainFile = sm.add(w.path, w.text);
  if (w.oversize)
    reportOversize(w);
}

llvm::ArrayRef<uint32_t> Server::tokenMarks(const Document &d) {
  const ast::File *main = d.comp ? d.comp->program().main : nullptr;
  return main && main->fileId == d.mainFile ? llvm::ArrayRef<uint32_t>(main->tokenMarks) : llvm::ArrayRef<uint32_t>();
}

std::shared_ptr<Index> Server::indexOf(Compilation &c) {
  auto ix = std::make_shared<Index>();
  ix->build(c.program(), c.sources());
  return ix;
}

void Server::build(Document &w, const std::atomic<bool> *cancel, const std::function<void()> &parsed,
                   bool parseOnly, bool index, const std::function<void()> &elaborating) {
  w.lines.clear();
  w.values = std::make_shared<BindingValues>();
  w.index.reset();
  w.mainFile = UINT32_MAX;
  CompileOptions co = opts_.compile;
  co.allowLibrary = true; // as `fabc check`: a file without a fabric block is a library
  co.importsPastSyntaxErrors = true; // the recovered tree's names resolve through them
  co.values = w.values.get();
  co.keepElaborated = opts_.keepElaboration ? CompileOptions::Keep::AfterSettingsEdit : CompileOptions::Keep::No;
  if (!parseOnly) {
    co.reuse = w.checked.comp;
    co.reuseValues = w.checked.values.get();
  }
  co.cancel = cancel;
  co.parseOnly = parseOnly;
  co.overlay = [this](const std::string &real, std::string &text) {
    std::lock_guard<std::mutex> lk(docsMu_);
    for (auto &kv : docs_)
      if (kv.second->realPath == real && !kv.second->oversize) {
        text = kv.second->text;
        return true;
      }
    return false;
  };
  w.comp = std::make_shared<Compilation>(std::move(co));
  DiagEngine &diags = w.comp->diags();
  if (opts_.configureDiags)
    opts_.configureDiags(diags);
  diags.setFormat(DiagFormat::Json); // kept, not printed: finish() is never called
  diags.setReport(nullptr);
  size_t slash = w.path.rfind('/');
  std::string dir = slash == std::string::npos ? std::string() : w.path.substr(0, slash);
  // --time-stages: one line per compilation on stderr (stdout is the protocol's).
  Clock::time_point start = Clock::now(), last = start;
  std::string stages;
  const char *current = nullptr;
  bool reuseTried = false;
  auto ms = [](Clock::duration t) { return std::chrono::duration<double, std::milli>(t).count(); };
  auto stage = [&](const char *name) {
    Clock::time_point now = Clock::now();
    if (current && ms(now - last) >= 0.5)
      stages += fmt::format(" {} {:.1f},", current, ms(now - last));
    current = name;
    last = now;
    // Loading is done and clean: what the editor may show before elaboration (or
    // before the reuse of the last check, which publishes once, as a check does).
    bool reuse = name && std::strcmp(name, "reuse") == 0, elaborate = name && std::strcmp(name, "elaborate") == 0;
    if ((reuse || (elaborate && !reuseTried)) && parsed) {
      findMainFile(w);
      if (index)
        w.index = indexOf(*w.comp);
      parsed();
    }
    reuseTried |= reuse;
    if ((elaborate || (name && (std::strcmp(name, "reused elaboration") == 0 ||
                                 std::strcmp(name, "reused passes") == 0))) &&
        w.checked.comp) {
      // Compiled in full, or its elaboration or checked IR copied: the last check is not
      // needed for this text, and holding it while this one elaborates or runs the passes
      // would hold two IRs (a million GPUs: +170 MiB).
      w.checked = {};
      if (elaborating)
        elaborating();
    }
  };
  w.comp->onStage(stage);
  try {
    w.comp->run(CompileInput::source(w.path, roundedCopy(w.text), dir));
  } catch (const std::bad_alloc &) {
    // As the command line does: a message, not a diagnostic code; what was reported
    // before is still published.
    log(1, "out of memory compiling '" + w.path + "' (lower --max-file-size or the elaboration limits)");
  }
  if (opts_.timeStages)
    stage("index and publish");
  if (w.mainFile == UINT32_MAX)
    findMainFile(w);
  if (index && !w.index)
    w.index = indexOf(*w.comp);
  w.syntaxErrors = false;
  for (const Diagnostic &dg : w.comp->diags().all())
    w.syntaxErrors |= (dg.code == DiagCode::E0002 || dg.code == DiagCode::E0003 || dg.code == DiagCode::E0004) &&
                      dg.range.begin.file == w.mainFile;
  if (opts_.timeStages) {
    stage(nullptr);
    if (!stages.empty())
      stages.pop_back();
    fmt::print(stderr, "fabc lsp: {} version {}: {:.1f} ms (stages of 0.5 ms or more, in ms:{}){}\n", w.uri,
               w.version, ms(last - start), stages,
               w.comp->base()                ? "; the last full check reused (an edit of declarations nothing else reads)"
               : w.comp->physicalRerun()     ? "; the last checked IR reused, what reads the lengths run again (an edit of the lengths' options)"
               : w.comp->passesReused()      ? "; the last checked IR reused (an edit the passes do not see)"
               : w.comp->elaborationReused() ? "; the last elaboration reused (an edit of options and policies)"
                                             : "");
  }
}

void Server::compile(Document &d) {
  // The previous compilation is freed now, unless it is the last one that parsed and the
  // text may not parse any more (kept for completion): at most two per open document.
  Document::Parsed prev{std::move(d.comp), std::move(d.values), std::move(d.index), d.mainFile};
  bool prevParsed = prev.comp && !d.syntaxErrors && d.full;
  if (!prevParsed)
    prev = {};
  build(d, nullptr, nullptr);
  d.full = true;
  keepChecked(d);
  if (!d.syntaxErrors)
    d.lastParsed = {};
  else if (prevParsed)
    d.lastParsed = std::move(prev);
  d.dirty = false;
  if (d.open)
    publish(d);
}

bool Server::startWorker(std::function<void()> wake) {
  worker_ = std::make_unique<Worker>([this](Job &job, const std::function<void(Result)> &post) { runJob(job, post); },
                                     std::move(wake));
  if (!worker_->started()) {
    worker_.reset();
  } else {
    disposer_ = std::make_unique<Disposer>();
    if (opts_.onIdle)
      worker_->setIdle(opts_.onIdle, std::chrono::milliseconds(opts_.idleMs));
  }
  return worker_ != nullptr;
}

// What a compile reads of a document: a worker's Job and a scratch Document take the same.
template <class T> static void copySource(const Document &d, T &to) {
  to.uri = d.uri;
  to.path = d.path;
  to.realPath = d.realPath;
  to.text = roundedCopy(d.text);
  to.oversize = d.oversize;
  to.version = d.version;
}

// Typing in a comment of a million-GPU design recompiled it (1.5 s) at every key,
// though no token changed. Comparing the tokens costs a lex of both texts (a few ms for
// 4.6 MB); the design, and so every diagnostic, is then the same, its places moved.
bool Server::skipTrivia(Document &d) {
  if (!d.comp || !d.full || !d.index || d.installed != d.submitted || d.syntaxErrors || d.depsChanged ||
      d.oversize || !d.open || !d.comp->program().main || d.mainFile >= d.comp->sources().size())
    return false;
  Document::Stale &st = d.stale;
  if (!hand::sameTokens(d.comp->sources().text(d.mainFile), d.text, &st.runs, tokenMarks(d))) {
    st.version = -1; // the runs are partial
    return false;
  }
  st.version = d.version;
  st.installed = d.installed;
  st.lines = LineTable(d.text);
  bool was = d.trivial;
  d.trivial = true;
  d.stale.on = true;
  try {
    publish(d);
  } catch (const StaleMiss &) {
    // A diagnostic at no token (none is expected): compile after all.
    d.stale.on = false;
    d.trivial = was;
    d.stale.version = -1;
    return false;
  }
  d.stale.on = false;
  d.dirty = false;
  return true;
}

void Server::submit(Document &d) {
  Job job;
  copySource(d, job);
  job.serial = d.submitted = ++serial_;
  d.depsChanged = false;
  job.prevFast = d.fastPublished;
  job.reuse = d.checked;
  d.dirty = false;
  worker_->submit(std::move(job));
}

// On the worker thread: everything here is the job's own but for the documents' texts
// (read under docsMu_ by the overlay) and send().
void Server::runJob(Job &job, const std::function<void(Result)> &post) {
  Document w;
  w.uri = job.uri;
  w.path = job.path;
  w.realPath = job.realPath;
  w.text = std::move(job.text);
  w.oversize = job.oversize;
  w.version = job.version;
  w.checked = std::move(job.reuse);
  auto result = [&](bool full) {
    Result r;
    r.uri = w.uri;
    r.version = w.version;
    r.serial = job.serial;
    r.full = full;
    r.comp = w.comp;
    r.mainFile = w.mainFile;
    r.syntaxErrors = w.syntaxErrors;
    return r;
  };
  // Diagnostics from before elaboration are published at once when there are some, or
  // when the last publish had some (an edit that fixes a syntax error clears it now);
  // otherwise the editor keeps the last check's until this one's replace them.
  size_t fastCount = SIZE_MAX; // diagnostics reported before elaboration
  auto parsed = [&] {
    Result r = result(false);
    fastCount = w.comp->diags().all().size();
    if (!fastCount && !job.prevFast)
      return post(std::move(r));
    r.published = true;
    r.fast = fastCount > 0;
    publish(w, job.cancel.get(), [&] {
      r.publishedRanges = w.published;
      post(std::move(r));
    });
  };
  try {
    build(w, job.cancel.get(), parsed, false, /*index=*/false, [&] {
      Result r = result(false);
      r.dropChecked = true;
      post(std::move(r));
    });
    w.checked = {}; // the reader's copy is the one that lets it go (Document::checked)
  } catch (const CompileCancelled &) {
    return;
  } catch (...) {
    // Whatever went wrong, the reader may be waiting for this job: it gets what there is.
    if (!w.comp)
      return post(result(true)); // out of memory before anything was compiled
    if (w.mainFile == UINT32_MAX)
      findMainFile(w);
  }
  if (job.cancel->load())
    return; // stale: a newer job has the document
  Result r = result(true);
  r.values = std::move(w.values);
  r.published = true;
  r.fast = fastCount == SIZE_MAX ? !w.comp->diags().all().empty() : fastCount > 0;
  publish(w, job.cancel.get(), [&] {
    r.publishedRanges = w.published;
    post(std::move(r));
  });
}

void Server::parseHere(Document &d) {
  Document w;
  copySource(d, w);
  build(w, nullptr, nullptr, true);
  Result r;
  r.uri = d.uri;
  r.version = d.version;
  r.serial = d.submitted;
  r.comp = std::move(w.comp);
  r.index = std::move(w.index);
  r.mainFile = w.mainFile;
  r.syntaxErrors = w.syntaxErrors;
  install(d, std::move(r));
}

void Server::collect() {
  if (!worker_)
    return;
  for (Result &r : worker_->take()) {
    auto it = docs_.find(r.uri);
    if (it != docs_.end())
      install(*it->second, std::move(r));
  }
}

void Server::install(Document &d, Result &&r) {
  if (r.serial != d.submitted) { // of an older text (posted before a newer job was submitted)
    drop(r);
    return;
  }
  if (r.comp && r.comp != d.comp) {
    // The worker builds no index: the reader does, here, while the worker elaborates, so
    // the check's diagnostics come that much sooner (15-20 ms of a 100k-link file's edit
    // on two cores). The index reads the AST's names and ranges, which nothing writes
    // after loading (elaboration writes only the nodes' interned-symbol caches, `sym`,
    // which no request reads). parseHere brings an index of its own.
    if (!r.index)
      r.index = indexOf(*r.comp);
    // A new compilation: the previous one is dropped now, unless it is the last one that
    // parsed and this text does not (kept for completion).
    Document::Parsed prev{std::move(d.comp), std::move(d.values), std::move(d.index), d.mainFile};
    bool prevParsed = prev.comp && !d.syntaxErrors && d.full;
    d.comp = std::move(r.comp);
    d.index = std::move(r.index);
    d.mainFile = r.mainFile;
    d.syntaxErrors = r.syntaxErrors;
    d.lines.clear();
    d.stale.on = false;
    d.trivial = false;
    if (!d.syntaxErrors || prevParsed)
      drop(d.lastParsed);
    if (d.syntaxErrors && prevParsed)
      d.lastParsed = std::move(prev);
    drop(prev); // empty when kept
  }
  if (r.dropChecked)
    drop(d.checked);
  d.full = r.full;
  if (r.full) {
    drop(d.values);
    d.values = std::move(r.values);
    keepChecked(d);
  }
  if (r.published) {
    d.published = std::move(r.publishedRanges);
    d.fastPublished = r.fast;
  }
  d.installed = r.serial;
}

void Server::keepChecked(Document &d) {
  if (!d.comp || d.comp->base())
    return; // a reuse: its base stays the one to reuse
  if (!d.comp->reusable()) {
    // Did not get as far: the last one that did stays, for the edit that fixes this
    // text, unless this one elaborated (an error in a binding): its IR holds as much
    // memory, and three of them (that, this one and the next being built) would not fit
    // a million GPUs' budget.
    if (d.comp->elaborated())
      drop(d.checked);
    return;
  }
  Document::Checked now{d.comp, d.values};
  drop(d.checked);
  d.checked = std::move(now);
}

int Server::tick() {
  collect();
  auto now = Clock::now();
  int wait = -1;
  for (auto &kv : docs_) {
    Document &d = *kv.second;
    if (!d.dirty)
      continue;
    // Typing faster than the quiet period still gets diagnostics every ten periods.
    auto due = std::min(d.due, d.firstPending + std::chrono::milliseconds(10 * opts_.debounceMs));
    if (due <= now) {
      if (!worker_)
        compile(d);
      else if (!skipTrivia(d))
        submit(d);
      now = Clock::now();
      continue;
    }
    int ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(due - now).count()) + 1;
    wait = wait < 0 ? ms : std::min(wait, ms);
  }
  return wait;
}

void Server::flush() {
  for (auto &kv : docs_)
    if (kv.second->dirty)
      compile(*kv.second);
}

} // namespace fabc::lsp
