// parse_placement, the reader of every placement `check` is given: its
// columns and refusals, and a stop answered while a long placement is read.

#include "cli/io/placement_io.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "nqueens/cancelled.hpp"

namespace {

using nqueens::cli::parse_placement;
using nqueens::cli::usage_error;

// The message parse_placement refuses `text` with; "" where it takes it.
std::string refusal_of(const std::string& text) {
  try {
    static_cast<void>(parse_placement(text));
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}

TEST(PlacementIoTest, ReadsColumnsUpToTheLargestInt) {
  int class_size = 0;
  EXPECT_EQ(parse_placement("(1, 3, 0, 2) 2", &class_size), (std::vector<int>{1, 3, 0, 2}));
  EXPECT_EQ(class_size, 2);
  EXPECT_EQ(parse_placement("0 10,2147483647"), (std::vector<int>{0, 10, 2147483647}));
  EXPECT_NE(refusal_of("0 2147483648").find("column '2147483648' is out of range"), std::string::npos);
  // A run of digits far past any int is refused, not wrapped round.
  EXPECT_NE(refusal_of("1 18446744073709551617").find("is out of range"), std::string::npos);
  EXPECT_NE(refusal_of("1 01").find("invalid column '01'"), std::string::npos);
  EXPECT_EQ(refusal_of("0"), "");
}

// A set stop is answered within a long placement (every 65,536 columns),
// and never fails a short one, whose reading ends at once.
TEST(PlacementIoTest, AStopEndsTheReadingOfALongPlacement) {
  std::string columns;
  for (int c = 0; c < 200000; ++c) columns += std::to_string(c) + ' ';
  std::atomic<bool> stop{false};
  EXPECT_EQ(parse_placement(columns, nullptr, &stop).size(), 200000u);
  stop = true;
  EXPECT_THROW(static_cast<void>(parse_placement(columns, nullptr, &stop)), nqueens::run_cancelled);
  EXPECT_EQ(parse_placement("1 3 0 2", nullptr, &stop), (std::vector<int>{1, 3, 0, 2}));
}

}  // namespace
