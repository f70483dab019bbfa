// The language server's worker runs its idle hook (the heap's trim, tools/fabc/Lsp.cpp)
// once after a compile when no job follows for the idle period, never while jobs keep
// coming, and again only after another job.
#include "tools/lsp/Worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace {

using namespace std::chrono_literals;
using fabc::lsp::Job;
using fabc::lsp::Result;
using fabc::lsp::Worker;

template <class Pred> bool eventually(Pred p) {
  for (int i = 0; i < 1000; ++i) {
    if (p())
      return true;
    std::this_thread::sleep_for(5ms);
  }
  return p();
}

TEST(WorkerIdle, RunsOnceAfterTheLastJob) {
  std::atomic<int> ran{0}, idled{0};
  Worker w([&](Job &, const std::function<void(Result)> &) { ++ran; }, [] {});
  ASSERT_TRUE(w.started());
  w.setIdle([&] { ++idled; }, 50ms);
  std::this_thread::sleep_for(150ms);
  EXPECT_EQ(idled, 0) << "no job ran yet: nothing to release";

  Job j;
  j.uri = "file:///a.fab";
  j.serial = 1;
  w.submit(std::move(j));
  ASSERT_TRUE(eventually([&] { return idled == 1; }));
  EXPECT_EQ(ran, 1);
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(idled, 1) << "idle again without a job in between";

  // Jobs closer together than the idle period (kept long, so that a loaded machine's
  // sleeps stay well inside it): the hook waits for the last one.
  w.setIdle([&] { ++idled; }, 1000ms);
  for (uint64_t s = 2; s < 6; ++s) {
    Job k;
    k.uri = "file:///a.fab";
    k.serial = s;
    w.submit(std::move(k));
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_TRUE(eventually([&] { return idled == 2; }));
  EXPECT_GE(ran, 2);
  std::this_thread::sleep_for(1200ms);
  EXPECT_EQ(idled, 2);
}

} // namespace
