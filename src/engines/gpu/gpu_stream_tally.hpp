#pragma once

// What a stream has asked of its device, as both streams (the device's and
// the emulator's) count it: launches, stream operations (launches, copies,
// waits), its rounds' phases and, where asked, each kernel's time. Written
// by the stream's counting thread, read by any (gpu_stream::work), hence
// relaxed atomics.

#include <array>
#include <atomic>
#include <chrono>
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
  /// A round's phases (device_round_phase_names), marked by the stream as
  /// its counting thread reaches them: as run() starts (the time since
  /// the last round ended is `between`; none before the first), once its
  /// copies and launches are asked, once it has been waited for. A round
  /// that throws leaves its time to the next one's `between`.
  void round_began() noexcept {
    const clock::time_point now = clock::now();
    if (ended_ != clock::time_point{}) add_phase(0, now - ended_);
    began_ = now;
  }
  void round_submitted() noexcept {
    submitted_ = clock::now();
    add_phase(1, submitted_ - began_);
  }
  void round_ended() noexcept {
    ended_ = clock::now();
    add_phase(2, ended_ - submitted_);
  }
  device_work work() const noexcept {
    device_work w{launches_.load(std::memory_order_relaxed), operations_.load(std::memory_order_relaxed)};
    w.staged_list_bytes = staged_bytes_.load(std::memory_order_relaxed);
    for (std::size_t p = 0; p < w.round_nanoseconds.size(); ++p) {
      w.round_nanoseconds[p] = round_nanoseconds_[p].load(std::memory_order_relaxed);
    }
    for (std::size_t k = 0; k < w.kernel_nanoseconds.size(); ++k) {
      w.kernel_nanoseconds[k] = nanoseconds_[k].load(std::memory_order_relaxed);
    }
    return w;
  }

 private:
  using clock = std::chrono::steady_clock;
  void add_phase(std::size_t phase, clock::duration took) noexcept {
    const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(took).count();
    round_nanoseconds_[phase].fetch_add(static_cast<std::uint64_t>(nanoseconds), std::memory_order_relaxed);
  }

  std::atomic<std::uint64_t> launches_{0}, operations_{0}, staged_bytes_{0};
  std::array<std::atomic<std::uint64_t>, device_kernel_names.size()> nanoseconds_{};
  std::array<std::atomic<std::uint64_t>, device_round_phase_names.size()> round_nanoseconds_{};
  // The stream's thread's alone (a stream is leased to one thread at a time).
  clock::time_point began_{}, submitted_{}, ended_{};
};

}  // namespace nqueens::detail::gpu
