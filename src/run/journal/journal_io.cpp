// The POSIX calls a journal is made of (journal_io.hpp).

#include "run/journal/journal_io.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace nqueens::detail {

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

int sync_directory_of(const std::string& path) {
  std::error_code error;  // a working directory deleted meanwhile: nothing to sync
  const auto dir = std::filesystem::absolute(path, error).parent_path();
  if (error) return 0;
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return 0;
  int failed = 0;
  if (::fsync(dfd) != 0 && errno != EINVAL && errno != ENOTSUP) failed = errno;
  ::close(dfd);
  return failed;
}

}  // namespace nqueens::detail
