// An exception no thread catches: one line and status 3 where the machine
// refused memory or a thread, an abort (a defect's core dump) otherwise.
// Death tests, run in a fresh process of this binary ("threadsafe"): a fork
// of this one, whose oneTBB workers run on, may not start a thread.

#include "cli/machine_refusal.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <thread>

namespace {

using nqueens::cli::end_machine_refusals_cleanly;
using nqueens::cli::end_process;

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

// A refusal on a worker while the main thread ends the process: the first
// decides, the other waits. Here the refusal comes first and is still
// ending the process (its finisher sleeps) when main calls exit(0): the
// status is the refusal's, not 0 with its line printed.
TEST(MachineRefusalDeathTest, AnExitDuringARefusalWaitsForIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  static std::atomic<bool> finishing{false};
  EXPECT_EXIT(
      {
        end_machine_refusals_cleanly("nqueens", [](int status) {
          finishing = true;
          std::this_thread::sleep_for(std::chrono::milliseconds(200));
          std::_Exit(status + 10);
        });
        std::thread([] { throw std::bad_alloc(); }).detach();
        while (!finishing) std::this_thread::yield();
        std::exit(0);
      },
      ::testing::ExitedWithCode(13), "out of memory");
}

// And where the process was exiting first (its count done without the
// thread oneTBB failed to start late), its own status stands, without the
// line.
TEST(MachineRefusalDeathTest, ARefusalDuringAnExitLeavesItsStatus) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::atexit([] {  // registered first, so it runs after the handler's own
          // The thread is at its throw before the wait begins: a thread
          // not yet scheduled would leave the test nothing to test.
          static std::atomic<bool> throwing{false};
          std::thread([] {
            throwing = true;
            throw std::bad_alloc();
          }).detach();
          while (!throwing) std::this_thread::yield();
          std::this_thread::sleep_for(std::chrono::milliseconds(200));
        });
        end_machine_refusals_cleanly("nqueens");
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "^$");
}

// main's end flushes what exit() would, and destroys nothing: exit() ran
// oneTBB's destructors under a worker it was still starting (an abort).
// Sanitized builds exit() as usual, for the checks they make at exit.
TEST(MachineRefusalDeathTest, TheEndFlushesButDestroysNothing) {
  if (nqueens::cli::sanitizers_check_at_exit) GTEST_SKIP() << "a sanitized build ends through exit()";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        end_machine_refusals_cleanly("nqueens");
        std::atexit([] { std::fputs("destroyed\n", stderr); });
        // A stream of its own, fully buffered before its first use: its
        // text reaches stderr only if the end flushes it.
        FILE* held = ::fdopen(::dup(2), "w");
        if (held == nullptr || std::setvbuf(held, nullptr, _IOFBF, 1024) != 0) std::_Exit(1);
        std::fputs("flushed\n", held);
        end_process(7);
      },
      ::testing::ExitedWithCode(7), "^flushed\n$");
}

// Where the CUDA driver is loaded, the end goes through exit(): the CUDA
// runtime and NVIDIA's profilers finish there (a trace's last buffer).
TEST(MachineRefusalDeathTest, TheEndExitsWhereTheCudaDriverIsLoaded) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        end_machine_refusals_cleanly("nqueens");
        if (::dlopen(NQUEENS_FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_LOCAL) == nullptr) std::_Exit(1);
        end_process(7);
      },
      ::testing::ExitedWithCode(7), "^the driver's end ran\n$");
}

// libstdc++ terminates with no exception in flight where it has no memory
// for the exception itself (under `ulimit -v` at 10 MB): with no memory
// left, that is the out-of-memory line and status 3, not an abort.
TEST(MachineRefusalDeathTest, ATerminateWithoutMemoryForTheExceptionIsOutOfMemory) {
  if (nqueens::cli::sanitized_build) GTEST_SKIP() << "the sanitizers' allocator ends an allocation refused itself";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        end_machine_refusals_cleanly("nqueens");
        // The address space capped at what is mapped now, then the heap's
        // room used up (in the size the probe asks): the next small
        // allocation fails, as libstdc++'s did.
        rlimit space{};
        if (::getrlimit(RLIMIT_AS, &space) != 0) std::_Exit(1);
        space.rlim_cur = 0;
        if (::setrlimit(RLIMIT_AS, &space) != 0) std::_Exit(1);
        static void* volatile kept = nullptr;  // each seen to escape: never folded away
        for (int k = 0; k < 100000000; ++k) {
          void* const block = std::malloc(256);
          if (block == nullptr) break;
          kept = block;
        }
        std::terminate();
      },
      ::testing::ExitedWithCode(3),
      "^nqueens: out of memory: the process could not get the memory it asked for \\(is its address space "
      "limited\\? see ulimit -v\\)\n$");
}

// Throws where its caller cannot see it (a throw in a destructor in plain
// sight is a warning).
[[gnu::noinline]] void throw_bad_alloc() { throw std::bad_alloc(); }

// Destroyed at exit, out of memory then.
struct fails_when_destroyed {
  fails_when_destroyed() = default;
  fails_when_destroyed(const fails_when_destroyed&) = delete;
  fails_when_destroyed& operator=(const fails_when_destroyed&) = delete;
  ~fails_when_destroyed() { throw_bad_alloc(); }
};

// A refusal on the thread that is exiting (a static's destructor out of
// memory, after the handler's own step at exit) ends the process with its
// line and status 3: it waited for an end only it could bring, for ever.
TEST(MachineRefusalDeathTest, ARefusalOnTheExitingThreadEndsIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        static const fails_when_destroyed first;  // made before the handler's step: destroyed after it
        end_machine_refusals_cleanly("nqueens");
        std::exit(0);
      },
      ::testing::ExitedWithCode(3), "^nqueens: out of memory: ");
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
  EXPECT_EXIT(
      {
        end_machine_refusals_cleanly("nqueens");
        std::terminate();  // memory to spare: no exception is a defect's end
      },
      ::testing::KilledBySignal(SIGABRT), "");
}

}  // namespace
