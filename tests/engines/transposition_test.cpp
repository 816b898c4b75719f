// The quadrant engine's transposition filter: each subproblem's count is its
// class's share of the solutions under the order of transposition.hpp, checked
// against every solution of small boards, found and classified here by a plain
// search that shares no code with the engine.

#include "engines/join_model/transposition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/filter_rule.hpp"
#include "engines/join_model/quadrant_memory.hpp"
#include "engines/quadrant/quadrant_engine.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quadrant_solve.hpp"
#include "isa/implementation.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"

namespace nqueens {
namespace {

// Every solution of an n-board, q[row] = column, by plain backtracking.
void collect(int n, std::vector<int>& q, std::vector<std::vector<int>>& out) {
  const int row = static_cast<int>(q.size());
  if (row == n) {
    out.push_back(q);
    return;
  }
  for (int c = 0; c < n; ++c) {
    bool free = true;
    for (int r = 0; r < row && free; ++r) {
      const int d = q[static_cast<std::size_t>(r)] - c;
      free = d != 0 && d != row - r && d != r - row;
    }
    if (free) {
      q.push_back(c);
      collect(n, q, out);
      q.pop_back();
    }
  }
}

std::vector<std::vector<int>> all_solutions(int n) {
  std::vector<std::vector<int>> out;
  std::vector<int> q;
  collect(n, q, out);
  return out;
}

using index_set = std::vector<bool>;  // member i of {0..n-1}

// A class of (middle, set) under the mirror (i to n-1-i, for both) and the
// flip (the set becomes the indices outside it and the middle), as the
// order of transposition.hpp ranks it: even n by the least (P, Q) of the
// four images; odd n first by the middle's distance from the edge, the
// nearer the higher (the key holds minus the distance), then among the
// images whose middle lies below h, by the least (P without the middle,
// Q, whether h is in the set). P, Q: the set's indices below h, and the
// mirrors of those above h (for odd n, h itself is neither), as bit masks.
using class_key = std::tuple<int, std::uint32_t, std::uint32_t, int>;

class_key key_of(int n, int middle, const index_set& set) {
  const int h = n / 2;
  std::vector<std::pair<int, index_set>> images;
  for (int mirror = 0; mirror < 2; ++mirror) {
    for (int flip = 0; flip < 2; ++flip) {
      index_set s(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) {
        const int from = mirror != 0 ? n - 1 - i : i;
        const bool in = set[static_cast<std::size_t>(from)];
        s[static_cast<std::size_t>(i)] = flip != 0 ? !in && from != middle : in;
      }
      images.emplace_back(middle < 0 ? -1 : (mirror != 0 ? n - 1 - middle : middle), s);
    }
  }
  // Even n, or the middle in the centre column: the h indices from each edge
  // rank in the order 0, h - 1, 1, 2, ..., h - 2, most significant first.
  std::vector<int> significance;  // significance[i]: the bit index i takes
  if (h >= 2) {
    significance.assign(static_cast<std::size_t>(h), 0);
    significance[0] = h - 1;
    significance[static_cast<std::size_t>(h - 1)] = h - 2;
    for (int i = 1; i + 1 < h; ++i) significance[static_cast<std::size_t>(i)] = h - 2 - i;
  }
  class_key least{n, ~0U, ~0U, 2};
  for (const auto& [m, s] : images) {
    if (n % 2 != 0 && m != h && m > h) continue;  // the images with the middle below h (or at it)
    const bool ranked = h >= 2 && (n % 2 == 0 || m == h);
    const auto bit_of = [&](int i) { return ranked ? significance[static_cast<std::size_t>(i)] : i; };
    std::uint32_t p = 0, q = 0;
    int bit = 0;
    for (int i = 0; i < h; ++i) {
      if (n % 2 != 0 && m != h && i == m) continue;  // P without the middle's index
      if (s[static_cast<std::size_t>(i)]) p |= 1U << bit_of(bit);
      ++bit;
    }
    for (int i = 0; i < h; ++i) {
      if (s[static_cast<std::size_t>(n - 1 - i)]) q |= 1U << bit_of(i);
    }
    const int beta = n % 2 != 0 && s[static_cast<std::size_t>(h)] ? 1 : 0;
    least = std::min(least, class_key{middle < 0 ? 0 : -std::min(m, n - 1 - m), p, q, beta});
  }
  return least;
}

struct north_class {
  std::uint32_t north;
  int middle;
  friend auto operator<=>(const north_class&, const north_class&) = default;
};

// For each (north columns, middle queen): the sum over its solutions of 2
// when the transposed solution's class is greater, 1 when it is the same.
std::map<north_class, std::uint64_t> expected_shares(int n) {
  const int h = n / 2;
  std::map<north_class, std::uint64_t> shares;
  for (const std::vector<int>& q : all_solutions(n)) {
    index_set columns(static_cast<std::size_t>(n)), rows(static_cast<std::size_t>(n));
    std::uint32_t north = 0;
    int column_h_row = -1;
    for (int r = 0; r < n; ++r) {
      const int c = q[static_cast<std::size_t>(r)];
      if (r < h) {
        columns[static_cast<std::size_t>(c)] = true;
        north |= 1U << c;
      }
      if (c < h) rows[static_cast<std::size_t>(r)] = true;
      if (c == h) column_h_row = r;
    }
    const int middle = n % 2 != 0 ? q[static_cast<std::size_t>(h)] : -1;
    const class_key own = key_of(n, middle, columns);
    const class_key transposed = key_of(n, n % 2 != 0 ? column_h_row : -1, rows);
    shares[{north, middle}] += transposed > own ? 2 : transposed == own ? 1 : 0;
  }
  return shares;
}

TEST(TranspositionKeyTest, IsTheLeastImageAndTheSameForTheWholeClass) {
  for (int h = 1; h <= 5; ++h) {
    const std::uint32_t all = detail::low_bits(h);
    for (std::uint32_t p = 0; p <= all; ++p) {
      for (std::uint32_t q = 0; q <= all; ++q) {
        const detail::transposition_key k = detail::transposition_key_of_pair(p, q, h);
        for (const auto& [x, y] : {std::pair{q, p}, std::pair{all & ~p, all & ~q}, std::pair{all & ~q, all & ~p}}) {
          EXPECT_EQ(detail::transposition_key_of_pair(x, y, h), k);
          EXPECT_TRUE(k.first < x || (k.first == x && k.second <= y));
        }
        // The second component lies in [c, ~c]: a tie's other side is a
        // range of the other group's row sets.
        EXPECT_LE(k.first, k.second);
        EXPECT_LE(k.second, all & ~k.first);
      }
    }
  }
}

// The one rule both engines count by (filter_rule_of): which pairs it ranks
// by row sets and which by the middle column's queen, on every class of the
// boards 1..15, and the fields each kind reads.
TEST(TranspositionFilterTest, NamesTheRuleOfEverySubproblem) {
  for (int n = 1; n <= 15; ++n) {
    const int h = n / 2;
    detail::column_classes(n).for_each([&](const detail::column_class& c) {
      const detail::filter_rule r = detail::filter_rule_of(n, c.north, c.middle);
      if (n < 4) {
        EXPECT_EQ(r.kind, detail::filter_rule::every_pair) << n;
        return;
      }
      const detail::transposition_key key = detail::transposition_key_of(c.north, n, c.middle);
      EXPECT_EQ(r.c, key.first) << n;
      EXPECT_EQ(r.a, key.second) << n;
      EXPECT_EQ(r.a_bar, detail::low_bits(h) & ~key.second) << n;
      if (n % 2 == 0 || c.middle == h) {
        EXPECT_EQ(r.kind, detail::filter_rule::row_window) << n;
        EXPECT_EQ(r.c_bar, detail::low_bits(h) & ~key.first) << n;
        EXPECT_EQ(r.a_inside, r.a > r.c && r.a < r.c_bar) << n;
        return;
      }
      EXPECT_EQ(r.kind, detail::filter_rule::column_h) << n;
      EXPECT_EQ(r.c_bar, detail::low_bits(h - 1) & ~key.first) << n;
      EXPECT_EQ(r.holder, ((c.north >> h) & 1U) != 0 ? 0U : 1U) << n;
      EXPECT_EQ(r.distance, static_cast<std::uint32_t>(std::min<int>(c.middle, n - 1 - c.middle))) << n;
      // Exactly one of the two ties counts once: the one whose beta matches
      // the class's.
      const int beta = c.middle < h ? 1 : 0;
      EXPECT_EQ(r.once_c, beta == key.beta) << n;
      EXPECT_NE(r.once_c, r.once_c_bar) << n;
    });
  }
}

// The filter's order must be a permutation of the bits, or it would not
// commute with the complement and the mirror (and the identity would fail).
TEST(TranspositionKeyTest, RankRowsPermutesTheBits) {
  for (int h = 2; h <= 14; ++h) {
    const std::uint32_t all = detail::low_bits(h);
    std::uint32_t images = 0;
    for (int d = 0; d < h; ++d) {
      const std::uint32_t image = detail::rank_rows(1U << d, h);
      EXPECT_EQ(std::popcount(image), 1);
      images |= image;
    }
    EXPECT_EQ(images, all);
    EXPECT_EQ(detail::rank_rows(1U, h), 1U << (h - 1));             // the edge most significant
    EXPECT_EQ(detail::rank_rows(1U << (h - 1), h), 1U << (h - 2));  // then the centre
    std::vector<bool> seen(std::size_t{all} + 1);
    for (std::uint32_t x = 0; x <= all; ++x) {
      const std::uint32_t ranked = detail::rank_rows(x, h);
      ASSERT_LE(ranked, all);
      EXPECT_FALSE(seen[ranked]);
      seen[ranked] = true;
      EXPECT_EQ(detail::rank_rows(all & ~x, h), all & ~ranked);
    }
  }
}

// Each subproblem counts its class's share, slice by slice, on every
// compiled kernel variant and from whole tables and per-subproblem quarters
// alike (groups joined and counted in slices), its ties ruled out by tags
// and counted apart; small boards are full of ties (the row set of a half equal to the
// subproblem's own least one), so every tie path is taken.
TEST(TranspositionTest, EverySubproblemCountsItsClassShare) {
#ifdef NQUEENS_SANITIZED
  constexpr int largest = 11;  // 5-10 times slower there: the smaller boards take every path too
#else
  constexpr int largest = 13;
#endif
  for (int n = 4; n <= largest; ++n) {
    const std::map<north_class, std::uint64_t> expected = expected_shares(n);
    const detail::half_board_tables tables(n);
    for (const int split : {1, 3}) {
      const plan p(n, {.kind = engine::quadrant, .split_depth = split});
      const detail::engine_plan& engine_plan = *detail::plan_access::engine(p);
      detail::quadrant_scratch scratch;
      for (const detail::quarter_source& source :
           {detail::quarter_source(n, &tables),
            detail::quarter_source(n, nullptr, {.tables = false, .max_group = 7})}) {
        for (const detail::implementation& v : detail::implementations()) {
          if (!v.cpu_runs()) continue;
          // Ties ruled out by tags and counted apart (by_cost picks one of them).
          scratch.ties = split == 1 ? detail::tie_counting::tags : detail::tie_counting::apart;
          std::map<north_class, std::uint64_t> got;
          std::map<north_class, std::uint64_t> weights;
          for (std::size_t i = 0; i < p.engine_subproblems(); ++i) {
            const detail::quadrant_task t = detail::quadrant_task_of(engine_plan, i);
            got[{t.north, t.middle}] +=
                detail::solve_task(detail::quadrant_kernels_of(v), source, t,
                                   detail::quadrant_slicing_of(*detail::plan_access::engine(p)), scratch);
            weights[{t.north, t.middle}] = t.weight;
          }
          for (const auto& [c, count] : got) {
            const auto it = expected.find(c);
            EXPECT_EQ(count, (it == expected.end() ? 0 : it->second) * weights[c])
                << "n = " << n << ", north " << c.north << ", middle " << c.middle << ", " << v.name << ", slices "
                << split << ", tables " << source.has_tables();
          }
        }
      }
    }
  }
}

// A split plan's slice holds the same halves whether its groups are built
// whole or in pieces (another memory bound: another shard, MPI rank or
// resumed run with its own --max-memory), so their counts can be mixed.
TEST(TranspositionTest, EachSliceCountsTheSameWholeOrInPieces) {
  for (int n = 8; n <= 13; ++n) {
    const detail::half_board_tables tables(n);
    const plan p(n, {.kind = engine::quadrant, .split_depth = 3});
    const detail::engine_plan& engine_plan = *detail::plan_access::engine(p);
    for (const detail::implementation& v : detail::implementations()) {
      if (!v.cpu_runs()) continue;
      detail::quadrant_scratch whole_scratch, pieces_scratch;
      const detail::quarter_source whole(n, &tables), pieces(n, nullptr, {.tables = false, .max_group = 7});
      for (std::size_t i = 0; i < p.engine_subproblems(); ++i) {
        const detail::quadrant_task t = detail::quadrant_task_of(engine_plan, i);
        EXPECT_EQ(detail::solve_task(detail::quadrant_kernels_of(v), whole, t,
                                     detail::quadrant_slicing_of(*detail::plan_access::engine(p)), whole_scratch),
                  detail::solve_task(detail::quadrant_kernels_of(v), pieces, t,
                                     detail::quadrant_slicing_of(*detail::plan_access::engine(p)), pieces_scratch))
            << "n = " << n << ", subproblem " << i << ", " << v.name;
      }
      break;  // one kernel: the slicing is the same code for each
    }
  }
}

// The ties the test above relies on are there: transposed classes equal to
// the subproblem's own, and equal in their first component only.
TEST(TranspositionTest, SmallBoardsHaveTiesOfEveryKind) {
  for (int n = 10; n <= 12; n += 2) {
    std::uint64_t same_class = 0, same_first = 0;
    const int h = n / 2;
    for (const std::vector<int>& q : all_solutions(n)) {
      index_set columns(static_cast<std::size_t>(n)), rows(static_cast<std::size_t>(n));
      for (int r = 0; r < n; ++r) {
        if (r < h) columns[static_cast<std::size_t>(q[static_cast<std::size_t>(r)])] = true;
        if (q[static_cast<std::size_t>(r)] < h) rows[static_cast<std::size_t>(r)] = true;
      }
      const class_key own = key_of(n, -1, columns), transposed = key_of(n, -1, rows);
      same_class += own == transposed ? 1 : 0;
      same_first += std::get<1>(own) == std::get<1>(transposed) && own != transposed ? 1 : 0;
    }
    EXPECT_GT(same_class, 0U) << n;
    EXPECT_GT(same_first, 0U) << n;
  }
}

}  // namespace
}  // namespace nqueens
