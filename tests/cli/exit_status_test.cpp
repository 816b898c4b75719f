// What a command's exception means for the exit: its status and its one
// line (exit_status.hpp), for the failures a user can cause from outside.

#include "cli/exit_status.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

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

// An exception no one catches, thrown on a thread of its own as oneTBB's
// workers throw theirs, ends the process with its line and status 3, not
// an abort (status 134 and a core dump). In a child process of its own.
TEST(ExitStatusTest, AnUncaughtExceptionEndsWithItsLine) {
  int err[2];
  ASSERT_EQ(::pipe(err), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::dup2(err[1], 2);
    ::close(err[0]);
    nqueens::cli::end_uncaught_exceptions_cleanly("nqueens");
    std::thread([] { throw std::runtime_error("pthread_create has failed: Resource temporarily unavailable"); }).join();
    ::_exit(0);
  }
  ::close(err[1]);
  std::string said;
  char buffer[512];
  for (ssize_t got; (got = ::read(err[0], buffer, sizeof buffer)) > 0;)
    said.append(buffer, static_cast<std::size_t>(got));
  ::close(err[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 3);
  // Its last line (a sanitizer may say something of the fork first).
  const std::size_t line = said.rfind("nqueens: error: a thread could not start (pthread_create has failed");
  ASSERT_NE(line, std::string::npos) << said;
  EXPECT_EQ(said.find('\n', line), said.size() - 1) << said;
}

}  // namespace
