#pragma once

/// \file
/// Worker-thread counts: the hardware's, and the range every call accepts.

#include <optional>

namespace nqueens {

/// Largest thread count any call accepts.
inline constexpr int max_threads = 1024;

/// Number of hardware threads oneTBB would use by default (honours CPU affinity).
int hardware_threads() noexcept;

/// Cores that this process's hardware threads sit on, the threads of one
/// core (SMT, Hyper-Threading) counted once; 0 where the system does not say
/// (Linux's /sys topology unreadable).
int physical_cores() noexcept;

/// The CPUs a CFS quota lets this process use (a container's `--cpus`, a
/// cgroup's cpu.max), e.g. 1.5; nullopt where none is set. hardware_threads()
/// does not see it: threads past it share the quota's time.
std::optional<double> cpu_quota() noexcept;

/// `threads`, or hardware_threads() for 0 (unchecked: resolve_threads checks).
int threads_or_hardware(int threads) noexcept;

/// `threads`, or hardware_threads() for 0. Throws std::invalid_argument
/// naming the valid range unless 0 <= threads <= max_threads.
int resolve_threads(int threads);

}  // namespace nqueens
