// The progress a run reports: its sums and its estimate of the time left.

#include "run/run_tally.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <numeric>
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

}  // namespace
}  // namespace nqueens::detail
