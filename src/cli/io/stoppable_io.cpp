#include "cli/io/stoppable_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <optional>

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

using steady = std::chrono::steady_clock;

// How long a wait for room may go on: `in_all` stop or not (none: as long
// as no stop comes), and `after_stop` once a stop came (0: whatever is
// ready then is still taken, nothing more is waited for).
struct wait_limit {
  std::optional<steady::duration> in_all;
  steady::duration after_stop{};
};

// When a wait that began at `began` must end: with a stop seen at
// `stop_seen`, at most `after_stop` later.
steady::time_point wait_end(const wait_limit& limit, steady::time_point began,
                            std::optional<steady::time_point> stop_seen) {
  steady::time_point end = limit.in_all ? began + *limit.in_all : steady::time_point::max();
  if (stop_seen) end = std::min(end, *stop_seen + limit.after_stop);
  return end;
}

// Waits until `fd` is ready for `events` (or has an error or hang-up, which
// the read or write then reports): true; false where the limit, counted
// from `began` and from the stop `stop_seen` notes, ends the wait first.
bool wait_for(int fd, short events, const wait_limit& limit, steady::time_point began,
              std::optional<steady::time_point>& stop_seen) {
  for (;;) {
    if (!stop_seen && stopped()) stop_seen = steady::now();
    const steady::time_point end = wait_end(limit, began, stop_seen);
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(end - std::min(end, steady::now())).count();
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, look_again_ms)));
    if (n > 0) return true;
    if (n < 0 && errno != EINTR && errno != EAGAIN) return true;  // the read or write says what is wrong
    if (steady::now() >= end) return false;
  }
}

bool wait_for(int fd, short events) {
  std::optional<steady::time_point> stop_seen;
  return wait_for(fd, events, wait_limit{}, steady::now(), stop_seen);
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

// write_unless_stopped under `limit`.
io_outcome write_within(int fd, const void* data, std::size_t size, std::size_t* written, bool whole_lines,
                        const wait_limit& limit) {
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
  const steady::time_point began = steady::now();
  std::optional<steady::time_point> stop_seen;
  while (done < size) {
    if (!wait_for(fd, POLLOUT, limit, began, stop_seen)) return outcome(io_outcome::stopped);
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

// Set once a message was dropped after a stop: the reader is taking nothing,
// and every later message would wait its grace in vain.
std::atomic<bool> messages_dropped{false};

}  // namespace

io_outcome write_unless_stopped(int fd, const void* data, std::size_t size, std::size_t* written, bool whole_lines) {
  return write_within(fd, data, size, written, whole_lines, wait_limit{});
}

io_outcome write_message(int fd, const void* data, std::size_t size) {
  const wait_limit limit{.in_all = std::nullopt,
                         .after_stop = messages_dropped.load() ? steady::duration::zero() : message_grace};
  const io_outcome outcome = write_within(fd, data, size, nullptr, false, limit);
  if (outcome == io_outcome::stopped) messages_dropped.store(true);
  return outcome;
}

io_outcome write_display(int fd, const void* data, std::size_t size) {
  return write_within(fd, data, size, nullptr, false, wait_limit{.in_all = display_patience, .after_stop = {}});
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
