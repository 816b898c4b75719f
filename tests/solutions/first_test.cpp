#include "nqueens/first.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
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

// This process's anonymous bytes, in memory or swapped out: a board being
// built grows them as its columns are written, 4 bytes each, and no other
// process's pressure takes them back (it may take file-backed pages).
std::size_t written_bytes() {
  std::ifstream status("/proc/self/status");
  std::size_t bytes = 0;
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("RssAnon:") || line.starts_with("VmSwap:")) {
      bytes += std::stoull(line.substr(line.find(':') + 1)) * 1024;  // "  12345 kB"
    }
  }
  return bytes;
}

// A flag set midway through a board of 10^8 (400 MB) is heard before the
// end: set once a tenth of its columns are written; had the build gone on
// for 24 MB past that (six looks at the flag), it must have heard it.
TEST(FirstSolutionTest, AStopSetMidwayIsHeard) {
  constexpr int n = nqueens::max_constructed_board_size;
  const std::size_t before = written_bytes();
  std::atomic<bool> stopped{false};
  std::atomic<bool> done{false};
  std::size_t written_when_set = 0;
  std::thread setter([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!done.load() && written_bytes() < before + std::size_t{40} * n / 100 &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    stopped.store(true);
    written_when_set = written_bytes();
  });
  std::optional<std::vector<int>> built;
  bool heard = false;
  try {
    built = nqueens::first_solution(n, &stopped);
  } catch (const nqueens::run_cancelled&) {
    heard = true;
  }
  done.store(true);
  setter.join();
  if (heard) return;
  ASSERT_TRUE(built);
  const std::size_t whole = before + std::size_t{4} * n;
  if (written_when_set + std::size_t{24} * 1024 * 1024 > whole) GTEST_SKIP() << "the flag came too late to be heard";
  ADD_FAILURE() << "the flag was set with " << (whole - written_when_set) << " bytes of the board left to write";
}

}  // namespace
