#include "kernel/backtrack.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "kernel/batched.hpp"
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

subproblem with_queens(const std::vector<std::pair<int, int>>& queens) {
  subproblem s;
  for (const auto& [row, col] : queens) s.columns[static_cast<std::size_t>(row)] = static_cast<std::uint8_t>(col);
  return s;
}

std::uint64_t brute_force_count(const std::vector<std::vector<int>>& solutions,
                                const std::vector<std::pair<int, int>>& queens) {
  return static_cast<std::uint64_t>(std::count_if(solutions.begin(), solutions.end(), [&](const auto& q) {
    return std::all_of(queens.begin(), queens.end(), [&](const auto& rc) { return q[rc.first] == rc.second; });
  }));
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
      std::vector<std::pair<int, int>> queens;
      for (int r = 0; r < depth; ++r) queens.emplace_back(r, prefix[static_cast<std::size_t>(r)]);
      EXPECT_EQ(count_completions(n, prepare(n, engine::mirror, with_queens(queens))),
                testing::count_with_prefix(solutions, prefix))
          << "n = " << n << ", depth " << depth;
    }
  }
}

TEST_P(KernelTest, AFullSolutionHasExactlyOneCompletion) {
  const int n = GetParam();
  for (const auto& solution : testing::all_solutions_by_permutation(n)) {
    std::vector<std::pair<int, int>> queens;
    for (int r = 0; r < n; ++r) queens.emplace_back(r, solution[static_cast<std::size_t>(r)]);
    EXPECT_EQ(count_completions(n, prepare(n, engine::mirror, with_queens(queens))), 1u);
  }
}

// Queens pre-placed in any two rows (not a prefix): their attacks reach the
// search through the per-row allowed masks.
class PrePlacedTest : public ::testing::TestWithParam<int> {};

TEST_P(PrePlacedTest, QueensInAnyTwoRowsMatchPermutationCounter) {
  const int n = GetParam();
  const auto solutions = testing::all_solutions_by_permutation(n);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      for (int ca = 0; ca < n; ++ca) {
        for (int cb = 0; cb < n; ++cb) {
          if (ca == cb || std::abs(ca - cb) == b - a) continue;
          const std::vector<std::pair<int, int>> queens{{a, ca}, {b, cb}};
          EXPECT_EQ(count_completions(n, prepare(n, engine::mirror, with_queens(queens))), brute_force_count(solutions, queens))
              << "n = " << n << ", queens (" << a << "," << ca << ") (" << b << "," << cb << ")";
        }
      }
    }
  }
}

TEST_P(KernelTest, VisitCompletionsSeesExactlyTheSolutions) {
  const int n = GetParam();
  const auto solutions = testing::all_solutions_by_permutation(n);
  for (int c = 0; c < n; ++c) {
    const std::vector<std::pair<int, int>> queens{{n - 1, c}};  // pre-placed last row only
    std::vector<std::vector<int>> seen;
    const auto record = [](std::span<const std::uint8_t> q, void* context) noexcept -> std::uint64_t {
      static_cast<std::vector<std::vector<int>>*>(context)->emplace_back(q.begin(), q.end());
      return 1;
    };
    const std::uint64_t visited =
        visit_completions(n, prepare(n, engine::mirror, with_queens(queens)), record, &seen);
    EXPECT_EQ(visited, seen.size());
    std::sort(seen.begin(), seen.end());  // the batched search visits in its own order
    std::vector<std::vector<int>> expected;
    for (const auto& s : solutions) {
      if (s.back() == c) expected.push_back(s);
    }
    EXPECT_EQ(seen, expected) << "n = " << n << ", last-row column " << c;
  }
}

INSTANTIATE_TEST_SUITE_P(BoardSizes, KernelTest, ::testing::Range(1, 10));
// Quadratic in rows and columns: boards up to 8 cover every case.
INSTANTIATE_TEST_SUITE_P(BoardSizes, PrePlacedTest, ::testing::Range(1, 9));

// The batched (SIMD) and scalar searches must agree on every subproblem of
// real plans, constrained ones (symmetric engine) included.
TEST(KernelAgreementTest, BatchedAndScalarSearchesAgree) {
  if (!has_batched_search()) GTEST_SKIP() << "this build has no batched search";
  for (const engine kind : {engine::symmetric, engine::mirror}) {
    for (int n = 1; n <= 13; ++n) {
      for (const int depth : {1, 3}) {
        const plan p(n, {.kind = kind, .split_depth = depth});
        for (std::size_t i = 0; i < p.size(); ++i) {
          const search_start start = prepare(n, kind, p[i]);
          ASSERT_EQ(count_completions_batched(n, start), count_completions_scalar(n, start))
              << to_string(kind) << ", n = " << n << ", depth " << depth << ", subproblem " << i;
          // The recording searches must see the same completions (in any order).
          std::vector<std::vector<int>> batched, scalar;
          const auto record = [](std::span<const std::uint8_t> q, void* context) noexcept -> std::uint64_t {
            static_cast<std::vector<std::vector<int>>*>(context)->emplace_back(q.begin(), q.end());
            return 1;
          };
          visit_completions_batched(n, start, record, &batched);
          visit_completions_scalar(n, start, record, &scalar);
          std::sort(batched.begin(), batched.end());
          ASSERT_EQ(batched, scalar) << to_string(kind) << ", n = " << n << ", subproblem " << i;
        }
      }
    }
  }
}

// The largest boards: masks use bit 31 and the vector shifts run at full
// width. Fix all but the last 9 rows of a known solution; both searches must
// agree and find that solution among the completions.
TEST(KernelAgreementTest, LargestBoardsFromADeepPrefix) {
  for (const int n : {29, 30, 31, 32}) {
    const std::vector<int> solution = testing::explicit_solution(n);
    ASSERT_TRUE(testing::is_solution(solution)) << "n = " << n;
    std::vector<std::pair<int, int>> queens;
    for (int r = 0; r < n - 9; ++r) queens.emplace_back(r, solution[static_cast<std::size_t>(r)]);
    const search_start start = prepare(n, engine::mirror, with_queens(queens));
    const std::uint64_t scalar = count_completions_scalar(n, start);
    EXPECT_GE(scalar, 1u) << "n = " << n;
    if (has_batched_search()) EXPECT_EQ(count_completions_batched(n, start), scalar) << "n = " << n;
    EXPECT_EQ(count_completions(n, start), scalar);
  }
}

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
