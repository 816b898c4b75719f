#include "run/measure/load_balance.hpp"

#include <gtest/gtest.h>

#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/plan.hpp"

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
