#include "run/measure/cpu_clock.hpp"

#include <sys/resource.h>
#include <time.h>

#include <algorithm>

namespace nqueens::detail {

double thread_cpu_seconds() noexcept {
  timespec t{};
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0.0;
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double thread_cpu_clock_cost() noexcept {
  double least = 1.0;
  for (int k = 0; k < 16; ++k) {
    const double begin = thread_cpu_seconds();
    least = std::min(least, thread_cpu_seconds() - begin);
  }
  return std::max(least, 0.0);
}

double process_cpu_seconds() noexcept {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace nqueens::detail
