// Numbers read from the environment (engines/plain_number.hpp): by the
// command line's rule, each refusal naming the variable, the value given and
// the range. The GPU module reads NQUEENS_GPU_SHARERS and the MPI
// launchers' local ranks through it, on a GPU only: the reading is tested
// here, on the CPU.

#include "engines/plain_number.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "engines/gpu/gpu_memory_share.hpp"

namespace nqueens::detail {
namespace {

// The message environment_integer throws for `value` ("" if none).
std::string refusal(const char* name, const char* value, long long lo, long long hi) {
  try {
    environment_integer(name, value, lo, hi);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(PlainNumberTest, TheGpuSharersAreAPlainNumberInRange) {
  const long long most = gpu::max_gpu_sharers;
  EXPECT_EQ(environment_integer("NQUEENS_GPU_SHARERS", "1", 1, most), 1);
  EXPECT_EQ(environment_integer("NQUEENS_GPU_SHARERS", "3", 1, most), 3);
  EXPECT_EQ(environment_integer("NQUEENS_GPU_SHARERS", std::to_string(most), 1, most), most);
  // atoi made 1 of each of these.
  const std::string range = "expected an integer from 1 to " + std::to_string(most);
  for (const char* value : {"0", "-1", "4294967297", "99999999999999999999999"}) {
    EXPECT_EQ(refusal("NQUEENS_GPU_SHARERS", value, 1, most),
              "NQUEENS_GPU_SHARERS=" + std::string(value) + " is out of range: " + range);
  }
  for (const char* value : {"abc", "1.5", "2x", "02", "+2", " 2", "2 ", "0x10", "-"}) {
    EXPECT_EQ(refusal("NQUEENS_GPU_SHARERS", value, 1, most),
              "NQUEENS_GPU_SHARERS='" + std::string(value) + "' is not a number: " + range +
                  ", in plain decimal digits, no sign, no leading zero");
  }
  // On one line, whatever the value holds.
  EXPECT_EQ(refusal("NQUEENS_GPU_SHARERS", "2\n3", 1, most), "NQUEENS_GPU_SHARERS='2\\x0a3' is not a number: " + range +
                                                                 ", in plain decimal digits, no sign, no leading zero");
}

// Unset or empty is "not given"; anything else is read strictly.
TEST(PlainNumberTest, AnUnsetOrEmptyVariableIsNotGiven) {
  const char* name = "NQUEENS_PLAIN_NUMBER_TEST";
  ::unsetenv(name);
  EXPECT_EQ(environment_integer(name, 0, 7), std::nullopt);
  ::setenv(name, "", 1);
  EXPECT_EQ(environment_integer(name, 0, 7), std::nullopt);
  ::setenv(name, "0", 1);
  EXPECT_EQ(environment_integer(name, 0, 7), 0);
  ::setenv(name, "8", 1);
  EXPECT_THROW(environment_integer(name, 0, 7), std::invalid_argument);
  ::unsetenv(name);
}

TEST(PlainNumberTest, PlainIntegersFollowTheRule) {
  EXPECT_EQ(plain_integer("0", 0, 10), 0);
  EXPECT_EQ(plain_integer("10", 0, 10), 10);
  EXPECT_EQ(plain_integer("11", 0, 10), std::nullopt);
  EXPECT_EQ(plain_integer("010", 0, 100), std::nullopt);
  EXPECT_EQ(plain_integer("", 0, 10), std::nullopt);
  EXPECT_EQ(plain_integer("9223372036854775808", 0, 10), std::nullopt);
  EXPECT_EQ(plain_digits("12 3"), 2u);
  EXPECT_EQ(plain_digits("00"), 0u);
}

}  // namespace
}  // namespace nqueens::detail
