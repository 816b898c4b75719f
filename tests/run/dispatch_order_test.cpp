#include "run/dispatch_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "nqueens/execute.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/progress.hpp"
#include "run/dispatch_positions.hpp"
#include "run/measure/eta_replay.hpp"
#include "run/measure/load_balance.hpp"

namespace nqueens {
namespace {

using detail::dispatch_order;
using detail::replayed_eta_error;

std::vector<std::size_t> first_indices(std::size_t size, std::size_t offset = 0) {
  std::vector<std::size_t> v(size);
  std::iota(v.begin(), v.end(), offset);
  return v;
}

TEST(DispatchOrderTest, IsAFixedPermutationOfItsInput) {
  for (const std::size_t size : {0UL, 1UL, 2UL, 3UL, 10UL, 1024UL, 4096UL, 13787UL, 176000UL}) {
    const std::vector<std::size_t> input = first_indices(size, 5);
    std::vector<std::size_t> order = dispatch_order(input);
    EXPECT_EQ(order, dispatch_order(input)) << size;  // the same every time
    std::sort(order.begin(), order.end());
    EXPECT_EQ(order, input) << size;
  }
}

TEST(DispatchOrderTest, EveryTenthOfTheRunSamplesThePlanEvenly) {
  // The first 10% of the order takes close to 10% of each tenth of the plan,
  // so a plan whose cost drifts along its indices is sampled fairly.
  for (const std::size_t size : {20000UL, 176000UL}) {
    const std::vector<std::size_t> order = dispatch_order(first_indices(size));
    for (int part = 0; part < 10; ++part) {
      std::array<std::size_t, 10> per_tenth{};
      for (std::size_t k = size * part / 10; k < size * (part + 1) / 10; ++k) ++per_tenth[order[k] * 10 / size];
      for (const std::size_t c : per_tenth) {
        EXPECT_NEAR(static_cast<double>(c), static_cast<double>(size) / 100, static_cast<double>(size) / 400)
            << "size " << size << ", part " << part;
      }
    }
  }
}

TEST(DispatchOrderTest, ReplayedEtaIsExactWhenEstimatesAreProportional) {
  const std::vector<std::size_t> order = first_indices(100);
  std::vector<double> seconds(100);
  std::vector<std::uint64_t> work(100);
  for (std::size_t i = 0; i < 100; ++i) {
    work[i] = 1 + i % 7;
    seconds[i] = 0.5 * static_cast<double>(work[i]);
  }
  EXPECT_NEAR(replayed_eta_error(order, seconds, work), 0.0, 1e-12);
  // Cheap first, then dear: uniform estimates are then far too optimistic.
  for (std::size_t i = 0; i < 100; ++i) {
    work[i] = 1;
    seconds[i] = i < 50 ? 1.0 : 10.0;
  }
  EXPECT_LT(replayed_eta_error(order, seconds, work), -0.5);
}

TEST(DispatchOrderTest, QuadrantEtaStaysWithinAFifthOnItsCosts) {
  // The quadrant plan's subproblems all weigh 1 while their costs span
  // orders of magnitude and drift along the plan. Replayed on each
  // subproblem's cost, the ETA stays within 20% in dispatch order, and
  // leaves that bound in plan order. The cost is the subproblem's solution
  // count, which follows its time (the pairs it counts) and, unlike a
  // measured time, is the same on a loaded machine: a busy neighbour must
  // not turn this red.
  const plan p(17, {.kind = engine::quadrant});
  const std::vector<std::size_t> plan_order = first_indices(p.size());
  const std::vector<std::size_t> order = dispatch_order(plan_order);
  execute_options options;
  options.threads = 2;
  const execution e = execute(p, plan_order, options);
  std::vector<double> cost(p.size());
  for (std::size_t k = 0; k < plan_order.size(); ++k) cost[plan_order[k]] = 1 + static_cast<double>(e.counts[k].total);
  const std::vector<std::uint64_t> work = estimate_work(p);
  EXPECT_LT(std::fabs(replayed_eta_error(order, cost, work)), 0.2) << replayed_eta_error(order, cost, work);
  EXPECT_GT(std::fabs(replayed_eta_error(plan_order, cost, work)), 0.2) << replayed_eta_error(plan_order, cost, work);
}

TEST(DispatchOrderTest, LoadBalanceReplaysTheEta) {
  const plan p(12);
  const detail::load_balance lb = detail::measure_load_balance(p, 1);
  EXPECT_TRUE(std::isfinite(lb.eta_worst_error));  // computed: its size is the machine's, not a defect's
  EXPECT_EQ(lb.subproblems, p.size());
}

// The run builds its list in dispatch order without the list dispatch_order
// takes: both must give the same order.
TEST(DispatchOrderTest, PositionsWalkTheSameOrder) {
  for (const std::size_t size : {0UL, 1UL, 2UL, 3UL, 1023UL, 1024UL, 65537UL, 176000UL}) {
    std::vector<std::size_t> walked;
    detail::for_each_dispatch_position(size, [&](std::size_t k) { walked.push_back(k); });
    EXPECT_EQ(walked, dispatch_order(first_indices(size))) << size;
  }
}

}  // namespace
}  // namespace nqueens
