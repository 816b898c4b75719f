#include "kernels/search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "engines/row_engine.hpp"
#include "kernels/bits.hpp"
#include "run/plan_access.hpp"
#include "support/axes.hpp"
#include "support/brute_force.hpp"

namespace nqueens::detail {
namespace {

using nqueens::testing::all_isas;

// No constraint beyond the queens themselves: the kernel as any engine sees it.
class free_rules final : public row_rules {
 public:
  std::vector<row_prefix> roots(int) const override { return {}; }
  std::uint32_t allowed_columns(int n, const row_prefix&, int) const noexcept override { return low_bits(n); }
  subproblem_count solve(int, const row_prefix&, const search_start&, const search_kernels&) const override {
    return {};
  }
};
const free_rules unconstrained;

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

// The search start with queens at the given (row, column) squares.
search_start start_with(int n, const std::vector<std::pair<int, int>>& queens) {
  row_prefix s;
  for (const auto& [row, col] : queens) s.columns[static_cast<std::size_t>(row)] = static_cast<std::uint8_t>(col);
  return prepare(n, unconstrained, s);
}

std::uint64_t brute_force_count(const std::vector<std::vector<int>>& solutions,
                                const std::vector<std::pair<int, int>>& queens) {
  return static_cast<std::uint64_t>(std::count_if(solutions.begin(), solutions.end(), [&](const auto& q) {
    return std::all_of(queens.begin(), queens.end(), [&](const auto& rc) { return q[rc.first] == rc.second; });
  }));
}

// Board size x instruction set: every search against the permutation counter.
class KernelTest : public ::testing::TestWithParam<std::tuple<int, isa>> {
 protected:
  void SetUp() override { NQUEENS_SKIP_UNLESS_SUPPORTED(std::get<1>(GetParam())); }
  int n() const { return std::get<0>(GetParam()); }
  const search_kernels& search() const { return search_kernels_for(std::get<1>(GetParam())); }
};

TEST_P(KernelTest, CompletionsMatchPermutationCounterForEveryPrefix) {
  const int n = this->n();
  const auto solutions = testing::all_solutions_by_permutation(n);
  for (int depth = 0; depth <= std::min(n, 4); ++depth) {
    std::vector<std::vector<int>> prefixes;
    std::vector<int> scratch;
    all_prefixes(n, depth, scratch, prefixes);
    for (const auto& prefix : prefixes) {
      const std::vector<std::uint8_t> columns(prefix.begin(), prefix.end());
      ASSERT_TRUE(is_non_attacking_prefix(n, columns));
      std::vector<std::pair<int, int>> queens;
      queens.reserve(static_cast<std::size_t>(depth));
      for (int r = 0; r < depth; ++r) queens.emplace_back(r, prefix[static_cast<std::size_t>(r)]);
      EXPECT_EQ(search().count(n, start_with(n, queens)), testing::count_with_prefix(solutions, prefix))
          << "n = " << n << ", depth " << depth;
    }
  }
}

TEST_P(KernelTest, AFullSolutionHasExactlyOneCompletion) {
  const int n = this->n();
  for (const auto& solution : testing::all_solutions_by_permutation(n)) {
    std::vector<std::pair<int, int>> queens;
    queens.reserve(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) queens.emplace_back(r, solution[static_cast<std::size_t>(r)]);
    EXPECT_EQ(search().count(n, start_with(n, queens)), 1u);
  }
}

// Queens pre-placed in any two rows (not a prefix): their attacks reach the
// search through the per-row allowed masks.
class PrePlacedTest : public KernelTest {};

TEST_P(PrePlacedTest, QueensInAnyTwoRowsMatchPermutationCounter) {
  const int n = this->n();
  const auto solutions = testing::all_solutions_by_permutation(n);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      for (int ca = 0; ca < n; ++ca) {
        for (int cb = 0; cb < n; ++cb) {
          if (ca == cb || std::abs(ca - cb) == b - a) continue;
          const std::vector<std::pair<int, int>> queens{{a, ca}, {b, cb}};
          EXPECT_EQ(search().count(n, start_with(n, queens)), brute_force_count(solutions, queens))
              << "n = " << n << ", queens (" << a << "," << ca << ") (" << b << "," << cb << ")";
        }
      }
    }
  }
}

TEST_P(KernelTest, VisitCompletionsSeesExactlyTheSolutions) {
  const int n = this->n();
  const auto solutions = testing::all_solutions_by_permutation(n);
  for (int c = 0; c < n; ++c) {
    const std::vector<std::pair<int, int>> queens{{n - 1, c}};  // pre-placed last row only
    std::vector<std::vector<int>> seen;
    const auto record = [](std::span<const std::uint8_t> q, void* context) noexcept -> std::uint64_t {
      static_cast<std::vector<std::vector<int>>*>(context)->emplace_back(q.begin(), q.end());
      return 1;
    };
    const std::uint64_t visited = search().visit(n, start_with(n, queens), record, &seen);
    EXPECT_EQ(visited, seen.size());
    std::sort(seen.begin(), seen.end());  // the batched search visits in its own order
    std::vector<std::vector<int>> expected;
    for (const auto& s : solutions) {
      if (s.back() == c) expected.push_back(s);
    }
    EXPECT_EQ(seen, expected) << "n = " << n << ", last-row column " << c;
  }
}

std::string board_and_isa(const ::testing::TestParamInfo<std::tuple<int, isa>>& info) {
  std::string name = "n";  // appended: GCC 12 misreads "n" + string (-Wstringop-overflow)
  name += std::to_string(std::get<0>(info.param));
  name += '_';
  name += nqueens::testing::name_of(std::get<1>(info.param));
  return name;
}
INSTANTIATE_TEST_SUITE_P(BoardSizes, KernelTest,
                         ::testing::Combine(::testing::Range(1, 10), ::testing::ValuesIn(all_isas())), board_and_isa);
// Quadratic in rows and columns: boards up to 8 cover every case.
INSTANTIATE_TEST_SUITE_P(BoardSizes, PrePlacedTest,
                         ::testing::Combine(::testing::Range(1, 9), ::testing::ValuesIn(all_isas())), board_and_isa);

// Every instruction set against the portable one, counting and visiting, on
// real plans of every registered engine (constrained ones included), and on
// the largest boards from a deep prefix (masks use bit 31, vector shifts run
// at full width).
class KernelAgreementTest : public ::testing::TestWithParam<isa> {
 protected:
  void SetUp() override { NQUEENS_SKIP_UNLESS_SUPPORTED(GetParam()); }
};

std::vector<std::vector<int>> visited(const search_kernels& search, int n, const search_start& start) {
  std::vector<std::vector<int>> seen;
  const auto record = [](std::span<const std::uint8_t> q, void* context) noexcept -> std::uint64_t {
    static_cast<std::vector<std::vector<int>>*>(context)->emplace_back(q.begin(), q.end());
    return 1;
  };
  search.visit(n, start, record, &seen);
  std::sort(seen.begin(), seen.end());  // each search visits in its own order
  return seen;
}

TEST_P(KernelAgreementTest, AgreesWithPortableOnEveryEnginesSubproblems) {
  // The reference itself, checked against brute force elsewhere (KernelTest).
  if (GetParam() == isa::portable) GTEST_SKIP() << "portable is the reference these kernels are compared with";
  const search_kernels& search = search_kernels_for(GetParam());
  const search_kernels& portable = search_kernels_for(isa::portable);
  int compared = 0;
  for (const engine e : nqueens::testing::registered_engines()) {
    for (int n = 1; n <= 13; ++n) {
      for (const int depth : {1, 3}) {
        if (n > engine_max_board_size(e)) continue;
        const plan p(n, {.kind = e, .split_depth = depth});
        for (std::size_t i = 0; i < p.engine_subproblems(); ++i) {
          const std::optional<search_start> start = row_search_start(*detail::plan_access::engine(p), i);
          if (!start) break;  // not a row-by-row engine: it does not use this search
          ASSERT_EQ(search.count(n, *start), portable.count(n, *start))
              << to_string(e) << ", n = " << n << ", depth " << depth << ", subproblem " << i;
          ASSERT_EQ(visited(search, n, *start), visited(portable, n, *start))
              << to_string(e) << ", n = " << n << ", depth " << depth << ", subproblem " << i;
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
}

TEST_P(KernelAgreementTest, LargestBoardsFromADeepPrefix) {
  const search_kernels& search = search_kernels_for(GetParam());
  for (const int n : {29, 30, 31, 32}) {
    const std::vector<int> solution = testing::explicit_solution(n);
    ASSERT_TRUE(testing::is_solution(solution)) << "n = " << n;
    std::vector<std::pair<int, int>> queens;
    queens.reserve(static_cast<std::size_t>(n - 9));
    for (int r = 0; r < n - 9; ++r) queens.emplace_back(r, solution[static_cast<std::size_t>(r)]);
    const search_start start = start_with(n, queens);
    const std::uint64_t portable = search_kernels_for(isa::portable).count(n, start);
    EXPECT_GE(portable, 1u) << "n = " << n;
    EXPECT_EQ(search.count(n, start), portable) << "n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, KernelAgreementTest, ::testing::ValuesIn(all_isas()),
                         [](const auto& info) { return nqueens::testing::name_of(info.param); });

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
