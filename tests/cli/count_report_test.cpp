#include "cli/count_report.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

namespace nqueens::cli {
namespace {

// An MPI job's line: ranks alike as a product, ranks that differ as the sum
// of their threads, each term shown.
TEST(CountReportTest, RanksAreDescribedByTheirThreads) {
  EXPECT_EQ(describe_ranks({2}), "1 rank x 2 threads");
  EXPECT_EQ(describe_ranks({1, 1, 1}), "3 ranks x 1 thread");
  EXPECT_EQ(describe_ranks({1, 2}), "2 ranks, 3 threads (1 + 2)");
  EXPECT_EQ(describe_ranks({4, 1, 4}), "3 ranks, 9 threads (4 + 1 + 4)");
}

// Ranks named in a message: runs of consecutive ranks as ranges.
TEST(CountReportTest, RanksAreNamedWithRunsAsRanges) {
  EXPECT_EQ(ranks_named({3}), "rank 3");
  EXPECT_EQ(ranks_named({1, 2, 3, 5}), "ranks 1-3, 5");
  EXPECT_EQ(ranks_named({0, 2, 4}), "ranks 0, 2, 4");
  EXPECT_EQ(ranks_named({0, 1, 4, 5, 6}), "ranks 0-1, 4-6");
}

}  // namespace
}  // namespace nqueens::cli
