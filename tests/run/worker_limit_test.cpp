// Calls that ask for more threads than the hardware has, at once: each keeps
// oneTBB's worker limit at its own count or more (a limit of each call's own
// capped the larger call at the smaller's, as oneTBB obeys the smallest).

#include "run/worker_limit.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

#include "nqueens/count.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/scaling.hpp"
#include "nqueens/threads.hpp"

namespace nqueens {
namespace {

std::size_t worker_limit() { return tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism); }

TEST(WorkerLimitTest, TheLargestCallAliveSetsTheLimit) {
  const std::size_t before = worker_limit();
  {
    const detail::raised_worker_limit large(hardware_threads() + 8);
    EXPECT_GE(worker_limit(), static_cast<std::size_t>(hardware_threads() + 8));
    {
      const detail::raised_worker_limit small(hardware_threads() + 2);
      EXPECT_GE(worker_limit(), static_cast<std::size_t>(hardware_threads() + 8));
    }
    EXPECT_GE(worker_limit(), static_cast<std::size_t>(hardware_threads() + 8));
  }
  EXPECT_EQ(worker_limit(), before);  // none left behind
}

// Two execute() calls, the smaller one begun and ended inside the larger:
// the larger's limit holds throughout.
TEST(WorkerLimitTest, ASmallerCallInsideALargerOneLeavesItsLimit) {
  const std::size_t large = static_cast<std::size_t>(hardware_threads()) + 8;
  const std::size_t small = static_cast<std::size_t>(hardware_threads()) + 2;
  std::atomic<std::size_t> least_seen{~std::size_t{0}};
  std::atomic<bool> nested{false};
  const plan outer(10);
  const plan inner(8);
  execute(outer, {.threads = static_cast<int>(large), .on_finished = [&](std::size_t, const subproblem_count&) {
                    if (nested.exchange(true)) return;
                    std::thread other([&] {
                      execute(inner, {.threads = static_cast<int>(small),
                                      .on_finished = [&](std::size_t, const subproblem_count&) {
                                        std::size_t seen = worker_limit();
                                        std::size_t least = least_seen.load();
                                        while (seen < least && !least_seen.compare_exchange_weak(least, seen)) {
                                        }
                                      }});
                    });
                    other.join();
                  }});
  ASSERT_TRUE(nested.load());
  ASSERT_NE(least_seen.load(), ~std::size_t{0}) << "the inner call finished no subproblem";
  EXPECT_GE(least_seen.load(), large);
}

// A program that caps oneTBB itself keeps its cap: the call counts on as
// many threads as the cap allows, exactly, and says how many (it reported
// the threads asked, and oneTBB warned on stderr).
TEST(WorkerLimitTest, AProgramsOwnLowerLimitCapsTheCallAndItsReport) {
  const int asked = hardware_threads() + 2;
  const tbb::global_control cap(tbb::global_control::max_allowed_parallelism, 1);
  const plan p(10);
  const execution run = execute(p, {.threads = asked});
  EXPECT_EQ(run.threads, 1);
  EXPECT_EQ(reduce(run).total, *published_total(10));
  const count_result counted = count(11, {.threads = asked});
  EXPECT_EQ(counted.threads, 1);
  EXPECT_EQ(counted.total, *published_total(11));
  // A scaling row shows the threads its counts ran on, its efficiency over them.
  const std::vector<int> rows = {1, asked};
  const scaling_result scaled = measure_scaling(10, rows, 1);
  ASSERT_EQ(scaled.rows.size(), 2U);
  for (const scaling_row& row : scaled.rows) {
    EXPECT_EQ(row.threads, 1);
    EXPECT_DOUBLE_EQ(row.efficiency, row.speedup);
  }
}

}  // namespace
}  // namespace nqueens
