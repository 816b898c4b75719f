#pragma once

// The CPU time oneTBB's workers spend in one arena, and the tally that
// charges it to the thread that made the arena. The process's CPU time
// would also charge threads that work elsewhere: the workers that an
// earlier, oversubscribed arena left spinning before they sleep made a
// one-thread count read 1.4 busy threads on two cores.

#include <pthread.h>
#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>
#include <time.h>

#include <mutex>
#include <vector>

namespace nqueens::detail {

class worker_cpu_clock final : public tbb::task_scheduler_observer {
 public:
  /// Observes `arena`, initialised, of `threads` threads.
  worker_cpu_clock(tbb::task_arena& arena, int threads);
  ~worker_cpu_clock() override;
  worker_cpu_clock(const worker_cpu_clock&) = delete;
  worker_cpu_clock& operator=(const worker_cpu_clock&) = delete;

  /// CPU seconds, every worker's, spent in the arena so far, the workers
  /// still in it included (one lingers a while after its last task). The
  /// threads that call the arena's execute() are not workers, nor charged.
  double seconds() const;

  void on_scheduler_entry(bool is_worker) override;
  void on_scheduler_exit(bool is_worker) override;

 private:
  struct stay {
    pthread_t thread;
    clockid_t clock;
    double entered;  // the thread's CPU seconds when it entered
    bool inside;
  };
  mutable std::mutex mutex_;
  std::vector<stay> stays_;  // one per worker in the arena at once, reused
  double left_ = 0.0;        // seconds of the stays that ended
};

/// The calling thread's CPU time plus the workers' time charged to it
/// (worker_arena charges its workers' to the thread that made and ended
/// it), in seconds: what calls on this thread cost, every thread's, and
/// nothing of the process's other threads. Where the calling thread is
/// itself a oneTBB worker (a call made from a task), the arenas it makes
/// charge their workers to it all the same, and its caller never sees them.
double work_cpu_seconds() noexcept;

/// Charges `seconds` of workers' CPU time to the calling thread.
void charge_worker_seconds(double seconds) noexcept;

}  // namespace nqueens::detail
