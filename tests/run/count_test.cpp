#include "nqueens/count.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <tuple>
#include <vector>

#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/threads.hpp"
#include "support/axes.hpp"
#include "support/brute_force.hpp"

namespace nqueens {
namespace {

class CountTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(CountTest, SymmetricMatchesPublishedCounts) {
  const auto [n, threads] = GetParam();
  const count_result r = count(n, {.kind = engine::symmetric, .threads = threads});
  EXPECT_EQ(r.total, *published_total(n));
  ASSERT_TRUE(r.unique.has_value());
  EXPECT_EQ(*r.unique, *published_unique(n));
  EXPECT_TRUE(r.check.verified());
  EXPECT_EQ(r.threads, threads);
}

TEST_P(CountTest, MirrorMatchesPublishedTotalAndSymmetricEngine) {
  const auto [n, threads] = GetParam();
  const count_result r = count(n, {.kind = engine::mirror, .threads = threads});
  EXPECT_EQ(r.total, *published_total(n));
  ASSERT_TRUE(r.unique.has_value());  // from the rotation-symmetric counts: every engine has it
  EXPECT_EQ(*r.unique, *published_unique(n));
  EXPECT_EQ(r.total, count(n, {.kind = engine::symmetric, .threads = 1}).total);
}

// Thread counts include more threads than cores (8) and an odd count (3).
INSTANTIATE_TEST_SUITE_P(BoardsByThreads, CountTest,
                         ::testing::Combine(::testing::Range(1, 16), ::testing::Values(1, 2, 3, 8)));

class SplitDepthTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(SplitDepthTest, EveryDepthGivesTheSameCounts) {
  const auto [n, depth] = GetParam();
  for (const engine kind : {engine::symmetric, engine::mirror}) {
    const count_result r = count(n, {.kind = kind, .threads = 2, .split_depth = depth});
    EXPECT_EQ(r.total, *published_total(n)) << to_string(kind) << ", split depth " << depth;
    if (kind == engine::symmetric) EXPECT_EQ(*r.unique, *published_unique(n)) << "split depth " << depth;
    EXPECT_EQ(r.split_depth, std::min(depth, n));
  }
}

INSTANTIATE_TEST_SUITE_P(BoardsByDepth, SplitDepthTest,
                         ::testing::Combine(::testing::Range(1, 15), ::testing::Values(1, 2, 3, 5, 7)));

// Fundamental counts from first principles: map every solution (found by
// permutations) to the smallest of its 8 images and count distinct ones.
class ClassifierTest : public ::testing::TestWithParam<int> {};

TEST_P(ClassifierTest, UniqueMatchesBruteForceClassifier) {
  const int n = GetParam();
  const auto solutions = testing::all_solutions_by_permutation(n);
  std::set<std::vector<int>> canonical;
  for (const auto& q : solutions) {
    std::vector<int> best = q;
    for (int g = 0; g < 8; ++g) {
      std::vector<int> image(q.size());
      for (int r = 0; r < n; ++r) {
        int row = r, col = q[static_cast<std::size_t>(r)];
        if (g & 1) col = n - 1 - col;    // mirror
        if (g & 2) row = n - 1 - row;    // flip
        if (g & 4) std::swap(row, col);  // transpose
        image[static_cast<std::size_t>(row)] = col;
      }
      best = std::min(best, image);
    }
    canonical.insert(best);
  }
  const count_result r = count(n, {.kind = engine::symmetric, .threads = 2});
  EXPECT_EQ(*r.unique, canonical.size());
  EXPECT_EQ(r.total, solutions.size());
}

INSTANTIATE_TEST_SUITE_P(SmallBoards, ClassifierTest, ::testing::Range(1, 11));

TEST(ExecuteTest, DisjointSubsetsAddUpToTheWhole) {
  const plan p(13);
  std::vector<std::size_t> even, odd;
  for (std::size_t i = 0; i < p.size(); ++i) (i % 2 == 0 ? even : odd).push_back(i);
  const totals a = reduce(execute(p, even, {.threads = 2}));
  const totals b = reduce(execute(p, odd, {.threads = 1}));
  EXPECT_FALSE(a.complete());
  EXPECT_EQ(a.finished, even.size());
  EXPECT_EQ(a.total + b.total, *published_total(13));
  EXPECT_EQ(a.unique + b.unique, *published_unique(13));
}

TEST(ExecuteTest, CancellationStopsHandingOutWork) {
  const plan p(14);
  std::atomic<bool> cancel{false};
  std::atomic<int> seen{0};
  execute_options options;
  options.threads = 1;
  options.cancel = &cancel;
  options.on_finished = [&](std::size_t, const subproblem_count&) {
    if (++seen == 10) cancel = true;
  };
  const execution run = execute(p, options);
  const totals t = reduce(run);
  EXPECT_EQ(t.finished, 10u);
  EXPECT_FALSE(t.complete());
  EXPECT_LT(t.total, *published_total(14));
}

// Cancelled before the first subproblem (planning, the run's lists):
// count() throws run_cancelled rather than return an empty, incomplete run.
TEST(ExecuteTest, CancelBeforeCountingThrowsRunCancelled) {
  const std::atomic<bool> cancel{true};
  for (const engine kind : all_engines()) {
    count_options o;
    o.kind = kind;
    o.cancel = &cancel;
    EXPECT_THROW(count(12, o), run_cancelled) << to_string(kind);
  }
  count_options o;
  o.cancel = &cancel;
  EXPECT_THROW(symmetric_counts(12, o), run_cancelled);
}

TEST(ExecuteTest, ReportsEverySubproblemOnce) {
  const plan p(12);
  std::vector<std::atomic<int>> reported(p.size());
  execute_options options;
  options.threads = 3;
  const run_context context(p);
  options.on_finished = [&](std::size_t index, const subproblem_count& c) {
    ++reported[index];
    EXPECT_EQ(c, context.solve(index));
  };
  const execution run = execute(p, options);
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(reported[i].load(), 1) << i;
    EXPECT_EQ(run.finished[i], 1) << i;
  }
}

TEST(ExecuteTest, RejectsBadThreadCountsAndIndices) {
  const plan p(8);
  EXPECT_THROW(execute(p, {.threads = -1}), std::invalid_argument);
  EXPECT_THROW(execute(p, {.threads = max_threads + 1}), std::invalid_argument);
  const std::vector<std::size_t> outside{p.size()};
  EXPECT_THROW(execute(p, outside), std::invalid_argument);
  const std::vector<std::size_t> twice{0, 1, 0};
  EXPECT_THROW(execute(p, twice), std::invalid_argument);
}

TEST(VerifyTest, DetectsMismatchAndUnknown) {
  EXPECT_EQ(verify(8, 92).total, verdict::match);
  EXPECT_EQ(verify(8, 93).total, verdict::mismatch);
  EXPECT_FALSE(verify(8, 93).ok());
  EXPECT_EQ(verify(28, 1).total, verdict::unknown);
  EXPECT_TRUE(verify(28, 1).ok());
}

}  // namespace
}  // namespace nqueens

namespace nqueens {
namespace {

// The engine axis x the instruction-set axis: every registered engine counts
// every board up to 15 exactly with every kernel set this CPU has, and
// reports the kernels it used.
class EngineIsaCountTest : public ::testing::TestWithParam<std::tuple<engine, isa, int>> {};

TEST_P(EngineIsaCountTest, MatchesThePublishedCounts) {
  const auto [e, kernels, n] = GetParam();
  NQUEENS_SKIP_UNLESS_SUPPORTED(kernels);
  count_options options{.kind = e, .threads = 2};
  options.kernels = kernels;
  const count_result r = count(n, options);
  EXPECT_EQ(r.total, *published_total(n));
  EXPECT_EQ(r.kernels, kernels);
  EXPECT_EQ(r.kind, e);
  ASSERT_TRUE(r.unique.has_value());
  EXPECT_EQ(*r.unique, *published_unique(n));
  EXPECT_EQ(r.symmetric_180, *published_symmetric_180(n));
  EXPECT_EQ(r.symmetric_90, *published_symmetric_90(n));
  EXPECT_TRUE(r.check.verified());
}

INSTANTIATE_TEST_SUITE_P(EnginesByIsaByBoard, EngineIsaCountTest,
                         ::testing::Combine(::testing::ValuesIn(testing::registered_engines()),
                                            ::testing::ValuesIn(testing::all_isas()), ::testing::Range(1, 16)),
                         [](const auto& info) {
                           return testing::name_of(std::get<0>(info.param)) + "_" +
                                  testing::name_of(std::get<1>(info.param)) + "_n" +
                                  std::to_string(std::get<2>(info.param));
                         });

TEST(RunContextTest, IsReusedAcrossExecutionsAndRefusesAnotherPlan) {
  const plan p(12, {.kind = engine::quadrant});
  const run_context context(p, std::nullopt, 2);
  std::vector<std::size_t> first, second;
  for (std::size_t i = 0; i < p.size(); ++i) (i % 2 == 0 ? first : second).push_back(i);
  const execution a = execute(p, first, {.threads = 2}, &context);
  const execution b = execute(p, second, {.threads = 1}, &context);
  uint128 total = 0;
  for (const execution* run : {&a, &b}) {
    for (std::size_t k = 0; k < run->indices.size(); ++k) {
      EXPECT_EQ(run->indices[k], (run == &a ? first : second)[k]);
      total += run->counts[k].total;
    }
  }
  EXPECT_EQ(total, *published_total(12));
  EXPECT_EQ(a.kernels, context.kernels());
  EXPECT_THROW(execute(plan(12), first, {}, &context), std::invalid_argument);
  EXPECT_THROW(context.solve(p.size()), std::out_of_range);
}

}  // namespace
}  // namespace nqueens
