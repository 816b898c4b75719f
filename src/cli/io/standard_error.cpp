#include "cli/io/standard_error.hpp"

#include <unistd.h>

#include <cstddef>
#include <iostream>
#include <mutex>
#include <new>
#include <streambuf>
#include <string>

#include "cli/io/stoppable_io.hpp"

namespace nqueens::cli {

namespace {

// Line by line: each whole line is one write_message, so that a message cut
// by a stop is cut whole (never "nqueens" alone on a paused terminal), and
// the lines of the ranks of an MPI job sharing one stderr never interleave.
// A flush (std::flush, the exit's) writes what is left of a line too.
class standard_error_buffer final : public std::streambuf {
 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return sync() == 0 ? traits_type::not_eof(c) : c;
    const char byte = traits_type::to_char_type(c);
    return xsputn(&byte, 1) == 1 ? c : traits_type::eof();
  }

  std::streamsize xsputn(const char* text, std::streamsize size) override {
    const std::lock_guard lock(mutex_);
    pending_.append(text, static_cast<std::size_t>(size));
    const std::size_t lines = pending_.rfind('\n') + 1;  // npos + 1: none
    if (lines == 0) return size;
    const bool ok = written(pending_.data(), lines);
    pending_.erase(0, lines);
    return ok ? size : 0;
  }

  int sync() override {
    const std::lock_guard lock(mutex_);
    const bool ok = pending_.empty() || written(pending_.data(), pending_.size());
    pending_.clear();
    return ok ? 0 : -1;
  }

 private:
  // A message dropped after a stop counts as written: the stream stays good
  // for the next. A failed write fails the stream, as stdio's did.
  static bool written(const char* text, std::size_t size) {
    return write_message(STDERR_FILENO, text, size) != io_outcome::failed;
  }

  std::mutex mutex_;     // std::cerr is no stdio stream, locked by each call
  std::string pending_;  // the start of a line, until its end comes
};

}  // namespace

void route_standard_error() noexcept {
  // Never destroyed: std::cerr is flushed at exit, after function-local
  // statics are gone. Not on the heap: under a tight ulimit -v a nothrow new
  // can end the process (libstdc++'s bad_alloc inside it finds no memory).
  alignas(standard_error_buffer) static std::byte storage[sizeof(standard_error_buffer)];
  static auto* const buffer = ::new (static_cast<void*>(storage)) standard_error_buffer;
  std::cerr.rdbuf(buffer);
  std::cerr.unsetf(std::ios::unitbuf);  // a line's end writes it, not each insertion
}

}  // namespace nqueens::cli
