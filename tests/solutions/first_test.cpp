#include "nqueens/first.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <stdexcept>
#include <vector>

#include "nqueens/check.hpp"

namespace {

TEST(FirstSolutionTest, IsASolutionForEveryBoardUpTo3000) {
  for (int n = 1; n <= 3000; ++n) {
    const std::optional<std::vector<int>> q = nqueens::first_solution(n);
    if (n == 2 || n == 3) {
      EXPECT_FALSE(q.has_value()) << n;
      continue;
    }
    ASSERT_TRUE(q.has_value()) << n;
    ASSERT_EQ(q->size(), static_cast<std::size_t>(n));
    ASSERT_TRUE(nqueens::check(*q).is_solution()) << "n = " << n;
  }
}

TEST(FirstSolutionTest, IsASolutionForLargeBoardsOfEveryResidueModSix) {
  // The construction has a case for n mod 6 = 2 and 3: cover all six residues.
  for (int n = 999'996; n <= 1'000'003; ++n) {
    const std::vector<int> q = nqueens::first_solution(n).value();
    ASSERT_EQ(q.size(), static_cast<std::size_t>(n));
    EXPECT_TRUE(nqueens::check(q).is_solution()) << "n = " << n;
  }
}

TEST(FirstSolutionTest, RejectsBoardSizesOutOfRange) {
  EXPECT_THROW(nqueens::first_solution(0), std::invalid_argument);
  EXPECT_THROW(nqueens::first_solution(-5), std::invalid_argument);
  EXPECT_THROW(nqueens::first_solution(nqueens::max_constructed_board_size + 1), std::invalid_argument);
}

// A stop is heard while a board is built (a second at 10^8), for every
// residue's order; a flag never set changes nothing.
TEST(FirstSolutionTest, AStopIsHeardWhileTheBoardIsBuilt) {
  const std::atomic<bool> stopped{true};
  for (const int base : {2, 3'000'000}) {  // small boards too: a flag set before is heard at once
    for (int n = base; n < base + 6; ++n) {
      try {
        static_cast<void>(nqueens::first_solution(n, &stopped));
        ADD_FAILURE() << n << ": built";
      } catch (const nqueens::run_cancelled& e) {  // it counts nothing: says so
        EXPECT_STREQ(e.what(), "the construction of the solution was cancelled") << n;
      }
    }
  }
  const std::atomic<bool> going{false};
  const std::optional<std::vector<int>> built = nqueens::first_solution(3'000'002, &going);
  ASSERT_TRUE(built);
  EXPECT_TRUE(nqueens::check(*built).is_solution());
}

}  // namespace
