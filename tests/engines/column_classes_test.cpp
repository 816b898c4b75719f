// The quadrant plan's classes of north column sets: ranked, they are the
// listed ones, in order, and large boards are ranked in order.

#include "engines/join_model/column_classes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <vector>

namespace nqueens {
namespace {

// The classes as the plan listed them before it was ranked: every (middle,
// north) pair in order, kept when it is the least of its orbit sorted as
// pairs, weighted by the orbit's distinct members.
std::vector<detail::column_class> listed_classes(int n) {
  const int half = n / 2;
  const std::uint32_t full = (1U << n) - 1;
  const auto mirror = [n](std::uint32_t set) {
    std::uint32_t m = 0;
    for (int c = 0; c < n; ++c) m |= ((set >> c) & 1U) << (n - 1 - c);
    return m;
  };
  std::vector<detail::column_class> classes;
  for (int middle = n % 2 == 0 ? -1 : 0; middle < (n % 2 == 0 ? 0 : n); ++middle) {
    for (std::uint32_t north = 0; north <= full; ++north) {
      if (std::popcount(north) != half || (middle >= 0 && ((north >> middle) & 1U) != 0)) continue;
      const std::uint32_t rest = full & ~north & (middle >= 0 ? ~(1U << middle) : full);
      const int m = middle >= 0 ? n - 1 - middle : -1;
      std::vector<std::pair<int, std::uint32_t>> orbit = {
          {middle, north}, {middle, rest}, {m, mirror(north)}, {m, mirror(rest)}};
      std::sort(orbit.begin(), orbit.end());
      if (orbit[0] != std::pair{middle, north}) continue;
      const auto weight = static_cast<std::uint8_t>(std::unique(orbit.begin(), orbit.end()) - orbit.begin());
      classes.push_back({north, static_cast<std::int8_t>(middle), weight});
    }
  }
  return classes;
}

// The ranked classes are the listed ones, in the same order, whether walked
// in one pass or each found from its rank.
TEST(ColumnClassesTest, RankedClassesAreTheListedOnes) {
  for (int n = 1; n <= 19; ++n) {
    const std::vector<detail::column_class> expected = listed_classes(n);
    const detail::column_classes classes(n);
    ASSERT_EQ(classes.size(), expected.size()) << n;
    std::vector<detail::column_class> walked;
    classes.for_each([&](const detail::column_class& c) { walked.push_back(c); });
    EXPECT_EQ(walked, expected) << n;
    for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(classes.at(i), expected[i]) << n << ", " << i;
  }
}

// Plans of 10^7 subproblems are ranked, not listed: n = 27's, walked at a
// sample of ranks, are the least members of their orbits, in increasing
// order, with weights that add up right at the ends.
TEST(ColumnClassesTest, LargeBoardsAreRankedInOrder) {
  const detail::column_classes classes(27);
  // (h + 1) C(n, h) / 4 pairs of a middle column and a north set, nearly all
  // in orbits of 4.
  EXPECT_NEAR(static_cast<double>(classes.size()), 14.0 * 20058300 / 4, 14.0 * 20058300 / 400);
  EXPECT_LT(classes.bytes(), std::size_t{8} << 20);
  std::pair<int, std::uint32_t> previous{-2, 0};
  for (std::size_t i = 0; i < classes.size(); i += classes.size() / 997) {
    const detail::column_class c = classes.at(i);
    EXPECT_EQ(std::popcount(c.north), 13);
    EXPECT_EQ(detail::class_weight(27, c.middle, c.north), c.weight);
    EXPECT_GT(std::pair(int{c.middle}, c.north), previous) << i;
    previous = {c.middle, c.north};
  }
  EXPECT_EQ(classes.at(0), (detail::column_class{(1U << 14) - 2, 0, 4}));  // columns 1..13, middle queen in 0
}

}  // namespace
}  // namespace nqueens
