// An LD_PRELOAD module that makes fsync of a plain file fail with EIO, as a
// failing disk does, from the K-th such call on (K from
// NQUEENS_FILE_FSYNC_FAILS_FROM, 1 where unset): a journal's header, its
// records, a CSV's data are then not known to be on the disk. The fault
// tests run the tool under it; fsync of a directory is left alone.

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>

namespace {

long first_failing_call() {
  const char* from = std::getenv("NQUEENS_FILE_FSYNC_FAILS_FROM");
  return from != nullptr ? std::strtol(from, nullptr, 10) : 1;
}

std::atomic<long> plain_file_calls{0};

}  // namespace

extern "C" int fsync(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ++plain_file_calls >= first_failing_call()) {
    errno = EIO;
    return -1;
  }
  using fsync_function = int (*)(int);
  return reinterpret_cast<fsync_function>(::dlsym(RTLD_NEXT, "fsync"))(fd);
}
