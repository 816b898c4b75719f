#pragma once

// Whole reads and writes on a file descriptor, with the EINTR retries POSIX
// asks for written once, and the fsync that makes a new name last: the
// journal's, and the CLI's files and streams.

#include <sys/types.h>

#include <cstddef>
#include <string>

namespace nqueens::detail {

/// read() up to `size` bytes (fewer only at the end of the file); -1 on error.
ssize_t read_up_to(int fd, void* data, std::size_t size);

/// write() until all `size` bytes are out or one fails; returns the bytes
/// written (fewer than `size` on failure, errno then says why).
std::size_t write_all(int fd, const void* data, std::size_t size);

/// fsync of the directory holding `path`, so that a new name (a link, a
/// rename) survives a crash. Returns 0, or the errno of an fsync that
/// failed (EIO, ENOSPC: the name may not survive). A directory that cannot
/// be opened to sync (readable by nobody here) or a file system that syncs
/// no directory (EINVAL) is 0: there is nothing more to do there.
int sync_directory_of(const std::string& path);

}  // namespace nqueens::detail
