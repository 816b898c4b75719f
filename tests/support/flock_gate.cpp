// An LD_PRELOAD module that holds every flock() until the file
// NQUEENS_FLOCK_GATE names exists, having first made the file
// NQUEENS_FLOCK_WAITING names: a fault test then knows that the tool has
// opened its journal and not yet locked it, and changes the file under it
// (another run removes it) before it lets the lock go on.

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>

extern "C" int flock(int fd, int operation) {
  using flock_function = int (*)(int, int);
  static const auto real_flock = reinterpret_cast<flock_function>(::dlsym(RTLD_NEXT, "flock"));
  const char* gate = std::getenv("NQUEENS_FLOCK_GATE");
  if (gate != nullptr && ::access(gate, F_OK) != 0) {
    if (const char* waiting = std::getenv("NQUEENS_FLOCK_WAITING")) {
      const int mark = ::open(waiting, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
      if (mark >= 0) ::close(mark);
    }
    while (::access(gate, F_OK) != 0) ::usleep(1000);
  }
  return real_flock(fd, operation);
}
