#pragma once

// Standard descriptors closed when the process starts: the next file the tool
// opens (a journal, a CSV) would take the number, and the progress line or the
// result would then be written into it.

namespace nqueens::cli {

/// Opens /dev/null onto each of descriptors 0, 1 and 2 that is closed, with
/// the access it must not have (0 write-only, 1 and 2 read-only): reading or
/// writing it still fails with EBADF as on a closed descriptor, but no file
/// the tool opens can take its number. Call first in main(). Where /dev/null
/// cannot be opened, exits with status 3 (saying so on stderr when that is
/// open): running on would risk writing into a journal.
void reserve_standard_descriptors(const char* program) noexcept;

/// What a tool does first, before anything opens a file:
/// reserve_standard_descriptors, and SIGXFSZ and SIGPIPE ignored, so that
/// a write past a file-size limit or to a closed pipe fails (EFBIG, EPIPE:
/// reported, exit 3) rather than killing the process.
void prepare_standard_streams(const char* program) noexcept;

}  // namespace nqueens::cli
