// The symmetric engine's plan: Takaken's bounds on the border queens.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "engines/row_engine.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"
#include "support/row_prefixes.hpp"

namespace nqueens {
namespace {

// A plan's fingerprint is what a journal, a shard and an MPI rank prove
// they share: a change of it refuses every journal of the plans before,
// and a change of the plan (its prefixes, their weights) that leaves it as
// it was would let them mix. Pinned, as the quadrant engine's are.
TEST(SymmetricPlanTest, FingerprintsArePinned) {
  EXPECT_EQ(format_fingerprint(plan(12, {.kind = engine::symmetric}).fingerprint()), "d0fe00b6c56b4b19");
  EXPECT_EQ(format_fingerprint(plan(15, {.kind = engine::symmetric}).fingerprint()), "6f4ffac831ae835d");
  EXPECT_EQ(format_fingerprint(plan(13, {.kind = engine::symmetric, .split_depth = 2}).fingerprint()),
            "a82e71a7ef55e3bf");
}

TEST(SymmetricPlanTest, SymmetricSubproblemsRespectTheBounds) {
  for (int n = 4; n <= 14; ++n) {
    for (int depth = 1; depth <= 4; ++depth) {
      const plan p(n, {.kind = engine::symmetric, .split_depth = depth});
      const auto& subproblems = detail::row_subproblems(*detail::plan_access::engine(p));
      for (std::size_t i = 0; i < p.engine_subproblems(); ++i) {
        const detail::row_prefix& s = subproblems[i];
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
        if (i > 0) EXPECT_LT(subproblems[i - 1].columns, s.columns);
      }
    }
  }
}

}  // namespace
}  // namespace nqueens
