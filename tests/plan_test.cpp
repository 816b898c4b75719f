#include "nqueens/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <stdexcept>

#include "kernel/backtrack.hpp"

namespace nqueens {
namespace {

TEST(PlanTest, IsDeterministic) {
  const plan a(14), b(14);
  EXPECT_EQ(a.size(), b.size());
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
  EXPECT_TRUE(std::equal(a.subproblems().begin(), a.subproblems().end(),
                         b.subproblems().begin()));
}

TEST(PlanTest, FingerprintSeparatesBoardSizesAndDepths) {
  EXPECT_NE(plan(12).fingerprint(), plan(13).fingerprint());
  EXPECT_NE(plan(12, {.kind = engine::symmetric}).fingerprint(), plan(12, {.kind = engine::mirror}).fingerprint());
  EXPECT_NE(plan(12, {.split_depth = 2}).fingerprint(),
            plan(12, {.split_depth = 3}).fingerprint());
}

bool non_attacking(int n, const subproblem& s) {
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if (!s.has_queen(a) || !s.has_queen(b)) continue;
      const int ca = s.columns[static_cast<std::size_t>(a)],
                cb = s.columns[static_cast<std::size_t>(b)];
      if (ca == cb || std::abs(ca - cb) == b - a) return false;
    }
  }
  return true;
}

TEST(PlanTest, MirrorSubproblemsArePrefixesInLexicographicOrder) {
  for (int n = 1; n <= 14; ++n) {
    for (int depth = 1; depth <= 4; ++depth) {
      const plan p(n, {.kind = engine::mirror, .split_depth = depth});
      EXPECT_EQ(p.split_depth(), std::min(depth, n));
      for (std::size_t i = 0; i < p.size(); ++i) {
        const subproblem& s = p[i];
        EXPECT_EQ(s.queens(), p.split_depth());
        for (int r = 0; r < p.split_depth(); ++r) EXPECT_TRUE(s.has_queen(r));
        EXPECT_TRUE(non_attacking(n, s));
        EXPECT_TRUE(s.weight == 1 || s.weight == 2);
        EXPECT_EQ(s.classify, 0);
        EXPECT_LE(s.columns[0],
                  n / 2);  // the mirror: never right of the middle
        if (i > 0)
          EXPECT_LT(p[i - 1].columns, s.columns)
              << "n = " << n << ", index " << i;
      }
    }
  }
}

TEST(PlanTest, SymmetricSubproblemsRespectTheBounds) {
  for (int n = 4; n <= 14; ++n) {
    for (int depth = 1; depth <= 4; ++depth) {
      const plan p(n, {.kind = engine::symmetric, .split_depth = depth});
      for (std::size_t i = 0; i < p.size(); ++i) {
        const subproblem& s = p[i];
        EXPECT_TRUE(non_attacking(n, s)) << "n = " << n << ", index " << i;
        for (int r = 0; r < p.split_depth(); ++r) EXPECT_TRUE(s.has_queen(r));
        const int t = s.columns[0];
        EXPECT_LE(t, (n - 1) / 2);  // the smallest slot is at most the middle
        if (t == 0) {
          // Corner: every completion is the canonical member of a class of 8,
          // and row 1's queen lies left of column 1's queen's row.
          EXPECT_EQ(s.weight, 8);
          EXPECT_EQ(s.classify, 0);
          EXPECT_GE(s.columns[1], 2);
          for (int r = 2; r <= std::min<int>(s.columns[1], p.split_depth() - 1); ++r) EXPECT_NE(s.columns[r], 1);
        } else {
          EXPECT_EQ(s.classify, 1);
          for (int r = 1; r < std::min(t, p.split_depth()); ++r) {
            EXPECT_NE(s.columns[r], 0);
            EXPECT_NE(s.columns[r], n - 1);
          }
        }
        if (i > 0) EXPECT_LT(p[i - 1].columns, s.columns);
      }
    }
  }
}

TEST(PlanTest, AutomaticDepthGivesEnoughSubproblemsOnLargeBoards) {
  for (int n = 14; n <= 20; ++n) {
    for (const engine kind : {engine::symmetric, engine::mirror}) {
      const plan p(n, {.kind = kind});
      EXPECT_GE(p.size(), automatic_target(n)) << "n = " << n;
      // ...and not vastly more: the depth stops as soon as the target is met.
      if (p.split_depth() == 1) continue;
      const plan shallower(n,
                           {.kind = kind, .split_depth = p.split_depth() - 1});
      EXPECT_LT(shallower.size(), automatic_target(n))
          << "n = " << n;
    }
  }
}

TEST(PlanTest, RejectsBadBoardSizesAndDepths) {
  EXPECT_THROW(plan(0), std::invalid_argument);
  EXPECT_THROW(plan(-3), std::invalid_argument);
  EXPECT_THROW(plan(max_board_size + 1), std::invalid_argument);
  EXPECT_THROW(plan(8, {.split_depth = -1}), std::invalid_argument);
  EXPECT_THROW(plan(8, {.split_depth = max_split_depth + 1}),
               std::invalid_argument);
  EXPECT_NO_THROW(plan(max_board_size, {.split_depth = 1}));
  // A split far too deep for the board is refused before it exhausts memory.
  EXPECT_THROW(plan(20, {.kind = engine::mirror, .split_depth = max_split_depth}), std::invalid_argument);
}

}  // namespace
}  // namespace nqueens
