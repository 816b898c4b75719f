#pragma once

// How a launch deals a round's items to its blocks (gpu_kernels.hpp says
// how the kernels fit together): in turn by block index, or, for a kernel
// that asks, from the round's counter as blocks free up.

#include <cstdint>
#include <type_traits>

#include "engines/gpu/gpu_job.hpp"
#include "kernels/host_device.hpp"

namespace nqueens::detail::gpu {

/// Whether a kernel's blocks take their items from a counter
/// (Kernel::dealt_by_counter) rather than in turn by block index (block b
/// of a grid of g: items b, b + g, ...): each
/// block, once done with an item, takes the round's next, so that no SM
/// idles while another works through heavy items dealt to it in advance.
/// The visit's come heavy first within a job: key by key, and a low key's
/// blocks (few bits, so most north halves to visit) first.
template <class Kernel>
inline constexpr bool counter_dealt = requires {
  requires Kernel::dealt_by_counter;
};

/// Whether a kernel dealt by block index looks at the stop word between
/// its items (Kernel::looks_for_stop), as a counter-dealt one does: those
/// whose items grow with n (a size or join item forms every product of
/// its row sets' quarter ranges, a once item pairs listed halves), so that
/// at n = 25..28 a stop ends their launch within a few items a block, not
/// at its end. A stopped launch leaves its round partial: the host never
/// takes such a round (gpu_rounds::run_round).
template <class Kernel>
inline constexpr bool looks_for_stop = requires {
  requires Kernel::looks_for_stop;
};

/// One way or the other: a launch's shared `taken` and its count of items
/// serve one of them (kernel_of).
template <class Kernel>
inline constexpr bool deals_one_way = !(counter_dealt<Kernel> && looks_for_stop<Kernel>);

/// A round's items before each of its jobs, item k of the round being item
/// k - before[j] of job j: each block of a launch finds them once, in two
/// steps with a barrier between, then looks up each item it takes (where
/// walking the jobs for each block read up to 64 jobs' counts in turn, a
/// global load each, before its first item). For rounds of up to `Jobs`
/// jobs (a device's round_jobs, in shared memory; the emulator's
/// most_round_jobs, whatever its options hold), in `Count`s: 32 bits for a
/// kernel dealt by the counter, whose round must deal fewer than 2^32
/// items anyway (counter_deals: a sum past it is kept as UINT32_MAX, which
/// that check refuses), so that the visit's six blocks an SM keep their
/// room at 192 jobs (not at 256); 64 bits for the others, whose items a block strides.
template <std::uint32_t Jobs, class Count>
struct round_items_of {
  static_assert(Jobs <= most_round_jobs);
  Count before[Jobs + 1];  // before[count]: all of them

  /// Step one, every thread: jobs thread, thread + block_threads, ...
  template <class Kernel>
  NQUEENS_HD void count(const gpu_job* jobs, std::uint32_t count, std::uint32_t thread) {
    for (std::uint32_t j = thread; j < count; j += block_threads) before[j + 1] = Kernel::items(jobs[j]);
    if (thread == 0) before[0] = 0;
  }
  /// Step two, thread 0 alone (a dependent add a job: at 192 jobs a few
  /// microseconds of each block's start, which rounds192 pays).
  NQUEENS_HD void add_up(std::uint32_t count) {
    constexpr Count most = ~Count{0};
    std::uint64_t sum = 0;
    for (std::uint32_t j = 1; j <= count; ++j) {
      sum += before[j];  // each a job's items, 32 bits: no wrap in 64
      before[j] = sum < most ? static_cast<Count>(sum) : most;
    }
  }
  /// The job whose items hold `item`. Precondition: item < before[count].
  NQUEENS_HD std::uint32_t job_of(std::uint32_t count, std::uint64_t item) const {
    std::uint32_t low = 0, high = count;  // before[low] <= item < before[high]
    while (high - low > 1) {
      const std::uint32_t mid = (low + high) / 2;
      (before[mid] <= item ? low : high) = mid;
    }
    return low;
  }
};

/// The count type of a kernel's round_items_of (its `dealt_by_counter`).
template <bool DealtByCounter>
using round_item_count = std::conditional_t<DealtByCounter, std::uint32_t, std::uint64_t>;

/// Whether the 32-bit counter can deal a round's `items` to `grid`
/// blocks: each block takes one past the last before it ends, and
/// UINT32_MAX says "stopped" (the stop look), so the counter must reach
/// items + grid without wrapping or meeting it. A job's items are far
/// fewer (a few per key and per share, most_visit_parts); a round that
/// passed anyway would deal items twice and never end, so its jobs fault
/// instead (job_fault::counter_overflow), in the kernel and the emulator alike.
NQUEENS_HD constexpr bool counter_deals(std::uint64_t items, std::uint32_t grid) {
  return items < std::uint64_t{UINT32_MAX} - grid;
}

/// Where a kernel dealt by a counter takes its items: the round's first
/// job's state serves the round (the clear kernel zeroes it), so one kernel
/// of a round at most is dealt by it (launch_round checks).
NQUEENS_HD inline std::uint32_t* round_counter(const gpu_job* jobs) { return &jobs[0].state->items_taken; }

/// A device's rounds' items for `Kernel`, in every block's shared memory.
template <class Kernel>
using round_items_for = round_items_of<round_jobs, round_item_count<counter_dealt<Kernel>>>;

/// Shared memory a launch takes beside its kernel's (kernel_of, gpu_cuda_stream.cu):
/// the round's items and the item a block took.
constexpr std::uint64_t launch_shared_bytes(bool dealt_by_counter) {
  return (dealt_by_counter ? sizeof(round_items_of<round_jobs, std::uint32_t>)
                           : sizeof(round_items_of<round_jobs, std::uint64_t>)) +
         sizeof(std::uint32_t);
}

/// Whether `blocks` blocks of a kernel with `shared_bytes` of shared memory
/// fit an SM of an H100 or H200: 228 KiB, 1 KiB of it reserved per block,
/// the launch's own beside the kernel's.
constexpr bool blocks_fit_an_sm(std::uint64_t shared_bytes, int blocks, bool dealt_by_counter = false) {
  return (shared_bytes + launch_shared_bytes(dealt_by_counter) + 1024) * static_cast<std::uint64_t>(blocks) <=
         std::uint64_t{228} * 1024;
}

}  // namespace nqueens::detail::gpu
