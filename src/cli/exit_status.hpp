#pragma once

// The one mapping from what a command throws to its exit status and the line
// that says why, for `nqueens` and `nqueens-mpi` alike: 2 for what the
// command line asked (a usage error, a journal of another run, a bound that
// cannot be kept), 3 for what failed while it ran, 128 + signal for a run
// stopped before it began counting.

#include <exception>
#include <string>

namespace nqueens::cli {

/// The exit status of a process stopped by signal `sig`: 128 + sig, as a
/// shell reports a process the signal killed.
constexpr int interrupted_status(int sig) noexcept { return 128 + sig; }

struct failure {
  int status = 3;
  std::string message;  ///< one line, without the program's name
};

/// What `error` (an exception in flight, not null) means for the exit.
failure failure_of(const std::exception_ptr& error);

/// Makes an exception that no one catches (one thrown on a thread oneTBB
/// started, such as its own "pthread_create has failed" where a limit on
/// the process leaves no room for a thread) end the process as a caught one
/// does: one line, "PROGRAM: ...", and failure_of's status, not an abort
/// and a core dump. A terminate without an exception still aborts: that is
/// a defect, and its core dump is wanted. `program` must outlive the process.
void end_uncaught_exceptions_cleanly(const char* program) noexcept;

/// The exit statuses in words, for the help texts (`nqueens --help`,
/// `nqueens-mpi --help`), the signals' from the list the handlers catch.
std::string exit_status_text();

}  // namespace nqueens::cli
