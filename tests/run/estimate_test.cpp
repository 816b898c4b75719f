#include "nqueens/estimate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "nqueens/known_counts.hpp"
#include "support/axes.hpp"

namespace nqueens {
namespace {

// The sample's own Q(n) is the check that it samples the plan fairly: every
// engine's projection lies within 4 of its standard errors of the published
// count (the same draws every time: a fixed seed and number of runs).
TEST(EstimateTest, ProjectsQWithinItsStatedError) {
  for (const engine e : testing::registered_engines()) {
    for (const int n : {10, 13, 16}) {
      SCOPED_TRACE(std::string(to_string(e)) + " n = " + std::to_string(n));
      const plan p(n, {.kind = e});
      const cost_estimate c = estimate_cost(p, {.threads = 2, .seconds = 3600, .max_runs = 400, .seed = 7});
      const auto published = static_cast<double>(*published_total(n));
      EXPECT_EQ(c.runs, 400u);
      EXPECT_EQ(c.subproblems, p.size());
      EXPECT_GT(c.total_error, 0);
      EXPECT_LE(std::abs(c.total - published), 4 * c.total_error) << c.total << " +- " << c.total_error;
      EXPECT_LT(c.total_error, 0.5 * published);  // 400 draws say something
      EXPECT_GT(c.thread_seconds, 0);
      EXPECT_GE(c.thread_seconds_error, 0);
      EXPECT_EQ(c.threads, 2);
      EXPECT_NEAR(c.wall_seconds(4), c.setup_seconds + c.thread_seconds / 4, 1e-12);
    }
  }
}

// The draws depend on the seed alone, not on the threads that ran them.
TEST(EstimateTest, TheSameSeedDrawsTheSameSample) {
  const plan p(14, {.kind = engine::quadrant});
  const cost_estimate one = estimate_cost(p, {.threads = 1, .max_runs = 200, .seed = 3});
  const cost_estimate two = estimate_cost(p, {.threads = 2, .max_runs = 200, .seed = 3});
  const cost_estimate other = estimate_cost(p, {.threads = 2, .max_runs = 200, .seed = 4});
  EXPECT_DOUBLE_EQ(one.total, two.total);
  EXPECT_EQ(one.sampled, two.sampled);
  EXPECT_NE(one.total, other.total);
}

TEST(EstimateTest, RefusesWhatCannotBeSampled) {
  const plan p(8, {.kind = engine::symmetric});
  EXPECT_THROW(estimate_cost(p, {.threads = -1}), std::invalid_argument);
  EXPECT_THROW(estimate_cost(p, {.seconds = 0}), std::invalid_argument);
  EXPECT_THROW(estimate_cost(p, {.seconds = std::nan("")}), std::invalid_argument);
}

}  // namespace
}  // namespace nqueens
