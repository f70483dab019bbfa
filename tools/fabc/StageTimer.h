#pragma once
// --time-stages: the wall time of each stage and the peak memory when it ended, on stderr
// (the peak only grows, so the stage where it jumps is the one that allocated).
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <sys/resource.h>

namespace fabc::cli {

class StageTimer {
public:
  explicit StageTimer(bool on) : on_(on) { last_ = Clock::now(); }
  // Ends the current stage and starts `next` (nullptr: none).
  void operator()(const char *next) {
    auto now = Clock::now();
    if (on_ && current_)
      times_.push_back({current_, std::chrono::duration<double>(now - last_).count(), peakRssMiB()});
    current_ = next;
    last_ = now;
  }
  void report() {
    (*this)(nullptr);
    if (!on_)
      return;
    double total = 0;
    fmt::print(stderr, "fabc: stage times\n");
    for (auto &t : times_) {
      fmt::print(stderr, "  {:<22} {:10.3f} s {:10.1f} MiB\n", t.name, t.seconds, t.peakMiB);
      total += t.seconds;
    }
    fmt::print(stderr, "  {:<22} {:10.3f} s\n  {:<22} {:10.1f} MiB\n", "total", total, "peak RSS", peakRssMiB());
  }

private:
  static double peakRssMiB() {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) / 1024.0;
  }
  using Clock = std::chrono::steady_clock;
  bool on_;
  const char *current_ = nullptr;
  Clock::time_point last_;
  struct Stage {
    std::string name;
    double seconds, peakMiB;
  };
  std::vector<Stage> times_;
};

} // namespace fabc::cli
