// An exception no thread catches: one line and status 3 where the machine
// refused memory or a thread, an abort (a defect's core dump) otherwise.
// Death tests, run in a fresh process of this binary ("threadsafe"): a fork
// of this one, whose oneTBB workers run on, may not start a thread.

#include "cli/machine_refusal.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <thread>

namespace {

using nqueens::cli::end_machine_refusals_cleanly;

// Thrown on a thread of its own, as oneTBB's workers throw theirs.
template <typename Exception>
void throw_on_a_thread(Exception e) {
  std::thread([e] { throw e; }).join();
}

TEST(MachineRefusalDeathTest, AThreadRefusedEndsWithItsLineAndStatus3) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        end_machine_refusals_cleanly("nqueens");
        throw_on_a_thread(std::runtime_error("pthread_create has failed: Resource temporarily unavailable"));
      },
      ::testing::ExitedWithCode(3),
      "^nqueens: error: a thread could not start \\(pthread_create has failed: Resource temporarily unavailable\\): "
      "too many threads, or too little memory for one\\? see ulimit -u and ulimit -v\n$");
  EXPECT_EXIT(
      {
        end_machine_refusals_cleanly("nqueens-mpi: rank 3");
        throw_on_a_thread(std::bad_alloc());
      },
      ::testing::ExitedWithCode(3), "^nqueens-mpi: rank 3: out of memory: ");
}

// Called last with the status, where the process must do more than exit.
TEST(MachineRefusalDeathTest, TheFinisherEndsIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        end_machine_refusals_cleanly("nqueens", [](int status) {
          std::fputs("finisher\n", stderr);
          std::_Exit(status + 10);
        });
        throw_on_a_thread(std::bad_alloc());
      },
      ::testing::ExitedWithCode(13), "out of memory.*\nfinisher\n");
}

// Anything else is a defect: aborted, for its core dump.
TEST(MachineRefusalDeathTest, ADefectStillAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        end_machine_refusals_cleanly("nqueens");
        throw_on_a_thread(std::invalid_argument("a bug"));
      },
      ::testing::KilledBySignal(SIGABRT), "");
}

}  // namespace
