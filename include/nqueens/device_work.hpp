#pragma once

/// \file
/// What an engine that counts on an accelerator (the GPU engine) asked of
/// it, per kernel and per stream: what count's and plan's reports give as
/// "device_kernel_seconds", launches and operations; zero for the CPU
/// engines.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace nqueens {

/// The kernels of an accelerator's round (the GPU engine's), in launch
/// order: the names of device_work::kernel_nanoseconds' slots, and of
/// count's JSON "device_kernel_seconds".
inline constexpr std::array<std::string_view, 11> device_kernel_names = {
    "clear", "size", "join", "once", "stats", "layout", "encode", "scan", "scatter", "visit", "finish"};

/// Where a stream's counting thread spends a round, in order: between the
/// last round's end and this one's start (the host building its jobs and
/// reading the last one's results, or the stream idle), submitting it
/// (copies and launches asked of the driver), waiting for it (the
/// device's work, as the host sees it). The names of
/// device_work::round_nanoseconds' slots, and of count's JSON
/// "round_phase_seconds".
inline constexpr std::array<std::string_view, 3> device_round_phase_names = {"between", "submit", "wait"};

/// What an engine that counts on an accelerator (the GPU engine) asked of
/// it: kernel launches, and stream operations (launches, copies and waits),
/// summed over its streams; zero for the CPU engines.
struct device_work {
  std::uint64_t launches = 0;
  std::uint64_t operations = 0;
  /// Device time per kernel (device_kernel_names), summed over its launches
  /// and the streams: measured where NQUEENS_GPU_TIMES=1 (events around
  /// each launch; the emulator's clock), else zero.
  std::array<std::uint64_t, device_kernel_names.size()> kernel_nanoseconds{};
  /// The host threads' time building the subproblems' own quarter lists
  /// (the GPU engine past its whole tables), summed over the threads:
  /// beside the kernels' time, which side bounds such a run. Always measured.
  std::uint64_t host_list_nanoseconds = 0;
  /// The bytes of those lists copied to the device, summed over the
  /// streams: beside the kernels' time and a link's speed, whether the
  /// copies bound such a run. Always counted.
  std::uint64_t staged_list_bytes = 0;
  /// The streams' rounds by phase (device_round_phase_names), summed over
  /// the streams: whether the host or the device bounds a run of many
  /// small rounds. Always measured (three clock readings a round).
  std::array<std::uint64_t, device_round_phase_names.size()> round_nanoseconds{};

  /// Whether any kernel's time was measured.
  bool timed() const noexcept {
    return std::ranges::any_of(kernel_nanoseconds, [](std::uint64_t t) { return t != 0; });
  }
  device_work& operator+=(const device_work& more) noexcept {
    launches += more.launches;
    operations += more.operations;
    for (std::size_t k = 0; k < kernel_nanoseconds.size(); ++k) kernel_nanoseconds[k] += more.kernel_nanoseconds[k];
    host_list_nanoseconds += more.host_list_nanoseconds;
    staged_list_bytes += more.staged_list_bytes;
    for (std::size_t p = 0; p < round_nanoseconds.size(); ++p) round_nanoseconds[p] += more.round_nanoseconds[p];
    return *this;
  }
  /// What was asked between `earlier` and `later` (later's counts include earlier's).
  friend device_work operator-(device_work later, const device_work& earlier) noexcept {
    later.launches -= earlier.launches;
    later.operations -= earlier.operations;
    for (std::size_t k = 0; k < later.kernel_nanoseconds.size(); ++k) {
      later.kernel_nanoseconds[k] -= earlier.kernel_nanoseconds[k];
    }
    later.host_list_nanoseconds -= earlier.host_list_nanoseconds;
    later.staged_list_bytes -= earlier.staged_list_bytes;
    for (std::size_t p = 0; p < later.round_nanoseconds.size(); ++p) {
      later.round_nanoseconds[p] -= earlier.round_nanoseconds[p];
    }
    return later;
  }
  friend bool operator==(const device_work&, const device_work&) = default;
};

}  // namespace nqueens
