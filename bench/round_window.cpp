#include "round_window.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "engines/gpu/gpu_job.hpp"

namespace nqueens::bench {
namespace {

std::uint64_t argument(int argc, char** argv, int k, std::uint64_t fallback, const char* program) {
  if (k >= argc) return fallback;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(argv[k], &end, 10);
  if (end == argv[k] || *end != '\0') {
    std::fprintf(stderr, "%s: '%s' is not a number\n", program, argv[k]);
    std::exit(2);
  }
  return value;
}

}  // namespace

round_window read_round_window(int argc, char** argv, const char* program, std::uint32_t default_slots,
                               std::uint64_t default_setup) {
  if (argc < 3 || argc > 6) {
    std::fprintf(stderr, "usage: %s N FIRST [JOBS] [SLOTS] [SETUP]\n", program);
    std::exit(2);
  }
  round_window window;
  const std::uint64_t n = argument(argc, argv, 1, 0, program);
  window.first = argument(argc, argv, 2, 0, program);
  const std::uint64_t jobs = argument(argc, argv, 3, detail::gpu::round_jobs, program);
  const std::uint64_t slots = argument(argc, argv, 4, default_slots, program);
  window.setup = static_cast<double>(argument(argc, argv, 5, default_setup, program));
  if (n < 8 || n > 23 || jobs < 1 || slots < 1 || slots > UINT32_MAX) {
    std::fprintf(stderr, "%s: N from 8 to 23, JOBS and SLOTS at least 1\n", program);
    std::exit(2);
  }
  window.n = static_cast<int>(n);
  window.slots = static_cast<std::uint32_t>(slots);
  std::uint64_t index = 0;
  detail::column_classes(window.n).for_each([&](const detail::column_class& c) {
    if (index >= window.first && index - window.first < jobs) window.classes.push_back(c);
    ++index;
  });
  if (window.classes.empty()) {
    std::fprintf(stderr, "%s: board %d has %llu classes\n", program, window.n, static_cast<unsigned long long>(index));
    std::exit(2);
  }
  return window;
}

}  // namespace nqueens::bench
