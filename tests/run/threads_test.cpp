#include "nqueens/threads.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <stdexcept>
#include <string>

namespace nqueens {
namespace {

// oneTBB's default honours the CPU affinity mask: so must ours. Under a
// cgroup's CPU quota, oneTBB releases newer than Debian 12's lower it to
// the quota: then it is at most the mask.
TEST(ThreadsTest, HardwareThreadsFollowTheAffinityMask) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  ASSERT_EQ(::sched_getaffinity(0, sizeof mask, &mask), 0);
  if (cpu_quota()) {
    EXPECT_LE(hardware_threads(), CPU_COUNT(&mask));
  } else {
    EXPECT_EQ(hardware_threads(), CPU_COUNT(&mask));
  }
  EXPECT_GE(hardware_threads(), 1);
}

TEST(ThreadsTest, ZeroMeansTheHardwareAndTheRangeIsEnforced) {
  EXPECT_EQ(resolve_threads(0), hardware_threads());
  EXPECT_EQ(resolve_threads(1), 1);
  EXPECT_EQ(resolve_threads(max_threads), max_threads);
  for (const int bad : {-1, max_threads + 1}) {
    try {
      resolve_threads(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(max_threads)), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace nqueens
