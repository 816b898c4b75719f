#pragma once

// A oneTBB task_arena of exactly the requested number of threads, for one
// call: oneTBB caps workers at the hardware thread count unless told
// otherwise, so an explicit request for more (oversubscription) raises the
// process-wide limit while the arena lives (worker_limit.hpp). Only what
// oneTBB allows makes it smaller (threads_allowed).

#include <tbb/task_arena.h>

#include <optional>
#include <utility>

#include "nqueens/threads.hpp"
#include "run/measure/worker_cpu_clock.hpp"
#include "run/worker_limit.hpp"

namespace nqueens::detail {

class worker_arena {
 public:
  /// `threads` as resolve_threads() takes it (0: every hardware thread).
  explicit worker_arena(int threads) : threads_(resolve_threads(threads)) {
    if (threads_ > hardware_threads()) {
      allow_more_.emplace(threads_);
    }
    // A program's own limit (a tbb::global_control) below the threads asked
    // wins, as oneTBB obeys the smallest alive, and so does the ceiling its
    // first use fixed: the arena is as large as what runs in it, and a result
    // reports the threads that counted.
    threads_ = threads_allowed(threads_);
    arena_.initialize(threads_);
    worker_clock_.emplace(arena_, threads_);
  }

  // Its workers' CPU time goes to the thread that made it (work_cpu_seconds);
  // uncharged where the clock's lock fails, rather than an exception here.
  ~worker_arena() {
    try {
      charge_worker_seconds(worker_clock_->seconds());
    } catch (...) {
    }
  }
  worker_arena(const worker_arena&) = delete;
  worker_arena& operator=(const worker_arena&) = delete;

  int threads() const noexcept { return threads_; }
  /// CPU seconds its workers have spent in it so far, every worker's.
  double worker_cpu_seconds() const { return worker_clock_->seconds(); }

  template <typename F>
  decltype(auto) execute(F&& f) {
    return arena_.execute(std::forward<F>(f));
  }

 private:
  int threads_;
  std::optional<raised_worker_limit> allow_more_;  // before the arena: it must outlive it
  tbb::task_arena arena_;
  std::optional<worker_cpu_clock> worker_clock_;  // after the arena: it observes it
};

}  // namespace nqueens::detail
