#pragma once

// Standard output as a result the tool must deliver: a command whose output
// was lost (a full disk, /dev/full, a closed descriptor) has failed, whatever
// it computed.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace nqueens::cli {

/// A write to standard output failed; exit status 3. (A reader that went
/// away is not one for `list` and `first`: see buffered_output.)
class output_error : public std::runtime_error {
 public:
  /// `error` is the errno of the failure, 0 when stdio did not keep it.
  explicit output_error(int error);
  int error() const noexcept { return error_; }

 private:
  int error_;
};

/// Gives stdout a buffer that holds any command's whole output, so that a
/// failure shows at close_standard_output with its errno rather than in a
/// flush halfway (where stdio drops it). A flush of std::cout (std::cerr
/// makes one before each message) goes through flush_standard_output, so a
/// stop ends its wait on a reader that takes nothing; on a terminal
/// std::cout still writes out each line as it ends. Call before anything
/// is written.
void buffer_standard_output() noexcept;

/// Writes out what stdout holds, as fflush(stdout) would, but so that a
/// stop signal ends a wait on a reader that takes nothing (stoppable_io.hpp).
/// Returns false where a stop cut it (the rest is dropped); throws
/// output_error where a write failed (a reader gone: EPIPE).
bool flush_standard_output();

/// Records that a stop left standard output cut short where it was written
/// past stdio (buffered_output), for status_after_closing_output.
void mark_standard_output_cut() noexcept;

/// Records the bytes a write past stdio put on standard output: whether
/// they leave a line open.
void note_standard_output_written(const char* data, std::size_t size) noexcept;

/// What a message about a stop starts with on stderr: "\n" where stdout is
/// the same terminal and its output ends mid-line (a stop cut it there:
/// "...24245129nqueens: interrupted" otherwise); else "\r" on a terminal,
/// where the line may hold Ctrl-C's echo, "^C", which the message then
/// overwrites; else "". Ask while stdout is open.
const char* start_of_a_stop_message() noexcept;

/// The process's exit status once its output is closed: `status`, or 3
/// with a line on stderr ("PROGRAM: ...") when the output was lost, unless
/// `status` already says more (a usage error, a failure, an interruption);
/// or, where a stop signal came and `status` was 0 or 1, 128 + the signal,
/// with a line that says whether the output is whole (a signal is never
/// swallowed, and one while a reader took nothing ends the wait).
int status_after_closing_output(int status, const char* program);

}  // namespace nqueens::cli
