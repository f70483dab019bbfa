#include "tools/lsp/Disposer.h"

#include <system_error>

namespace fabc::lsp {

Disposer::Disposer() {
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error &) {
    // No thread: push() frees inline.
  }
}

Disposer::~Disposer() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable())
    thread_.join();
}

void Disposer::push(std::unique_ptr<Item> item) {
  if (!thread_.joinable())
    return; // item is freed here
  {
    std::lock_guard<std::mutex> lk(mu_);
    queue_.push_back(std::move(item));
  }
  cv_.notify_one();
}

void Disposer::run() {
  std::vector<std::unique_ptr<Item>> batch;
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    cv_.wait(lk, [&] { return stop_ || !queue_.empty(); });
    batch.swap(queue_);
    bool stop = stop_;
    lk.unlock();
    batch.clear(); // the frees, outside the lock: the reader only ever waits to append
    lk.lock();
    if (stop && queue_.empty())
      return;
  }
}

} // namespace fabc::lsp
