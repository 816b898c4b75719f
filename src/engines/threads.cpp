#include "nqueens/threads.hpp"

#include <sched.h>
#include <tbb/info.h>

#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "engines/cpu_quota.hpp"

namespace nqueens {

int hardware_threads() noexcept { return tbb::info::default_concurrency(); }

int physical_cores() noexcept {
  try {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 0;
    std::set<std::pair<long, long>> cores;  // (package, core)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (!CPU_ISSET(cpu, &allowed)) continue;
      const std::string topology = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
      long package = -1, core = -1;
      std::ifstream(topology + "physical_package_id") >> package;
      std::ifstream(topology + "core_id") >> core;
      if (package < 0 || core < 0) return 0;
      cores.emplace(package, core);
    }
    return static_cast<int>(cores.size());
  } catch (...) {  // a set's allocation: then the system says nothing usable
    return 0;
  }
}

std::optional<double> cpu_quota() noexcept {
  try {
    return detail::cpu_quota_in("/sys/fs/cgroup", "/proc/self/cgroup");
  } catch (...) {  // a path's allocation
    return std::nullopt;
  }
}

int threads_or_hardware(int threads) noexcept { return threads == 0 ? hardware_threads() : threads; }

int resolve_threads(int threads) {
  if (threads < 0 || threads > max_threads) {
    throw std::invalid_argument("thread count " + std::to_string(threads) +
                                " is out of range: expected 0 (every hardware thread) to " +
                                std::to_string(max_threads));
  }
  return threads_or_hardware(threads);
}

}  // namespace nqueens
