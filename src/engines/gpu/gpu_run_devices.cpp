#include "engines/gpu/gpu_run_devices.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "engines/gpu/gpu_node_ranks.hpp"
#include "engines/gpu/gpu_seen_devices.hpp"

namespace nqueens::detail::gpu {

run_devices choose_run_devices(std::string_view devices, int threads) {
  run_devices c{emulated_devices(), {}, seen_devices()};
  c.chosen = choose_devices(devices, c.seen);
  const auto drivable = static_cast<std::size_t>(std::max(threads, 1));
  if (drivable >= c.chosen.size()) return c;
  const bool shared = std::ranges::any_of(c.chosen, [](const dealt_device& d) { return d.sharers > 1; });
  if (!shared) {
    const std::string gpus = std::to_string(c.chosen.size());
    // Said only to a launcher's process: a rank's default threads are the
    // cores mpirun bound it to, which a plain run's are not.
    const std::string binding = node_rank() ? " (mpirun binds a rank to one core unless given --bind-to none)" : "";
    throw std::invalid_argument("--engine gpu drives each GPU from a thread of its own, and " +
                                std::to_string(drivable) + (drivable == 1 ? " thread" : " threads") +
                                " cannot keep the " + gpus + " GPUs this process takes busy: give --threads " + gpus +
                                " or more" + binding + ", or fewer --devices");
  }
  const std::size_t first = static_cast<std::size_t>(node_rank().value_or(0)) % c.chosen.size();
  // std::rotate, not std::ranges::rotate: clang 14 (clang-tidy) cannot read
  // libstdc++ 12's subrange, which the ranges form returns.
  std::rotate(c.chosen.begin(), c.chosen.begin() + static_cast<std::ptrdiff_t>(first), c.chosen.end());
  c.chosen.resize(drivable);
  return c;
}

}  // namespace nqueens::detail::gpu
