// The language server's disposer (tools/lsp/Disposer.h): what the reader drops is freed
// on the disposer's thread, never the caller's, and nothing queued is leaked at the end.
#include "tools/lsp/Disposer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

namespace {

struct Probe {
  std::shared_ptr<std::atomic<int>> freed;
  std::shared_ptr<std::thread::id> where;
  Probe() = default;
  Probe(std::shared_ptr<std::atomic<int>> f, std::shared_ptr<std::thread::id> w) : freed(std::move(f)), where(std::move(w)) {}
  Probe(Probe &&o) noexcept : freed(std::move(o.freed)), where(std::move(o.where)) {}
  Probe &operator=(Probe &&o) noexcept {
    freed = std::move(o.freed);
    where = std::move(o.where);
    return *this;
  }
  ~Probe() {
    if (freed) { // a moved-from probe owns nothing
      *where = std::this_thread::get_id();
      ++*freed;
    }
  }
};

TEST(Disposer, FreesOffTheCallingThreadAndAllOfItByTheEnd) {
  auto freed = std::make_shared<std::atomic<int>>(0);
  std::vector<std::shared_ptr<std::thread::id>> where;
  {
    fabc::lsp::Disposer d;
    for (int i = 0; i < 100; ++i) {
      where.push_back(std::make_shared<std::thread::id>());
      d.dispose(Probe(freed, where.back()));
    }
  } // joins: everything queued is freed
  EXPECT_EQ(freed->load(), 100);
  for (auto &w : where)
    EXPECT_NE(*w, std::this_thread::get_id());
}

TEST(Disposer, TakesUniquePointers) {
  auto freed = std::make_shared<std::atomic<int>>(0);
  auto where = std::make_shared<std::thread::id>();
  {
    fabc::lsp::Disposer d;
    d.dispose(std::make_unique<Probe>(freed, where));
  }
  EXPECT_EQ(freed->load(), 1);
  EXPECT_NE(*where, std::this_thread::get_id());
}

} // namespace
