#pragma once
// The language server's compile thread (docs/lsp.md, "Threading"). The reader thread
// keeps the documents and answers requests; it hands each edited text to this one
// worker as a Job and takes back Results. A newer job for the same document replaces a
// queued one and cancels a running one (CompileOptions::cancel), so an edit storm
// compiles only its last text. A job posts two results: its parse (the index and the
// diagnostics from before elaboration) and, when the check is done, the full one.
#include "tools/lsp/Server.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <pthread.h>

namespace fabc::lsp {

struct Job {
  std::string uri, path, realPath, text;
  uint64_t oversize = 0; // the document's text was refused (Document::oversize): FAB-E0005
  int64_t version = 0;
  uint64_t serial = 0;   // increasing over the session: which job of a document is the latest
  bool prevFast = false; // the document's last publish had diagnostics from before elaboration
  std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
  Document::Checked reuse; // Document::checked when submitted
};

// What a compile hands back: the fields of Document it filled.
struct Result {
  std::string uri;
  int64_t version = 0;
  uint64_t serial = 0; // the job's
  bool full = false;      // the check finished (else: parsed; the check goes on)
  bool published = false; // diagnostics were published: `published` replaces the document's
  bool fast = false;      // those diagnostics came from before elaboration
  std::shared_ptr<Compilation> comp;
  std::shared_ptr<BindingValues> values; // with full
  std::shared_ptr<Index> index;          // parseHere's; a job's is built by the reader (install)
  uint32_t mainFile = UINT32_MAX;
  bool syntaxErrors = false;
  std::vector<Document::Published> publishedRanges;
  bool dropChecked = false; // the job elaborates in full: Document::checked may go
};

class Worker {
public:
  // `run` compiles one job, posting results through its second argument; `wake` tells
  // the reader thread that results wait (a byte on its pipe).
  using Run = std::function<void(Job &, const std::function<void(Result)> &)>;
  Worker(Run run, std::function<void()> wake);
  // `idle` runs on the worker once no job has come for `after` since the last one ended
  // (the server hands memory back to the system then: ServerOptions::onIdle).
  void setIdle(std::function<void()> idle, std::chrono::milliseconds after);
  ~Worker(); // cancels what runs and joins
  bool started() const { return started_; } // false: no thread could be made

  void submit(Job job);
  // Drops the queued job of `uri` and cancels its running one (the document was closed).
  void cancel(const std::string &uri);
  // The results posted so far, oldest first.
  std::vector<Result> take();
  // Blocks until a result of job `serial` is posted (not yet taken). The job must be
  // the latest submitted for its document: nothing else cancels it.
  void waitFor(uint64_t serial);
  // Whether a job for `uri` is queued or running.
  bool busy(const std::string &uri);
  // Whether job `serial` runs now, or is first in the queue of an idle worker: its parse
  // comes without waiting for another compile (or a stale one's cancellation) to end.
  bool startsNext(uint64_t serial);

private:
  void loop();
  Run run_;
  std::function<void()> wake_;
  std::mutex mu_;
  std::condition_variable jobsCv_, resultsCv_;
  std::deque<Job> queue_;         // at most one per document
  std::string runningUri_;        // empty: idle
  uint64_t runningSerial_ = 0;
  std::shared_ptr<std::atomic<bool>> runningCancel_;
  std::vector<Result> results_;
  bool stop_ = false;
  std::function<void()> idle_;
  std::chrono::milliseconds idleAfter_{0};
  bool idlePending_ = false; // a job ended since `idle_` last ran
  // A pthread for its stack: elaboration needs the 256 MiB the command line's pipeline
  // thread has (tools/fabc/main.cpp; FAB-E0070's 64 MiB of nested calls).
  pthread_t thread_{};
  bool started_ = false;
};

} // namespace fabc::lsp
