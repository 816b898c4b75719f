#pragma once

// The calling thread's CPU time: what the samplers charge a subproblem, so
// that time spent waiting for a core on a shared machine is not counted.

#include <time.h>

namespace nqueens::bench {

inline double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace nqueens::bench
