// The compile thread: a queue of at most one job per document, cancellation of a stale
// compile, and the results handed back to the reader thread (Worker.h).
#include "tools/lsp/Worker.h"

namespace fabc::lsp {

Worker::Worker(Run run, std::function<void()> wake) : run_(std::move(run)), wake_(std::move(wake)) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(256) << 20);
  auto entry = [](void *self) -> void * {
    static_cast<Worker *>(self)->loop();
    return nullptr;
  };
  started_ = pthread_create(&thread_, &attr, entry, this) == 0;
  pthread_attr_destroy(&attr);
}

Worker::~Worker() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
    if (runningCancel_)
      runningCancel_->store(true);
  }
  jobsCv_.notify_all();
  if (started_)
    pthread_join(thread_, nullptr);
}

void Worker::submit(Job job) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    for (auto it = queue_.begin(); it != queue_.end(); ++it)
      if (it->uri == job.uri) {
        queue_.erase(it); // never compiled: the newer text replaces it
        break;
      }
    if (runningUri_ == job.uri && runningCancel_)
      runningCancel_->store(true); // stale: stops at its next stage or 4,096 steps
    queue_.push_back(std::move(job));
  }
  jobsCv_.notify_one();
}

void Worker::cancel(const std::string &uri) {
  std::lock_guard<std::mutex> lk(mu_);
  for (auto it = queue_.begin(); it != queue_.end(); ++it)
    if (it->uri == uri) {
      queue_.erase(it);
      break;
    }
  if (runningUri_ == uri && runningCancel_)
    runningCancel_->store(true);
}

std::vector<Result> Worker::take() {
  std::lock_guard<std::mutex> lk(mu_);
  std::vector<Result> out;
  out.swap(results_);
  return out;
}

void Worker::waitFor(uint64_t serial) {
  std::unique_lock<std::mutex> lk(mu_);
  resultsCv_.wait(lk, [&] {
    for (const Result &r : results_)
      if (r.serial == serial)
        return true;
    return false;
  });
}

bool Worker::busy(const std::string &uri) {
  std::lock_guard<std::mutex> lk(mu_);
  if (runningUri_ == uri)
    return true;
  for (const Job &j : queue_)
    if (j.uri == uri)
      return true;
  return false;
}

bool Worker::startsNext(uint64_t serial) {
  std::lock_guard<std::mutex> lk(mu_);
  if (!runningUri_.empty())
    return runningSerial_ == serial;
  return !queue_.empty() && queue_.front().serial == serial;
}

void Worker::loop() {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lk(mu_);
      auto ready = [&] { return stop_ || !queue_.empty(); };
      if (idle_ && idlePending_ && !jobsCv_.wait_for(lk, idleAfter_, ready)) {
        idlePending_ = false;
        lk.unlock();
        idle_();
        continue;
      }
      jobsCv_.wait(lk, ready);
      if (stop_)
        return;
      job = std::move(queue_.front());
      queue_.pop_front();
      runningUri_ = job.uri;
      runningSerial_ = job.serial;
      runningCancel_ = job.cancel;
    }
    auto post = [&](Result r) {
      {
        std::lock_guard<std::mutex> lk(mu_);
        if (job.cancel->load())
          return; // a newer job replaces it: its results would be stale
        results_.push_back(std::move(r));
      }
      resultsCv_.notify_all();
      wake_();
    };
    run_(job, post);
    std::lock_guard<std::mutex> lk(mu_);
    runningUri_.clear();
    runningCancel_.reset();
    idlePending_ = true;
  }
}

void Worker::setIdle(std::function<void()> idle, std::chrono::milliseconds after) {
  std::lock_guard<std::mutex> lk(mu_);
  idle_ = std::move(idle);
  idleAfter_ = after;
}

} // namespace fabc::lsp
