#include "nqueens/check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "nqueens/enumerate.hpp"

namespace {

// O(n^2) reference: pairs on a shared line with no queen strictly between,
// ordered by (first row, line).
std::vector<nqueens::attack> brute_force_attack_list(const std::vector<int>& q) {
  const int n = static_cast<int>(q.size());
  std::vector<nqueens::attack> pairs;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const int dc = q[b] - q[a];
      const int dr = b - a;
      if (dc != 0 && dc != dr && dc != -dr) continue;
      bool blocked = false;
      for (int k = a + 1; k < b && !blocked; ++k) {
        // The square of the line a-b in row k, reached by the same step.
        blocked = q[k] == q[a] + dc / dr * (k - a);
      }
      if (blocked) continue;
      const auto line = dc == 0    ? nqueens::attack_line::column
                        : dc == dr ? nqueens::attack_line::diagonal
                                   : nqueens::attack_line::anti_diagonal;
      pairs.push_back({static_cast<std::size_t>(a), static_cast<std::size_t>(b), line});
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const nqueens::attack& x, const nqueens::attack& y) {
    return x.first_row != y.first_row ? x.first_row < y.first_row : x.line < y.line;
  });
  return pairs;
}

std::size_t brute_force_attacks(const std::vector<int>& q) { return brute_force_attack_list(q).size(); }

TEST(CheckTest, AcceptsASolution) {
  const std::vector<int> q = {1, 3, 0, 2};
  const nqueens::check_result r = nqueens::check(q);
  EXPECT_TRUE(r.is_solution());
  EXPECT_EQ(r.n, 4u);
  EXPECT_TRUE(r.attacks.empty());
}

TEST(CheckTest, NamesEachAttackingPairAndItsLine) {
  const std::vector<int> q = {1, 1, 0, 2};
  const nqueens::check_result r = nqueens::check(q);
  ASSERT_EQ(r.attack_count, 2u);
  EXPECT_EQ(r.attacks[0], (nqueens::attack{0, 1, nqueens::attack_line::column}));
  EXPECT_EQ(r.attacks[1], (nqueens::attack{1, 2, nqueens::attack_line::anti_diagonal}));
  EXPECT_STREQ(nqueens::to_string(nqueens::attack_line::column), "column");
  EXPECT_STREQ(nqueens::to_string(nqueens::attack_line::anti_diagonal), "anti-diagonal");
  // A value no enumerator has (a cast), as the other enumerations' to_string say it.
  EXPECT_STREQ(nqueens::to_string(static_cast<nqueens::attack_line>(9)), "unknown");
}

TEST(CheckTest, AQueenInBetweenBlocksTheLine) {
  const std::vector<int> q = {0, 1, 2};  // one diagonal: 0-1 and 1-2 attack, 0-2 is blocked
  const nqueens::check_result r = nqueens::check(q);
  ASSERT_EQ(r.attack_count, 2u);
  EXPECT_EQ(r.attacks[0], (nqueens::attack{0, 1, nqueens::attack_line::diagonal}));
  EXPECT_EQ(r.attacks[1], (nqueens::attack{1, 2, nqueens::attack_line::diagonal}));
}

TEST(CheckTest, ReportsUpToTheLimitButCountsAll) {
  const std::vector<int> q(50, 7);  // one column: 49 pairs
  const nqueens::check_result r = nqueens::check(q, 10);
  EXPECT_EQ(r.attack_count, 49u);
  EXPECT_EQ(r.attacks.size(), 10u);
  EXPECT_FALSE(r.is_solution());
}

TEST(CheckTest, EmptyAndSingleQueenAreSolutions) {
  EXPECT_TRUE(nqueens::check(std::vector<int>{}).is_solution());
  EXPECT_TRUE(nqueens::check(std::vector<int>{0}).is_solution());
}

TEST(CheckTest, RejectsColumnsOffTheBoard) {
  EXPECT_THROW(nqueens::check(std::vector<int>{0, 2}), std::invalid_argument);
  EXPECT_THROW(nqueens::check(std::vector<int>{0, -1}), std::invalid_argument);
}

// `trials` random placements (any column in each row) of smallest to
// smallest + sizes - 1 queens, checked against the pairwise count.
void expect_agrees_with_pairwise_check(unsigned seed, int trials, int smallest, int sizes) {
  std::mt19937 random(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const int n = smallest + static_cast<int>(random() % static_cast<unsigned>(sizes));
    std::vector<int> q(static_cast<std::size_t>(n));
    for (int& c : q) c = static_cast<int>(random() % static_cast<unsigned>(n));
    const nqueens::check_result r = nqueens::check(q, 1000);
    const std::size_t expected = brute_force_attacks(q);
    ASSERT_EQ(r.attack_count, expected) << "trial " << trial << ", n = " << n;
    ASSERT_EQ(r.attacks.size(), std::min<std::size_t>(expected, 1000));
    ASSERT_EQ(r.is_solution(), expected == 0);
  }
}

TEST(CheckTest, AgreesWithPairwiseCheckOnRandomPlacements) { expect_agrees_with_pairwise_check(12345, 5000, 1, 10); }

// Past one word of diagonals (n > 32: 2n - 1 of them) and far past it.
TEST(CheckTest, AgreesWithPairwiseCheckOnLargeBoards) { expect_agrees_with_pairwise_check(2026, 300, 33, 300); }

// The pairs reported are the first ones in (first row, line) order, each with
// the next queen down its line, whatever the limit.
TEST(CheckTest, ReportsTheFirstPairsInOrder) {
  std::mt19937 random(777);
  for (int trial = 0; trial < 5000; ++trial) {
    const int n = 1 + static_cast<int>(random() % 12);
    std::vector<int> q(static_cast<std::size_t>(n));
    for (int& c : q) c = static_cast<int>(random() % static_cast<unsigned>(n));
    const std::size_t limit = random() % 6;
    std::vector<nqueens::attack> expected = brute_force_attack_list(q);
    const std::size_t all = expected.size();
    if (expected.size() > limit) expected.resize(limit);
    const nqueens::check_result r = nqueens::check(q, limit);
    ASSERT_EQ(r.attack_count, all) << "trial " << trial;
    ASSERT_EQ(r.attacks, expected) << "trial " << trial;
  }
}

// class_size agrees with the class sizes `list --unique` gives, for every
// class of n = 1..10; the sizes of a class's members are its own.
TEST(CheckTest, ClassSizeIsTheOneEnumerationGives) {
  for (int n = 1; n <= 10; ++n) {
    std::size_t classes = 0;
    nqueens::enumerate(n, {.threads = 1, .unique = true}, [&](const nqueens::listed_solution& s) {
      const std::vector<int> columns(s.columns.begin(), s.columns.end());
      EXPECT_EQ(nqueens::class_size(columns), s.class_size) << "n = " << n << ", class " << classes;
      ++classes;
      return true;
    });
    if (n != 2 && n != 3) EXPECT_GT(classes, 0u) << n;
  }
  // Both solutions of n = 4 are one class of 2; n = 1's lone queen is its own.
  EXPECT_EQ(nqueens::class_size(std::vector<int>{1, 3, 0, 2}), 2);
  EXPECT_EQ(nqueens::class_size(std::vector<int>{2, 0, 3, 1}), 2);
  EXPECT_EQ(nqueens::class_size(std::vector<int>{0}), 1);
}

TEST(CheckTest, ClassSizeRefusesWhatIsNoPermutation) {
  EXPECT_THROW(nqueens::class_size(std::vector<int>{0, 0}), std::invalid_argument);
  EXPECT_THROW(nqueens::class_size(std::vector<int>{0, 2}), std::invalid_argument);
  EXPECT_THROW(nqueens::class_size(std::vector<int>{-1, 0}), std::invalid_argument);
}

}  // namespace
