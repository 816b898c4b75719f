#pragma once

// Output for the commands that write much of it (list, first): a large
// buffer in front of a file descriptor, which a closed pipe ends quietly.

#include <chrono>
#include <cstddef>
#include <string_view>
#include <vector>

namespace nqueens::cli {

/// A large buffer in front of a file descriptor. A reader that went away
/// (EPIPE) is not an error: the writer just reports closed() so the producer
/// can stop quietly; nor is a stop signal while the reader takes nothing
/// (write_unless_stopped), which closes it too, nor one at a block's end
/// where end_at_a_stop() asked for it. Other write failures throw
/// std::runtime_error (output_error for standard output).
class buffered_output {
 public:
  explicit buffered_output(int fd, std::size_t capacity = std::size_t{1} << 20);
  ~buffered_output();  // flushes, ignoring errors (call flush() to see them)
  buffered_output(const buffered_output&) = delete;
  buffered_output& operator=(const buffered_output&) = delete;

  /// Room for `size` more bytes, flushing first if needed; write them, then commit(size).
  char* reserve(std::size_t size);
  void commit(std::size_t size) noexcept { used_ += size; }
  void append(std::string_view text);
  /// Writes out the buffer; false when the reader has gone away. Each write
  /// ends at a line's end where it can: a stop leaves the reader whole lines.
  bool flush();
  /// Flushes where the last flush was `most` or longer ago (call it after
  /// each item): a slow producer's items (list 32: a solution every few
  /// seconds) reach the reader as they come, not a megabyte later, and a
  /// fast one's still go a buffer at a time.
  void flush_if_slow(std::chrono::milliseconds most);
  bool closed() const noexcept { return closed_; }
  /// Whether a stop closed it with output unwritten.
  bool cut() const noexcept { return cut_; }
  /// Closes it (cut()) at the first full buffer after a stop signal, what
  /// it held written: for one long output (first's line) that its producer
  /// cannot stop between items, as list stops between solutions.
  void end_at_a_stop() noexcept { ends_at_a_stop_ = true; }

 private:
  int fd_;
  std::vector<char> buffer_;
  std::size_t used_ = 0;
  bool closed_ = false;
  bool cut_ = false;
  bool ends_at_a_stop_ = false;
  std::chrono::nanoseconds last_flush_{};  // CLOCK_MONOTONIC_COARSE
};

}  // namespace nqueens::cli
