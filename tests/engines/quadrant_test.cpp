// The quadrant engine: its counts, its plan of column-set classes, its
// disjoint-pair counter and its memory bound.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <functional>
#include <ostream>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "engines/quadrant/column_classes.hpp"
#include "engines/quadrant/quadrant_engine.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quadrant_memory.hpp"
#include "isa/implementation.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/count.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"
#include "support/axes.hpp"

namespace nqueens {
namespace detail {

// Test names and failures show an implementation by its name.
void PrintTo(const implementation& i, std::ostream* os) { *os << i.name; }

}  // namespace detail
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

std::uint64_t brute_force_disjoint_pairs(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  std::uint64_t pairs = 0;
  for (const std::uint64_t x : a) {
    for (const std::uint64_t y : b) pairs += (x & y) == 0 ? 1 : 0;
  }
  return pairs;
}

// Every compiled pair counter (each instruction set, AVX-512 with and
// without VPOPCNTDQ) against brute force.
class DisjointPairsTest : public ::testing::TestWithParam<detail::implementation> {
 protected:
  void SetUp() override {
    if (!GetParam().cpu_runs()) GTEST_SKIP() << "this CPU cannot run the " << GetParam().name << " kernels";
  }
  std::uint64_t count_pairs(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                            detail::pair_scratch& scratch) const {
    return detail::quadrant_kernels_of(GetParam()).count_pairs(a, b, scratch);
  }
};

TEST_P(DisjointPairsTest, MatchesBruteForceOnRandomBitsets) {
  std::mt19937_64 random(2026);
  detail::pair_scratch scratch, prepared;  // short lists each against each, or prepared as long ones
  prepared.each_against_each_pairs = 0;
  for (int trial = 0; trial < 400; ++trial) {
    // Sparse to dense masks, sizes across word boundaries (63, 64, 65 ...).
    const int density = 1 + trial % 6;
    const auto mask = [&] {
      std::uint64_t m = ~std::uint64_t{0};
      for (int k = 0; k < density; ++k) m &= random();
      return m & (trial % 3 == 0 ? std::uint64_t{0xFFFFF} : ~std::uint64_t{0});  // few bits, or all 64
    };
    std::vector<std::uint64_t> a(random() % 150), b(random() % 200);
    for (auto& x : a) x = mask();
    for (auto& y : b) y = mask();
    if (trial % 5 == 0 && !a.empty()) a[a.size() / 2] = a.front();        // repeated masks
    if (trial % 7 == 0) std::sort(a.begin(), a.end(), std::greater<>());  // order does not matter
    ASSERT_EQ(count_pairs(a, b, scratch), brute_force_disjoint_pairs(a, b)) << "trial " << trial;
    ASSERT_EQ(count_pairs(a, b, prepared), brute_force_disjoint_pairs(a, b)) << "trial " << trial;
  }
}

TEST_P(DisjointPairsTest, MatchesBruteForceOnLargeGroupsSplitByTheirKeyBits) {
  // Thousands of south masks: a few key bits split both lists (leaves
  // padded to whole blocks), with empty masks, masks of every bit, and 10
  // to 48 bits in play (6- and 7-bit digits).
  std::mt19937_64 random(18);
  detail::pair_scratch scratch;
  for (int trial = 0; trial < 8; ++trial) {
    const std::uint64_t fields[] = {0x3FFFF, 0x3FFFF0000FFFFULL, 0x3FF, 0xFFFFFFFFFFFFULL};
    const std::uint64_t field = fields[trial % 4];
    const auto mask = [&] { return random() & random() & field; };
    std::vector<std::uint64_t> a(1500 + random() % 1500), b(1500 + random() % (trial < 4 ? 3000 : 40000));
    for (auto& x : a) x = mask();
    for (auto& y : b) y = mask() | (trial % 3 == 2 ? random() & field : 0);  // denser south masks
    a.back() = 0;
    b.front() = ~std::uint64_t{0};  // collides with every non-empty north mask
    ASSERT_EQ(count_pairs(a, b, scratch), brute_force_disjoint_pairs(a, b)) << "trial " << trial;
  }
}

TEST_P(DisjointPairsTest, CountsTheSameWhicheverListIsLarger) {
  // The smaller list is walked and the larger blocked, whichever argument
  // it is: both orders, with the larger list on either side, against brute force.
  std::mt19937_64 random(2);
  detail::pair_scratch scratch;
  for (int trial = 0; trial < 4; ++trial) {
    const auto mask = [&] { return random() & random() & 0xFFFFFFFFFFULL; };
    std::vector<std::uint64_t> small(300 + random() % 300), large(5000 + random() % 3000);
    for (auto& x : small) x = mask();
    for (auto& y : large) y = mask();
    const std::uint64_t expected = brute_force_disjoint_pairs(small, large);
    ASSERT_GT(expected, 0u);
    ASSERT_EQ(count_pairs(small, large, scratch), expected) << "trial " << trial;
    ASSERT_EQ(count_pairs(large, small, scratch), expected) << "trial " << trial;
    // The walked list's per-mask entries are sized by the smaller list.
    EXPECT_EQ((scratch.entries.size() - detail::pair_scratch::entry_padding) % small.size(), 0u);
    EXPECT_LT(scratch.entries.size(), large.size());
  }
}

TEST_P(DisjointPairsTest, MatchesBruteForceWhereThePartitionTreeIsDeep) {
  // Tens of thousands of masks on each side key a tree of 6 bits;
  // bits set with unequal frequencies (as a half board's middle diagonals
  // are) leave leaves at every depth, from whole buckets to open subtrees.
  std::mt19937_64 random(22);
  detail::pair_scratch scratch;
  const auto mask = [&](int skew) {
    std::uint64_t m = 0;
    for (int bit = 0; bit < 40; ++bit) {
      const std::uint64_t chance = 8 + (bit * skew) % 48;  // out of 64
      if ((random() & 63U) < chance) m |= std::uint64_t{1} << bit;
    }
    return m;
  };
  std::vector<std::uint64_t> a(16000 + random() % 512), b(16000 + random() % 512);
  for (auto& x : a) x = mask(7) & mask(13);
  for (auto& y : b) y = mask(11) & mask(5);
  ASSERT_EQ(count_pairs(a, b, scratch), brute_force_disjoint_pairs(a, b));
}

TEST_P(DisjointPairsTest, MatchesBruteForceAtTheDeepestTree) {
  // The most key bits the tree takes (16) need 2^17 masks a side: drawn
  // from pools of a thousand distinct masks each, so that the brute force
  // counts pool pairs times their multiplicities. Lowering the masks per
  // class lets the tree go that deep on lists a test can check.
  std::mt19937_64 random(26);
  const auto mask = [&](int skew) {
    std::uint64_t m = 0;
    for (int bit = 0; bit < 44; ++bit) {
      if ((random() & 63U) < 16 + (bit * skew) % 32) m |= std::uint64_t{1} << bit;
    }
    return m;
  };
  std::vector<std::uint64_t> north_pool(1000), south_pool(1100);
  for (auto& x : north_pool) x = mask(7) & mask(3);
  for (auto& y : south_pool) y = mask(5) & mask(11);
  std::vector<std::uint64_t> north_uses(north_pool.size()), south_uses(south_pool.size());
  std::vector<std::uint64_t> a(140000), b(150000);
  for (auto& x : a) {
    const std::size_t k = random() % north_pool.size();
    x = north_pool[k];
    ++north_uses[k];
  }
  for (auto& y : b) {
    const std::size_t k = random() % south_pool.size();
    y = south_pool[k];
    ++south_uses[k];
  }
  std::uint64_t expected = 0;
  for (std::size_t i = 0; i < north_pool.size(); ++i) {
    for (std::size_t j = 0; j < south_pool.size(); ++j) {
      if ((north_pool[i] & south_pool[j]) == 0) expected += north_uses[i] * south_uses[j];
    }
  }
  detail::pair_scratch scratch;
  scratch.masks_per_key_class = 1;
  ASSERT_EQ(count_pairs(a, b, scratch), expected);
  EXPECT_EQ(scratch.north_offsets.size(), (std::size_t{1} << 16) + 1);  // the tree took all 16 key bits
}

TEST_P(DisjointPairsTest, EdgeCases) {
  for (const bool prepare : {false, true}) {  // each against each, or prepared as long lists
    detail::pair_scratch scratch;
    if (prepare) scratch.each_against_each_pairs = 0;
    const std::vector<std::uint64_t> none;
    const std::vector<std::uint64_t> zero = {0};
    std::vector<std::uint64_t> many(130, 0);
    EXPECT_EQ(count_pairs(none, many, scratch), 0u);
    EXPECT_EQ(count_pairs(zero, none, scratch), 0u);
    EXPECT_EQ(count_pairs(zero, many, scratch), 130u);  // the empty mask fits everything
    const std::vector<std::uint64_t> top = {std::uint64_t{1} << 63};
    many[129] = std::uint64_t{1} << 63;
    EXPECT_EQ(count_pairs(top, many, scratch), 129u) << prepare;
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, DisjointPairsTest, ::testing::ValuesIn(detail::implementations()),
                         [](const auto& info) {
                           std::string name(info.param.name);
                           std::replace(name.begin(), name.end(), '+', '_');
                           return name;
                         });

// Whole quadrant solves of every compiled variant agree with the portable
// one, from the whole tables and from each subproblem's own quarters.
TEST(QuadrantKernelTest, EveryVariantSolvesLikeThePortableOne) {
  for (const int n : {9, 12, 14}) {
    const detail::half_board_tables tables(n);
    const plan p(n, {.kind = engine::quadrant, .split_depth = 2});
    const auto& tasks = tasks_of(p);
    detail::quadrant_scratch scratch;
    for (const detail::quarter_source& source :
         {detail::quarter_source(n, &tables), detail::quarter_source(n, nullptr)}) {
      for (const detail::implementation& v : detail::implementations()) {
        if (!v.cpu_runs()) continue;
        std::uint64_t total = 0;
        for (const detail::quadrant_task& t : tasks) {
          const std::uint64_t got = detail::quadrant_kernels_of(v).solve(
              source, t, detail::quadrant_slicing_of(*detail::plan_access::engine(p)), scratch);
          ASSERT_EQ(got, detail::quadrant_kernels_of(detail::implementations()[0])
                             .solve(source, t, detail::quadrant_slicing_of(*detail::plan_access::engine(p)), scratch))
              << v.name << ", n = " << n << ", north " << t.north << ", tables " << source.has_tables();
          total += got;
        }
        EXPECT_EQ(total, *published_total(n)) << v.name << ", tables " << source.has_tables();
      }
    }
  }
}

// Groups counted in slices (north x south, in bounded memory) give each
// task's exact count, for any bound, with the plan's own slices too.
TEST(QuadrantKernelTest, SlicedGroupsCountLikeWholeOnes) {
  for (const int n : {9, 12, 14}) {
    const plan p(n, {.kind = engine::quadrant, .split_depth = 2});
    const auto& tasks = tasks_of(p);
    detail::quadrant_scratch scratch;
    const detail::quadrant_kernels& k = detail::quadrant_kernels_for(active_isa());
    const detail::quarter_source whole(n, nullptr);
    for (const std::size_t max_group : {std::size_t{n == 9 ? 1U : 37U}, std::size_t{1000}}) {
      const detail::quarter_source sliced(n, nullptr, max_group, max_group == 1000);  // compact lists too
      std::uint64_t total = 0;
      for (const detail::quadrant_task& t : tasks) {
        const std::uint64_t got =
            k.solve(sliced, t, detail::quadrant_slicing_of(*detail::plan_access::engine(p)), scratch);
        ASSERT_EQ(got, k.solve(whole, t, detail::quadrant_slicing_of(*detail::plan_access::engine(p)), scratch))
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
      const detail::quarter_source pieces(n, nullptr, 41);
      constexpr int slots = 4;
      const detail::class_slicing every{slots, 0, south_from}, none{slots, 1e30, south_from}, all{slots, 1, south_from},
          some{slots, n == 14 ? 3e4 : 3e2, south_from};
      std::set<int> slots_counting;  // how many slots of a class count, under `some`
      std::uint64_t total = 0;
      for (const detail::quadrant_task& t : tasks) {
        const std::uint64_t class_count = k.solve(whole, t, detail::class_slicing{1}, scratch);
        std::uint64_t sum = 0;
        int counting = 0;
        for (std::uint8_t slot = 0; slot < slots; ++slot) {
          detail::quadrant_task s = t;
          s.slice = slot;
          const std::uint64_t got = k.solve(whole, s, some, scratch);
          ASSERT_EQ(got, k.solve(pieces, s, some, pieces_scratch)) << "n = " << n << ", north " << t.north;
          ASSERT_EQ(k.solve(whole, s, none, scratch), slot == 0 ? class_count : 0) << "n = " << n;
          ASSERT_EQ(k.solve(whole, s, all, scratch), k.solve(whole, s, every, scratch)) << "n = " << n;
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
      const std::size_t count = detail::quadrant_kernels_for(isa::portable).north_halves(west, east, h, k, expected);
      for (const detail::implementation& v : detail::implementations()) {
        if (!v.cpu_runs()) continue;
        ASSERT_EQ(detail::quadrant_kernels_of(v).north_halves(west, east, h, k, got), count);
        ASSERT_TRUE(std::equal(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(count), expected.begin()))
            << v.name << ", n = " << n << ", north " << t.north;
      }
    }
  }
}

TEST(QuadrantMemoryTest, EstimateGrowsAndCoversTheTables) {
  constexpr std::uint64_t unbounded = UINT64_MAX;  // always the whole tables
  for (int n = 6; n <= 24; ++n) {
    EXPECT_GT(memory_estimate(n, engine::quadrant, 2, unbounded),
              memory_estimate(n - 1, engine::quadrant, 2, unbounded))
        << n;
    EXPECT_TRUE(detail::quadrant_layout_for(n, 2, unbounded).tables);
  }
  EXPECT_EQ(memory_estimate(20, engine::symmetric), 0u);
  // The real tables stay within the estimate.
  for (const int n : {10, 13, 14}) {
    const detail::half_board_tables tables(n);
    EXPECT_LE(tables.bytes(), memory_estimate(n, engine::quadrant, 1)) << n;
  }
}

// Under a bound the whole tables do not fit, the engine builds each
// subproblem's quarters, then also slices its groups; the estimate follows
// the bound, and the counts stay exact.
TEST(QuadrantMemoryTest, SmallerBoundsChooseSmallerLayouts) {
  constexpr std::uint64_t mib = 1024 * 1024;
  const detail::quadrant_layout roomy = detail::quadrant_layout_for(20, 2, 64ULL << 30);
  EXPECT_TRUE(roomy.tables);
  const detail::quadrant_layout lists = detail::quadrant_layout_for(20, 2, 128 * mib);
  EXPECT_FALSE(lists.tables);
  EXPECT_LE(lists.bytes, 128 * mib);
  EXPECT_LT(lists.bytes, roomy.bytes);
  const detail::quadrant_layout squeezed = detail::quadrant_layout_for(18, 2, 16 * mib);
  EXPECT_FALSE(squeezed.tables);
  EXPECT_LE(squeezed.bytes, 16 * mib);
  EXPECT_LE(memory_estimate(18, engine::quadrant, 2, 16 * mib), 16 * mib);
  for (int n = 22; n <= 24; ++n) {  // boards whose tables alone pass the bound, sliced
    const detail::quadrant_layout l = detail::quadrant_layout_for(n, 2, 1024 * mib);
    EXPECT_FALSE(l.tables) << n;
    EXPECT_LE(l.bytes, 1024 * mib) << n;
  }
  // A run given a bound its tables do not fit counts exactly, in slices.
  const std::uint64_t tight = 10 * mib;
  const detail::quadrant_layout small = detail::quadrant_layout_for(14, 2, tight);
  ASSERT_FALSE(small.tables);
  ASSERT_NE(small.max_group, 0U);
  ASSERT_LE(small.bytes, tight);
  count_options o;
  o.kind = engine::quadrant;
  o.threads = 2;
  o.max_memory = tight;
  EXPECT_EQ(count(14, o).total, *published_total(14));
}

TEST(QuadrantMemoryTest, RefusesUpFrontWhenOverTheBound) {
  const plan p(14, {.kind = engine::quadrant});
  execute_options options;
  options.max_memory = 1024;
  EXPECT_THROW(execute(p, options), memory_limit_error);
  count_options count_opts{.kind = engine::quadrant};
  count_opts.max_memory = min_max_memory;
  try {
    count(14, count_opts);
    FAIL() << "no memory_limit_error";
  } catch (const memory_limit_error& e) {
    EXPECT_NE(std::string(e.what()).find("for n = 14"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(check_memory(14, engine::symmetric, 1));  // backtracking needs nothing
}

}  // namespace
}  // namespace nqueens
