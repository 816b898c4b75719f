#include "kernel/backtrack.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "support/brute_force.hpp"

namespace nqueens::detail {
namespace {

// Every non-attacking placement of the first `depth` rows, checked with the
// test's own attack rule rather than the kernel's bitmasks.
void all_prefixes(int n, int depth, std::vector<int>& prefix, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(prefix.size()) == depth) {
    out.push_back(prefix);
    return;
  }
  for (int c = 0; c < n; ++c) {
    prefix.push_back(c);
    bool ok = true;
    for (std::size_t r = 0; r + 1 < prefix.size() && ok; ++r) {
      const int dr = static_cast<int>(prefix.size() - 1 - r);
      ok = prefix[r] != c && std::abs(prefix[r] - c) != dr;
    }
    if (ok) all_prefixes(n, depth, prefix, out);
    prefix.pop_back();
  }
}

class KernelTest : public ::testing::TestWithParam<int> {};

TEST_P(KernelTest, CompletionsMatchPermutationCounterForEveryPrefix) {
  const int n = GetParam();
  const auto solutions = testing::all_solutions_by_permutation(n);
  for (int depth = 0; depth <= std::min(n, 4); ++depth) {
    std::vector<std::vector<int>> prefixes;
    std::vector<int> scratch;
    all_prefixes(n, depth, scratch, prefixes);
    for (const auto& prefix : prefixes) {
      const std::vector<std::uint8_t> columns(prefix.begin(), prefix.end());
      ASSERT_TRUE(is_non_attacking_prefix(n, columns));
      EXPECT_EQ(count_completions(n, place_prefix(n, columns)), testing::count_with_prefix(solutions, prefix))
          << "n = " << n << ", depth " << depth;
    }
  }
}

TEST_P(KernelTest, AFullSolutionHasExactlyOneCompletion) {
  const int n = GetParam();
  for (const auto& solution : testing::all_solutions_by_permutation(n)) {
    const std::vector<std::uint8_t> columns(solution.begin(), solution.end());
    EXPECT_EQ(count_completions(n, place_prefix(n, columns)), 1u);
  }
}

INSTANTIATE_TEST_SUITE_P(BoardSizes, KernelTest, ::testing::Range(1, 10));

TEST(KernelPrefixTest, RejectsAttackingAndOffBoardPrefixes) {
  const std::vector<std::uint8_t> same_column{2, 2};
  const std::vector<std::uint8_t> diagonal{0, 1};
  const std::vector<std::uint8_t> anti_diagonal{3, 0, 1};
  const std::vector<std::uint8_t> off_board{0, 8};
  const std::vector<std::uint8_t> fine{0, 2, 4};
  EXPECT_FALSE(is_non_attacking_prefix(8, same_column));
  EXPECT_FALSE(is_non_attacking_prefix(8, diagonal));
  EXPECT_FALSE(is_non_attacking_prefix(8, anti_diagonal));
  EXPECT_FALSE(is_non_attacking_prefix(8, off_board));
  EXPECT_TRUE(is_non_attacking_prefix(8, fine));
}

TEST(KernelPrefixTest, LargestBoardHasNoOverflowInMasks) {
  // Queens on the edge columns of a 32-board: shifts must not wrap.
  const std::vector<std::uint8_t> columns{31, 0, 30, 1};
  ASSERT_TRUE(is_non_attacking_prefix(32, columns));
  const board_state s = place_prefix(32, columns);
  EXPECT_EQ(s.row, 4);
  EXPECT_EQ(s.columns, 0xC0000003u);
}

}  // namespace
}  // namespace nqueens::detail
