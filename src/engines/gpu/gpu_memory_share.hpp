#pragma once

// How much device memory each stream of a GPU run takes when it opens (once:
// nothing is freed or grown mid-run). Processes share a GPU (MPI ranks of a
// node, or tests run side by side), so a run takes what its rounds can use,
// not all that is free: on an H100 the first of several counts once took
// all 80 GB, and the next failed its first cudaMalloc.

#include <algorithm>
#include <cstdint>

#include "engines/gpu/gpu_job.hpp"
#include "engines/gpu/gpu_rounds.hpp"

namespace nqueens::detail::gpu {

/// The most arena bytes a stream's rounds use where no group passes
/// `largest` halves: a round of round_jobs jobs twice that large (a job past
/// it is cut in pieces, gpu_rounds.hpp), at least 64 MiB.
constexpr std::uint64_t most_useful_stream_bytes(double largest) noexcept {
  const double halves = std::clamp(largest, 1.0, 4e9);
  const double bytes = 2.0 * round_jobs * sizeof(std::uint64_t) *
                       static_cast<double>(gpu_rounds::words_for(static_cast<std::uint64_t>(halves),
                                                                 static_cast<std::uint64_t>(halves)));
  return std::max(static_cast<std::uint64_t>(bytes), std::uint64_t{64} << 20);
}

/// A stream's buffers beside its arena: a round's jobs, states and results,
/// for rounds of `jobs` jobs.
constexpr std::uint64_t stream_fixed_bytes_for(std::uint64_t jobs) noexcept {
  return jobs * (sizeof(gpu_job) + sizeof(job_state) + sizeof(job_result));
}
/// The same for this file's rounds (round_jobs, each file's own): what a
/// stream of this module takes.
constexpr std::uint64_t stream_fixed_bytes = stream_fixed_bytes_for(round_jobs);
/// What the engine prices a stream's fixed buffers at before it knows the
/// module's rounds: the largest any module holds (192 KiB more than rounds
/// of 64, a stream), so that a module of larger rounds opens within every
/// bound the engine let through.
constexpr std::uint64_t priced_stream_fixed_bytes = stream_fixed_bytes_for(most_round_jobs);

/// The most arena a stream may take within `stream_bound` bytes (its share
/// of --gpu-memory; UINT64_MAX: none), whichever module's rounds it holds:
/// its fixed buffers, priced so, beside it stay within the bound.
constexpr std::uint64_t arena_bound_within(std::uint64_t stream_bound) noexcept {
  return stream_bound > priced_stream_fixed_bytes ? stream_bound - priced_stream_fixed_bytes : 0;
}

/// The least arena a stream opens with (a round of small jobs), and the
/// least it halves to where another process took memory meanwhile.
inline constexpr std::uint64_t least_arena_bytes = std::uint64_t{1} << 20;

/// The least device memory a stream can count in: its fixed buffers and an
/// arena for one job's own quarter lists (`job_list_bytes`; 0 where the run
/// copies the whole tables) beside least_arena_bytes for its groups, which
/// a job too large is cut down to (gpu_rounds.hpp).
constexpr std::uint64_t least_stream_bytes(std::uint64_t job_list_bytes) noexcept {
  return priced_stream_fixed_bytes + job_list_bytes + least_arena_bytes;
}

/// What a run takes of each GPU under a bound of `memory` bytes
/// (--gpu-memory; 0: no bound) with `streams` streams on it: whether the
/// whole tables (`table_bytes`) go there, and the most each stream takes.
struct device_budget {
  bool tables = true;
  std::uint64_t stream_bytes = UINT64_MAX;  // no bound: what stream_share gives
};

/// The tables where they fit beside every stream's least, and the rest of
/// `memory` shared by the streams; without them (each job then brings its
/// own lists), `memory` shared.
constexpr device_budget budget_within(std::uint64_t memory, std::uint64_t streams, std::uint64_t table_bytes) noexcept {
  if (memory == 0) return {};
  streams = std::max<std::uint64_t>(streams, 1);
  if (table_bytes <= memory && (memory - table_bytes) / streams >= least_stream_bytes(0)) {
    return {true, (memory - table_bytes) / streams};
  }
  return {false, memory / streams};
}

/// What a process takes of a GPU of `total` bytes that `sharers` processes
/// count on, where --gpu-memory bounds none: a like part for each, less the
/// CUDA runtime's margin (stream_share's: a sixteenth, at least 512 MiB).
/// The bound budget_within then decides by, so that the whole tables go to
/// a GPU only where they fit there beside its streams (16.9 GiB at n = 24:
/// not on a 16 GB GPU, nor beside 8 other processes on an H200); 0 (no
/// bound) where the memory is not known, 1 where nothing is left.
constexpr std::uint64_t own_part_of_device(std::uint64_t total, int sharers) noexcept {
  if (total == 0) return 0;
  const std::uint64_t margin = std::max<std::uint64_t>(total / 16, std::uint64_t{512} << 20);
  if (total <= margin) return 1;
  return std::max<std::uint64_t>((total - margin) / static_cast<std::uint64_t>(std::max(sharers, 1)), 1);
}

/// The least `memory` (--gpu-memory) a run of `streams` streams a GPU
/// counts in: each stream's least with one job's own lists
/// (`job_list_bytes`), the tables left on the host. The engine refuses a
/// bound under it before counting.
constexpr std::uint64_t least_device_bytes(std::uint64_t streams, std::uint64_t job_list_bytes) noexcept {
  return std::max<std::uint64_t>(streams, 1) * least_stream_bytes(job_list_bytes);
}

/// The most processes NQUEENS_GPU_SHARERS may say share a GPU: far more
/// than a node runs on one.
inline constexpr int max_gpu_sharers = 1024;

/// What the device holds when a backend opens, and who shares it.
struct device_memory {
  std::uint64_t free = 0;    // cudaMemGetInfo's, after this process copied its tables
  std::uint64_t total = 0;   // the device's
  std::uint64_t tables = 0;  // this process's copy of the quarter tables
  int sharers = 1;           // processes counting on this device (gpu_node_ranks.hpp's node_devices)
};

/// Bytes each of `streams` streams takes: what is free less a margin for
/// the runtime (a sixteenth, at least 512 MiB), within a like part of the
/// device for each process sharing it (its tables counted in), and no more
/// than `most_useful`.
constexpr std::uint64_t stream_share(const device_memory& m, int streams, std::uint64_t most_useful) noexcept {
  const std::uint64_t margin = std::max<std::uint64_t>(m.free / 16, std::uint64_t{512} << 20);
  std::uint64_t usable = m.free > margin ? m.free - margin : 0;
  const auto sharers = static_cast<std::uint64_t>(std::max(m.sharers, 1));
  const std::uint64_t part = m.total / sharers, spent = margin / sharers + m.tables;
  usable = std::min(usable, part > spent ? part - spent : 0);
  return std::min(usable / static_cast<std::uint64_t>(std::max(streams, 1)), most_useful);
}

}  // namespace nqueens::detail::gpu
