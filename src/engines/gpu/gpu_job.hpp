#pragma once

// One job as the GPU kernels see it (gpu_kernels.hpp): a subproblem, or a
// slice of one that the device's memory could not hold whole; where the
// quarter tables and its buffers are, the state the kernels hand each other
// through memory between launches, and the result the host reads back. A
// launch runs one kernel over a round of many jobs (gpu_rounds.hpp). Plain
// data, the same whether the pointers are device memory or, emulated, host
// memory.

#include <cstdint>

#include "engines/join_model/filter_rule.hpp"
#include "engines/join_model/half_masks.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "kernels/host_device.hpp"

namespace nqueens::detail::gpu {

/// Threads of every block of every kernel, in warps of 32 lanes.
inline constexpr std::uint32_t block_threads = 256;
inline constexpr std::uint32_t warp_lanes = 32;
inline constexpr std::uint32_t block_warps = block_threads / warp_lanes;
/// South halves per table block: what one block of the visit kernel holds,
/// a 32-bit word of them per lane of a warp.
inline constexpr std::uint32_t words_per_block = warp_lanes;
inline constexpr std::uint32_t words_per_block_log2 = 5;
static_assert(words_per_block == 1U << words_per_block_log2);
inline constexpr std::uint32_t south_per_block = words_per_block * 32;
/// Bits of a digit: a table row is indexed by a north code's digit. Five
/// bits keep a block's tables (10 digits x 32 values x 32 words) within
/// the 48 KiB of static shared memory.
inline constexpr std::uint32_t digit_bits = 5;
inline constexpr std::uint32_t digit_values = 1U << digit_bits;
/// 10 digits of 5 bits; with the key taking what they cannot hold
/// (job_key_bits) they hold every mask bit the count reads: the diagonals
/// both groups can use (at most 56 at n = 28) and the 4 tie tags.
inline constexpr std::uint32_t max_job_digits = 10;
/// The most key bits: 2^21 buckets per group. A key's south halves number
/// about key_south_target_for where the key can grow to it: past n = 24
/// groups of 10^7 to 10^8 halves want 17 to 21 bits. Modelled on real
/// rounds of n = 28 (nqueens_gpu_round_balance), 18 bits visit 2.4 times
/// fewer pairs than 14 (16: 1.6 times), 19 (a key's target halved for
/// large groups) 1.28 times fewer than 18, 20 (a quarter, once walks were
/// dealt by warps) 1.30 times less work than 19, and 21 (an eighth, for
/// groups past 2^26) 1.13 times less than 20. A job's key arrays lie in
/// the arena, sized by the most bits its capacity allows (key_words_for):
/// 42 MiB for 21, a few KiB for the small jobs of n <= 22. Set at build
/// time for that model's studies; a module is built with its host's
/// (gpu_device.hpp's interface check).
#ifndef NQUEENS_GPU_MAX_KEY_BITS
#define NQUEENS_GPU_MAX_KEY_BITS 21
#endif
inline constexpr std::uint32_t max_job_key_bits = NQUEENS_GPU_MAX_KEY_BITS;
static_assert(64 - max_job_digits * digit_bits <= max_job_key_bits, "the key takes what the digits cannot");
/// The digits a job's codes may take on board n: a mask's bits (both
/// diagonals, 2n, and the 4 tie tags) fit 9 digits beside the key to n =
/// 28 (the key taking at least 15 bits there), whose visit tables then
/// leave an SM room for a sixth block; 10 with keys of 14 bits or fewer.
inline constexpr std::uint32_t compact_job_digits = 9;
constexpr std::uint32_t job_digits_for(int n) noexcept {
  return 2U * static_cast<std::uint32_t>(n) + 4 <= compact_job_digits * digit_bits + max_job_key_bits
             ? compact_job_digits
             : max_job_digits;
}
static_assert(job_digits_for(27) == compact_job_digits &&
              job_digits_for(28) == (max_job_key_bits >= 15 ? compact_job_digits : max_job_digits));
inline constexpr std::uint32_t max_buckets = 1U << max_job_key_bits;
/// Odd n: placements a join block lists of each side's quarter ranges, 2
/// bytes each in shared memory (block_picks, gpu_join_kernels.hpp); a range
/// past what is left is read whole. 4096 lists all but 30 of 77 759 ranges
/// of two sampled rounds of n = 21, every one of a round of n = 23 (2048:
/// 1.4% and 5% read whole, 7% and 27% more products; nqueens_gpu_join_lanes).
inline constexpr std::uint32_t most_listed = 4096;
/// What the last kernel writes once every check held, with the job's
/// sequence number: a result left from an earlier round never passes.
inline constexpr std::uint32_t finished_mark = 0x600DC0DEU;
/// What the size kernel's first block writes, likewise.
inline constexpr std::uint32_t sized_mark = 0x512EDU;

/// Jobs a round holds: a round's kernels and copies, shared by 64 jobs,
/// cost a subproblem a fraction of a stream operation (0.28 at n = 16,
/// docs/engines.md). The device's streams hold this many, the emulator's
/// its options' (up to most_round_jobs), and the engine hands a stream as
/// many as its backend says (gpu_backend::round_jobs). A module built with
/// NQUEENS_GPU_ROUND_JOBS=192 (scripts/gpu.sh ab's `rounds192`, and with
/// each round a CUDA graph `rounds192_graphs`) shares each launch among 3
/// times the jobs, against the fixed cost a launch took at small n
/// (docs/performance.md), where a job's own work is short; 256 would leave
/// no room for the visit's six blocks an SM (round_items_of).
#ifndef NQUEENS_GPU_ROUND_JOBS
#define NQUEENS_GPU_ROUND_JOBS 64
#endif
// Each file's own (not inline): a candidate's stream file holds its rounds'
// buffers by it, while the device's opening, built once for all, asks it
// (cuda_round_jobs).
constexpr std::uint32_t round_jobs = NQUEENS_GPU_ROUND_JOBS;
/// The most jobs any round holds: a thread of a block for each, so that
/// one launch faults them all at once (kernel_of, emulate_launch).
inline constexpr std::uint32_t most_round_jobs = block_threads;
static_assert(round_jobs >= 1 && round_jobs <= most_round_jobs, "NQUEENS_GPU_ROUND_JOBS: 1 to 256");

/// Mask bits the filter adds to a half besides its tie tags (filter_rule.hpp):
/// the once categories, bit k where the half belongs to once pair k
/// (once_pairs_of), which do not take part in the count. They take the
/// four bits above the right diagonals (bits 32..59 at n = 28), where a
/// south half's turned row tag was, which classify clears first.
inline constexpr int category_shift = south_row_tag_shift;
inline constexpr std::uint64_t category_bits = std::uint64_t{15} << category_shift;
/// What the once pairs must not share: the diagonals, neither the tags nor
/// the categories.
inline constexpr std::uint64_t diagonal_bits = ~(free_bits | category_bits);
/// The largest board the GPU engine takes: the quadrant engine's, whose
/// right diagonals (bits 32 on) stay below the categories.
inline constexpr int max_gpu_board_size = max_quadrant_board_size;
static_assert(32 + max_gpu_board_size <= category_shift, "the categories sit above the right diagonals");

/// One quarter's placements, as the kernels read them: a whole table
/// (quarter_table), where those on (columns, rows) are [offsets[columns <<
/// h | rows], the next offset); or a list of one column set's placements
/// (quarter_list), where those on rows are [offsets[rows], the next).
struct quarter_arrays {
  const std::uint32_t* offsets = nullptr;
  const std::uint64_t* masks = nullptr;
  const std::uint32_t* signatures = nullptr;
};

/// How a subproblem's halves are encoded, chosen on the device from both
/// groups: code bit j is mask bit position[j], for the `used` bits (those
/// set in some north and some south half: no other bit can collide); the
/// first key_bits are the key (the likeliest to collide), the rest digits.
struct code_layout {
  std::uint32_t used = 0;
  std::uint32_t key_bits = 0;
  std::uint32_t digits = 0;
  std::uint8_t position[64] = {};
};

/// What the kernels write, per job of a round; cleared by the first kernel.
struct job_state {
  std::uint32_t group_size[2];  // north, south halves joined
  std::uint64_t bits_in[2];     // OR of each group's masks
  std::uint32_t bit_count[2][64];
  code_layout layout;
  // Each key's: where the arena holds them (gpu_job::keys, set by clear_kernel).
  std::uint32_t* bucket_start[2];  // halves of each group before each key, and their end
  std::uint32_t* cursor[2];
  std::uint32_t* block_start;  // visit items before each key (scan_kernel), and their end
  std::uint8_t* key_flags;     // each key's key_split and key_walked_by_warps (scan_kernel)
  std::uint32_t once_size[2];  // halves with a once category, in once_list
  std::uint64_t pairs;         // disjoint pairs, tags included: twice each under a filter
  std::uint64_t once;          // pairs sharing a once category, per category shared
  std::uint32_t fault;         // a job_fault other than none: a check failed
  std::uint32_t items_taken;   // the first job's: the round's counter (round_counter)
};

/// Why a job's kernels refused to finish (job_state::fault), each with its
/// message in fault_message (gpu_backend.cpp).
enum class job_fault : std::uint32_t {
  none = 0,
  group_past_bound,  ///< a group outgrew the capacity the size round (or the host's bound) gave it
  too_many_digits,   ///< the code needs more digits than the tables hold
  histogram_lost,    ///< the key histogram does not add up to the group
  sort_lost,         ///< the sort by key lost halves
  stopped,           ///< the run was stopped mid-round: the count is partial
  counter_overflow,  ///< a round's items would wrap the counter that deals them
};

/// What the host copies back for each job of a round, all in one array.
struct job_result {
  std::uint64_t joined[2];  ///< size round: the halves each group's joins can make (signatures that fit)
  std::uint64_t pairs;      ///< count round: job_state::pairs
  std::uint64_t once;       ///< count round: job_state::once
  std::uint32_t mark;       ///< sized_mark or finished_mark, XOR the job's sequence, once all of it ran
  std::uint32_t fault;      ///< a job_fault
};

/// One job of a round on one stream.
struct gpu_job {
  int n = 0;
  int h = 0;
  int middle = -1;                   ///< the middle row's queen, -1 for even n
  std::uint32_t columns[2] = {};     ///< the north's, the south's (as a north half: the same rows 0..h-1)
  int west_queens[2] = {};           ///< queens of each group in the west quarter
  std::uint32_t row_sets[2] = {};    ///< C(h, west_queens)
  std::uint32_t slices[2] = {1, 1};  ///< each group takes its row sets of rank % slices == slice
  std::uint32_t slice[2] = {0, 0};
  std::uint32_t sequence = 0;  ///< the round's number for this job, in its mark
  /// Each group's quarters: the backend's whole tables, the same for both;
  /// or, where `own_quarters`, lists of that group's columns alone, built
  /// for this job on the host and staged on the device with its round
  /// (gpu_rounds.hpp).
  quarter_arrays west[2], east[2];
  bool own_quarters = false;
  std::uint64_t* halves[2] = {};     ///< each group as joined, then as codes
  std::uint64_t* codes[2] = {};      ///< the codes sorted by key (the north ones without their key)
  std::uint64_t* once_list[2] = {};  ///< the halves with a once category: the codes' buffer, free until scatter
  std::uint32_t capacity[2] = {};
  /// A count round's: the job's key arrays (key_entries_for(key_bits_limit)
  /// entries), and the most key bits they hold (key_bits_bound).
  std::uint32_t* keys = nullptr;
  std::uint32_t key_bits_limit = 0;
  filter_rule rule;
  /// The most digits its codes take (job_digits_for(n)): the layout keys
  /// what they cannot hold, and the round's visit holds tables for them.
  std::uint32_t digits_limit = max_job_digits;
  /// Odd n: placements a join block lists of each side, at most
  /// most_listed; tests lower it to reach the ranges read whole.
  std::uint32_t list_limit = most_listed;
  job_state* state = nullptr;
  job_result* result = nullptr;
  /// The stream's stop word (gpu_stream::stop): once set, the visit takes
  /// no further item and finish faults the job as stopped.
  std::uint32_t* stop = nullptr;
};

/// A key's flags (job_state::key_flags): its blocks split by the bits of
/// its words (split_pays), its walk dealt among its items' warps
/// (walks_by_warps).
inline constexpr std::uint8_t key_split = 1;
inline constexpr std::uint8_t key_walked_by_warps = 2;

/// The 32-bit entries a job's key arrays take for keys of `key_bits`:
/// each group's bucket starts and cursors, the block starts, and a byte a
/// key for how its blocks are visited (key_flags).
NQUEENS_HD constexpr std::uint64_t key_entries_for(std::uint32_t key_bits) noexcept {
  const std::uint64_t keys = std::uint64_t{1} << key_bits;
  return 5 * keys + 3 + (keys + 3) / 4;
}

/// Where job_state's key arrays lie in `keys` (key_entries_for(key_bits) entries).
NQUEENS_HD inline void point_key_arrays(job_state& s, std::uint32_t* keys, std::uint32_t key_bits) {
  const std::uint32_t count = 1U << key_bits;
  s.bucket_start[0] = keys;
  s.bucket_start[1] = keys + (count + 1);
  s.cursor[0] = keys + 2 * (count + 1);
  s.cursor[1] = keys + 2 * (count + 1) + count;
  s.block_start = keys + 2 * (count + 1) + 2 * count;
  s.key_flags = reinterpret_cast<std::uint8_t*>(s.block_start + (count + 1));
}

/// Which kernels a round launches: the sizes of its jobs' groups, or their counts.
enum class round_kind { sizes, counts };

}  // namespace nqueens::detail::gpu
