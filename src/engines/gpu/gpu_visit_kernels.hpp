#pragma once

// The GPU kernels that count the pairs and end a job: visit and finish
// (gpu_kernels.hpp says how the kernels fit together).

#include <cstdint>

#include "engines/gpu/gpu_code_kernels.hpp"
#include "engines/gpu/gpu_kernel_support.hpp"
#include "engines/gpu/gpu_round_items.hpp"

#ifndef NQUEENS_GPU_VISIT_COUNTER
#define NQUEENS_GPU_VISIT_COUNTER 1
#endif

/// 1: the visit reads the next key's north bounds before it visits this
/// key's halves (visit_keys); 0 builds the module that reads them as its
/// turn begins (scripts/gpu.sh ab's `bounds_late`).
#ifndef NQUEENS_GPU_VISIT_BOUNDS_AHEAD
#define NQUEENS_GPU_VISIT_BOUNDS_AHEAD 1
#endif

/// 1: a module whose visit loads each warp's next north code before it
/// visits the one it holds (scripts/gpu.sh ab's `prefetch`): ncu's first
/// look at the visit on an H100 gave "long scoreboard", a global load
/// waited for, as its first stall (3.1 of 11.1 cycles an instruction). In
/// the walk where every warp walks every key (visit_keys) alone.
#ifndef NQUEENS_GPU_VISIT_PREFETCH
#define NQUEENS_GPU_VISIT_PREFETCH 0
#endif

namespace nqueens::detail::gpu {

inline constexpr bool visit_bounds_ahead = NQUEENS_GPU_VISIT_BOUNDS_AHEAD != 0;

/// The visit for jobs of at most `Digits` digits (gpu_job::digits_limit):
/// its tables take 4 KiB a digit of shared memory. `Prefetch`: each warp's
/// next north code loaded before it visits the one it holds. `EarlyExit`:
/// a warp leaves a north half once none of its lanes has a pair left
/// (visit_early_exit).
template <std::uint32_t Digits, bool Prefetch = NQUEENS_GPU_VISIT_PREFETCH != 0, bool EarlyExit = visit_early_exit>
struct visit_kernel_of {
  static_assert(Digits >= 1 && Digits <= max_job_digits);
  static constexpr int phases = 6;
  /// Blocks each SM of an H100 or H200 keeps resident (the compiler holds
  /// the registers within them, and the shared memory below fits): four,
  /// with 64 registers and 47.5 KiB, left the SMs idle 35% of the cycles.
  /// Nine digits fit six, ten five.
  static constexpr int min_blocks = Digits <= compact_job_digits ? 6 : 5;
  /// Its items are uneven (a key's blocks visit the north halves of every
  /// key that misses it): taken from the round's counter as blocks free up
  /// (NQUEENS_GPU_VISIT_COUNTER=0 builds a module that deals them by block
  /// index, to compare on a device: its visit never looks at the stop word,
  /// so a stop waits for the round's end there).
  static constexpr bool dealt_by_counter = NQUEENS_GPU_VISIT_COUNTER != 0;
  /// The words of south codes (32 codes, two rows) a digit's table holds in
  /// its rows 18..31 while phases 1-2 run: rows the bit pass never writes.
  /// Whole words, so that a word's 32 codes lie in a row (codes_of_word):
  /// the bit pass found each by a division by 240 (the codes of rows
  /// 17..31), 16 of its 45 instructions a code in the PTX.
  static constexpr std::uint32_t code_words_per_digit = (digit_values - 18) / 2;
  static constexpr std::uint32_t first_code_row_pair = 9;  // rows 18 and 19
  struct shared {
    union {
      // table[d][v][w] is word w of the halves whose digit d has no bit of
      // v. A warp reads one row (its north half's digit), each lane its own
      // word: the 32 lanes read the 32 banks. The rows of one bit (v = 1,
      // 2, 4, 8, 16) are written first, from the codes; the others, their
      // ANDs, over the codes once they are read.
      std::uint32_t table[Digits][digit_values][words_per_block];
      // Phases 1-2: the block's south codes, in rows 18..31 of the first
      // digits' tables, a word's 32 to a pair of rows (codes_of_word).
      std::uint64_t codes[Digits][digit_values / 2][words_per_block];
    };
    std::uint32_t valid[words_per_block];
    std::uint64_t fits;
    std::uint32_t key, first, count;
    std::uint32_t words_log2;   // its words (block_words_for), each in the tables warp_lanes / words times
    std::uint32_t part, parts;  // this item's share of the key's north halves
    std::uint32_t by_warps;     // the walk dealt among the parts' warps (walks_by_warps)
  };
  static_assert(words_per_block <= code_words_per_digit * Digits, "the codes fit beside the bit rows");
  static_assert(first_code_row_pair * 2 > 1U << (digit_bits - 1) &&
                    first_code_row_pair + code_words_per_digit <= digit_values / 2,
                "the codes' rows lie above row 16, the last of one bit, and within the table");
  static_assert(blocks_fit_an_sm(sizeof(shared), min_blocks, dealt_by_counter),
                "min_blocks blocks fit an SM's shared memory");
  static_assert(sizeof(shared) <= std::size_t{48} * 1024, "a block's static shared memory is at most 48 KiB");

  NQUEENS_HD static std::uint32_t items(const gpu_job& job) {
    return job.state->block_start[1U << job.state->layout.key_bits];
  }
  // The phases in order, a function each; run() dispatches.
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    const code_layout& layout = job.state->layout;
    // More digits than the tables hold is a fault (layout): never index past
    // them. No digits reads digit 0's row 0 alone: the valid halves.
    const std::uint32_t digits = layout.digits < 1 ? 1 : layout.digits < Digits ? layout.digits : Digits;
    switch (phase) {
      case 0:
        return find_block(job, item, thread, sh);
      case 1:
        return load_south(job, thread, sh);
      case 2:
        return bit_rows(layout, digits, thread, sh);
      case 3:
        return build_tables(digits, thread, sh);
      case 4:
        return visit_north(job, digits, thread, sh);
      default:
        if (thread == 0 && sh.fits != 0) atomic_add(&job.state->pairs, sh.fits);
        return;
    }
  }

  // Phase 0: which key's south halves this block holds, and which share of
  // its north halves it visits.
  NQUEENS_HD static void find_block(const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    if (thread != 0) return;
    const job_state& s = *job.state;
    std::uint32_t low = 0, high = 1U << s.layout.key_bits;  // block_start[low] <= item < block_start[high]
    while (high - low > 1) {
      const std::uint32_t mid = (low + high) / 2;
      (s.block_start[mid] <= item ? low : high) = mid;
    }
    // The key's items: each of its south blocks, `parts` times (scan_kernel).
    const std::uint32_t south = s.bucket_start[1][low + 1] - s.bucket_start[1][low];
    const bool split = (s.key_flags[low] & key_split) != 0;
    const std::uint32_t parts = (s.block_start[low + 1] - s.block_start[low]) / key_blocks_for(south, split);
    const std::uint32_t local = item - s.block_start[low];
    const visit_block block = visit_block_at(south, split, local / parts);
    const std::uint32_t halves = 32U << block.words_log2;
    sh.key = low;
    sh.words_log2 = block.words_log2;
    sh.part = local % parts;
    sh.parts = parts;
    sh.by_warps = (s.key_flags[low] & key_walked_by_warps) != 0 ? 1 : 0;
    sh.first = s.bucket_start[1][low] + block.first;
    const std::uint32_t left = s.bucket_start[1][low + 1] - sh.first;
    sh.count = left < halves ? left : halves;
    sh.fits = 0;
  }

  /// The block's words, and a word's own place among them: by shifts and
  /// masks (a power of two), and constant where blocks are always whole.
  NQUEENS_HD static std::uint32_t words_log2(const shared& sh) {
    return visit_packed ? sh.words_log2 : words_per_block_log2;
  }
  NQUEENS_HD static std::uint32_t words(const shared& sh) { return 1U << words_log2(sh); }
  NQUEENS_HD static std::uint32_t own_word(const shared& sh, std::uint32_t w) { return w & (words(sh) - 1); }

  /// Where the south halves of word `w` wait in phases 1-2, 32 in a row:
  /// a pair of rows of digit w / code_words_per_digit's table.
  NQUEENS_HD static std::uint64_t* codes_of_word(shared& sh, std::uint32_t w) {
    return sh.codes[w / code_words_per_digit][first_code_row_pair + w % code_words_per_digit];
  }
  NQUEENS_HD static std::uint64_t& south_slot(shared& sh, std::uint32_t slot) {
    return codes_of_word(sh, slot / 32)[slot % 32];
  }

  // Phase 1: the block's south codes, and which of its slots hold one
  // (each word's, in each of its places).
  NQUEENS_HD static void load_south(const gpu_job& job, std::uint32_t thread, shared& sh) {
    for (std::uint32_t i = thread; i < words(sh) * 32; i += block_threads) {
      south_slot(sh, i) = i < sh.count ? job.codes[1][sh.first + i] : 0;
    }
    if (thread < words_per_block) {
      const std::uint32_t from = own_word(sh, thread) * 32;
      sh.valid[thread] = sh.count <= from        ? 0
                         : sh.count - from >= 32 ? ~0U
                                                 : low_bits(static_cast<int>(sh.count - from));
    }
  }

  // Phase 2: for each digit bit b, the row of value 1 << b: which halves
  // lack it (digit 0's, of the valid halves alone); a thread per digit and
  // word of the block (the copies are phase 3's). Four halves' digits at a
  // time, a byte each, each bit of the four gathered by one multiplication
  // (gather_bit); the bits in the order read (bit_rows_slot's), put in
  // their places by one rotation and turned at the end.
  NQUEENS_HD static void bit_rows(const code_layout& layout, std::uint32_t digits, std::uint32_t thread, shared& sh) {
    static_assert(digit_values <= 256, "a digit fits a byte");
    for (std::uint32_t job_index = thread; job_index < digits * words(sh); job_index += block_threads) {
      const std::uint32_t w = own_word(sh, job_index), d = job_index >> words_log2(sh);
      const std::uint64_t* const codes = codes_of_word(sh, w);
      std::uint32_t has[digit_bits] = {};  // bit s: the half read at step s, at place (s + w) % 32
      NQUEENS_UNROLL
      for (std::uint32_t step = 0; step < 32; step += 4) {
        std::uint32_t four = 0;
        NQUEENS_UNROLL
        for (std::uint32_t k = 0; k < 4; ++k) {
          four |= digit_of(layout, codes[bit_rows_slot(w, step + k) % 32], d) << (8 * k);
        }
        NQUEENS_UNROLL
        for (std::uint32_t b = 0; b < digit_bits; ++b) has[b] |= gather_bit(four, b) << step;
      }
      const std::uint32_t valid = d == 0 ? sh.valid[w] : ~0U;
      NQUEENS_UNROLL
      for (std::uint32_t b = 0; b < digit_bits; ++b) sh.table[d][1U << b][w] = ~rotate_left(has[b], w % 32) & valid;
    }
  }

  /// Bit b of each byte of `four`, as bits 0..3: bit b of byte k, moved to
  /// bit 8k by the mask, is added at 8k + 28 - 7k = 28 + k by the product
  /// (its other copies land on bits no other byte's reach: no carry).
  NQUEENS_HD static constexpr std::uint32_t gather_bit(std::uint32_t four, std::uint32_t b) {
    return ((four >> b) & 0x01010101U) * 0x10204080U >> 28;
  }
  static_assert(gather_bit(0x1F00011FU, 0) == 0b1011 && gather_bit(0x10001F00U, 4) == 0b1010 &&
                gather_bit(0x0E0E0E0EU, 0) == 0 && gather_bit(0xFFFFFFFFU, 3) == 0b1111);

  NQUEENS_HD static constexpr std::uint32_t rotate_left(std::uint32_t bits, std::uint32_t by) {
    return bits << by | bits >> ((32 - by) % 32);
  }

  // The south half word w's thread reads at a step: each word's 32 in turn,
  // from its own place, so that the 16 lanes of a half warp (words in a
  // row) read 8-byte codes in 16 distinct bank pairs. In step, all lanes
  // read the halves 32 apart, one bank: ncu on an H100 counted 291 million
  // bank conflicts in 688 million shared-memory wavefronts of the visit.
  NQUEENS_HD static constexpr std::uint32_t bit_rows_slot(std::uint32_t w, std::uint32_t step) {
    return w * 32 + (step + w) % 32;
  }

  // Phase 3: the rows of no bit or of several, ANDs of the rows of one; the
  // codes are read, these rows take their place. A thread per digit and
  // word writes its word of all 32 rows from the five it reads (the ANDs of
  // the low three bits' rows once, then one AND a row), not a thread per row
  // and word that read a row per bit of it (5 loads a word where that took
  // 75, and its index arithmetic once a word, not once a row). Word w holds the
  // block's word w % words: in a narrow block, the words past the block's
  // take the rows of one bit too (phase 2 wrote those below it, which other
  // threads read here: not written again).
  NQUEENS_HD static void build_tables(std::uint32_t digits, std::uint32_t thread, shared& sh) {
    static_assert(digit_bits == 5, "the rows as the ANDs of the low three bits' rows and of the high two's");
    for (std::uint32_t job_index = thread; job_index < digits * words_per_block; job_index += block_threads) {
      const std::uint32_t w = job_index % words_per_block, d = job_index / words_per_block, own = own_word(sh, w);
      std::uint32_t bit[digit_bits];
      NQUEENS_UNROLL
      for (std::uint32_t b = 0; b < digit_bits; ++b) bit[b] = sh.table[d][1U << b][own];
      // Row 0 of digit 0: the valid halves (the rows with bits have them already).
      const std::uint32_t none = d == 0 ? sh.valid[w] : ~0U;
      const std::uint32_t low[8] = {none,   bit[0],          bit[1],          bit[0] & bit[1],
                                    bit[2], bit[0] & bit[2], bit[1] & bit[2], bit[0] & bit[1] & bit[2]};
      NQUEENS_UNROLL
      for (std::uint32_t v = 0; v < digit_values; ++v) {
        const bool one_bit = v != 0 && (v & (v - 1)) == 0;
        if (one_bit && w == own) continue;  // phase 2's, read by the words that copy it
        const std::uint32_t high =
            (v & 8U) != 0 ? ((v & 16U) != 0 ? bit[3] & bit[4] : bit[3]) : ((v & 16U) != 0 ? bit[4] : ~0U);
        sh.table[d][v][w] = v < 8 ? low[v] : v % 8 == 0 ? high : high & low[v % 8];
      }
    }
  }

  // Phase 4: the item's share of the north halves whose key misses this
  // block's (the keys that are subsets of the free ones), a warp per
  // warp_lanes / words halves, a lane per word; the loop shaped by the
  // job's digits.
  NQUEENS_HD static void visit_north(const gpu_job& job, std::uint32_t digits, std::uint32_t thread, shared& sh) {
    const std::uint64_t fits = visit_with(digits, job, thread, sh);
    if (fits != 0) atomic_add(&sh.fits, fits);
  }

  // visit_keys<digits>, by a test per digit count from `Count` up to the
  // tables' (the same for the whole block: no divergence).
  template <std::uint32_t Count = 1>
  NQUEENS_HD static std::uint64_t visit_with(std::uint32_t digits, const gpu_job& job, std::uint32_t thread,
                                             const shared& sh) {
    if constexpr (Count < Digits) {
      if (digits > Count) return visit_with<Count + 1>(digits, job, thread, sh);
    }
    return sh.by_warps != 0 ? visit_keys_by_warps<Count>(job, thread, sh) : visit_keys<Count>(job, thread, sh);
  }

  // Each north half: its digits, below its key, one row of each digit's
  // table ANDed, unrolled to `Count` (the digits stay in registers).
  template <std::uint32_t Count>
  NQUEENS_HD static std::uint64_t visit_keys(const gpu_job& job, std::uint32_t thread, const shared& sh) {
    const job_state& s = *job.state;
    const std::uint32_t key_bits = s.layout.key_bits;
    const std::uint32_t warp = thread / warp_lanes, lane = thread % warp_lanes;
    const std::uint32_t free = ((1U << key_bits) - 1) & ~sh.key;
    // Lanes of `words` each take a north half: a warp visits `at_once`.
    const std::uint32_t at_once = warp_lanes >> words_log2(sh), group = lane >> words_log2(sh);
    // A share of every key's halves: runs of block_warps * at_once, one in
    // sh.parts, the first taken by a part turned by one a key (so that no
    // part takes every key's first run): a count, not a division a key
    // (the keys walked past n = 24 number thousands an item).
    const std::uint32_t run_length = block_warps * at_once, stride = sh.parts * run_length;
    // The north bucket starts, held once: the state's pointer is not reloaded a key.
    const std::uint32_t* const north_start = s.bucket_start[0];
    std::uint64_t fits = 0;
    std::uint32_t key = 0, run = sh.part;
    // Where the key's north halves begin and end, read a key ahead where
    // visit_bounds_ahead: the loads of the next key's wait while this key's
    // halves are visited, not at the start of its turn (past n = 24 a turn
    // holds a few north halves a warp, and its loads are far apart).
    std::uint32_t start = north_start[0], end = north_start[1];
    do {
      const std::uint32_t next_key = (key - free) & free;  // the next subset of `free`; 0 once all are walked
      std::uint32_t next_start = 0, next_end = 0;
      if constexpr (visit_bounds_ahead) {
        next_start = north_start[next_key];
        next_end = north_start[next_key + 1];
      }
      const std::uint32_t from = start + run * run_length + warp * at_once + group;
      if constexpr (Prefetch) {
        std::uint32_t i = from;
        if (i < end) {
          std::uint64_t code = job.codes[0][i];
          for (;;) {
            const std::uint32_t next = i + stride;
            // Past the key's halves, the slot the streams keep past the
            // end (every list has it) or a half of the next key: read, unused.
            const std::uint64_t next_code = job.codes[0][next < end ? next : end];
            fits += fits_of<Count>(code, lane, sh);
            if (next >= end) break;
            i = next;
            code = next_code;
          }
        }
      } else {
        for (std::uint32_t i = from; i < end; i += stride) fits += fits_of<Count>(job.codes[0][i], lane, sh);
      }
      run = run + 1 == sh.parts ? 0 : run + 1;
      key = next_key;
      if constexpr (!visit_bounds_ahead) {
        next_start = north_start[key];
        next_end = north_start[key + 1];
      }
      start = next_start;
      end = next_end;
    } while (key != 0);
    return fits;
  }

  // The walk dealt by warps (walks_by_warps). The keys that miss the
  // block's, in the order visit_keys walks them, lie in rows of block_warps
  // (the lowest free bits vary within a row); each part takes every
  // parts-th row, and in its m-th row warp w visits all the north halves of
  // the key in column (w + m) mod block_warps. No warp walks a key that
  // another visits, and each warp takes each column about as often: the
  // keys of a column share their low bits, which weigh them alike (a
  // column's keys dealt to one warp each took 2.8 times an even share at
  // n = 22 in the round model). A warp visits its keys' halves as one list,
  // warp_lanes / words at once (visit_listed): a key of fewer halves than
  // that does not take a step of its own.
  template <std::uint32_t Count>
  NQUEENS_HD static std::uint64_t visit_keys_by_warps(const gpu_job& job, std::uint32_t thread, const shared& sh) {
    static_assert((block_warps & (block_warps - 1)) == 0, "a row's columns are the values of its low free bits");
    const job_state& s = *job.state;
    const std::uint32_t free = ((1U << s.layout.key_bits) - 1) & ~sh.key;
    const std::uint32_t warp = thread / warp_lanes, lane = thread % warp_lanes;
    const std::uint32_t at_once = warp_lanes >> words_log2(sh), group = lane >> words_log2(sh);
    // The lowest free bits pick the column, the others the row.
    const std::uint32_t column_mask = deposit_bits(block_warps - 1, free), row_mask = free & ~column_mask;
    const std::uint32_t rows = (1U << popcount32(free)) / block_warps;  // walks_by_warps: 16 or more
    if (sh.part >= rows) return 0;
    std::uint32_t rows_left = (rows - 1 - sh.part) / sh.parts + 1;  // this part's: a count, fewer registers
    // A part's rows are parts apart, its columns turned by one a row: each
    // by adding the step's bits with carries over the bits outside the
    // mask (subset_after; past the last column, the first).
    const std::uint32_t row_step = deposit_bits(sh.parts, row_mask), column_step = column_mask & (~column_mask + 1);
    std::uint32_t row_key = deposit_bits(sh.part, row_mask), column_key = deposit_bits(warp, column_mask);
    const std::uint32_t* const north_start = s.bucket_start[0];
    std::uint32_t key = row_key | column_key;
    std::uint32_t start = north_start[key], end = north_start[key + 1];
    listed_visit list{};
    for (;;) {
      --rows_left;
      // The next key's bounds, read before this key's halves are visited
      // (past the last row a key of the free bits: read, unused).
      row_key = subset_after(row_key, row_step, row_mask);
      column_key = subset_after(column_key, column_step, column_mask);
      key = row_key | column_key;
      const std::uint32_t next_start = north_start[key], next_end = north_start[key + 1];
      visit_listed<Count>(job, start, end, at_once, group, lane, sh, list);
      if (rows_left == 0) break;
      start = next_start;
      end = next_end;
    }
    // The last step's halves, where the list did not fill it.
    if (list.pending != 0 && group < list.pending) list.fits += fits_of<Count>(job.codes[0][list.mine], lane, sh);
    return list.fits;
  }

  // A warp's north halves as one list over its keys, at_once a step (a
  // lane group each): the step a key's halves leave unfilled is filled
  // from the next key's. `pending` (the same in every lane) counts the
  // groups that hold a half of the unfilled step, `mine` is this group's.
  struct listed_visit {
    std::uint64_t fits;
    std::uint32_t pending, mine;
  };
  template <std::uint32_t Count>
  NQUEENS_HD static void visit_listed(const gpu_job& job, std::uint32_t start, std::uint32_t end, std::uint32_t at_once,
                                      std::uint32_t group, std::uint32_t lane, const shared& sh, listed_visit& list) {
    std::uint32_t i = start;
    if (list.pending != 0 && i < end) {  // the unfilled step first
      const std::uint32_t room = at_once - list.pending, take = end - i < room ? end - i : room;
      if (group - list.pending < take) list.mine = i + (group - list.pending);  // below pending: wraps, not taken
      list.pending += take;
      i += take;
      if (list.pending < at_once) return;  // the key's halves all taken
      list.fits += fits_of<Count>(job.codes[0][list.mine], lane, sh);
      list.pending = 0;
    }
    for (; end - i >= at_once; i += at_once) list.fits += fits_of<Count>(job.codes[0][i + group], lane, sh);
    if (i < end) {  // fewer than a step left: they begin the next
      if (group < end - i) list.mine = i + group;
      list.pending = end - i;
    }
  }

  // The pairs of a north half (its code: its digits alone, scatter_half)
  // with lane `lane`'s 32 south halves: one row of each digit's table ANDed,
  // unrolled to `Count` (the digits stay in registers).
  template <std::uint32_t Count>
  NQUEENS_HD static std::uint64_t fits_of(std::uint64_t code, std::uint32_t lane, const shared& sh) {
    std::uint32_t fit = sh.table[0][code & (digit_values - 1)][lane];
    NQUEENS_UNROLL
    for (std::uint32_t d = 1; d < Count; ++d) {
      // A vote and a branch, once, where digits enough are left to skip.
      if constexpr (EarlyExit) {
        if (d == early_exit_digits && Count > early_exit_digits + 1 && !warp_any(fit != 0)) return 0;
      }
      fit &= sh.table[d][(code >> (d * digit_bits)) & (digit_values - 1)][lane];
    }
    return static_cast<std::uint64_t>(popcount32(fit));
  }
};
/// The visit of boards to n = 27 (six blocks an SM), and of n = 28 (five).
using compact_visit_kernel = visit_kernel_of<compact_job_digits>;
using visit_kernel = visit_kernel_of<max_job_digits>;

struct finish_kernel {
  static constexpr int phases = 2;
  using shared = no_shared;
  NQUEENS_HD static std::uint32_t items(const gpu_job&) { return 1; }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t, std::uint32_t thread, shared&) {
    job_state& s = *job.state;
    if (phase == 0) {
      // Stopped at any time before this: the visit may have quit early.
      if (thread == 0 && stop_set(job.stop)) raise_fault(s, job_fault::stopped);
      const std::uint32_t keys = 1U << s.layout.key_bits;
      for (std::uint32_t k = thread; k < keys; k += block_threads) {
        for (int g = 0; g < 2; ++g) {
          if (s.cursor[g][k] != s.bucket_start[g][k + 1]) raise_fault(s, job_fault::sort_lost);
        }
      }
      if (thread < 2 && (s.group_size[thread] > job.capacity[thread] || s.once_size[thread] > job.capacity[thread])) {
        raise_fault(s, job_fault::group_past_bound);
      }
    } else if (thread == 0) {
      job_result& r = *job.result;
      r.pairs = s.pairs;
      r.once = s.once;
      r.fault = s.fault;
      if (s.fault == 0) r.mark = finished_mark ^ job.sequence;
    }
  }
};

}  // namespace nqueens::detail::gpu
