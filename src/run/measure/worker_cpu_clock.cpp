#include "run/measure/worker_cpu_clock.hpp"

#include <algorithm>
#include <cstddef>

#include "run/measure/cpu_clock.hpp"

namespace nqueens::detail {

namespace {

thread_local double workers_charged = 0.0;

double seconds_of(clockid_t clock) noexcept {
  timespec t{};
  if (::clock_gettime(clock, &t) != 0) return 0.0;
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

worker_cpu_clock::worker_cpu_clock(tbb::task_arena& arena, int threads) : tbb::task_scheduler_observer(arena) {
  // Workers come and go, but no more are in at once than the arena has
  // slots: no entry allocates.
  stays_.reserve(static_cast<std::size_t>(std::max(threads, 1)));
  observe(true);
}

worker_cpu_clock::~worker_cpu_clock() { observe(false); }

void worker_cpu_clock::on_scheduler_entry(bool is_worker) {
  if (!is_worker) return;
  const pthread_t self = ::pthread_self();
  clockid_t clock{};
  if (::pthread_getcpuclockid(self, &clock) != 0) return;  // uncharged, rather than charged wrongly
  const stay entered{self, clock, seconds_of(clock), true};
  const std::scoped_lock lock(mutex_);
  const auto free = std::ranges::find_if(stays_, [](const stay& s) { return !s.inside; });
  if (free != stays_.end()) {
    *free = entered;
  } else {
    stays_.push_back(entered);
  }
}

void worker_cpu_clock::on_scheduler_exit(bool is_worker) {
  if (!is_worker) return;
  const pthread_t self = ::pthread_self();
  const std::scoped_lock lock(mutex_);
  const auto mine =
      std::ranges::find_if(stays_, [&](const stay& s) { return s.inside && ::pthread_equal(s.thread, self) != 0; });
  if (mine == stays_.end()) return;  // entered before it was observed
  left_ += std::max(0.0, seconds_of(mine->clock) - mine->entered);
  mine->inside = false;
}

double worker_cpu_clock::seconds() const {
  const std::scoped_lock lock(mutex_);
  double total = left_;
  for (const stay& s : stays_) {
    if (s.inside) total += std::max(0.0, seconds_of(s.clock) - s.entered);
  }
  return total;
}

double work_cpu_seconds() noexcept { return thread_cpu_seconds() + workers_charged; }

void charge_worker_seconds(double seconds) noexcept { workers_charged += seconds; }

}  // namespace nqueens::detail
