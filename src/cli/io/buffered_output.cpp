#include "cli/io/buffered_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>

#include "cli/io/standard_output.hpp"
#include "cli/io/stoppable_io.hpp"
#include "cli/signals.hpp"

namespace nqueens::cli {
namespace {

// The coarse clock: a few nanoseconds a look, after every item.
std::chrono::nanoseconds coarse_now() noexcept {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
  return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

}  // namespace

buffered_output::buffered_output(int fd, std::size_t capacity)
    : fd_(fd), buffer_(capacity), last_flush_(coarse_now()) {}

buffered_output::~buffered_output() {
  try {
    flush();
  } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw
  }
}

char* buffered_output::reserve(std::size_t size) {
  if (buffer_.size() - used_ < size) {
    flush();
    // Into a file a write never waits on a reader, so write_unless_stopped
    // alone would let one long output run to its end after a stop (`first
    // 100000000 > f`: 900 MB, seconds): it ends here, what came before it
    // written.
    if (ends_at_a_stop_ && !closed_ && stop_requested().load(std::memory_order_relaxed)) {
      closed_ = cut_ = true;
      if (fd_ == STDOUT_FILENO) mark_standard_output_cut();
    }
    if (buffer_.size() < size) buffer_.resize(size);
  }
  return buffer_.data() + used_;
}

void buffered_output::append(std::string_view text) {
  std::memcpy(reserve(text.size()), text.data(), text.size());
  commit(text.size());
}

bool buffered_output::flush() {
  if (!closed_) {
    errno = 0;
    std::size_t written = 0;
    const io_outcome outcome = write_unless_stopped(fd_, buffer_.data(), used_, &written, /*whole_lines=*/true);
    if (fd_ == STDOUT_FILENO) note_standard_output_written(buffer_.data(), written);
    if (outcome == io_outcome::stopped) {
      closed_ = cut_ = true;  // a stop while the reader took nothing: the producer stops
      if (fd_ == STDOUT_FILENO) mark_standard_output_cut();
    } else if (outcome == io_outcome::failed) {
      if (errno != EPIPE) {
        if (fd_ == STDOUT_FILENO) throw output_error(errno);
        throw std::runtime_error(std::string("cannot write the output: ") + std::strerror(errno));
      }
      closed_ = true;  // the reader is gone (`list 30 | head`): not an error
    }
  }
  used_ = 0;
  last_flush_ = coarse_now();
  return !closed_;
}

void buffered_output::flush_if_slow(std::chrono::milliseconds most) {
  if (used_ != 0 && !closed_ && coarse_now() - last_flush_ >= most) flush();
}

}  // namespace nqueens::cli
