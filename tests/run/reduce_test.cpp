#include "nqueens/reduce.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace nqueens {
namespace {

constexpr std::uint64_t max64 = std::numeric_limits<std::uint64_t>::max();

// Only finished subproblems count, and sums pass 2^64 exactly: a count of
// Q(27) and above does not fit 64 bits.
TEST(ReduceTest, AddsFinishedSubproblemsPast64Bits) {
  execution run;
  run.plan_size = 4;
  run.indices = {0, 1, 2};
  run.counts = {{max64, 1, 2, 3}, {max64, max64, 0, 1}, {5, 5, 5, 5}};
  run.finished = {1, 1, 0};
  const totals t = reduce(run);
  EXPECT_EQ(t.total, uint128{max64} * 2);
  EXPECT_EQ(t.unique, uint128{max64} + 1);
  EXPECT_EQ(t.symmetric_180, 2u);
  EXPECT_EQ(t.symmetric_90, 4u);
  EXPECT_EQ(t.finished, 2u);
  EXPECT_EQ(t.subproblems, 4u);
  EXPECT_FALSE(t.complete());
}

// An execution filled by hand whose lists differ in length is refused,
// not read past the shorter one's end.
TEST(ReduceTest, RefusesListsOfTwoLengths) {
  execution run;
  run.plan_size = 1000;
  run.counts.assign(1000, {1, 0, 0, 0});
  EXPECT_THROW(reduce(run), std::invalid_argument);
  run.finished.assign(1000, 1);
  EXPECT_EQ(reduce(run).total, 1000U);
}

TEST(ReduceTest, RefusesToWrapPast128Bits) {
  totals sums;
  sums.total = ~uint128{0} - 1;
  accumulate(sums, {1, 0, 0, 0});
  EXPECT_EQ(sums.total, ~uint128{0});
  EXPECT_THROW(accumulate(sums, {1, 0, 0, 0}), std::overflow_error);
}

}  // namespace
}  // namespace nqueens
