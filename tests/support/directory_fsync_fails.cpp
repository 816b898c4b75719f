// An LD_PRELOAD module that makes fsync of a directory fail with EIO, as a
// failing disk does: a new name (a journal's, a CSV's rename) is then not
// known to survive a crash. The fault tests run the tool under it; fsync of
// a plain file is left alone. NQUEENS_DIRECTORY_FSYNC_ERRNO=EINVAL or
// ENOTSUP answers as file systems do whose directories take no fsync (some
// FUSE and network ones): no failure of the disk.

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string_view>

extern "C" int fsync(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    const char* asked = std::getenv("NQUEENS_DIRECTORY_FSYNC_ERRNO");
    const std::string_view name = asked == nullptr ? "" : asked;
    errno = name == "EINVAL" ? EINVAL : name == "ENOTSUP" ? ENOTSUP : EIO;
    return -1;
  }
  using fsync_function = int (*)(int);
  return reinterpret_cast<fsync_function>(::dlsym(RTLD_NEXT, "fsync"))(fd);
}
