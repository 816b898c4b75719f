#include "run/measure/load_balance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/progress.hpp"

namespace nqueens {
namespace {

using detail::load_balance;
using detail::measure_load_balance;

TEST(LoadBalanceTest, TimesEverySubproblemAndBoundsTheSpeedUp) {
  const plan p(13);
  const load_balance lb = measure_load_balance(p, 2);
  EXPECT_EQ(lb.subproblems, p.size());
  EXPECT_EQ(lb.total, *published_total(13));
  EXPECT_EQ(lb.unique, *published_unique(13));
  EXPECT_GT(lb.longest_seconds, 0.0);
  EXPECT_GE(lb.total_seconds, lb.longest_seconds);
  EXPECT_GE(lb.longest_seconds, lb.median_seconds);
  EXPECT_NEAR(lb.bound, lb.total_seconds / lb.longest_seconds, 1e-9);
  EXPECT_NEAR(lb.longest_share * lb.bound, 1.0, 1e-9);
}

// The timed run reports progress as a count does: its last snapshot once
// every subproblem is in, with the whole count; a callback that throws
// ends the run, and its exception is the one that comes out.
TEST(LoadBalanceTest, ReportsProgressAndEndsOnTheCallbacksException) {
  const plan p(13);
  std::mutex mutex;
  std::vector<progress> seen;
  const load_balance lb = measure_load_balance(p, 2, 0, nullptr, {}, [&](const progress& q) {
    const std::lock_guard lock(mutex);
    seen.push_back(q);
  });
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(seen.back().last);
  EXPECT_EQ(seen.back().finished, p.size());
  EXPECT_EQ(seen.back().subproblems, p.size());
  EXPECT_EQ(seen.back().total_so_far, lb.total);
  EXPECT_DOUBLE_EQ(seen.back().fraction, 1.0);
  EXPECT_EQ(std::count_if(seen.begin(), seen.end(), [](const progress& q) { return q.last; }), 1);

  struct refused : std::runtime_error {
    refused() : std::runtime_error("no room") {}
  };
  // Thrown from the reports' thread while n = 15 counts, or from the last
  // report where the count ended first.
  EXPECT_THROW(static_cast<void>(measure_load_balance(
                   plan(15), 1, 0, nullptr, {}, [](const progress&) { throw refused(); }, 0.001)),
               refused);
}

// A cancel midway gives no figures (a part of the times would not describe
// the plan): run_cancelled, not a load balance of what was timed. Set once
// a snapshot says under half of n = 16's count is done, on one thread: the
// other half takes a second more, and no subproblem starts after the cancel.
TEST(LoadBalanceTest, ACancelMidwayGivesNoFigures) {
  const plan p(16, {.kind = engine::symmetric});
  std::atomic<bool> cancel{false};
  bool set_midway = false;
  const auto on_progress = [&](const progress& q) {
    if (!cancel && q.finished > 0 && 2 * q.finished < q.subproblems) {
      set_midway = true;
      cancel = true;
    }
  };
  try {
    static_cast<void>(measure_load_balance(p, 1, 0, &cancel, {}, on_progress, 0.001));
    EXPECT_FALSE(set_midway) << "figures of a measurement cancelled midway";
  } catch (const run_cancelled&) {
    EXPECT_TRUE(set_midway);
  }
  if (!set_midway) GTEST_SKIP() << "no snapshot came while under half was done: nothing cancelled";
}

TEST(LoadBalanceTest, ExecuteRecordsTimesOnlyWhenAsked) {
  const plan p(10);
  EXPECT_TRUE(execute(p, {.threads = 1}).subproblem_seconds.empty());
  execute_options options;
  options.threads = 1;
  options.time_subproblems = true;
  EXPECT_EQ(execute(p, options).subproblem_seconds.size(), p.size());
}

}  // namespace
}  // namespace nqueens
