#pragma once

// The GPU kernels that code and sort the halves by key: layout, encode, scan
// and scatter
// (gpu_kernels.hpp says how the kernels fit together).

#include <cstdint>

#include "engines/gpu/gpu_kernel_support.hpp"
#include "engines/join_model/digit_widths.hpp"

/// 1: a key of few south halves takes a narrow visit block (block_words_for)
/// and a warp visits several north halves at once; the key then takes a bit
/// more. 0 builds the module whose every block is 1024 south halves
/// wide (scripts/gpu.sh ab's `unpacked`), which a key of 100 halves filled
/// a tenth of: at n = 22, half of the visits were of blocks filled to half
/// or less, and a warp's 1024 pairs held 0.36 pairs that count on average.
#ifndef NQUEENS_GPU_VISIT_PACKED
#define NQUEENS_GPU_VISIT_PACKED 1
#endif

/// 1: a module whose digits come in the order of the chance they collide
/// (the key's rule) rather than by bit, and whose visit leaves a north half
/// once no lane of its warp has a pair left after early_exit_digits digits
/// (scripts/gpu.sh ab's `early_exit`). At n = 22 (2fec062's whole blocks,
/// seven digits so ordered), 36% of the warps' visits had no pair left after
/// three digits and 56% after four; a narrow block's warp, on several north
/// halves, less often.
#ifndef NQUEENS_GPU_VISIT_EARLY_EXIT
#define NQUEENS_GPU_VISIT_EARLY_EXIT 0
#endif

namespace nqueens::detail::gpu {

inline constexpr bool visit_packed = NQUEENS_GPU_VISIT_PACKED != 0;
inline constexpr bool visit_early_exit = NQUEENS_GPU_VISIT_EARLY_EXIT != 0;
/// The digits after which an early-exiting visit looks whether its warp has
/// a pair left.
inline constexpr std::uint32_t early_exit_digits = 4;

/// Words (of 32 south halves each) of a visit block of a key with `south`
/// halves: the fewest, a power of two, that hold them, up to a whole
/// block's; a key of more takes whole blocks. A narrow block's tables hold
/// each word warp_lanes / words times over, so that the lanes of a warp,
/// `words` a north half, each read their own bank (visit_kernel_of).
NQUEENS_HD constexpr std::uint32_t block_words_log2_for(std::uint32_t south) {
  std::uint32_t log2 = visit_packed ? 0 : words_per_block_log2;
  while (log2 < words_per_block_log2 && (32U << log2) < south) ++log2;
  return log2;
}
NQUEENS_HD constexpr std::uint32_t block_words_for(std::uint32_t south) { return 1U << block_words_log2_for(south); }
static_assert(block_words_for(0) == (visit_packed ? 1 : words_per_block) &&
              block_words_for(33) == (visit_packed ? 2 : 32) && block_words_for(1024) == words_per_block &&
              block_words_for(5000) == words_per_block);

/// The visit blocks of a key with `south` halves.
NQUEENS_HD constexpr std::uint32_t visit_blocks_for(std::uint32_t south) {
  const std::uint32_t halves = block_words_for(south) * 32;
  return (south + halves - 1) / halves;
}

/// South halves a key should hold on average for one more key bit: half a
/// whole block; half of that where narrow blocks take small keys (the key
/// a bit longer: a model of real rounds' tables, warp steps and key loops
/// did best at 256, against 128 and 512, at n = 20 and 22:
/// nqueens_gpu_round_balance, docs/performance.md).
inline constexpr std::uint32_t key_south_target = visit_packed ? south_per_block / 4 : south_per_block / 2;

/// South groups from this many halves (past n = 23) aim at a quarter as
/// many a key: their keys reach so many north halves that two key bits
/// more pay for their longer key walks, which their blocks' warps deal
/// among them (walks_by_warps), each visiting its keys' halves as one
/// list. The model of real rounds (nqueens_gpu_round_balance): n = 28
/// 1.30 times less work than at half as many (keys of 20 bits for 19),
/// n = 26 1.10 times (keys of 18-19 bits for 17-18), an eighth 1.29 times more;
/// n = 24 1.02 times less than at 256 (from 4 million: 1.08 times more);
/// n = 20..23's windows, below it, unchanged.
inline constexpr std::uint32_t large_south_group = 1U << 20;
/// South groups from this many halves (n = 28's: 87 and 129 million in the
/// modelled window) aim at an eighth: n = 28 took keys of 21 bits for 20,
/// 1.13 times less modelled work, its key loops 5% of it to 12%. From 2^24
/// (n = 26's groups of 16 to 33 million too) n = 26 took 1.29 times more:
/// its keys' walks, 53% of the work, outweighed the pairs spared.
inline constexpr std::uint32_t huge_south_group = 1U << 26;
NQUEENS_HD constexpr std::uint32_t key_south_target_for(std::uint32_t south) {
  return south >= huge_south_group    ? key_south_target / 8
         : south >= large_south_group ? key_south_target / 4
                                      : key_south_target;
}

/// Key bits for groups of these sizes: the pair counter's rule
/// (key_bits_within, digit_widths.hpp) over the south group, while a key's
/// south halves would still number key_south_target_for on average, at most
/// this engine's max_job_key_bits; and at least what `digits` digits cannot
/// hold of the `used` bits (past n = 20, small groups). Each key bit spares
/// the visits of the pairs that collide on it.
NQUEENS_HD inline std::uint32_t job_key_bits(std::uint32_t south, std::uint32_t used,
                                             std::uint32_t digits = max_job_digits) {
  const auto wanted = static_cast<std::uint32_t>(
      key_bits_within(south, static_cast<int>(used), key_south_target_for(south), static_cast<int>(max_job_key_bits)));
  const std::uint32_t digit_room = digits * digit_bits;
  const std::uint32_t least = used > digit_room ? used - digit_room : 0;
  return wanted > least ? wanted : least;
}

/// The most key bits a job of board `n` whose south group holds at most
/// `south` halves can take (job_key_bits grows with the group and the
/// bits used, of which a board's masks have at most 2n + 4): what its key
/// arrays are sized for.
NQUEENS_HD inline std::uint32_t key_bits_bound(int n, std::uint32_t digits_limit, std::uint64_t south) {
  const std::uint32_t group = south < UINT32_MAX ? static_cast<std::uint32_t>(south) : UINT32_MAX;
  const std::uint32_t bits = job_key_bits(group, 2U * static_cast<std::uint32_t>(n) + 4, digits_limit);
  return bits < max_job_key_bits ? bits : max_job_key_bits;
}

/// The arena's 64-bit words for the key arrays of such a job.
NQUEENS_HD inline std::uint64_t key_words_for(int n, std::uint32_t digits_limit, std::uint64_t south) {
  return (key_entries_for(key_bits_bound(n, digits_limit, south)) + 1) / 2;
}

/// The code: the diagonals both groups use, ranked by the chance a random
/// pair collides on them (collides_before, digit_widths.hpp), the first
/// key_bits of them the key, the others in increasing order as digits
/// (`RankedDigits`: in rank order, for a visit that exits early). A thread
/// per bit: each finds its rank, then its place.
template <bool RankedDigits>
struct layout_kernel_of {
  static constexpr int phases = 3;
  struct shared {
    std::uint64_t chance[64];
    std::uint32_t rank[64];
  };
  NQUEENS_HD static std::uint32_t items(const gpu_job&) { return 1; }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t, std::uint32_t thread, shared& sh) {
    job_state& s = *job.state;
    const std::uint64_t used = s.bits_in[0] & s.bits_in[1];
    const auto used_count = static_cast<std::uint32_t>(popcount64(used));
    // Never more keys than the job's arrays hold (key_bits_bound, which no
    // group within the job's capacity passes): a layout that would need
    // them needs more digits than the job allows, and faults (below).
    const std::uint32_t wanted_key_bits = job_key_bits(s.group_size[1], used_count, job.digits_limit);
    const std::uint32_t key_bits = wanted_key_bits < job.key_bits_limit ? wanted_key_bits : job.key_bits_limit;
    const bool mine = thread < 64 && (used >> thread & 1U) != 0;
    if (phase == 0) {
      if (thread < 64) sh.chance[thread] = mine ? std::uint64_t{s.bit_count[0][thread]} * s.bit_count[1][thread] : 0;
    } else if (phase == 1) {
      if (!mine) return;
      std::uint32_t rank = 0;
      for (std::uint32_t b = 0; b < 64; ++b) {
        const bool before =
            collides_before(sh.chance[b], static_cast<int>(b), sh.chance[thread], static_cast<int>(thread));
        rank += (used >> b & 1U) != 0 && before ? 1U : 0U;
      }
      sh.rank[thread] = rank;
    } else {
      // The histogram's cursors, for the keys this layout has only.
      for (std::uint32_t k = thread; k < (1U << key_bits); k += block_threads) s.cursor[0][k] = s.cursor[1][k] = 0;
      if (thread == 0) {
        s.layout.used = used_count;
        s.layout.key_bits = key_bits;
        s.layout.digits = (used_count - key_bits + digit_bits - 1) / digit_bits;
        if (s.layout.digits > job.digits_limit || job.digits_limit > max_job_digits) {
          raise_fault(s, job_fault::too_many_digits);
        }
      }
      if (!mine) return;
      std::uint32_t place = sh.rank[thread];
      if (place >= key_bits && !RankedDigits) {  // a digit bit: after the key, in bit order
        place = key_bits;
        for (std::uint32_t b = 0; b < thread; ++b) place += (used >> b & 1U) != 0 && sh.rank[b] >= key_bits ? 1U : 0U;
      }
      s.layout.position[place] = static_cast<std::uint8_t>(thread);
    }
  }
};

using layout_kernel = layout_kernel_of<visit_early_exit>;

NQUEENS_HD inline std::uint64_t encode(const code_layout& layout, std::uint64_t mask) {
  std::uint64_t code = 0;
  for (std::uint32_t j = 0; j < layout.used; ++j) code |= ((mask >> layout.position[j]) & 1U) << j;
  return code;
}

NQUEENS_HD inline std::uint32_t key_of(const code_layout& layout, std::uint64_t code) {
  return static_cast<std::uint32_t>(code) & low_bits(static_cast<int>(layout.key_bits));
}

NQUEENS_HD inline std::uint32_t digit_of(const code_layout& layout, std::uint64_t code, std::uint32_t digit) {
  return static_cast<std::uint32_t>(code >> (layout.key_bits + digit * digit_bits)) & (digit_values - 1);
}

// A kernel with one thread per half of both groups: Each::half(job, group,
// index) for each.
template <class Each>
struct each_half_kernel {
  static constexpr int phases = 1;
  using shared = no_shared;
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) { return items_for(halves_total(job)); }
  NQUEENS_HD static void run(int, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared&) {
    std::uint32_t index = item * block_threads + thread;
    if (index >= halves_total(job)) return;
    const int group = group_of(job, index);
    Each::half(job, group, index);
  }
};

// Each half as its code, in place; its key counted.
struct encode_half {
  NQUEENS_HD static void half(const gpu_job& job, int group, std::uint32_t index) {
    const code_layout& layout = job.state->layout;
    const std::uint64_t code = encode(layout, job.halves[group][index]);
    job.halves[group][index] = code;
    atomic_add(&job.state->cursor[group][key_of(layout, code)], 1U);
  }
};
using encode_kernel = each_half_kernel<encode_half>;

/// A warp's steps through north halves (warp_visits: a north half a step in a
/// whole block, several in a narrow one) a visit item takes, about, where
/// its key has more to visit: a key's blocks are then each dealt as several items, each with a
/// share of the north halves (visit_kernel_of::visit_keys). A block of a
/// low key visits every north half whose key misses its own: dealt whole,
/// rounds of n = 20 to 22 ended after 2 to 5.5 times an even share of
/// their work over an H100's 792 block slots (a list-scheduling model of
/// their real items, docs/performance.md); in shares of 4096 the rounds
/// large enough to fill the slots end close to it, for tables built once
/// more a share (about 300 north halves' visits). 0 deals each block as one
/// item, whatever its north (a block that reaches none still takes none).
/// Set at build time to compare modules on a device (gpu.sh ab).
#ifndef NQUEENS_GPU_NORTH_PER_ITEM
#define NQUEENS_GPU_NORTH_PER_ITEM 4096
#endif
inline constexpr std::uint32_t north_per_item = NQUEENS_GPU_NORTH_PER_ITEM;
/// The most items a key's block is dealt as (past 64 x 4096 north halves,
/// larger shares). A job's items are then at most 64 times its blocks (a
/// key's whole blocks, and where split up to five narrow ones beside them:
/// split_blocks_for): with 2^21 keys at most, below 2^30. A round of
/// several such jobs could pass the counter's 2^32, which the launch checks
/// (counter_deals): its jobs fault rather than take items twice.
inline constexpr std::uint32_t most_visit_parts = 64;

/// Where its walk is not dealt by warps (walks_by_warps), each item walks
/// every key its block's key misses (`key_turns` of them, 2^free bits),
/// whatever its share of their north halves: a share has at least this
/// many warp steps a key turn, or the key's blocks are dealt as fewer items. Past n = 24 (keys of 14 bits, groups of
/// tens of millions) shares of 4096 steps walked 16384 keys each, and the walks were 30% of the modelled visit at n =
/// 26 (docs/performance.md). 0: no bound.
#ifndef NQUEENS_GPU_NORTH_PER_KEY_TURN
#define NQUEENS_GPU_NORTH_PER_KEY_TURN 16
#endif
inline constexpr std::uint32_t north_per_key_turn = NQUEENS_GPU_NORTH_PER_KEY_TURN;

/// 1: where a key's walk turns through many keys of few north halves each,
/// its item's warps (and its parts) deal the keys among them, each warp
/// visiting all the halves of the keys it takes (visit_kernel_of::
/// visit_keys_by_warps), rather than every warp of every part walking every
/// key for its run of the key's halves: past n = 24 a key turn held a few
/// north halves a warp, and the walks were 41% of n = 26's modelled visit
/// (docs/performance.md). 0 builds the module in which every warp walks
/// every key (scripts/gpu.sh ab's `shared_walk`).
#ifndef NQUEENS_GPU_WALK_BY_WARPS
#define NQUEENS_GPU_WALK_BY_WARPS 1
#endif
inline constexpr bool walk_by_warps = NQUEENS_GPU_WALK_BY_WARPS != 0;
/// The fewest keys each warp of a walk dealt by warps takes: a warp's
/// share of the visit is its keys' halves, so that enough of them even
/// the warps of a block out. In the round model (n = 22 and 26) the
/// slowest warp of such an item took 1.1-1.2 times an even share, against
/// 1.3-1.6 where every warp walked every key; 8 or 16 keys, and keys of
/// any weight, modelled alike.
inline constexpr std::uint32_t least_keys_a_warp = 16;

/// Whether a key's walk through `key_turns` keys is dealt among its items'
/// warps (walk_by_warps).
NQUEENS_HD inline bool walks_by_warps(std::uint32_t key_turns) {
  return walk_by_warps && key_turns >= block_warps * least_keys_a_warp;
}

/// The bits of `mask` that bits 0, 1, ... of `value` land on, lowest first
/// (as x86's pdep): the key of index `value` among the subsets of `mask`,
/// in the order visit_keys walks them. Past the mask's bits `value` adds
/// nothing. A turn a bit of `value` (the visit's are small: parts, warps).
NQUEENS_HD constexpr std::uint32_t deposit_bits(std::uint32_t value, std::uint32_t mask) {
  std::uint32_t out = 0;
  for (; value != 0 && mask != 0; value >>= 1, mask &= mask - 1) {
    if ((value & 1U) != 0) out |= mask & (~mask + 1);
  }
  return out;
}
/// The subset of `mask` `step_bits` = deposit_bits(s, mask) after `key`:
/// the carries cross the bits outside the mask, set for the sum. Exact
/// while the subsets' index stays below 2^popcount(mask).
NQUEENS_HD constexpr std::uint32_t subset_after(std::uint32_t key, std::uint32_t step_bits, std::uint32_t mask) {
  return ((key | ~mask) + step_bits) & mask;
}
static_assert(deposit_bits(0b101, 0b110010) == 0b100010 && deposit_bits(7, 0) == 0 &&
              deposit_bits(0b11, 0b1000) == 0b1000 && deposit_bits(5, 0xFFFFFFFFU) == 5);
static_assert(subset_after(deposit_bits(3, 0b101101), deposit_bits(4, 0b101101), 0b101101) ==
                  deposit_bits(7, 0b101101) &&
              subset_after(0, deposit_bits(1, 0b1010), 0b1010) == 0b0010 &&
              subset_after(0b0010, deposit_bits(1, 0b1010), 0b1010) == 0b1000);

/// Shares are for a round's end: that its last items end close together.
/// A job whose warp steps over this many block slots (four times an H100's
/// 792 for the visit) pass north_per_item takes shares that large: fewer
/// items, each walking the keys once. Past n = 24 a job alone fills a
/// device many times over (docs/performance.md); to n = 23 no job's steps
/// reach 3168 x 4096 in the modelled rounds, and nothing changes there.
inline constexpr std::uint64_t share_slots = 3168;

/// The least warp steps a share of a job's visit takes, for the job's
/// `steps` in all (visit_steps summed over its keys).
NQUEENS_HD inline std::uint32_t least_visit_share(std::uint64_t steps) {
  const std::uint64_t share = steps / share_slots;
  return share < north_per_item ? north_per_item : share < UINT32_MAX ? static_cast<std::uint32_t>(share) : UINT32_MAX;
}

/// Items each visit block of a key is dealt as, for `north_reach` warp
/// steps through the north halves it visits (warp_visits), `key_turns`
/// keys its loop walks and shares of at least `least_share` steps
/// (least_visit_share), the walk dealt by warps or not (walks_by_warps):
/// none where it has none (no south half of the key can pair: a key with
/// every likely bit, or a group the filter left empty).
NQUEENS_HD inline std::uint32_t visit_parts(std::uint32_t north_reach, std::uint32_t key_turns,
                                            std::uint32_t least_share, bool by_warps) {
  if (north_reach == 0) return 0;
  if constexpr (north_per_item == 0) {
    return 1;
  } else {
    // Compiled even where north_per_item is 0 (no template): divide by 1 there.
    const std::uint32_t per_item = least_share < 1 ? 1 : least_share;
    std::uint32_t parts = (north_reach - 1) / per_item + 1;
    // A walk dealt by warps is dealt among the parts too (none walks it
    // again): each part's warps take least_keys_a_warp keys each, or as
    // many parts as a shared walk would take (a heavy key's, whose warps
    // take fewer keys for a round that ends evener), each warp a key at least.
    std::uint32_t most =
        north_per_key_turn == 0
            ? most_visit_parts
            : static_cast<std::uint32_t>(north_reach / (std::uint64_t{key_turns} * north_per_key_turn));
    if (by_warps) {
      const std::uint32_t even = key_turns / (block_warps * least_keys_a_warp), rows = key_turns / block_warps;
      most = most < even ? even : most < rows ? most : rows;
    }
    parts = parts < most ? parts : most < 1 ? 1 : most;
    return parts < most_visit_parts ? parts : most_visit_parts;
  }
}

/// A warp's steps through `north` north halves for a key of `south` south
/// halves: its lanes visit warp_lanes / block_words_for(south) at once.
NQUEENS_HD inline std::uint32_t warp_visits(std::uint32_t north, std::uint32_t south) {
  const std::uint32_t at_once = words_per_block / block_words_for(south);
  return (north + at_once - 1) / at_once;
}

/// A key's visit in warp steps: each of its south blocks through every
/// north half of `north_reach` (the halves whose keys miss it).
NQUEENS_HD inline std::uint64_t visit_steps(std::uint32_t north_reach, std::uint32_t south) {
  return std::uint64_t{visit_blocks_for(south)} * warp_visits(north_reach, south);
}

/// A warp's steps through `north` north halves in a block of 2^words_log2
/// words (warp_visits, by the block's width).
NQUEENS_HD inline std::uint32_t width_visits(std::uint32_t north, std::uint32_t words_log2) {
  const std::uint32_t at_once = warp_lanes >> words_log2;
  return (north + at_once - 1) / at_once;
}

/// A key's words: its south halves over 32, rounded up.
NQUEENS_HD constexpr std::uint32_t key_words(std::uint32_t south) { return (south + 31) / 32; }

/// The blocks of a key whose blocks are split: a whole block while a whole
/// block's words are left, then a block for each bit of the words left,
/// the widest first. A key of 17 words visits as 16 + 1 words, not 32:
/// past n = 24, where a block's tables and key walk are a few per cent of
/// its visit, the round model visits 29% fewer warp steps so.
NQUEENS_HD constexpr std::uint32_t split_blocks_for(std::uint32_t south) {
  std::uint32_t bits = 0;
  for (std::uint32_t rest = key_words(south) % words_per_block; rest != 0; rest &= rest - 1) ++bits;
  return key_words(south) / words_per_block + bits;
}

/// A key's visit blocks, split or all of one width (visit_blocks_for).
NQUEENS_HD constexpr std::uint32_t key_blocks_for(std::uint32_t south, bool split) {
  return split ? split_blocks_for(south) : visit_blocks_for(south);
}

/// Block `index` of a key's blocks (below key_blocks_for): where its south
/// halves begin among the key's, and the log2 of its words.
struct visit_block {
  std::uint32_t first, words_log2;
};
NQUEENS_HD constexpr visit_block visit_block_at(std::uint32_t south, bool split, std::uint32_t index) {
  if (!split) {
    const std::uint32_t log2 = block_words_log2_for(south);
    return {index << (log2 + 5), log2};
  }
  const std::uint32_t whole = key_words(south) / words_per_block, rest = key_words(south) % words_per_block;
  if (index < whole) return {index * south_per_block, words_per_block_log2};
  std::uint32_t first = whole * south_per_block;
  index -= whole;
  for (std::uint32_t log2 = words_per_block_log2; log2-- > 0;) {
    if ((rest >> log2 & 1U) == 0) continue;
    if (index == 0) return {first, log2};
    first += 32U << log2;
    --index;
  }
  return {first, 0};  // past the key's blocks: none that the scan deals
}
static_assert(split_blocks_for(17 * 32) == 2 && split_blocks_for(1100) == 3 && split_blocks_for(1024) == 1 &&
              split_blocks_for(48 * 32) == 2 && split_blocks_for(0) == 0);
static_assert(visit_block_at(1100, true, 0).first == 0 && visit_block_at(1100, true, 0).words_log2 == 5 &&
              visit_block_at(1100, true, 1).first == 1024 && visit_block_at(1100, true, 1).words_log2 == 1 &&
              visit_block_at(1100, true, 2).first == 1088 && visit_block_at(1100, true, 2).words_log2 == 0);

/// A split key's visit in warp steps: each of its blocks through every north
/// half of `north_reach`.
NQUEENS_HD inline std::uint64_t split_visit_steps(std::uint32_t north_reach, std::uint32_t south) {
  std::uint64_t steps = std::uint64_t{key_words(south) / words_per_block} * north_reach;
  const std::uint32_t rest = key_words(south) % words_per_block;
  for (std::uint32_t log2 = 0; log2 < words_per_block_log2; ++log2) {
    if ((rest >> log2 & 1U) != 0) steps += width_visits(north_reach, log2);
  }
  return steps;
}

/// What the scan prices a block at beside its visit, in warp steps (the
/// round model's figures): its tables (a nine-digit whole block's are
/// about 100 steps of instructions by the PTX, and their loads), and each
/// key its walk turns through, all of a block's warps (one of them where
/// the walk is dealt by warps).
inline constexpr std::uint64_t block_table_steps = 150;
inline constexpr std::uint64_t key_turn_steps = 2;

/// A warp's steps through `north_reach` in the key's first (widest) block:
/// what its parts are dealt by (visit_parts), the same for all its blocks.
NQUEENS_HD inline std::uint32_t first_block_visits(std::uint32_t north_reach, std::uint32_t south, bool split) {
  return width_visits(north_reach, visit_block_at(south, split, 0).words_log2);
}

/// Whether a key's blocks are split (split_blocks_for): where the warp steps
/// they save outweigh the tables and key walks (`key_turns` keys) of the
/// items they add, each block dealt in as many parts as shares of the
/// least size would make (a job's shares may be larger, never smaller).
/// Never where the blocks would be the same (a key of a power of two's
/// words, or of whole blocks), nor where every block is whole
/// (NQUEENS_GPU_VISIT_PACKED=0).
NQUEENS_HD inline bool split_pays(std::uint32_t north_reach, std::uint32_t south, std::uint32_t key_turns) {
  if (!visit_packed || south == 0) return false;
  const bool by_warps = walks_by_warps(key_turns);
  const std::uint64_t walk = std::uint64_t{key_turns} * key_turn_steps;
  // Tables an item, and a walk an item (or, dealt by warps, a block's
  // warps' share of one walk a block).
  const auto beside = [&](bool split) {
    const std::uint64_t blocks = key_blocks_for(south, split);
    const std::uint64_t items =
        blocks * visit_parts(first_block_visits(north_reach, south, split), key_turns, north_per_item, by_warps);
    return items * block_table_steps + (by_warps ? blocks * walk / block_warps : items * walk);
  };
  const std::uint64_t whole = beside(false) + visit_steps(north_reach, south);
  const std::uint64_t split = beside(true) + split_visit_steps(north_reach, south);
  return split < whole;
}

/// A key's visit in warp steps, its blocks split or not.
NQUEENS_HD inline std::uint64_t key_visit_steps(std::uint32_t north_reach, std::uint32_t south, bool split) {
  return split ? split_visit_steps(north_reach, south) : visit_steps(north_reach, south);
}

/// Where each key's halves begin in both groups, and each key's visit
/// items (block_start): its south blocks times the parts of its north
/// reach, the north halves whose keys miss it. The reach of every key is
/// a sum over subsets (of the free bits' keys): a phase per key bit, each
/// adding the counts of the keys without that bit. Then the job's visit
/// steps, which set how large its shares are (least_visit_share).
struct scan_kernel {
  static constexpr int phases = 5 + static_cast<int>(max_job_key_bits);
  static constexpr int steps_phase = 1 + static_cast<int>(max_job_key_bits);
  static constexpr int sums_phase = steps_phase + 1;
  struct shared {
    std::uint32_t partial[3][block_threads];  // north halves, south halves, visit items
    std::uint64_t steps[block_threads];       // each thread's keys' visit_steps
  };
  NQUEENS_HD static std::uint32_t items(const gpu_job&) { return 1; }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t, std::uint32_t thread, shared& sh) {
    job_state& s = *job.state;
    const std::uint32_t keys = 1U << s.layout.key_bits;
    const std::uint32_t chunk = (keys + block_threads - 1) / block_threads;
    const std::uint32_t first = thread * chunk, last = first + chunk < keys ? first + chunk : keys;
    if (phase == 0) {
      // The north reach is summed in block_start, free until the last phase.
      for (std::uint32_t k = first; k < last; ++k) s.block_start[k] = s.cursor[0][k];
    } else if (phase < steps_phase) {
      const auto bit = static_cast<std::uint32_t>(phase - 1);
      if (bit >= s.layout.key_bits) return;
      // The keys with the bit read those without it, which no thread writes in this phase.
      for (std::uint32_t k = first; k < last; ++k) {
        if ((k >> bit & 1U) != 0) s.block_start[k] += s.block_start[k ^ (1U << bit)];
      }
    } else if (phase == steps_phase) {
      std::uint64_t steps = 0;
      for (std::uint32_t k = first; k < last; ++k) {
        const std::uint32_t north = s.block_start[(keys - 1) & ~k], south = s.cursor[1][k];
        steps += key_visit_steps(north, south, split_pays(north, south, keys >> popcount32(k)));
      }
      sh.steps[thread] = steps;
    } else if (phase == sums_phase) {
      std::uint64_t steps = 0;  // the job's: every thread adds them up, in the same order
      for (std::uint32_t t = 0; t < block_threads; ++t) steps += sh.steps[t];
      const std::uint32_t least_share = least_visit_share(steps);
      std::uint32_t sums[3] = {0, 0, 0};
      for (std::uint32_t k = first; k < last; ++k) {
        const std::uint32_t key_turns = keys >> popcount32(k), reach = s.block_start[(keys - 1) & ~k];
        const bool split = split_pays(reach, s.cursor[1][k], key_turns);
        const bool by_warps = walks_by_warps(key_turns);
        s.key_flags[k] = static_cast<std::uint8_t>((split ? key_split : 0) | (by_warps ? key_walked_by_warps : 0));
        const std::uint32_t blocks = key_blocks_for(s.cursor[1][k], split);
        const std::uint32_t north = first_block_visits(reach, s.cursor[1][k], split);
        const std::uint32_t items = blocks * visit_parts(north, key_turns, least_share, by_warps);
        s.bucket_start[0][k] = items;  // until the last phase, which reads it first
        sums[0] += s.cursor[0][k];
        sums[1] += s.cursor[1][k];
        sums[2] += items;
      }
      for (int r = 0; r < 3; ++r) sh.partial[r][thread] = sums[r];
    } else if (phase == sums_phase + 1) {
      if (thread >= 3) return;
      std::uint32_t running = 0;
      for (std::uint32_t t = 0; t < block_threads; ++t) {
        const std::uint32_t here = sh.partial[thread][t];
        sh.partial[thread][t] = running;
        running += here;
      }
      if (thread < 2) {
        s.bucket_start[thread][keys] = running;
        if (running != s.group_size[thread]) raise_fault(s, job_fault::histogram_lost);
      } else {
        s.block_start[keys] = running;
      }
    } else {
      std::uint32_t at[3] = {sh.partial[0][thread], sh.partial[1][thread], sh.partial[2][thread]};
      for (std::uint32_t k = first; k < last; ++k) {
        const std::uint32_t north = s.cursor[0][k], south = s.cursor[1][k], items = s.bucket_start[0][k];
        s.bucket_start[0][k] = s.cursor[0][k] = at[0];
        s.bucket_start[1][k] = s.cursor[1][k] = at[1];
        s.block_start[k] = at[2];
        at[0] += north;
        at[1] += south;
        at[2] += items;
      }
    }
  }
};

// Each code to its place among its key's (the scan left each key's cursor
// at its start). A north code goes without its key, which its place says:
// the visit reads its digits from bit 0, no shift per north half.
struct scatter_half {
  NQUEENS_HD static void half(const gpu_job& job, int group, std::uint32_t index) {
    const code_layout& layout = job.state->layout;
    const std::uint64_t code = job.halves[group][index];
    const std::uint32_t at = atomic_add(&job.state->cursor[group][key_of(layout, code)], 1U);
    job.codes[group][at] = group == 0 ? code >> layout.key_bits : code;
  }
};
using scatter_kernel = each_half_kernel<scatter_half>;

}  // namespace nqueens::detail::gpu
