#include "cli/stack_limit.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace nqueens::cli {

namespace {

// glibc's default for a new thread's stack is the stack limit at start.
void give_threads_the_usual_stack() noexcept {
  pthread_attr_t attributes;
  if (::pthread_getattr_default_np(&attributes) != 0) return;
  std::size_t size = 0;
  if (::pthread_attr_getstacksize(&attributes, &size) == 0 && size < usual_stack_bytes &&
      ::pthread_attr_setstacksize(&attributes, usual_stack_bytes) == 0) {
    static_cast<void>(::pthread_setattr_default_np(&attributes));
  }
  ::pthread_attr_destroy(&attributes);
}

// A line built in place and written with one write(2): on a stack of a few
// KiB, fprintf to the unbuffered stderr (an 8 KiB buffer of its own) was
// itself a SIGSEGV.
class short_line {
 public:
  short_line& operator<<(const char* text) noexcept {
    while (*text != '\0' && size_ < sizeof text_) text_[size_++] = *text++;
    return *this;
  }
  short_line& operator<<(unsigned long long number) noexcept {
    char digits[24];
    int count = 0;
    do {
      digits[count++] = static_cast<char>('0' + number % 10);
      number /= 10;
    } while (number != 0);
    while (count > 0 && size_ < sizeof text_) text_[size_++] = digits[--count];
    return *this;
  }
  void write_to_stderr() noexcept {
    if (size_ == sizeof text_) text_[size_ - 1] = '\n';
    static_cast<void>(::write(STDERR_FILENO, text_, size_) >= 0);  // nothing is left to tell a failure to
  }

 private:
  char text_[320];
  std::size_t size_ = 0;
};

}  // namespace

bool ensure_least_stack(const char* prefix) noexcept {
  give_threads_the_usual_stack();
  rlimit limit{};
  if (::getrlimit(RLIMIT_STACK, &limit) != 0) return true;  // nothing known: the stack as it is
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= least_stack_bytes) return true;
  const auto kib = [](rlim_t bytes) { return static_cast<unsigned long long>(bytes / 1024); };
  short_line line;
  line << prefix;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < least_stack_bytes) {
    line << ": the stack's hard limit (ulimit -Hs) is " << kib(limit.rlim_max) << " KiB, less than the "
         << kib(least_stack_bytes)
         << " KiB this program needs; run it where the limit is higher (8192 KiB is usual; only root raises a hard "
            "limit)\n";
  } else {
    rlimit raised = limit;
    raised.rlim_cur =
        limit.rlim_max == RLIM_INFINITY ? usual_stack_bytes : std::min<rlim_t>(limit.rlim_max, usual_stack_bytes);
    if (::setrlimit(RLIMIT_STACK, &raised) == 0) return true;
    line << ": the stack limit (ulimit -s) is " << kib(limit.rlim_cur) << " KiB, less than the "
         << kib(least_stack_bytes) << " KiB this program needs, and raising it failed (" << std::strerror(errno)
         << "); raise it (8192 KiB is usual)\n";
  }
  line.write_to_stderr();
  return false;
}

}  // namespace nqueens::cli
