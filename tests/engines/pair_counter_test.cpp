// The disjoint-pair counter of every compiled instruction set against
// brute force: random and structured lists, deep partition trees, edge cases.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <ostream>
#include <random>
#include <utility>
#include <vector>

#include "engines/quadrant/quadrant_kernels.hpp"
#include "isa/implementation.hpp"

namespace nqueens {
namespace detail {

// Test names and failures show an implementation by its name.
void PrintTo(const implementation& i, std::ostream* os) { *os << i.name; }

}  // namespace detail
namespace {

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
    // The walked list's per-mask entries are sized by the smaller list, in
    // either order (a fresh scratch each: scratch only grows).
    for (const bool small_first : {true, false}) {
      detail::pair_scratch fresh;
      ASSERT_EQ(small_first ? count_pairs(small, large, fresh) : count_pairs(large, small, fresh), expected);
      EXPECT_EQ((fresh.entries.size() - detail::pair_scratch::entry_padding) % small.size(), 0u);
      EXPECT_LT(fresh.entries.size(), large.size());
    }
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
      if ((random() & 63U) < static_cast<std::uint64_t>(16 + (bit * skew) % 32)) m |= std::uint64_t{1} << bit;
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

TEST_P(DisjointPairsTest, MatchesBruteForceWithTheWidestDigits) {
  // Digits of 8 and 9 bits, which only long walked lists take (n = 28's),
  // reached on short lists by lowering the threshold: 2000 walked masks
  // key 4 bits, so 35, 38 and 47 bits in play leave 31, 34 and 43 for
  // digits of 8, 8, 8, 7 bits, of 9, 9, 9, 7 and of 8 (five) and 3: tables
  // of 960, 1728 and 1352 entries with the 64 of the open key bits, the
  // last two past the 1024 that 6- and 7-bit digits keep to (offsets
  // scaled by entry_scale).
  std::mt19937_64 random(28);
  detail::pair_scratch scratch;
  scratch.widest_digits_from = 0;
  for (const auto& [bits, entries] : {std::pair{35, 960U}, std::pair{38, 1728U}, std::pair{47, 1352U}}) {
    const std::uint64_t field = (std::uint64_t{1} << bits) - 1;
    const auto mask = [&] { return random() & random() & field; };
    std::vector<std::uint64_t> a(2000), b(5000 + random() % 3000);
    for (auto& x : a) x = mask();
    for (auto& y : b) y = mask();
    const std::uint64_t expected = brute_force_disjoint_pairs(a, b);
    ASSERT_GT(expected, 0U);
    ASSERT_EQ(count_pairs(a, b, scratch), expected) << bits << " bits";
    EXPECT_EQ(scratch.table.size(), entries) << bits << " bits: the wide tables";
  }
  // Below the threshold 38 bits keep to 7-bit digits: 7, 7, 7, 7, 6.
  detail::pair_scratch narrow;
  std::vector<std::uint64_t> a(2000), b(6000);
  for (auto& x : a) x = random() & random() & 0x3FFFFFFFFFULL;
  for (auto& y : b) y = random() & random() & 0x3FFFFFFFFFULL;
  ASSERT_EQ(count_pairs(a, b, narrow), brute_force_disjoint_pairs(a, b));
  EXPECT_EQ(narrow.table.size(), 4 * 128 + 64 + 64U);
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
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace nqueens
