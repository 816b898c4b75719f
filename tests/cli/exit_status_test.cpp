// What a command's exception means for the exit: its status and its one
// line (exit_status.hpp), for the failures a user can cause from outside.

#include "cli/exit_status.hpp"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "cli/arguments.hpp"

namespace {

using nqueens::cli::failure;
using nqueens::cli::failure_of;

TEST(ExitStatusTest, EachFailureHasItsStatusAndOneLine) {
  const failure usage = failure_of(std::make_exception_ptr(nqueens::cli::usage_error("bad\noption")));
  EXPECT_EQ(usage.status, 2);
  EXPECT_EQ(usage.message.find('\n'), std::string::npos) << usage.message;  // a quoted line break cannot split it
  // Out of memory (a limit on the address space, say) is named as such, not
  // as the library's "std::bad_alloc".
  const failure memory = failure_of(std::make_exception_ptr(std::bad_alloc()));
  EXPECT_EQ(memory.status, 3);
  EXPECT_EQ(memory.message.rfind("out of memory", 0), 0U) << memory.message;
  // std::thread's refusal names what was refused, not only the errno text.
  const failure thread = failure_of(
      std::make_exception_ptr(std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again))));
  EXPECT_EQ(thread.status, 3);
  EXPECT_EQ(thread.message.rfind("error: a thread could not start (", 0), 0U) << thread.message;
  // oneTBB's, where a limit on the process leaves no room for a worker.
  const failure worker = failure_of(
      std::make_exception_ptr(std::runtime_error("pthread_create has failed: Resource temporarily unavailable")));
  EXPECT_EQ(worker.status, 3);
  EXPECT_EQ(worker.message.rfind("error: a thread could not start (pthread_create has failed", 0), 0U)
      << worker.message;
  const failure other = failure_of(std::make_exception_ptr(std::runtime_error("disk on fire")));
  EXPECT_EQ(other.status, 3);
  EXPECT_EQ(other.message, "error: disk on fire");
}

}  // namespace
