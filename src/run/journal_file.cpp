// A journal's file: opened, locked and its header checked before the plan
// is built (checkpoint_file), or created whole once it is
// (checkpoint_journal::create); and the POSIX helpers of journal_io.hpp.

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "nqueens/checkpoint.hpp"
#include "run/journal_io.hpp"
#include "run/journal_layout.hpp"
#include "run/journal_state.hpp"

namespace nqueens {
namespace detail {

std::size_t write_all(int fd, const unsigned char* data, std::size_t size) {
  std::size_t written = 0;
  while (written < size) {
    const ssize_t n = ::write(fd, data + written, size - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // errno says why (a short write of 0: ENOSPC on the next)
    written += static_cast<std::size_t>(n);
  }
  return written;
}

ssize_t read_up_to(int fd, unsigned char* data, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, data + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return static_cast<ssize_t>(got);
}

std::string journal_name(const std::string& path) { return "checkpoint '" + path + "'"; }

[[noreturn]] void fail(checkpoint_error::reason why, const std::string& what) { throw checkpoint_error(why, what); }

void lock_exclusively(int fd, const std::string& path) {
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) {
      fail(checkpoint_error::reason::unusable,
           journal_name(path) + " is in use by another run (locked); wait for it to end, or give another --checkpoint");
    }
    fail(checkpoint_error::reason::unusable, "cannot lock " + journal_name(path) + ": " + std::strerror(errno));
  }
}

void sync_directory_of(const std::string& path) {
  std::error_code error;  // a working directory deleted meanwhile: nothing to sync
  const auto dir = std::filesystem::absolute(path, error).parent_path();
  if (error) return;
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace detail

namespace {
using namespace detail::journal;  // NOLINT(google-build-using-namespace): the format's own names
using detail::fail;
using detail::journal_name;
}  // namespace

checkpoint_file::checkpoint_file(std::string path) : path_(std::move(path)) {
  using reason = checkpoint_error::reason;
  if (path_.empty()) fail(reason::unusable, "a checkpoint needs a file name");
  struct stat st {};
  if (::lstat(path_.c_str(), &st) != 0) {
    if (errno == ENOENT) return;  // created, whole, once the plan is known
    fail(reason::unusable, "cannot open " + journal_name(path_) + ": " + std::strerror(errno));
  }
  // A symlink could point a requeued job at some other run's journal, or at a
  // file that is not ours to write.
  if (S_ISLNK(st.st_mode))
    fail(reason::unusable, journal_name(path_) + " is a symbolic link; give the journal's real path");
  if (!S_ISREG(st.st_mode)) fail(reason::unusable, journal_name(path_) + " is not a regular file");
  // O_NONBLOCK: should a FIFO replace the file after the check above, open
  // and read return at once instead of waiting for a writer; fstat then
  // checks what was opened.
  fd_ = ::open(path_.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0 && (errno == EACCES || errno == EROFS)) {
    // A finished journal is only read: its owner may have made it read-only.
    const int error = errno;
    fd_ = ::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    read_only_ = fd_ >= 0;
    if (fd_ < 0) errno = error;
  }
  if (fd_ < 0) fail(reason::unusable, "cannot open " + journal_name(path_) + ": " + std::strerror(errno));
  try {
    struct stat opened {};
    if (::fstat(fd_, &opened) != 0 || !S_ISREG(opened.st_mode)) {
      fail(reason::unusable, journal_name(path_) + " is not a regular file");
    }
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    detail::lock_exclusively(fd_, path_);
    // The header first, so that no more than 64 bytes of a file that is not a
    // journal are ever read. An empty file is not a journal either: a journal
    // is created with its header.
    std::array<unsigned char, header_size> h{};
    const ssize_t got = detail::read_up_to(fd_, h.data(), h.size());
    if (got < 0) fail(reason::unusable, "cannot read " + journal_name(path_) + ": " + std::strerror(errno));
    if (static_cast<std::size_t>(got) < magic.size() || std::memcmp(h.data(), magic.data(), magic.size()) != 0) {
      fail(reason::corrupt, journal_name(path_) + " is not an nqueens checkpoint journal (" +
                                (got == 0 ? std::string("an empty file") : std::string("another kind of file")) +
                                "); it is left as it is: give another --checkpoint");
    }
    if (static_cast<std::size_t>(got) < h.size() || !checksum_matches(h.data(), header::checksum)) {
      fail(reason::corrupt, journal_name(path_) + " has a damaged header (checksum mismatch)");
    }
    if (get(h.data(), header::version) != format_version) {
      fail(reason::foreign, journal_name(path_) + " has journal format " +
                                std::to_string(get(h.data(), header::version)) + ", this build reads format " +
                                std::to_string(format_version) +
                                " (finish that run with the build that started it, or start afresh)");
    }
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

checkpoint_file::checkpoint_file(checkpoint_file&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)), read_only_(other.read_only_) {}

checkpoint_file& checkpoint_file::operator=(checkpoint_file&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    read_only_ = other.read_only_;
  }
  return *this;
}

checkpoint_file::~checkpoint_file() {
  if (fd_ >= 0) ::close(fd_);
}

// A new journal appears whole or not at all: an unnamed file (O_TMPFILE) in
// the target's directory gets the header, is locked and fsynced, then linked
// under its name. link() never replaces a file: if another run created the
// journal meanwhile, this one is refused. Where O_TMPFILE or /proc is missing,
// a named temporary file does the same (and is left behind only by a kill in
// the microseconds between its creation and its link).
void checkpoint_journal::create(const plan& p, shard_spec shard) {
  const auto header = header_for(p, shard);
  int& fd = state_->file.fd_;
  // Nothing is created before counting starts unless it is whole: every
  // failure here is a refusal (exit 2), the disk-full kind included.
  const auto refuse = [&](const std::string& what, int error, const std::string& temporary) {
    if (!temporary.empty()) ::unlink(temporary.c_str());
    if (fd >= 0) ::close(fd);
    fd = -1;
    fail(checkpoint_error::reason::unusable,
         error == EEXIST ? journal_name(state_->path) + " was created by another run meanwhile; it is left to that run"
                         : what + " " + journal_name(state_->path) + ": " + std::strerror(error));
  };
  const auto prepare = [&](const std::string& temporary) {
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) refuse("cannot lock", errno, temporary);
    if (detail::write_all(fd, header.data(), header.size()) != header.size() || ::fsync(fd) != 0)
      refuse("cannot write", errno, temporary);
  };
  // A relative name in a working directory that was deleted has no absolute
  // path: that too is a journal that cannot be created.
  std::error_code absolute_error;
  const std::filesystem::path target = std::filesystem::absolute(state_->path, absolute_error);
  if (absolute_error) refuse("cannot create", absolute_error.value(), "");
  fd = ::open(target.parent_path().c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == EROFS)) {
    refuse("cannot create", errno, "");
  }
  if (fd >= 0) {
    prepare("");
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, target.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      detail::sync_directory_of(state_->path);
      return;
    }
    if (errno == EEXIST || std::filesystem::exists("/proc/self/fd")) refuse("cannot create", errno, "");
    ::close(fd);  // no /proc to link through: the named way below
    fd = -1;
  }
  std::string hidden = target.filename().string();
  hidden.insert(0, 1, '.');
  hidden.append(".XXXXXX");
  std::string temporary = (target.parent_path() / hidden).string();
  fd = ::mkstemp(temporary.data());
  if (fd < 0) refuse("cannot create", errno, "");
  ::fchmod(fd, 0644);
  prepare(temporary);
  if (::link(temporary.c_str(), target.c_str()) != 0) refuse("cannot create", errno, temporary);
  ::unlink(temporary.c_str());
  detail::sync_directory_of(state_->path);
}

}  // namespace nqueens
