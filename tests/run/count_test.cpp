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

// Cancelled before the first subproblem (planning, the run's lists):
// count() throws run_cancelled rather than return an empty, incomplete run.
TEST(CountCancelTest, BeforeCountingThrowsRunCancelled) {
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

}  // namespace
}  // namespace nqueens
