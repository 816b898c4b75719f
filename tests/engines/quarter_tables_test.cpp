// The quarter tables and the quarter lists built per subproblem: the same
// placements, and a cancelled build never reused.

#include "engines/join_model/quarter_tables.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "nqueens/cancelled.hpp"

namespace nqueens {
namespace {

// A quarter built for one column set holds exactly the table's placements on
// it, row set by row set, in the same order.
TEST(QuarterListTest, HoldsTheTablesPlacementsOnEachColumnSet) {
  for (const int n : {7, 8, 11, 14}) {
    const detail::half_board_tables tables(n);
    const int h = n / 2;
    detail::quarter_list list, compact;
    std::size_t placements = 0;
    for (const bool west : {true, false}) {
      const detail::quarter_table& table = west ? tables.west() : tables.east();
      const int width = west ? h : n - h;
      for (std::uint32_t columns = 0; columns < (1U << width); ++columns) {
        const detail::quarter_view built = list.build(n, west ? 0 : h, width, columns);
        const detail::quarter_view small = compact.build(n, west ? 0 : h, width, columns, true);
        const detail::quarter_view tabled = table.on(columns);
        for (std::uint32_t rows = 0; rows < (1U << h); ++rows) {
          const auto a = built.masks_on(rows), b = tabled.masks_on(rows), c = small.masks_on(rows);
          ASSERT_TRUE(std::equal(c.begin(), c.end(), b.begin(), b.end())) << "compact, n = " << n;
          const auto z = small.signatures_on(rows), y2 = tabled.signatures_on(rows);
          ASSERT_TRUE(std::equal(z.begin(), z.end(), y2.begin(), y2.end())) << "compact, n = " << n;
          ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end()))
              << "n = " << n << ", west " << west << ", columns " << columns << ", rows " << rows;
          const auto x = built.signatures_on(rows), y = tabled.signatures_on(rows);
          ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end()));
          placements += a.size();
        }
      }
    }
    EXPECT_EQ(placements, tables.west().size() + tables.east().size()) << n;
  }
}

// A compact list counted first (bytes_to_build) tells the bytes it then
// holds, and builds the same placements as one built at once; a count for
// other columns in between is not taken for the first one's.
TEST(QuarterListTest, CountedFirstTellsItsBytesAndBuildsTheSame) {
  const int n = 14, h = n / 2;
  const detail::half_board_tables tables(n);
  detail::quarter_list list;
  for (const std::uint32_t columns : {0b1011011U, 0b1111111U, 0b0000001U, 0b1111111U}) {
    const std::size_t bytes = list.bytes_to_build(n, 0, h, columns);
    (void)list.bytes_to_build(n, 0, h, columns ^ 0b1000000U);  // another count, dropped by the build below
    const detail::quarter_view built = list.build(n, 0, h, columns, true);
    if (columns != 0b0000001U) EXPECT_EQ(list.bytes(), bytes) << columns;  // a smaller list keeps the capacity
    EXPECT_EQ(list.bytes_to_build(n, 0, h, columns), list.bytes()) << "built already: nothing to count";
    const detail::quarter_view tabled = tables.west().on(columns);
    for (std::uint32_t rows = 0; rows < (1U << h); ++rows) {
      const auto a = built.masks_on(rows), b = tabled.masks_on(rows);
      ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << columns << ", rows " << rows;
    }
  }
}

// A build cancelled midway leaves no list behind: the same column set asked
// again is built anew, and matches the table (a list kept half-made would
// count a resumed subproblem wrong).
TEST(QuarterListTest, CancelledBuildIsNotReused) {
  const int n = 14, h = n / 2;
  const detail::half_board_tables tables(n);
  const std::uint32_t columns = 0b1011011;
  for (const bool compact : {false, true}) {
    detail::quarter_list list;
    const std::atomic<bool> cancel{true};
    EXPECT_THROW((void)list.build(n, 0, h, columns, compact, &cancel), subproblem_cancelled);
    const detail::quarter_view built = list.build(n, 0, h, columns, compact);
    const detail::quarter_view tabled = tables.west().on(columns);
    for (std::uint32_t rows = 0; rows < (1U << h); ++rows) {
      const auto a = built.masks_on(rows), b = tabled.masks_on(rows);
      ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << "compact " << compact << ", rows " << rows;
    }
  }
}

}  // namespace
}  // namespace nqueens
