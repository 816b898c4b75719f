#include "cli/io/standard_descriptors.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cli/io/standard_error.hpp"

namespace nqueens::cli {

namespace {

// Opens /dev/null onto each of descriptors 0, 1 and 2 that is closed, with
// the access it must not have (0 write-only, 1 and 2 read-only): reading or
// writing it still fails with EBADF as on a closed descriptor, but no file
// the tool opens can take its number. Where /dev/null
// cannot be opened, exits with status 3 (saying so on stderr when that is
// open): running on would risk writing into a journal.
void reserve_standard_descriptors(const char* program) noexcept {
  for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open() takes the lowest free number: `fd`, as those below are open by now.
    const int null = ::open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
    if (null == fd) continue;
    const std::string message = std::string(program) + ": descriptor " + std::to_string(fd) +
                                " is closed and /dev/null cannot be opened in its place" +
                                (null < 0 ? std::string(": ") + std::strerror(errno) : std::string()) + '\n';
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, message.data(), message.size());
    std::_Exit(3);
  }
}

}  // namespace

void prepare_standard_streams(const char* program) noexcept {
  reserve_standard_descriptors(program);
  std::signal(SIGXFSZ, SIG_IGN);
  // A reader gone (`nqueens verify | head -1`) makes a write fail with EPIPE:
  // `list` and `first` then end quietly, every other output is a failed
  // write (exit 3, said on stderr), never a silent death by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  route_standard_error();
}

}  // namespace nqueens::cli
