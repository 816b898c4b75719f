// An LD_PRELOAD module that makes open(O_TMPFILE) fail as it does on file
// systems without it (NFS, older kernels): EOPNOTSUPP. The fault tests run
// the tool under it to reach the journal's other way of appearing whole.

#include <dlfcn.h>
#include <fcntl.h>

#include <cerrno>
#include <cstdarg>

namespace {

using open_function = int (*)(const char*, int, ...);

int refuse_or_open(const char* symbol, const char* path, int flags, mode_t mode) {
  if ((flags & O_TMPFILE) == O_TMPFILE) {
    errno = EOPNOTSUPP;
    return -1;
  }
  const auto next = reinterpret_cast<open_function>(::dlsym(RTLD_NEXT, symbol));
  return next(path, flags, mode);
}

}  // namespace

extern "C" int open(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(args, mode_t) : 0;
  va_end(args);
  return refuse_or_open("open", path, flags, mode);
}

extern "C" int open64(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(args, mode_t) : 0;
  va_end(args);
  return refuse_or_open("open64", path, flags, mode);
}
