#include "cli/standard_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace nqueens::cli {

output_error::output_error(int error)
    : std::runtime_error(std::string("cannot write to standard output") +
                         (error != 0 ? std::string(": ") + std::strerror(error) : std::string())),
      error_(error) {}

void buffer_standard_output() noexcept {
  // glibc ignores the size unless given the buffer, hence a static one
  // (untouched pages cost nothing).
  static char buffer[std::size_t{1} << 20];
  if (::isatty(STDOUT_FILENO) == 0) std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
}

void close_standard_output() {
  // std::cout is synced with stdio: its flush is stdout's, and the errno of a
  // failure is only there right after it.
  errno = 0;
  std::cout.flush();
  bool failed = !std::cout || std::ferror(stdout) != 0;
  int error = failed ? errno : 0;
  errno = 0;
  if (std::fflush(stdout) != 0) {
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

int status_after_closing_output(int status, const char* program) {
  try {
    close_standard_output();
  } catch (const output_error& e) {
    // Lost output outranks success and a count mismatch (whose report it
    // held).
    if (status != 0 && status != 1) return status;
    std::cerr << program << ": " << e.what() << '\n';
    return 3;
  }
  return status;
}

}  // namespace nqueens::cli
