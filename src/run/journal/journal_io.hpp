#pragma once

// The POSIX calls a journal is made of, shared by its creation, its replay
// and its appends: the lock, the directory's fsync, and its messages (whole
// reads and writes are posix_io.hpp's).

#include <sys/types.h>

#include <cstddef>
#include <string>

#include "nqueens/checkpoint.hpp"

namespace nqueens::detail {

/// "checkpoint 'PATH'", as every message names a journal.
std::string journal_name(const std::string& path);

[[noreturn]] void fail(checkpoint_error::reason why, const std::string& what);

/// An exclusive lock that dies with the process (flock: per open file,
/// released by the kernel on exit or kill -9). Two runs on one journal would
/// interleave their records; the second is refused (checkpoint_error).
void lock_exclusively(int fd, const std::string& path);

}  // namespace nqueens::detail
