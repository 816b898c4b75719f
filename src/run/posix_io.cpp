#include "run/posix_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>

namespace nqueens::detail {

namespace {

// One read() of up to `size` bytes, retried on EINTR: what is there now (a
// terminal's line, a pipe's chunk); 0 at the end, -1 on error (errno says).
ssize_t read_some(int fd, void* data, std::size_t size) {
  for (;;) {
    const ssize_t n = ::read(fd, data, size);
    if (n >= 0 || errno != EINTR) return n;
  }
}

}  // namespace

ssize_t read_up_to(int fd, void* data, std::size_t size) {
  auto* bytes = static_cast<unsigned char*>(data);
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = read_some(fd, bytes + got, size - got);
    if (n < 0) return -1;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return static_cast<ssize_t>(got);
}

std::size_t write_all(int fd, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::size_t written = 0;
  while (written < size) {
    const ssize_t n = ::write(fd, bytes + written, size - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // errno says why (a short write of 0: ENOSPC on the next)
    written += static_cast<std::size_t>(n);
  }
  return written;
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
