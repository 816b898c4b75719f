#include "cli/stack_limit.hpp"

#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>

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

}  // namespace

bool ensure_least_stack(const char* prefix) noexcept {
  give_threads_the_usual_stack();
  rlimit limit{};
  if (::getrlimit(RLIMIT_STACK, &limit) != 0) return true;  // nothing known: the stack as it is
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= least_stack_bytes) return true;
  const rlim_t raised =
      limit.rlim_max == RLIM_INFINITY ? usual_stack_bytes : std::min<rlim_t>(limit.rlim_max, usual_stack_bytes);
  if (raised >= least_stack_bytes) {
    limit.rlim_cur = raised;
    if (::setrlimit(RLIMIT_STACK, &limit) == 0) return true;
  }
  // stdio alone: the message needs no allocation, and the streams are not yet buffered.
  std::fprintf(stderr,
               "%s: the stack's hard limit (ulimit -Hs) is %llu KiB, less than the %llu KiB this program needs; "
               "run it where the limit is higher (8192 KiB is usual; only root raises a hard limit)\n",
               prefix, static_cast<unsigned long long>(limit.rlim_max / 1024),
               static_cast<unsigned long long>(least_stack_bytes / 1024));
  return false;
}

}  // namespace nqueens::cli
