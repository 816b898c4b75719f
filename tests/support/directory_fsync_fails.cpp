// An LD_PRELOAD module that makes fsync of a directory fail with EIO, as a
// failing disk does: a new name (a journal's, a CSV's rename) is then not
// known to survive a crash. The fault tests run the tool under it; fsync of
// a plain file is left alone.

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

extern "C" int fsync(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    errno = EIO;
    return -1;
  }
  using fsync_function = int (*)(int);
  return reinterpret_cast<fsync_function>(::dlsym(RTLD_NEXT, "fsync"))(fd);
}
