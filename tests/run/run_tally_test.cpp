// The progress a run reports: its sums and its estimate of the time left.

#include "run/run_tally.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <numeric>
#include <thread>
#include <vector>

#include "nqueens/plan.hpp"
#include "run/shard/shard_members.hpp"

namespace nqueens::detail {
namespace {

// A run whose setup (the plan, the tables: seconds to minutes) took 1 000 s
// before its first subproblem finished: the time left is paced by the
// counting since that first finish, not by the setup. Measured from the
// start, a tenth done would read 9 000 s left; the bound below fails only if
// this test took over 100 s between two calls.
TEST(RunTallyTest, TheTimeLeftIsPacedByCountingNotBySetup) {
  const plan p(12, {.kind = engine::symmetric});
  const shard_members mine(p, {});
  std::vector<std::size_t> todo(p.size());
  std::iota(todo.begin(), todo.end(), std::size_t{0});
  const auto start = std::chrono::steady_clock::now() - std::chrono::seconds(1000);
  run_tally tally(p, mine, todo, {}, true, 1, start);
  EXPECT_FALSE(tally.snapshot(false).eta_seconds.has_value());  // nothing done: no pace yet
  const std::size_t tenth = p.size() / 10;
  for (std::size_t i = 0; i < tenth; ++i) tally.finished(i, {.total = 1});
  const progress pr = tally.snapshot(false);
  EXPECT_GE(pr.elapsed_seconds, 1000.0);
  ASSERT_TRUE(pr.eta_seconds.has_value());
  EXPECT_LT(*pr.eta_seconds, 1000.0);
  EXPECT_EQ(pr.total_so_far, tenth);
  EXPECT_EQ(pr.finished, tenth);
}

// No time left is given until a sample has finished: 64 subproblems a
// thread (or a thousandth of a run, if more). The first few to finish are
// the cheapest of those started, and paced a run of days many times short.
TEST(RunTallyTest, NoTimeLeftUntilASampleHasFinished) {
  const plan p(17, {.kind = engine::quadrant});
  ASSERT_GT(p.size(), std::size_t{1280});  // 128 is then the sample, not a tenth of the run
  const shard_members mine(p, {});
  std::vector<std::size_t> todo(p.size());
  std::iota(todo.begin(), todo.end(), std::size_t{0});
  run_tally tally(p, mine, todo, {}, true, 2, std::chrono::steady_clock::now());
  for (std::size_t i = 0; i < 127; ++i) tally.finished(i, {.total = 1});
  EXPECT_FALSE(tally.snapshot(false).eta_seconds.has_value());
  tally.finished(127, {.total = 1});
  EXPECT_TRUE(tally.snapshot(false).eta_seconds.has_value());
}

// A stop of the process (Ctrl-Z, then fg) is left out of the pace: the
// time left is what the counting, not the stop, says. Two tallies of the
// same finishes, one told of a quarter second's stop: the second's
// snapshot is taken first, so the other's counting is no shorter than its
// own plus the stop, whatever the machine's load.
TEST(RunTallyTest, AStopOfTheProcessIsNotInThePace) {
  const plan p(16, {.kind = engine::quadrant});  // equal work a subproblem
  ASSERT_TRUE(p.uniform_work());
  const shard_members mine(p, {});
  std::vector<std::size_t> todo(p.size());
  std::iota(todo.begin(), todo.end(), std::size_t{0});
  const auto start = std::chrono::steady_clock::now();
  run_tally counted(p, mine, todo, {}, true, 1, start);
  run_tally stopped(p, mine, todo, {}, true, 1, start);
  constexpr std::size_t done = 100;  // past the 64 that pace one thread
  for (std::size_t i = 0; i < done; ++i) counted.finished(i, {.total = 1});
  for (std::size_t i = 0; i < done; ++i) stopped.finished(i, {.total = 1});
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  stopped.paused(std::chrono::milliseconds(250));
  const progress after_stop = stopped.snapshot(false);
  const progress without = counted.snapshot(false);
  ASSERT_TRUE(after_stop.eta_seconds.has_value());
  ASSERT_TRUE(without.eta_seconds.has_value());
  // The pace is per subproblem after the first: (size - done) left for
  // done - 1 counted.
  const double per_second_of_counting = static_cast<double>(p.size() - done) / static_cast<double>(done - 1);
  EXPECT_GE(*without.eta_seconds - *after_stop.eta_seconds, 0.25 * per_second_of_counting * 0.999);
  EXPECT_GE(after_stop.elapsed_seconds, 0.4);  // the stop's time did pass
}

}  // namespace
}  // namespace nqueens::detail
