#pragma once

// What a stream has asked of its device, as both streams (the device's and
// the emulator's) count it: launches, stream operations (launches, copies,
// waits) and, where asked, each kernel's time. Written by the stream's
// counting thread, read by any (gpu_stream::work), hence relaxed atomics.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "nqueens/device_work.hpp"
#include "nqueens/subproblem_count.hpp"

namespace nqueens::detail::gpu {

class stream_tally {
 public:
  /// A launch, itself a stream operation.
  void count_launch() noexcept {
    launches_.fetch_add(1, std::memory_order_relaxed);
    count_operation();
  }
  /// A copy or a wait.
  void count_operation() noexcept { operations_.fetch_add(1, std::memory_order_relaxed); }
  /// A copy of `bytes` of a job's own quarter lists, itself a stream operation.
  void count_staged(std::uint64_t bytes) noexcept {
    staged_bytes_.fetch_add(bytes, std::memory_order_relaxed);
    count_operation();
  }
  /// `nanoseconds` more of kernel `slot` (device_kernel_names).
  void add_time(std::size_t slot, std::uint64_t nanoseconds) noexcept {
    nanoseconds_[slot].fetch_add(nanoseconds, std::memory_order_relaxed);
  }
  device_work work() const noexcept {
    device_work w{launches_.load(std::memory_order_relaxed), operations_.load(std::memory_order_relaxed)};
    w.staged_list_bytes = staged_bytes_.load(std::memory_order_relaxed);
    for (std::size_t k = 0; k < w.kernel_nanoseconds.size(); ++k) {
      w.kernel_nanoseconds[k] = nanoseconds_[k].load(std::memory_order_relaxed);
    }
    return w;
  }

 private:
  std::atomic<std::uint64_t> launches_{0}, operations_{0}, staged_bytes_{0};
  std::array<std::atomic<std::uint64_t>, device_kernel_names.size()> nanoseconds_{};
};

}  // namespace nqueens::detail::gpu
