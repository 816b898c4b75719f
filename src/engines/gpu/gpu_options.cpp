#include "nqueens/gpu_options.hpp"

#include "engines/gpu/gpu_run_devices.hpp"
#include "nqueens/threads.hpp"

namespace nqueens {

std::vector<gpu_taken> gpus_taken(const gpu_options& gpu, int threads) {
  // 0 as check_runnable reads it: oneTBB's threads (this process's CPUs).
  const int resolved = threads > 0 ? threads : hardware_threads();
  const detail::gpu::run_devices run = detail::gpu::choose_run_devices(gpu.devices, resolved);
  std::vector<gpu_taken> taken;
  for (const detail::gpu::dealt_device& d : run.chosen) {
    const detail::gpu::device_identity& identity = run.seen.at(static_cast<std::size_t>(d.index));
    taken.push_back({d.index, identity.uuid, identity.name, d.sharers});
  }
  return taken;
}

}  // namespace nqueens
