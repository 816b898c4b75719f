#pragma once

// What lets one kernel source run on the GPU and, emulated, on the CPU: the
// kernels' bodies are functions of (item, thread) marked NQUEENS_HD, and
// every primitive that differs between the two (popcount, atomics) is one
// small function here with both versions. The host versions are exact for
// the emulator, which runs a launch's threads one after another.

#include <atomic>
#include <bit>
#include <cstdint>

#include "kernels/host_device.hpp"

namespace nqueens::detail::gpu {

NQUEENS_HD inline int popcount64(std::uint64_t x) {
#ifdef __CUDA_ARCH__
  return __popcll(x);
#else
  return std::popcount(x);
#endif
}

NQUEENS_HD inline int popcount32(std::uint32_t x) {
#ifdef __CUDA_ARCH__
  return __popc(x);
#else
  return std::popcount(x);
#endif
}

/// *at += value; returns the old value.
NQUEENS_HD inline std::uint32_t atomic_add(std::uint32_t* at, std::uint32_t value) {
#ifdef __CUDA_ARCH__
  return atomicAdd(reinterpret_cast<unsigned int*>(at), value);
#else
  const std::uint32_t old = *at;
  *at += value;
  return old;
#endif
}

NQUEENS_HD inline void atomic_add(std::uint64_t* at, std::uint64_t value) {
#ifdef __CUDA_ARCH__
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
  atomicAdd(reinterpret_cast<unsigned long long*>(at), static_cast<unsigned long long>(value));
#else
  *at += value;
#endif
}

/// A block of a kernel that looks for a stop (the visit, dealt by the
/// counter; size, join, once: looks_for_stop) looks at its stream's stop word at its first item and
/// then once every this many it takes: on the device the word is host
/// memory across PCIe, a microsecond or so a read that the whole block
/// waits for. A stop still ends a launch within a few items a block.
inline constexpr std::uint32_t items_between_stop_looks = 16;

/// 1: the device's kernels read the stop word as above. 0 builds the module
/// whose kernels never read it (scripts/gpu.sh ab's `stop_unread`), for
/// measurement alone: a stop there waits for the round's end, which the
/// host then drops. Every block of size, join, once and the visit reads it
/// across PCIe at its first item, and finish once a job: whether those
/// reads are part of the 30-48 us a subproblem small boards took on the H200.
#ifndef NQUEENS_GPU_STOP_READS
#define NQUEENS_GPU_STOP_READS 1
#endif
inline constexpr bool device_reads_stop = NQUEENS_GPU_STOP_READS != 0;

/// Whether a stream's stop word (gpu_job::stop; null: none) is set, read
/// anew each call: the host sets it while the kernels run (on the device,
/// in mapped host memory; emulated, from another thread).
// NOLINTNEXTLINE(readability-non-const-parameter): std::atomic_ref takes a writable object
NQUEENS_HD inline bool stop_set(std::uint32_t* word) {
  if (word == nullptr) return false;
#ifdef __CUDA_ARCH__
  if constexpr (!device_reads_stop) return false;
  return *static_cast<volatile std::uint32_t*>(word) != 0;
#else
  return std::atomic_ref<std::uint32_t>(*word).load(std::memory_order_relaxed) != 0;
#endif
}

/// Whether `value` holds for some lane of the warp that calls this with it
/// (those active with it: a loop's last turn may have fewer). Emulated, a
/// lane runs alone and has its own value: a lane that skips on a false one
/// skips only what it alone would do.
NQUEENS_HD inline bool warp_any(bool value) {
#ifdef __CUDA_ARCH__
  return __any_sync(__activemask(), value) != 0;
#else
  return value;
#endif
}

NQUEENS_HD inline void atomic_or(std::uint64_t* at, std::uint64_t value) {
#ifdef __CUDA_ARCH__
  atomicOr(reinterpret_cast<unsigned long long*>(at), static_cast<unsigned long long>(value));
#else
  *at |= value;
#endif
}

}  // namespace nqueens::detail::gpu
