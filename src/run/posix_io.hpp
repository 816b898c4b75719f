#pragma once

// Whole reads and writes on a file descriptor, with the EINTR retries POSIX
// asks for written once: the journal's, and the CLI's files and streams.

#include <sys/types.h>

#include <cstddef>

namespace nqueens::detail {

/// read() up to `size` bytes (fewer only at the end of the file); -1 on error.
ssize_t read_up_to(int fd, void* data, std::size_t size);

/// write() until all `size` bytes are out or one fails; returns the bytes
/// written (fewer than `size` on failure, errno then says why).
std::size_t write_all(int fd, const void* data, std::size_t size);

}  // namespace nqueens::detail
