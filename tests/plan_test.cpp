#include "nqueens/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "kernel/backtrack.hpp"

namespace nqueens {
namespace {

TEST(PlanTest, IsDeterministic) {
  const plan a(14), b(14);
  EXPECT_EQ(a.size(), b.size());
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
  EXPECT_TRUE(std::equal(a.subproblems().begin(), a.subproblems().end(), b.subproblems().begin()));
}

TEST(PlanTest, FingerprintSeparatesBoardSizesAndDepths) {
  EXPECT_NE(plan(12).fingerprint(), plan(13).fingerprint());
  EXPECT_NE(plan(12, {.split_depth = 2}).fingerprint(), plan(12, {.split_depth = 3}).fingerprint());
}

TEST(PlanTest, SubproblemsAreValidPrefixesInLexicographicOrder) {
  for (int n = 1; n <= 14; ++n) {
    for (int depth = 1; depth <= 4; ++depth) {
      const plan p(n, {.split_depth = depth});
      EXPECT_EQ(p.split_depth(), std::min(depth, n));
      for (std::size_t i = 0; i < p.size(); ++i) {
        const subproblem& s = p[i];
        EXPECT_EQ(s.depth, p.split_depth());
        EXPECT_TRUE(detail::is_non_attacking_prefix(n, std::span(s.columns).first(s.depth)));
        EXPECT_TRUE(s.weight == 1 || s.weight == 2);
        // Mirror: the first queen is never right of the middle.
        EXPECT_LE(s.columns[0], n / 2);
        if (i > 0) EXPECT_LT(p[i - 1].columns, s.columns) << "n = " << n << ", index " << i;
      }
    }
  }
}

TEST(PlanTest, AutomaticDepthGivesEnoughSubproblemsOnLargeBoards) {
  for (int n = 14; n <= 20; ++n) {
    const plan p(n);
    EXPECT_GE(p.size(), plan_options{}.target_subproblems) << "n = " << n;
    // ...and not vastly more: the depth stops as soon as the target is met.
    const plan shallower(n, {.split_depth = p.split_depth() - 1});
    EXPECT_LT(shallower.size(), plan_options{}.target_subproblems) << "n = " << n;
  }
}

TEST(PlanTest, RejectsBadBoardSizesAndDepths) {
  EXPECT_THROW(plan(0), std::invalid_argument);
  EXPECT_THROW(plan(-3), std::invalid_argument);
  EXPECT_THROW(plan(max_board_size + 1), std::invalid_argument);
  EXPECT_THROW(plan(8, {.split_depth = -1}), std::invalid_argument);
  EXPECT_THROW(plan(8, {.split_depth = max_split_depth + 1}), std::invalid_argument);
  EXPECT_NO_THROW(plan(max_board_size, {.split_depth = 1}));
}

}  // namespace
}  // namespace nqueens
