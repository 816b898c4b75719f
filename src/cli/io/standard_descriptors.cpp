#include "cli/io/standard_descriptors.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "cli/io/standard_error.hpp"
#include "cli/message_text.hpp"
#include "run/journal/journal_layout.hpp"
#include "run/posix_io.hpp"

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

// Whether descriptor `fd` is a regular file that starts as a checkpoint
// journal does; its name then (" 'path'", or nothing where /proc cannot say).
std::optional<std::string> journal_behind(int fd) noexcept {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  // Read through a descriptor of its own: the stream is opened for writing only.
  const std::string link = "/proc/self/fd/" + std::to_string(fd);
  const int own = ::open(link.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (own < 0) return std::nullopt;
  std::array<unsigned char, detail::journal::magic.size()> start{};
  const bool journal = detail::read_up_to(own, start.data(), start.size()) == static_cast<ssize_t>(start.size()) &&
                       start == detail::journal::magic;
  ::close(own);
  if (!journal) return std::nullopt;
  char path[4096];
  const ssize_t length = ::readlink(link.c_str(), path, sizeof path - 1);
  return length > 0 ? " '" + one_line(std::string_view(path, static_cast<std::size_t>(length))) + "'" : "";
}

// A standard stream that is a checkpoint journal, any run's (`2>> run.ckpt`,
// `>> run.ckpt`): what is written to it would land after the journal's
// records, as damage its next start must cut off. Refused before anything
// is written: standard output's on standard error, standard error's on the
// terminal where there is one (nowhere else).
void refuse_a_journal_as_a_standard_stream(const char* program) noexcept {
  for (const int fd : {STDERR_FILENO, STDOUT_FILENO}) {
    const auto named = journal_behind(fd);
    if (!named) continue;
    const bool err = fd == STDERR_FILENO;
    const std::string message = std::string(program) + ": standard " + (err ? "error" : "output") +
                                " is the checkpoint journal" + *named + ": what is written to it would damage it; " +
                                "send it elsewhere\n";
    if (!err) {
      [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, message.data(), message.size());
    } else if (const int tty = ::open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC); tty >= 0) {
      [[maybe_unused]] const ssize_t ignored = ::write(tty, message.data(), message.size());
      ::close(tty);
    }
    std::_Exit(2);
  }
}

}  // namespace

void prepare_standard_streams(const char* program) noexcept {
  reserve_standard_descriptors(program);
  refuse_a_journal_as_a_standard_stream(program);
  std::signal(SIGXFSZ, SIG_IGN);
  // A reader gone (`nqueens verify | head -1`) makes a write fail with EPIPE:
  // `list` and `first` then end quietly, every other output is a failed
  // write (exit 3, said on stderr), never a silent death by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  route_standard_error();
}

}  // namespace nqueens::cli
