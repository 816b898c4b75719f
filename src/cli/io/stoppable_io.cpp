#include "cli/io/stoppable_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "cli/signals.hpp"
#include "run/posix_io.hpp"

namespace nqueens::cli {

namespace {

// The longest a wait goes without looking at the flag: a signal that came
// between the look and the poll() did not interrupt it.
constexpr int look_again_ms = 100;

bool stopped() { return stop_requested().load(std::memory_order_relaxed); }

// Whether a write to `fd` can wait on whoever reads it: a pipe, a socket, a
// terminal; not a regular file, a block device or another character device
// (/dev/null, /dev/full), nor a descriptor fstat cannot tell: a plain write.
bool waits_on_a_reader(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return false;
  if (S_ISCHR(st.st_mode)) return ::isatty(fd) == 1;
  return !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode);
}

// Waits until `fd` is ready for `events` (or has an error or hang-up, which
// the read or write then reports): true; false where a stop comes first.
// Once stopped, whatever is ready now is still taken: a stop ends a wait,
// not output a reader keeps up with.
bool wait_for(int fd, short events) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, stopped() ? 0 : look_again_ms);
    if (n > 0) return true;
    if (n < 0 && errno != EINTR && errno != EAGAIN) return true;  // the read or write says what is wrong
    if (stopped()) return false;
  }
}

// The bytes a write to `fd`, which poll() found room in, takes without
// waiting: for a pipe its free room less a page (a page the reader has
// partly read is not free yet), else, or at least, PIPE_BUF (room, to
// poll(), is a free page): a write never waits once a stop may end it.
std::size_t room_in(int fd) {
  const int capacity = ::fcntl(fd, F_GETPIPE_SZ);
  int queued = 0;
  if (capacity <= 0 || ::ioctl(fd, FIONREAD, &queued) != 0) return PIPE_BUF;
  const long room = long{capacity} - queued - 4096;
  return room > long{PIPE_BUF} ? static_cast<std::size_t>(room) : PIPE_BUF;
}

}  // namespace

io_outcome write_unless_stopped(int fd, const void* data, std::size_t size, std::size_t* written, bool whole_lines) {
  std::size_t done = 0;
  const auto outcome = [&](io_outcome o) {
    if (written != nullptr) *written = done;
    return o;
  };
  const auto* bytes = static_cast<const unsigned char*>(data);
  if (!waits_on_a_reader(fd)) {
    done = detail::write_all(fd, bytes, size);
    return outcome(done == size ? io_outcome::done : io_outcome::failed);
  }
  while (done < size) {
    if (!wait_for(fd, POLLOUT)) return outcome(io_outcome::stopped);
    std::size_t piece = std::min(size - done, room_in(fd));
    if (whole_lines && piece < size - done) {
      if (const void* line_end = ::memrchr(bytes + done, '\n', piece)) {
        piece = static_cast<std::size_t>(static_cast<const unsigned char*>(line_end) - (bytes + done)) + 1;
      }
    }
    const ssize_t n = ::write(fd, bytes + done, piece);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;  // the flag, or room, looked at again
    if (n <= 0) return outcome(io_outcome::failed);
    done += static_cast<std::size_t>(n);
  }
  return outcome(io_outcome::done);
}

io_outcome read_unless_stopped(int fd, void* data, std::size_t size, std::size_t& got) {
  got = 0;
  for (;;) {
    // A stop ends the reading even where more is there: what is read is
    // worked on, and a long input would run on.
    if (stopped() || !wait_for(fd, POLLIN)) return io_outcome::stopped;
    const ssize_t n = ::read(fd, data, size);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) return io_outcome::failed;
    got = static_cast<std::size_t>(n);
    return io_outcome::done;
  }
}

}  // namespace nqueens::cli
