#include "nqueens/scaling.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/threads.hpp"

namespace nqueens {
namespace {

TEST(ScalingTest, RowsStartAtOneThreadAndAgree) {
  const std::vector<int> threads{3, 2};
  const scaling_result r = measure_scaling(11, threads, 2);
  ASSERT_EQ(r.rows.size(), 3u);  // 1 is added, rows sorted
  EXPECT_EQ(r.rows[0].threads, 1);
  EXPECT_EQ(r.rows[1].threads, 2);
  EXPECT_EQ(r.rows[2].threads, 3);
  EXPECT_TRUE(r.consistent);
  EXPECT_EQ(r.check.total, verdict::match);
  EXPECT_DOUBLE_EQ(r.rows[0].speedup, 1.0);
  for (const scaling_row& row : r.rows) {
    EXPECT_EQ(row.total, *published_total(11));
    EXPECT_EQ(row.seconds.size(), 2u);
    EXPECT_DOUBLE_EQ(row.efficiency, row.speedup / row.threads);
    EXPECT_GT(row.median_seconds, 0.0);
    EXPECT_GT(row.busy_threads, 0.0);  // a count uses CPU time; measured, not left at 0
  }
}

// The result names the plan the rows counted as a plan of that engine and
// split builds it: the automatic split's real depth, not its request (0).
TEST(ScalingTest, NamesThePlanEveryRowCounted) {
  count_options options;
  options.kind = engine::symmetric;
  const std::vector<int> threads{2};
  const scaling_result r = measure_scaling(11, threads, 1, options);
  const plan automatic(11, plan_options{.kind = engine::symmetric});
  EXPECT_EQ(r.kind, engine::symmetric);
  EXPECT_EQ(r.split_depth, automatic.split_depth());
  EXPECT_EQ(r.subproblems, automatic.size());
  options.split_depth = automatic.split_depth() + 1;
  const scaling_result deeper = measure_scaling(11, threads, 1, options);
  EXPECT_EQ(deeper.split_depth, automatic.split_depth() + 1);
  EXPECT_EQ(deeper.subproblems,
            plan(11, plan_options{.kind = engine::symmetric, .split_depth = options.split_depth}).size());
  EXPECT_GT(deeper.subproblems, r.subproblems);
}

// A cancelled measurement returns at once, not after every remaining run.
TEST(ScalingTest, CancelStopsTheRuns) {
  const std::atomic<bool> cancel{true};
  count_options options;
  options.cancel = &cancel;
  const std::vector<int> threads{1, 2};
  const scaling_result r = measure_scaling(14, threads, 1000, options);
  EXPECT_FALSE(r.complete);
  EXPECT_TRUE(r.rows.empty());
  EXPECT_TRUE(measure_scaling(8, threads, 1).complete);
}

// The repeats go in rounds over the thread counts, up then down (1 2, 2 1,
// 1 2): stopped after the third timed run, one thread has run once and two
// threads twice (in blocks, one thread would have run three times).
TEST(ScalingTest, RepeatsGoInRoundsUpAndDown) {
  std::atomic<bool> cancel{false};
  int finished = 0;  // whole counts, the untimed first one included
  count_options options;
  options.cancel = &cancel;
  options.on_progress = [&](const progress& p) {
    if (p.last && ++finished == 1 + 3) cancel = true;
  };
  const std::vector<int> threads{1, 2};
  const scaling_result r = measure_scaling(10, threads, 3, options);
  EXPECT_FALSE(r.complete);
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0].threads, 1);
  EXPECT_EQ(r.rows[0].seconds.size(), 1u);
  EXPECT_EQ(r.rows[1].threads, 2);
  EXPECT_EQ(r.rows[1].seconds.size(), 2u);
}

// Each count is announced before it runs, in run order: the untimed one
// (run 0, on the most threads), then every timed one of the rounds.
TEST(ScalingTest, EveryCountIsAnnouncedInRunOrder) {
  std::vector<scaling_step> steps;
  const std::vector<int> threads{2, 1};
  const scaling_result r = measure_scaling(9, threads, 2, {}, [&](const scaling_step& s) { steps.push_back(s); });
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(steps.size(), 5u);
  const int expected_threads[] = {2, 1, 2, 2, 1};  // the rounds go up, then down
  for (std::size_t k = 0; k < steps.size(); ++k) {
    EXPECT_EQ(steps[k].run, k) << k;
    EXPECT_EQ(steps[k].runs, 4u) << k;
    EXPECT_EQ(steps[k].threads, expected_threads[k]) << k;
  }
}

TEST(ScalingTest, RejectsBadArguments) {
  const std::vector<int> zero{0}, fine{1};
  EXPECT_THROW(measure_scaling(10, zero, 1), std::invalid_argument);
  EXPECT_THROW(measure_scaling(10, fine, 0), std::invalid_argument);
  EXPECT_THROW(measure_scaling(0, fine, 1), std::invalid_argument);
  // A journal would time reading it back: refused, and none is made.
  const std::string journal = "nqueens-scaling-refused-" + std::to_string(::getpid()) + ".ckpt";
  EXPECT_THROW(measure_scaling(8, fine, 1, {.checkpoint = journal}), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(journal));
  // A shard would time a part, whose counts verify nothing.
  EXPECT_THROW(measure_scaling(8, fine, 1, {.shard = {0, 2}}), std::invalid_argument);
}

// 1, 2, 4, ... then the hardware's count, with the physical cores between
// where cores run several threads each.
TEST(ScalingTest, DefaultThreadCountsDoubleUpToTheHardware) {
  const std::vector<int> counts = default_thread_counts();
  ASSERT_FALSE(counts.empty());
  EXPECT_EQ(counts.front(), 1);
  EXPECT_EQ(counts.back(), hardware_threads());
  const int cores = physical_cores();
  for (std::size_t i = 1; i + 1 < counts.size(); ++i) {
    EXPECT_LT(counts[i - 1], counts[i]);
    if (counts[i] != cores) EXPECT_EQ(counts[i] & (counts[i] - 1), 0) << counts[i] << " is no power of two";
  }
  if (cores > 1 && cores < hardware_threads()) EXPECT_NE(std::find(counts.begin(), counts.end(), cores), counts.end());
}

// Linux says which CPUs share a core: at least one core, at most a core per
// hardware thread.
TEST(ScalingTest, PhysicalCoresAreAtMostTheHardwareThreads) {
  const int cores = physical_cores();
  EXPECT_GE(cores, 1);
  EXPECT_LE(cores, hardware_threads());
}

}  // namespace
}  // namespace nqueens
