#include "run/measure/worker_cpu_clock.hpp"

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "nqueens/count.hpp"
#include "nqueens/known_counts.hpp"
#include "run/measure/cpu_clock.hpp"
#include "run/worker_arena.hpp"

namespace nqueens {
namespace {

using detail::thread_cpu_seconds;

// Spins on the calling thread until it has used `seconds` of CPU time.
void burn(double seconds) {
  const double until = thread_cpu_seconds() + seconds;
  while (thread_cpu_seconds() < until) {
  }
}

// Its workers, and nothing else: the caller's time in the arena is the
// caller's own clock's (charged twice, a count would read more busy
// threads than it had), and a thread spinning beside it and the workers
// that another, oversubscribed arena left are not charged to it.
TEST(WorkerCpuClockTest, ChargesNeitherItsCallerNorThreadsOutside) {
  std::atomic<bool> done{false};
  std::thread outsider([&] {
    while (!done.load()) {
    }
  });
  {
    detail::worker_arena crowd(64);  // workers that linger after their tasks
    crowd.execute([] { tbb::parallel_for(0, 256, [](int) { burn(0.0005); }); });
  }
  detail::worker_arena one(1);      // its caller's slot only: no worker
  one.execute([] { burn(0.05); });  // on the caller
  done = true;
  outsider.join();
  EXPECT_EQ(one.worker_cpu_seconds(), 0.0);
}

// Every worker's task time is in the clock: the CPU seconds the tasks that
// ran on workers measured themselves bound it from below (it also holds the
// time they spent looking for tasks).
TEST(WorkerCpuClockTest, ChargesEveryWorkerTask) {
  detail::worker_arena arena(4);
  std::atomic<long long> worker_task_nanoseconds{0};
  arena.execute([&] {
    tbb::parallel_for(0, 64, [&](int) {
      const double before = thread_cpu_seconds();
      burn(0.002);
      // Slot 0 is the caller's; the rest are workers'.
      if (tbb::this_task_arena::current_thread_index() > 0) {
        worker_task_nanoseconds += static_cast<long long>((thread_cpu_seconds() - before) * 1e9);
      }
    });
  });
  EXPECT_GE(arena.worker_cpu_seconds() + 1e-6, 1e-9 * static_cast<double>(worker_task_nanoseconds.load()));
}

// The CPU time a closed arena's workers spent goes to the thread that ran
// it, on top of its own.
TEST(WorkerCpuClockTest, AClosedArenaChargesItsCaller) {
  const double before = detail::work_cpu_seconds();
  double workers = 0.0;
  {
    detail::worker_arena arena(3);
    arena.execute([] { tbb::parallel_for(0, 48, [](int) { burn(0.001); }); });
    workers = arena.worker_cpu_seconds();
  }
  EXPECT_GE(detail::work_cpu_seconds() - before, workers);
}

// A one-thread count runs on its caller's thread alone: its CPU time
// cannot exceed its wall time, however many workers an earlier count of
// more threads than the cores left spinning.
TEST(WorkerCpuClockTest, AOneThreadCountIsChargedAtMostItsWallTime) {
  const count_result crowded = count(12, {.threads = 256});
  EXPECT_EQ(crowded.total, *published_total(12));
  EXPECT_GT(crowded.cpu_seconds, 0.0);
  const auto start = std::chrono::steady_clock::now();
  const count_result one = count(13, {.threads = 1});
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(one.total, *published_total(13));
  EXPECT_GT(one.cpu_seconds, 0.0);
  EXPECT_LE(one.cpu_seconds, wall + 0.001);
}

}  // namespace
}  // namespace nqueens
