#pragma once

// The one mapping from what a command throws to its exit status and the line
// that says why, for `nqueens` and `nqueens-mpi` alike: 2 for what the
// command line asked (a usage error, a journal of another run, a bound that
// cannot be kept), 3 for what failed while it ran, 128 + signal for a run
// stopped before it began counting; and the statuses in words, for the help.

#include <exception>
#include <string>
#include <string_view>

namespace nqueens::cli {

/// The exit status of a process stopped by signal `sig`: 128 + sig, as a
/// shell reports a process the signal killed.
constexpr int interrupted_status(int sig) noexcept { return 128 + sig; }

struct failure {
  int status = 3;
  std::string message;  ///< one line, without the program's name
};

/// The line (without the program's name) of a process out of memory, status 3.
inline constexpr std::string_view out_of_memory_message =
    "out of memory: the process could not get the memory it asked for (is its address space limited? see ulimit -v)";

/// What `error` (an exception in flight, not null) means for the exit.
failure failure_of(const std::exception_ptr& error);

/// The exit statuses in words, for the help texts: every command's
/// (`nqueens --help`), or a count's alone (`nqueens-mpi --help`); the
/// signals' from the list the handlers catch.
std::string exit_status_text(bool count_alone = false);

}  // namespace nqueens::cli
