#include "nqueens/memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "engines/registry.hpp"
#include "nqueens/threads.hpp"

namespace nqueens {

std::uint64_t default_memory_limit() noexcept {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  std::uint64_t memory = pages > 0 && page_size > 0
                             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size)
                             : std::uint64_t{8} << 30;  // unknown: assume a small machine
  // In a container the cgroup's limit, not the host's memory, is what a run
  // may use (cgroup v2, then v1; "max" or an absent file means no limit).
  for (const char* file : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    if (std::FILE* f = std::fopen(file, "r")) {
      unsigned long long limit = 0;
      if (std::fscanf(f, "%llu", &limit) == 1 && limit > 0) memory = std::min<std::uint64_t>(memory, limit);
      std::fclose(f);
    }
  }
  return memory / 2;
}

std::uint64_t memory_estimate(int n, engine kind, int threads, std::uint64_t max_memory) noexcept {
  const auto estimate = detail::definition_of(kind).memory_estimate;
  if (estimate == nullptr) return 0;
  return estimate(n, threads == 0 ? hardware_threads() : threads,
                  max_memory == 0 ? default_memory_limit() : max_memory);
}

void check_memory(int n, engine kind, std::uint64_t limit, int threads) {
  if (limit == 0) limit = default_memory_limit();
  const std::uint64_t need = memory_estimate(n, kind, threads, limit);
  if (need <= limit) return;
  const auto gib = [](std::uint64_t bytes) {
    char text[32];
    const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
    if (mib < 1024) {
      std::snprintf(text, sizeof text, "%.0f MiB", mib);
    } else {
      std::snprintf(text, sizeof text, "%.1f GiB", mib / 1024.0);
    }
    return std::string(text);
  };
  throw memory_limit_error("the " + std::string(to_string(kind)) + " engine needs about " + gib(need) +
                           " for n = " + std::to_string(n) + ", more than the " + gib(limit) +
                           " allowed (--max-memory); choose another --engine, or raise --max-memory");
}

}  // namespace nqueens
