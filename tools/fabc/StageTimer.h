#pragma once
// --time-stages: the wall time of each stage and the peak memory, on stderr.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
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
      times_.push_back({current_, std::chrono::duration<double>(now - last_).count()});
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
      fmt::print(stderr, "  {:<22} {:10.3f} s\n", t.first, t.second);
      total += t.second;
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
  std::vector<std::pair<std::string, double>> times_;
};

} // namespace fabc::cli
