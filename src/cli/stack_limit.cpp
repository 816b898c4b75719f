#include "cli/stack_limit.hpp"

#include <sys/resource.h>

#include <cstdio>

namespace nqueens::cli {

bool ensure_least_stack(const char* prefix) noexcept {
  rlimit limit{};
  if (::getrlimit(RLIMIT_STACK, &limit) != 0) return true;  // nothing known: the stack as it is
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= least_stack_bytes) return true;
  if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max >= least_stack_bytes) {
    limit.rlim_cur = least_stack_bytes;
    if (::setrlimit(RLIMIT_STACK, &limit) == 0) return true;
  }
  // Written with stdio alone: nothing else has been set up yet.
  std::fprintf(stderr,
               "%s: the stack limit (ulimit -s) is %llu KiB, less than the %llu KiB this program needs; raise it "
               "(ulimit -s 8192 is usual)\n",
               prefix, static_cast<unsigned long long>(limit.rlim_cur / 1024),
               static_cast<unsigned long long>(least_stack_bytes / 1024));
  return false;
}

}  // namespace nqueens::cli
