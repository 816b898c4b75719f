#include "cli/io/standard_error.hpp"

#include <unistd.h>

#include <iostream>
#include <streambuf>

#include "cli/io/stoppable_io.hpp"

namespace nqueens::cli {

namespace {

// Unbuffered, as std::cerr's own: each insertion is written at once.
class standard_error_buffer final : public std::streambuf {
 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char byte = traits_type::to_char_type(c);
    return written(&byte, 1) ? c : traits_type::eof();
  }

  std::streamsize xsputn(const char* text, std::streamsize size) override { return written(text, size) ? size : 0; }

 private:
  // A message dropped after a stop counts as written: the stream stays good
  // for the next, which is dropped at once too. A failed write fails the
  // stream, as stdio's did.
  static bool written(const char* text, std::streamsize size) {
    return write_message(STDERR_FILENO, text, static_cast<std::size_t>(size)) != io_outcome::failed;
  }
};

}  // namespace

void route_standard_error() noexcept {
  // Never destroyed: std::cerr is flushed at exit, after function-local
  // statics are gone.
  static auto* const buffer = new (std::nothrow) standard_error_buffer;
  if (buffer != nullptr) std::cerr.rdbuf(buffer);
}

}  // namespace nqueens::cli
