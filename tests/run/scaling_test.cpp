#include "nqueens/scaling.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
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
  }
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

TEST(ScalingTest, RejectsBadArguments) {
  const std::vector<int> zero{0}, fine{1};
  EXPECT_THROW(measure_scaling(10, zero, 1), std::invalid_argument);
  EXPECT_THROW(measure_scaling(10, fine, 0), std::invalid_argument);
  EXPECT_THROW(measure_scaling(0, fine, 1), std::invalid_argument);
  // A journal would time reading it back: refused, and none is made.
  const std::string journal = "nqueens-scaling-refused-" + std::to_string(::getpid()) + ".ckpt";
  EXPECT_THROW(measure_scaling(8, fine, 1, {.checkpoint = journal}), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(journal));
}

TEST(ScalingTest, DefaultThreadCountsDoubleUpToTheHardware) {
  const std::vector<int> counts = default_thread_counts();
  ASSERT_FALSE(counts.empty());
  EXPECT_EQ(counts.front(), 1);
  EXPECT_EQ(counts.back(), hardware_threads());
  for (std::size_t i = 1; i + 1 < counts.size(); ++i) EXPECT_EQ(counts[i], 2 * counts[i - 1]);
}

}  // namespace
}  // namespace nqueens
