#include "cli/io/standard_output.hpp"

#include <stdio_ext.h>  // __fpending, __fpurge
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <optional>
#include <streambuf>

#include "cli/exit_status.hpp"
#include "cli/io/stoppable_io.hpp"
#include "cli/signals.hpp"

namespace nqueens::cli {

output_error::output_error(int error)
    : std::runtime_error(std::string("cannot write to standard output") +
                         (error != 0 ? std::string(": ") + std::strerror(error) : std::string())),
      error_(error) {}

namespace {

// std::cout: into stdout's buffer, and out through flush_standard_output
// wherever std::cout is flushed, so that a stop signal ends a wait on a
// reader that takes nothing (a terminal paused with Ctrl-S, a pager, a
// FIFO), where stdio's write, restarted after the signal, waited until the
// reader let it go. std::cerr, tied to std::cout, flushes it before every
// message (sync): the order of the two streams is kept, and a stop's
// message no longer waits on stdout's reader. On a terminal it is written
// out at each line's end too, as stdio's line buffering would.
class standard_output_buffer final : public std::streambuf {
 public:
  explicit standard_output_buffer(bool each_line) : each_line_(each_line) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return sync() == 0 ? traits_type::not_eof(c) : c;
    const char byte = traits_type::to_char_type(c);
    return xsputn(&byte, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* text, std::streamsize size) override {
    const auto bytes = static_cast<std::size_t>(size);
    if (std::fwrite(text, 1, bytes, stdout) != bytes) return 0;
    if (each_line_ && std::memchr(text, '\n', bytes) != nullptr && sync() != 0) return 0;
    return size;
  }
  int sync() override {
    try {
      flush_standard_output();  // false after a stop: what is left is dropped, as for a pipe
      return 0;
    } catch (const output_error& e) {
      write_error = e.error();  // close_standard_output names it
      return -1;
    }
  }

 public:
  static inline int write_error = 0;  // the errno of the write that failed

 private:
  bool each_line_;
};

}  // namespace

void buffer_standard_output() noexcept {
  // glibc ignores the size unless given the buffer, hence a static one
  // (untouched pages cost nothing).
  static char buffer[std::size_t{1} << 20];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
  // Never destroyed: std::cout is flushed at the exit, after statics are.
  // In static storage, as std::cerr's buffer, not from a nothrow new.
  alignas(standard_output_buffer) static std::byte storage[sizeof(standard_output_buffer)];
  static auto* const out = ::new (static_cast<void*>(storage)) standard_output_buffer(::isatty(STDOUT_FILENO) == 1);
  std::cout.rdbuf(out);
}

namespace {

// Whether a stop left output unwritten.
bool output_cut = false;
// Whether the last byte written out (flush_standard_output, or past stdio)
// left a line open.
bool mid_line = false;

// Whether stdout and stderr are one terminal, where output cut mid-line
// would run into the message that says so.
bool one_terminal() noexcept {
  struct stat out {};
  struct stat err {};
  return ::isatty(STDOUT_FILENO) == 1 && ::isatty(STDERR_FILENO) == 1 && ::fstat(STDOUT_FILENO, &out) == 0 &&
         ::fstat(STDERR_FILENO, &err) == 0 && out.st_rdev == err.st_rdev;
}

}  // namespace

void mark_standard_output_cut() noexcept { output_cut = true; }

void note_standard_output_written(const char* data, std::size_t size) noexcept {
  if (size > 0) mid_line = data[size - 1] != '\n';
}

const char* start_of_a_stop_message() noexcept {
  if (mid_line && one_terminal()) return "\n";
  return ::isatty(STDERR_FILENO) == 1 ? "\r" : "";
}

bool flush_standard_output() {
  // std::cout is synced with stdio: its text is in stdout's buffer already.
  // glibc keeps the unwritten bytes from _IO_write_base (__fpending counts
  // them); written here, they are dropped from the buffer (__fpurge) so
  // that stdio never writes them again.
  const std::size_t pending = __fpending(stdout);
  if (output_cut) {  // cut at one point: what came after is never written past a gap
    __fpurge(stdout);
    return false;
  }
  if (pending == 0 || std::ferror(stdout) != 0) return std::ferror(stdout) == 0;
  errno = 0;
  std::size_t written = 0;
  const io_outcome outcome = write_unless_stopped(STDOUT_FILENO, stdout->_IO_write_base, pending, &written);
  const int error = errno;
  note_standard_output_written(stdout->_IO_write_base, written);
  __fpurge(stdout);
  if (outcome == io_outcome::failed) throw output_error(error);
  if (outcome == io_outcome::stopped) output_cut = true;
  return outcome == io_outcome::done;
}

namespace {

// Flushes std::cout and stdout and closes stdout, checking each step: the
// one place every command's output is known to have arrived. Returns
// normally when it did, else throws output_error: status_after_closing_output's step.
void close_standard_output() {
  errno = 0;
  bool failed = !std::cout || std::ferror(stdout) != 0;
  int error = failed ? (standard_output_buffer::write_error != 0 ? standard_output_buffer::write_error : errno) : 0;
  try {
    flush_standard_output();  // false after a stop: status_after_closing_output says so
  } catch (const output_error& e) {
    failed = true;
    if (error == 0) error = e.error();
  }
  errno = 0;
  if (std::fflush(stdout) != 0) {  // nothing is left in it: a failure stdio saw and kept
    failed = true;
    if (error == 0) error = errno;
  }
  failed = failed || std::ferror(stdout) != 0;
  errno = 0;
  // Closing reports what some file systems (NFS) only find out then. A stdout
  // closed from the start lost nothing when nothing was written to it: its
  // read-only stand-in (reserve_standard_descriptors) closes cleanly, a
  // descriptor still closed fails with EBADF.
  const bool closed_badly = std::fclose(stdout) != 0 && (errno != EBADF || failed);
  if (closed_badly) {
    failed = true;
    if (error == 0) error = errno;
  }
  // stdout is gone: std::cout, synced with it, must not flush it again (a
  // later flush, or the one at exit, would be a use after fclose).
  std::cout.setstate(std::ios::badbit);
  if (failed) throw output_error(error);
}

}  // namespace

int status_after_closing_output(int status, const char* program) {
  std::optional<output_error> lost;
  const std::string start = start_of_a_stop_message();  // asked while stdout is open
  try {
    close_standard_output();
  } catch (const output_error& e) {
    lost = e;
  }
  // From here to the exit a stop signal takes its default action (ends the
  // process with 128 + the signal): nothing looks at the flag after the
  // look below.
  restore_default_stop_handlers();
  if (status != 0 && status != 1) return status;  // a usage error, a failure, an interruption: already said
  // A stop signal that came once the command had its result (its report
  // under way, or waiting on a reader): an interruption all the same, and
  // the output it cut (a reader that Ctrl-C ended with it) is no failure.
  if (stop_requested().load()) {
    const int sig = stop_signal();
    std::cerr << start << program << ": interrupted by " << signal_name(sig)
              << (output_cut || lost ? " while writing the output, which is cut short\n"
                                     : " as it wrote the output, which is whole\n");
    return interrupted_status(sig);
  }
  // Lost output outranks success and a count mismatch (whose report it held).
  if (lost) {
    std::cerr << program << ": " << lost->what() << '\n';
    return 3;
  }
  return status;
}

}  // namespace nqueens::cli
