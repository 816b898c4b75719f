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

}  // namespace nqueens::detail
