#pragma once

// Standard output as a result the tool must deliver: a command whose output
// was lost (a full disk, /dev/full, a closed descriptor) has failed, whatever
// it computed.

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

/// Gives stdout, when it is not a terminal, a buffer that holds any
/// command's whole output, so that a failure shows at close_standard_output
/// with its errno rather than in a flush halfway (where stdio drops it).
/// A terminal keeps its line buffering. Call before anything is written.
void buffer_standard_output() noexcept;

/// Flushes std::cout and stdout and closes stdout, checking each step: the
/// one place every command's output is known to have arrived. Returns
/// normally when it did, else throws output_error. Call once, at the end.
void close_standard_output();

/// The process's exit status once its output is closed: `status`, or 3
/// with a line on stderr ("PROGRAM: ...") when the output was lost, unless
/// `status` already says more (a usage error, a failure, an interruption).
int status_after_closing_output(int status, const char* program);

}  // namespace nqueens::cli
