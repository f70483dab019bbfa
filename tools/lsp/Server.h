#pragma once
// `fabc lsp`: a Language Server Protocol 3.17 server. One thread reads messages, keeps
// the open documents and answers requests; a worker thread (Worker.h) compiles each
// edited text through the one entry point (Compilation) the way `fabc check` does, after
// a short quiet period (debounce). A request about a document with pending edits waits
// for their parse only, and reads the index of it (a large text's is answered from the
// last parse, positions mapped across the edit: answerStale). Without the worker (the fuzzer,
// runServer's fallback) the reader compiles itself. docs/lsp.md lists the features and
// describes the threading.
#include "Compilation.h"
#include "ast/HandLexer.h"
#include "lsp/Index.h"
#include "tools/lsp/Disposer.h"
#include "tools/lsp/Protocol.h"

#include <llvm/Support/JSON.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fabc::lsp {

struct ServerOptions {
  CompileOptions compile;                            // -I, -D, limits, the outputs whose rules run
  std::function<void(DiagEngine &)> configureDiags;  // -Werror, -Wno-CODE, --error-limit
  unsigned debounceMs = 25;                          // quiet period after an edit
  // After a pause (no edit for debounceMs) an edit waits only this long: the quiet
  // period is for merging the edits of a burst, and an edit alone is none.
  unsigned afterPauseMs = 3;
  // A request about a text of at least this many bytes with edits not yet parsed is
  // answered from the last parse, positions mapped across the edit (docs/lsp.md,
  // "Threading"): parsing it would cost more than the answer may take.
  size_t staleAboveBytes = size_t(1) << 20;
  // Keep the IR elaboration left, when the main file sets options at its top level:
  // an edit of only those runs the passes on a copy (docs/lsp.md, "Speed and memory").
  // It costs the memory of that IR once more (a million GPUs: ~230 MiB).
  bool keepElaboration = true;
  unsigned fmtWidth = 100;
  size_t maxWorkspaceFiles = 5000; // .fab files read for workspace references and rename
  bool timeStages = false;         // --time-stages: each compilation's stages on stderr
  // Run on the worker when no compile has come for `idleMs` after one (the command line
  // returns the heap's free pages to the system there: docs/lsp.md, "Memory").
  std::function<void()> onIdle;
  unsigned idleMs = 10000;
};

using Clock = std::chrono::steady_clock;

// A copy of a document's text for a compile, its buffer rounded up to whole MiB when
// large (Documents.cpp says why).
std::string roundedCopy(const std::string &s);

// An open document and what its last compilation left.
struct Document {
  std::string uri, path, realPath;
  std::string text;
  // The size of a text past --max-file-size the client sent: `text` is then empty (the
  // memory is not kept), the diagnostics say so (FAB-E0005), and ranged changes are
  // ignored until a whole text within the limit replaces it.
  uint64_t oversize = 0;
  int64_t version = 0;
  bool dirty = true;
  bool open = true; // false: read from disk for one request, diagnostics not published
  Clock::time_point due{}, firstPending{}, lastEdit{};
  // The last compilation (of the text at that time) and the index of its AST. Shared with
  // the worker while it checks: until `full`, only the sources, the program and the index
  // may be read (the worker writes the IR, the values and the diagnostics).
  std::shared_ptr<Compilation> comp;
  bool full = true;
  uint64_t submitted = 0, installed = 0; // the serials of the latest job and of comp's
  bool fastPublished = false; // the last publish held diagnostics from before elaboration
  std::shared_ptr<BindingValues> values;
  std::shared_ptr<Index> index;
  uint32_t mainFile = UINT32_MAX;
  // The last compilation that ran to its end, and its values: a later edit that lies in
  // top-level declarations nothing else names reuses its check (Compilation::reuseBase,
  // docs/decisions/0621). Kept while later texts do not compile as far. Both or neither.
  struct Checked {
    std::shared_ptr<const Compilation> comp;
    std::shared_ptr<const BindingValues> values;
  } checked;
  // While the text does not parse (the statement being typed), the last compilation
  // whose main file parsed: completion reads its index, which knows the names.
  struct Parsed {
    std::shared_ptr<Compilation> comp; // always full
    std::shared_ptr<BindingValues> values;
    std::shared_ptr<Index> index;
    uint32_t mainFile = UINT32_MAX;
  } lastParsed;
  bool syntaxErrors = false;
  // `comp` is of an older text with the same tokens as `text` (an edit of comments or
  // white space only): its check's diagnostics were published for `text`, mapped, and
  // requests read it through `stale` (Server::skipTrivia).
  bool trivial = false;
  // Another open document, or a file on disk, changed since this one's last compile
  // submitted: an edit of its comments still recompiles it (its imports may differ).
  bool depsChanged = false;
  std::map<uint32_t, LineTable> lines; // by SourceManager id, built on first use
  // Set while a request is answered from the compilation of an older text (Server::
  // answerStale): the stretches both texts share, and `text`'s lines. Positions in the
  // main file are mapped through it; a place in neither stretch was edited.
  struct Stale {
    bool on = false;
    int64_t version = -1;   // of `text` when computed
    uint64_t installed = 0; // the compilation's serial when computed
    std::vector<hand::TextRun> runs; // in order: before and after the edited region, or each token's
    LineTable lines;
    // False for an offset inside an edit (the start of the file is always its start).
    bool toNew(uint32_t off, uint32_t &out) const;
    bool toOld(uint32_t off, uint32_t &out) const;
  } stale;
  struct Published {
    uint32_t begin, end; // byte range in the main file
    std::string code;
    // With fix-its: the diagnostic as published, the code action's title and its edit
    // (a WorkspaceEdit's `changes`: URI -> TextEdits), for textDocument/codeAction.
    llvm::json::Value diagnostic = nullptr;
    std::string fixTitle;
    llvm::json::Object fixChanges;
  };
  std::vector<Published> published;
};

struct Job;
struct Result;
class Worker;

// Thrown while a request is answered from an older parse (Document::stale) when its
// answer names a place inside the edited region: the request is then answered again
// from the new text's parse (Server::request).
struct StaleMiss {};

// An error a request handler answers with.
struct RequestError {
  int code;
  std::string message;
};

class Server {
public:
  using Sink = std::function<void(const std::string &framed)>;
  Server(ServerOptions opts, Sink send);
  ~Server();

  // One message body as read (any bytes).
  void handleMessage(std::string_view body);
  // The transport could not frame a message: a ParseError response with a null id.
  void framingError(const std::string &why);
  // Compiles the documents whose quiet period is over; returns the milliseconds until the
  // next one is due, -1 if none is pending.
  int tick();
  // Compiles every pending document now (the fuzzer; the end of input).
  void flush();
  // From now on compile on a worker thread; `wake` is called (from it) when results
  // wait, and the reader then calls tick(). False: no thread, the reader compiles.
  bool startWorker(std::function<void()> wake);
  bool exited() const { return exited_; }
  int exitCode() const { return shutdown_ ? 0 : 1; }

private:
  friend struct Features;
  void dispatch(const llvm::json::Object &msg);
  void request(const std::string &method, const llvm::json::Value &id, const llvm::json::Object *params);
  void notification(const std::string &method, const llvm::json::Object *params);
  llvm::json::Value initialize(const llvm::json::Object *params);
  void didOpen(const llvm::json::Object &p);
  void didChange(const llvm::json::Object &p);
  void didClose(const llvm::json::Object &p);
  // didOpen's and didChange's text (Documents.cpp): kept if within --max-file-size.
  void setText(Document &d, std::string text);
  // didChange's contentChanges applied to d's text (Documents.cpp); false if malformed.
  bool applyContentChanges(Document &d, const llvm::json::Array &changes);
  void reply(const llvm::json::Value &id, llvm::json::Value result);
  void replyRaw(const llvm::json::Value &id, const std::string &resultJson);
  void replyError(const llvm::json::Value &id, int code, const std::string &message);
  void notify(const std::string &method, llvm::json::Value params);
  void log(int type, const std::string &message);
  void send(const llvm::json::Value &v);

public:
  // For the request handlers (Features.cpp).
  Document &document(const llvm::json::Object *params); // parsed, or RequestError
  // The same, but a request that can be answered from an older parse of a large text
  // (hover, definition, completion, documentSymbol) is, when its position is outside
  // the lines edited since: it waits for no parse.
  Document &documentOrStale(const llvm::json::Object *params);
  // Checked too (`full`): for a request that reads the IR or the diagnostics (rename
  // compares them before and after), which the worker writes until then.
  Document &checkedDocument(const llvm::json::Object *params);
  // The same, but a document behind by trivia only (Document::trivial: its check's
  // diagnostics were published for the current text) is answered from that check,
  // mapped, without compiling: code actions, which editors ask at every cursor move.
  Document &checkedDocumentOrTrivia(const llvm::json::Object *params);
  void compile(Document &d); // on this thread
  // The IR of d's compilation if its check is done, else nullptr.
  const ir::Fabric *fabricOf(Document &d) { return d.full && d.comp ? &d.comp->fabric() : nullptr; }
  // Publishes d's diagnostics unless `cancel` is set (checked under publishMu_, which
  // didClose takes to cancel: no publish follows the empty one of a closed document).
  // `beforeSend` runs under that lock just before the notification goes out (the worker
  // posts its result there: a client that saw the diagnostics gets answers from them).
  void publish(Document &d, const std::atomic<bool> *cancel = nullptr,
               const std::function<void()> &beforeSend = nullptr);
  void reportOversize(Document &d); // FAB-E0005 for a text setText refused
  // Byte offset <-> protocol position in file `file` of d's compilation.
  llvm::json::Value position(Document &d, uint32_t file, uint32_t offset);
  llvm::json::Value range(Document &d, SourceRange r);
  // The same range written to a stream (a large result written without a DOM: rawResult).
  void writeRange(llvm::json::OStream &j, Document &d, SourceRange r);
  // A request handler may write its result's JSON text here instead of returning a
  // value: llvm::json's DOM costs kilobytes an object (an outline of 50,000 instances
  // was a gigabyte of hash tables), a stream nothing.
  std::string rawResult;
  llvm::json::Value location(Document &d, SourceRange r);
  uint32_t offsetOf(Document &d, const llvm::json::Object *params); // "position", or RequestError
  std::string uriOf(Document &d, uint32_t file);
  std::string realPathOf(const std::string &path);
  std::vector<std::string> searchPathOf(const Document &d) const;
  const ServerOptions &options() const { return opts_; }
  Encoding encoding() const { return enc_; }
  std::map<std::string, std::unique_ptr<Document>> &documents() { return docs_; }
  const std::vector<std::string> &workspaceRoots() const { return roots_; }

private:
  // Compiles w's text into w (comp, values, index, mainFile, syntaxErrors), on the calling
  // thread; `parsed` runs after loading, before elaboration, if the text loaded cleanly.
  // `parseOnly`: load and index only (parseHere).
  // `index`: build w.index too (the worker's jobs leave it to the reader's install).
  // `elaborating` runs when elaboration starts although w had a check to reuse (the
  // edit reaches what it reads): that check may go now (Document::checked).
  void build(Document &w, const std::atomic<bool> *cancel, const std::function<void()> &parsed,
             bool parseOnly = false, bool index = true, const std::function<void()> &elaborating = nullptr);
  // Parses d's pending text on this thread and installs it as the parse of d's latest job
  // (whose worker result replaces it later): a request's answer then waits for no compile.
  void parseHere(Document &d);
  // Sets d.stale if the request (`params`) can be answered from d's installed
  // compilation although newer edits wait (documentOrStale).
  bool answerStale(Document &d, const llvm::json::Object *params);
  // An edit due for compiling that changed no token of a checked, clean-parsing text
  // whose imports did not change: its diagnostics are the last check's, published now
  // for the new version with their places mapped; nothing is compiled. False: compile.
  bool skipTrivia(Document &d);
  // The region where d's compiled text and d.text differ (Document::Stale), up to date.
  void diffRegion(Document &d);
  Document &document(const llvm::json::Object *params, bool staleOk);
  void findMainFile(Document &w);
  // Where a lexer may resume in d's compiled main text (ast::File::tokenMarks), for
  // hand::sameTokens; none when the program's main file is not that text.
  static llvm::ArrayRef<uint32_t> tokenMarks(const Document &d);
  static std::shared_ptr<Index> indexOf(Compilation &c);
  void runJob(Job &job, const std::function<void(Result)> &post); // the worker's
  void submit(Document &d);
  void collect(); // installs the worker's results (reader thread)
  void install(Document &d, Result &&r);
  // After a check of d: what later edits may reuse (Document::checked).
  void keepChecked(Document &d);

  ServerOptions opts_;
  Sink send_;
  std::mutex sendMu_; // both threads send
  std::mutex publishMu_;
  // docs_ and each document's uri, path, realPath and text: written by the reader (under
  // it), read by the worker (imports of open documents, URIs of related locations).
  std::mutex docsMu_;
  std::unique_ptr<Worker> worker_;
  // With the worker: frees what the reader drops (a previous compilation) off the reader.
  std::unique_ptr<Disposer> disposer_;
  // Hands `obj` to the disposer, or frees it here without one; `obj` is left empty.
  template <typename T> void drop(T &obj) {
    T gone = std::move(obj);
    obj = T();
    if (disposer_)
      disposer_->dispose(std::move(gone));
  }
  uint64_t serial_ = 0;
  bool staleDenied_ = false; // a request's second try after a StaleMiss
  Encoding enc_ = Encoding::Utf16;
  bool initialized_ = false, shutdown_ = false, exited_ = false;
  std::vector<std::string> roots_;
  std::map<std::string, std::unique_ptr<Document>> docs_; // by URI
  std::map<std::string, std::string> realPaths_;
  std::unique_ptr<Document> transient_; // a file a request named but the client did not open
};

// Runs the server on file descriptors (stdin, stdout) until `exit` or end of input;
// returns the process's exit status (0 after shutdown, 1 otherwise, as LSP says).
int runServer(ServerOptions opts, int in, int out);

} // namespace fabc::lsp
