// The quadrant engine: its counts, its plan and its kernels' solves (the
// pair counter, the classes, the quarter tables and the memory bound have
// their own files).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "engines/join_model/quadrant_memory.hpp"
#include "engines/quadrant/quadrant_engine.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quadrant_solve.hpp"
#include "isa/implementation.hpp"
#include "nqueens/count.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"

namespace nqueens {
namespace {

// Every task of a quadrant plan, in order, each found from its index.
std::vector<detail::quadrant_task> tasks_of(const plan& p) {
  std::vector<detail::quadrant_task> tasks;
  for (std::size_t i = 0; i < p.engine_subproblems(); ++i)
    tasks.push_back(detail::quadrant_task_of(*detail::plan_access::engine(p), i));
  return tasks;
}

class QuadrantCountTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(QuadrantCountTest, MatchesPublishedTotalAndTheOtherEngines) {
  const auto [n, threads] = GetParam();
  const count_result r = count(n, {.kind = engine::quadrant, .threads = threads});
  EXPECT_EQ(r.total, *published_total(n));
  ASSERT_TRUE(r.unique.has_value());
  EXPECT_EQ(*r.unique, *published_unique(n));
  EXPECT_TRUE(r.check.verified());
  EXPECT_EQ(r.total, count(n, {.kind = engine::mirror, .threads = 1}).total);
  EXPECT_EQ(r.total, count(n, {.kind = engine::symmetric, .threads = 1}).total);
}

INSTANTIATE_TEST_SUITE_P(BoardsByThreads, QuadrantCountTest,
                         ::testing::Combine(::testing::Range(1, 16), ::testing::Values(1, 2, 3, 8)));

class QuadrantSliceTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(QuadrantSliceTest, EverySplitGivesTheSameTotal) {
  const auto [n, slices] = GetParam();
  const count_result r = count(n, {.kind = engine::quadrant, .threads = 2, .split_depth = slices});
  EXPECT_EQ(r.total, *published_total(n)) << slices << " slices";
  EXPECT_EQ(r.split_depth, slices);
}

INSTANTIATE_TEST_SUITE_P(BoardsBySlices, QuadrantSliceTest,
                         ::testing::Combine(::testing::Values(4, 7, 10, 11, 12, 13, 14),
                                            ::testing::Values(1, 2, 3, 7, max_split_depth)));

TEST(QuadrantPlanTest, ClassesCoverEveryNorthColumnSetOnce) {
  for (int n = 1; n <= 16; ++n) {
    const plan p(n, {.kind = engine::quadrant, .split_depth = 1});
    const int half = n / 2;
    // Every (middle queen, north set) by brute force: for even n just the
    // sets of n/2 columns; for odd n a middle column and n/2 of the others.
    // The class weights add up to their number.
    std::uint64_t choices = 0;
    for (std::uint32_t c = 0; c < (std::uint32_t{1} << n); ++c) {
      if (std::popcount(c) == half) choices += n % 2 == 0 ? 1 : static_cast<std::uint64_t>(n - half);
    }
    std::uint64_t weights = 0;
    std::set<std::pair<int, std::uint32_t>> seen;
    for (const detail::quadrant_task& s : tasks_of(p)) {
      EXPECT_EQ(std::popcount(s.north), half);
      const int middle = s.middle;
      if (n % 2 == 1) {
        EXPECT_GE(middle, 0);
        EXPECT_EQ((s.north >> middle) & 1U, 0U) << "the middle queen's column is in the north set";
      } else {
        EXPECT_EQ(middle, -1);
      }
      EXPECT_TRUE(seen.insert({middle, s.north}).second) << "listed twice";
      EXPECT_TRUE(s.weight == 1 || s.weight == 2 || s.weight == 4) << int{s.weight};
      weights += s.weight;
    }
    EXPECT_EQ(weights, choices) << "n = " << n;
  }
}

// Fingerprints pinned, so that a change of plan is a decision: a journal,
// shard or MPI rank of another plan is refused. The earlier plans hashed as
// in the comments: slices always of the north group (where there are
// slices: n = 12, and 15 in 3), as index ranges of it, the quarters walked row by row (another order within a
// group, so other slices), the odd boards' slices taken after the partition by the
// middle column, the filter with its joins in ranked order (the same
// shares, other slices), with its row sets in plain order (centre most
// significant), then before the transposition filter (transposition.hpp),
// whose subproblems counted every solution of their class (those were the
// list plan's of commit 586ada2, kept by the ranked plan); their journals
// are refused, never mixed in.
TEST(QuadrantPlanTest, FingerprintsArePinned) {
  EXPECT_EQ(format_fingerprint(plan(12, {.kind = engine::quadrant}).fingerprint()),
            "8b4c5c71fb196ca4");  // aaf834a94c0968be, 585208aa41d87873, 3744aef879348787, 27827b46ddc960d7,
                                  // 9fc4c30916e22367, 36d9edb8762261c1, 8977d226e0952f00
  EXPECT_EQ(
      format_fingerprint(plan(15, {.kind = engine::quadrant}).fingerprint()),
      "870ed2e4203ccd3a");  // 50dc41d190984166, b39f16a3050c710c, 0fe4f24eb400e962, 4a6b33ac2502eaa6, 20c40541364c031b
  EXPECT_EQ(format_fingerprint(plan(15, {.kind = engine::quadrant, .split_depth = 3}).fingerprint()),
            "bbab0ef77235b28e");  // a0e556539c476c78, 5d3716ac0232ba7d, 33887dddbbf0dccd, e8f6d923969e8bfd,
                                  // d6fba249cfb4ce21, da7c90c052229327, bab39240034b15e2
  EXPECT_EQ(
      format_fingerprint(plan(16, {.kind = engine::quadrant}).fingerprint()),
      "85a8a54159fd4ee3");  // 07277ec6f5403c8f, 9b1caf392be6a27d, 1828e9ba873d74d3, 90791f57b052ff67, b2f6ccd512fc6658
  EXPECT_EQ(
      format_fingerprint(plan(21, {.kind = engine::quadrant}).fingerprint()),
      "650b508bb02eeed5");  // 43d11d5cb2b58985, 243271c00e9a6a2b, 94c3fbdcc8a34f8d, 66009fabad711551, f9fcc7e27f41ae7c
}

TEST(QuadrantPlanTest, SlicesMultiplyTheSubproblemsAndChangeTheFingerprint) {
  const plan one(12, {.kind = engine::quadrant, .split_depth = 1});
  const plan three(12, {.kind = engine::quadrant, .split_depth = 3});
  EXPECT_EQ(three.engine_subproblems(), 3 * one.engine_subproblems());
  EXPECT_NE(one.fingerprint(), three.fingerprint());
  EXPECT_EQ(one.fingerprint(), plan(12, {.kind = engine::quadrant, .split_depth = 1}).fingerprint());
  EXPECT_THROW(plan(detail::max_quadrant_board_size + 1, {.kind = engine::quadrant}), std::invalid_argument);
}

// From n = 28 an automatic plan gives each class slots to fill by its size,
// and reports them as its split depth, which makes the same plan again (a
// shard file or journal names the depth, not how it was chosen); below, a
// class takes every slice.
TEST(QuadrantPlanTest, SlicesBySizeFromTwentyEight) {
  const int n = detail::slices_by_size_from;
  const plan automatic(n, {.kind = engine::quadrant});
  const plan one(n, {.kind = engine::quadrant, .split_depth = 1});
  EXPECT_EQ(automatic.split_depth(), detail::slots_by_size);
  EXPECT_EQ(automatic.engine_subproblems(), std::size_t{detail::slots_by_size} * one.engine_subproblems());
  EXPECT_TRUE(detail::quadrant_slicing_of(*detail::plan_access::engine(automatic)).by_size());
  EXPECT_EQ(automatic.fingerprint(),
            plan(n, {.kind = engine::quadrant, .split_depth = automatic.split_depth()}).fingerprint());
  EXPECT_NE(automatic.fingerprint(), one.fingerprint());
  const plan below(n - 2, {.kind = engine::quadrant, .split_depth = 3});
  EXPECT_FALSE(detail::quadrant_slicing_of(*detail::plan_access::engine(below)).by_size());
}

// By size, a class takes a slice per pairs_per_slice bound pairs, up to
// most_slices_by_bound, and every slot past it (a 3-slice class in 3 took
// slices of 7 minutes at n = 28); never more slots than the plan has.
TEST(QuadrantPlanTest, AClassPastTwoSlicesBySizeTakesEverySlot) {
  static_assert(detail::most_slices_by_bound == 2);
  const detail::class_slicing four{4, 100};
  EXPECT_EQ(four.slices_used(0), 1);
  EXPECT_EQ(four.slices_used(100), 1);
  EXPECT_EQ(four.slices_used(101), 2);
  EXPECT_EQ(four.slices_used(200), 2);
  EXPECT_EQ(four.slices_used(201), 4);
  EXPECT_EQ(four.slices_used(1e30), 4);
  const detail::class_slicing eight{8, 100};
  EXPECT_EQ(eight.slices_used(250), 8);
  EXPECT_EQ(eight.slices_used(150), 2);
  const detail::class_slicing one{1, 100};
  EXPECT_EQ(one.slices_used(150), 1);
  EXPECT_EQ(one.slices_used(1e30), 1);
  EXPECT_EQ((detail::class_slicing{4, 0}.slices_used(1)), 4);  // not by size: every slice
}

// Whole quadrant solves of every compiled variant agree with the portable
// one, from the whole tables and from each subproblem's own quarters.
TEST(QuadrantKernelTest, EveryVariantSolvesLikeThePortableOne) {
  for (const int n : {9, 12, 13, 14}) {
    const detail::half_board_tables tables(n);
    const plan p(n, {.kind = engine::quadrant, .split_depth = 2});
    const auto& tasks = tasks_of(p);
    detail::quadrant_scratch scratch, reference;  // apart: each variant's kept quarters filtered by its own kernels
    for (const detail::quarter_source& source :
         {detail::quarter_source(n, &tables), detail::quarter_source(n, nullptr)}) {
      for (const detail::implementation& v : detail::implementations()) {
        if (!v.cpu_runs()) continue;
        std::uint64_t total = 0;
        for (const detail::quadrant_task& t : tasks) {
          const std::uint64_t got =
              detail::solve_task(detail::quadrant_kernels_of(v), source, t,
                                 detail::quadrant_slicing_of(*detail::plan_access::engine(p)), scratch);
          ASSERT_EQ(got, detail::solve_task(detail::quadrant_kernels_of(detail::implementations()[0]), source, t,
                                            detail::quadrant_slicing_of(*detail::plan_access::engine(p)), reference))
              << v.name << ", n = " << n << ", north " << t.north << ", tables " << source.has_tables();
          total += got;
        }
        EXPECT_EQ(total, *published_total(n)) << v.name << ", tables " << source.has_tables();
      }
    }
  }
}

// Odd n with the tables: a thread keeps the east quarters its joins filtered
// for the middle queen (keep_east) from one subproblem to the next. The
// subproblems of two odd boards, in plan order (the kept quarters served
// again and again) then shuffled (a neighbour's kept quarter met by another
// board, columns or middle queen), through one scratch, each count as with a
// scratch of its own: a kept quarter serves only what it was filtered for.
TEST(QuadrantKernelTest, KeptEastQuartersServeOnlyTheirOwnColumnsAndMiddleQueen) {
  const detail::quadrant_kernels& k = detail::quadrant_kernels_for(active_isa());
  const std::array<int, 2> boards{11, 13};
  const std::array<detail::half_board_tables, 2> tables{detail::half_board_tables(11), detail::half_board_tables(13)};
  const std::array<plan, 2> plans{plan(11, {.kind = engine::quadrant, .split_depth = 1}),
                                  plan(13, {.kind = engine::quadrant, .split_depth = 1})};
  std::vector<std::pair<int, detail::quadrant_task>> tasks;
  for (int b = 0; b < 2; ++b) {
    for (const detail::quadrant_task& t : tasks_of(plans[b])) tasks.emplace_back(b, t);
  }
  detail::quadrant_scratch shared;
  std::mt19937 shuffled(2026);
  for (const bool shuffle : {false, true}) {
    if (shuffle) std::shuffle(tasks.begin(), tasks.end(), shuffled);
    std::array<std::uint64_t, 2> totals{};
    for (const auto& [b, t] : tasks) {
      const detail::quarter_source source(boards[b], &tables[b]);
      const detail::class_slicing slicing = detail::quadrant_slicing_of(*detail::plan_access::engine(plans[b]));
      detail::quadrant_scratch own;
      const std::uint64_t got = detail::solve_task(k, source, t, slicing, shared);
      ASSERT_EQ(got, detail::solve_task(k, source, t, slicing, own))
          << "n = " << boards[b] << ", middle " << int{t.middle} << ", north " << t.north << ", shuffled " << shuffle;
      totals[b] += got;
    }
    EXPECT_EQ(totals[0], *published_total(11));
    EXPECT_EQ(totals[1], *published_total(13));
  }
}

// Groups counted in slices (north x south, in bounded memory) give each
// task's exact count, for any bound, with the plan's own slices too: pieces
// of a fixed size, or as large as a thread's share leaves beside its lists.
TEST(QuadrantKernelTest, SlicedGroupsCountLikeWholeOnes) {
  for (const int n : {9, 12, 14}) {
    const plan p(n, {.kind = engine::quadrant, .split_depth = 2});
    const auto& tasks = tasks_of(p);
    detail::quadrant_scratch scratch;
    const detail::quadrant_kernels& k = detail::quadrant_kernels_for(active_isa());
    const detail::quarter_source whole(n, nullptr);
    const detail::quadrant_layout share{.tables = false,
                                        .max_group = 5000,
                                        .compact_lists = true,
                                        .thread_bytes = 300000,  // pieces of a few hundred halves, cut
                                        .fewest_halves = 64};
    for (const std::size_t max_group : {std::size_t{n == 9 ? 1U : 37U}, std::size_t{1000}, std::size_t{0}}) {
      const detail::quarter_source sliced =
          max_group == 0
              ? detail::quarter_source(n, nullptr, share)
              : detail::quarter_source(
                    n, nullptr,
                    {.tables = false, .max_group = max_group, .compact_lists = max_group == 1000});  // compact too
      std::uint64_t total = 0;
      for (const detail::quadrant_task& t : tasks) {
        const std::uint64_t got =
            detail::solve_task(k, sliced, t, detail::quadrant_slicing_of(*detail::plan_access::engine(p)), scratch);
        ASSERT_EQ(
            got, detail::solve_task(k, whole, t, detail::quadrant_slicing_of(*detail::plan_access::engine(p)), scratch))
            << "n = " << n << ", north " << t.north << ", max group " << max_group;
        total += got;
      }
      EXPECT_EQ(total, *published_total(n)) << max_group;
    }
  }
}

// Slices by size (class_slicing.hpp): a class's slots add up to its whole
// count whatever share of them its size takes; with a share too large for
// any class only the first slot counts, with one too small every slot is the
// slice it would be with every class sliced; each slot counts the same from
// groups built whole and built in pieces (another memory bound), pieces a
// slice fills from many joins. All of it with the north groups sliced, the
// south ones, and each class's choice.
TEST(QuadrantKernelTest, SlicesBySizeAddUpToTheWholeClass) {
  for (const double south_from : {detail::larger_group_sliced_from, 0.0, 1e30})
    for (const int n : {11, 12, 14}) {
      const plan p(n, {.kind = engine::quadrant, .split_depth = 1});
      const auto& tasks = tasks_of(p);
      detail::quadrant_scratch scratch, pieces_scratch;
      const detail::quadrant_kernels& k = detail::quadrant_kernels_for(active_isa());
      const detail::quarter_source whole(n, nullptr);
      const detail::quarter_source pieces(n, nullptr, {.tables = false, .max_group = 41});
      constexpr int slots = 4;
      const detail::class_slicing every{slots, 0, south_from}, none{slots, 1e30, south_from}, all{slots, 1, south_from},
          some{slots, n == 14 ? 3e4 : 3e2, south_from};
      std::set<int> slots_counting;  // how many slots of a class count, under `some`
      std::uint64_t total = 0;
      for (const detail::quadrant_task& t : tasks) {
        const std::uint64_t class_count = detail::solve_task(k, whole, t, detail::class_slicing{1}, scratch);
        std::uint64_t sum = 0;
        int counting = 0;
        for (std::uint8_t slot = 0; slot < slots; ++slot) {
          detail::quadrant_task s = t;
          s.slice = slot;
          const std::uint64_t got = detail::solve_task(k, whole, s, some, scratch);
          ASSERT_EQ(got, detail::solve_task(k, pieces, s, some, pieces_scratch))
              << "n = " << n << ", north " << t.north;
          ASSERT_EQ(detail::solve_task(k, whole, s, none, scratch), slot == 0 ? class_count : 0) << "n = " << n;
          ASSERT_EQ(detail::solve_task(k, whole, s, all, scratch), detail::solve_task(k, whole, s, every, scratch))
              << "n = " << n;
          sum += got;
          counting = got != 0 ? slot + 1 : counting;
        }
        ASSERT_EQ(sum, class_count) << "n = " << n << ", north " << t.north;
        slots_counting.insert(counting);
        total += sum;
      }
      EXPECT_EQ(total, *published_total(n));
      EXPECT_TRUE(slots_counting.contains(1)) << "n = " << n << ": some class should take one slot";
      EXPECT_TRUE(slots_counting.contains(slots)) << "n = " << n << ": some class should take every slot";
    }
}

// The quarter joins of every instruction set build the same groups, in the
// same order, as the portable one.
TEST(QuadrantKernelTest, EveryVariantJoinsTheSameHalves) {
  for (const int n : {8, 11, 14}) {
    const detail::half_board_tables tables(n);
    const plan p(n, {.kind = engine::quadrant, .split_depth = 1});
    std::vector<std::uint64_t> expected, got;
    const int h = n / 2;
    for (const detail::quadrant_task& t : tasks_of(p)) {
      const detail::quarter_view west = tables.west().on(t.north & ((1U << h) - 1)),
                                 east = tables.east().on(t.north >> h);
      const int k = std::popcount(t.north & ((1U << h) - 1));
      const std::size_t count =
          detail::north_halves(detail::quadrant_kernels_for(isa::portable), west, east, h, k, expected);
      for (const detail::implementation& v : detail::implementations()) {
        if (!v.cpu_runs()) continue;
        ASSERT_EQ(detail::north_halves(detail::quadrant_kernels_of(v), west, east, h, k, got), count);
        ASSERT_TRUE(std::equal(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(count), expected.begin()))
            << v.name << ", n = " << n << ", north " << t.north;
      }
    }
  }
}

// A join given a capacity stops before it would pass it (a memory bound
// sizes the buffers by it), and its pieces, each joined on from where the
// last stopped, are the whole group in order: for capacities of at least
// a row set's larger list (a join takes whole outer placements) on every
// instruction set.
TEST(QuadrantKernelTest, AJoinStopsWithinItsCapacity) {
  for (const int n : {12, 14}) {
    const detail::half_board_tables tables(n);
    const plan p(n, {.kind = engine::quadrant, .split_depth = 1});
    const int h = n / 2;
    const std::uint32_t all_rows = (1U << h) - 1;
    std::vector<std::uint64_t> whole, piece;
    for (const detail::implementation& v : detail::implementations()) {
      if (!v.cpu_runs()) continue;
      const detail::quadrant_kernels& k = detail::quadrant_kernels_of(v);
      for (const detail::quadrant_task& t : tasks_of(p)) {
        const detail::quarter_view west = tables.west().on(t.north & all_rows), east = tables.east().on(t.north >> h);
        const int queens = std::popcount(t.north & all_rows);
        const std::size_t count = detail::north_halves(k, west, east, h, queens, whole);
        std::size_t widest = 0;  // a row set's larger list, where both have placements
        for (detail::join_cursor at = detail::cursor_from(h, queens); !at.done; detail::next_rows(at, h)) {
          const std::size_t w = west.masks_on(at.rows).size(), e = east.masks_on(all_rows & ~at.rows).size();
          if (w != 0 && e != 0) widest = std::max({widest, w, e});
        }
        if (widest == 0) continue;
        for (const std::size_t capacity : {widest, widest + 3, 2 * widest + 1}) {
          detail::join_cursor at = detail::cursor_from(h, queens);
          std::size_t joined = 0;
          for (std::size_t pieces = 0; !at.done; ++pieces) {
            ASSERT_LE(pieces, count) << "a join that makes no progress: " << v.name << ", n = " << n;
            const std::size_t end = k.join_group(west, east, h, piece, at, capacity, nullptr, nullptr, 0, 0);
            ASSERT_LE(end, capacity) << v.name << ", n = " << n << ", north " << t.north;
            ASSERT_LE(joined + end, count) << v.name << ", n = " << n << ", north " << t.north;
            ASSERT_TRUE(std::equal(piece.begin(), piece.begin() + static_cast<std::ptrdiff_t>(end),
                                   whole.begin() + static_cast<std::ptrdiff_t>(joined)))
                << v.name << ", n = " << n << ", north " << t.north << ", capacity " << capacity;
            joined += end;
          }
          EXPECT_EQ(joined, count) << v.name << ", n = " << n << ", north " << t.north << ", capacity " << capacity;
        }
      }
    }
  }
}

}  // namespace
}  // namespace nqueens
