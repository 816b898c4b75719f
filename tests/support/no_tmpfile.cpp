// An LD_PRELOAD module that makes open(O_TMPFILE) fail as it does on file
// systems without it (NFS, older kernels): EOPNOTSUPP. The fault tests run
// the tool under it to reach the journal's other way of appearing whole;
// each refusal adds a byte to the file NQUEENS_NO_TMPFILE_MARK names, where
// it is set, so that a test knows the other way was taken. With
// NQUEENS_NO_HARD_LINKS set, link() and linkat() fail too, with EPERM, as on
// vfat and exFAT; set to "tmpfile", O_TMPFILE is left to work (its linkat
// fails alone); set to "race", link() first creates the file it was to link
// to, as another run would meanwhile.

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>

namespace {

using open_function = int (*)(const char*, int, ...);

void mark_refusal() {
  const char* mark = std::getenv("NQUEENS_NO_TMPFILE_MARK");
  if (mark == nullptr) return;
  const auto real_open = reinterpret_cast<open_function>(::dlsym(RTLD_NEXT, "open"));
  const int fd = real_open(mark, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return;
  if (::write(fd, "x", 1) != 1) {  // the test then finds no mark and fails
  }
  ::close(fd);
}

bool no_hard_links(const char* mode = nullptr) {
  const char* set = std::getenv("NQUEENS_NO_HARD_LINKS");
  return set != nullptr && (mode == nullptr || std::strcmp(set, mode) == 0);
}

int refuse_or_open(const char* symbol, const char* path, int flags, mode_t mode) {
  if ((flags & O_TMPFILE) == O_TMPFILE && !no_hard_links("tmpfile")) {
    const int error = EOPNOTSUPP;
    mark_refusal();
    errno = error;
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

extern "C" int link(const char* from, const char* to) {
  if (no_hard_links("race")) {
    const auto real_open = reinterpret_cast<open_function>(::dlsym(RTLD_NEXT, "open"));
    const int fd = real_open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) ::close(fd);
  }
  if (no_hard_links()) {
    errno = EPERM;
    return -1;
  }
  using link_function = int (*)(const char*, const char*);
  return reinterpret_cast<link_function>(::dlsym(RTLD_NEXT, "link"))(from, to);
}

extern "C" int linkat(int from_dir, const char* from, int to_dir, const char* to, int flags) {
  if (no_hard_links()) {
    errno = EPERM;
    return -1;
  }
  using linkat_function = int (*)(int, const char*, int, const char*, int);
  return reinterpret_cast<linkat_function>(::dlsym(RTLD_NEXT, "linkat"))(from_dir, from, to_dir, to, flags);
}
