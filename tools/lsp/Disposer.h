#pragma once
// Frees on a thread of its own what the reader thread drops: the previous compilation of
// a document, its values, a closed document. A million-GPU design's IR and AST take
// 20-70 ms to free (measured on the 2-core machine kind under load), and a request that
// installs a new parse would otherwise wait that long behind the free (docs/lsp.md,
// "Threading"). Without a thread (none could be made, or the server runs without its
// worker) dispose() frees at once, as before.
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace fabc::lsp {

class Disposer {
public:
  Disposer();
  ~Disposer(); // frees what is queued and joins
  Disposer(const Disposer &) = delete;
  Disposer &operator=(const Disposer &) = delete;

  template <typename T> void dispose(T &&obj) { push(std::make_unique<Holder<T>>(std::move(obj))); }

private:
  struct Item {
    virtual ~Item() = default;
  };
  template <typename T> struct Holder : Item {
    T value;
    explicit Holder(T &&v) : value(std::move(v)) {}
  };
  void push(std::unique_ptr<Item> item);
  void run();

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Item>> queue_;
  bool stop_ = false;
  std::thread thread_;
};

} // namespace fabc::lsp
