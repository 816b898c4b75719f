// The mirror engine's plan: prefixes of the left half, in order.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "engines/row_engine.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"
#include "support/row_prefixes.hpp"

namespace nqueens {
namespace {

// Pinned, as the symmetric and quadrant engines' are (a journal's plan).
TEST(MirrorPlanTest, FingerprintsArePinned) {
  EXPECT_EQ(format_fingerprint(plan(12, {.kind = engine::mirror}).fingerprint()), "94f7f975c03e5687");
  EXPECT_EQ(format_fingerprint(plan(15, {.kind = engine::mirror}).fingerprint()), "7b7e79d28b1b346c");
  EXPECT_EQ(format_fingerprint(plan(13, {.kind = engine::mirror, .split_depth = 5}).fingerprint()), "87332f2dcae0e240");
}

TEST(MirrorPlanTest, MirrorSubproblemsArePrefixesInLexicographicOrder) {
  for (int n = 1; n <= 14; ++n) {
    for (int depth = 1; depth <= 4; ++depth) {
      const plan p(n, {.kind = engine::mirror, .split_depth = depth});
      EXPECT_EQ(p.split_depth(), std::min(depth, n));
      const auto& subproblems = detail::row_subproblems(*detail::plan_access::engine(p));
      for (std::size_t i = 0; i < p.engine_subproblems(); ++i) {
        const detail::row_prefix& s = subproblems[i];
        EXPECT_EQ(
            std::count_if(s.columns.begin(), s.columns.end(), [](std::uint8_t c) { return c != detail::no_queen; }),
            p.split_depth());
        for (int r = 0; r < p.split_depth(); ++r) EXPECT_TRUE(s.has_queen(r));
        EXPECT_TRUE(non_attacking(n, s));
        EXPECT_TRUE(s.weight == 1 || s.weight == 2);
        EXPECT_EQ(s.classify, 0);
        EXPECT_LE(s.columns[0],
                  n / 2);  // the mirror: never right of the middle
        if (i > 0) EXPECT_LT(subproblems[i - 1].columns, s.columns) << "n = " << n << ", index " << i;
      }
    }
  }
}

}  // namespace
}  // namespace nqueens
