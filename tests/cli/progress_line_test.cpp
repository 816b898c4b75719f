#include "cli/progress_line.hpp"

#include <gtest/gtest.h>

#include <string>

namespace nqueens::cli {
namespace {

progress hours_into_a_long_run() {
  progress p;
  p.subproblems = 13070;
  p.finished = 4212;
  p.fraction = 0.423;
  p.elapsed_seconds = 3 * 3600 + 65;
  p.eta_seconds = 27 * 3600;
  p.total_so_far = uint128{12'345'678'901'234};
  p.total_resumed = uint128{1'000'000'000'000};
  p.threads = 16;
  return p;
}

// Never wider than asked, whatever the width; the least useful fields go
// first (threads, subproblems, elapsed...), the percent never.
TEST(ProgressLineTest, FitsEveryWidthDroppingTheLeastUsefulFieldsFirst) {
  const progress p = hours_into_a_long_run();
  for (int width = 1; width <= 200; ++width) {
    const std::string line = format_progress(p, width);
    EXPECT_LE(line.size(), static_cast<std::size_t>(width)) << line;
  }
  EXPECT_EQ(format_progress(p, 20), " 42.3%  ETA 1d03h");
  const std::string eighty = format_progress(p, 79);
  EXPECT_NE(eighty.find(" 42.3% [#"), std::string::npos) << eighty;
  EXPECT_NE(eighty.find("ETA 1d03h  3h01m elapsed  12.3 T solutions  1.04 G/s"), std::string::npos) << eighty;
  EXPECT_EQ(eighty.find("subproblems"), std::string::npos) << eighty;
  const std::string sixty = format_progress(p, 60);
  EXPECT_NE(sixty.find("ETA 1d03h  12.3 T solutions  1.04 G/s"), std::string::npos) << sixty;
  const std::string wide = format_progress(p, 500);
  EXPECT_NE(wide.find("ETA 1d03h  3h01m elapsed  12.3 T solutions  1.04 G/s  4,212/13,070 subproblems  16 threads"),
            std::string::npos)
      << wide;
  // The bar widens with the room, up to 30 marks, 42% of them filled.
  EXPECT_NE(wide.find("[############..................]"), std::string::npos) << wide;
  // For logs: no bar.
  EXPECT_EQ(format_progress(p).find('['), std::string::npos);
}

TEST(ProgressLineTest, NumbersReadAtAGlance) {
  EXPECT_EQ(format_scaled(0), "0");
  EXPECT_EQ(format_scaled(999), "999");
  EXPECT_EQ(format_scaled(14'772'512), "14.8 M");
  EXPECT_EQ(format_scaled(4'968'057'848), "4.97 G");
  EXPECT_EQ(format_scaled(999'600), "1.00 M");
  EXPECT_EQ(format_scaled(2.2e18), "2.20 E");
  EXPECT_EQ(format_grouped(0), "0");
  EXPECT_EQ(format_grouped(13070), "13,070");
  EXPECT_EQ(format_grouped(1234567), "1,234,567");
  EXPECT_EQ(format_duration(8.24), "8.2s");
  EXPECT_EQ(format_duration(72), "1m12s");
  EXPECT_EQ(format_duration(3 * 3600 + 300), "3h05m");
  EXPECT_EQ(format_duration(51 * 3600), "2d03h");
}

}  // namespace
}  // namespace nqueens::cli
