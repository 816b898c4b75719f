#pragma once

// The GPU kernels that count the pairs and end a job: visit and finish
// (gpu_kernels.hpp says how the kernels fit together).

#include <cstdint>

#include "engines/gpu/gpu_code_kernels.hpp"
#include "engines/gpu/gpu_kernel_support.hpp"

namespace nqueens::detail::gpu {

struct visit_kernel {
  static constexpr int phases = 6;
  struct shared {
    union {
      std::uint64_t south[south_per_block];  // phases 1-2: the block's south codes
      // Phases 3-4: table[d][v][w] is word w of the halves whose digit d has
      // no bit of v. A warp reads one row (its north half's digit), each
      // lane its own word: the 32 lanes read the 32 banks.
      std::uint32_t table[max_job_digits][digit_values][words_per_block];
    };
    std::uint32_t without_bit[max_job_digits][digit_bits][words_per_block];  // halves lacking digit bit b
    std::uint32_t valid[words_per_block];
    std::uint64_t fits;
    std::uint32_t key, first, count;
  };
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) {
    return job.state->block_start[1U << job.state->layout.key_bits];
  }
  // The phases in order, a function each; run() dispatches.
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    const code_layout& layout = job.state->layout;
    // More digits than the tables hold is a fault (layout): never index past them.
    const std::uint32_t digits = layout.digits < max_job_digits ? layout.digits : max_job_digits;
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

  // Phase 0: which key's south halves this block holds.
  NQUEENS_HD static void find_block(const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    if (thread != 0) return;
    const job_state& s = *job.state;
    std::uint32_t low = 0, high = 1U << s.layout.key_bits;  // block_start[low] <= item < block_start[high]
    while (high - low > 1) {
      const std::uint32_t mid = (low + high) / 2;
      (s.block_start[mid] <= item ? low : high) = mid;
    }
    sh.key = low;
    sh.first = s.bucket_start[1][low] + (item - s.block_start[low]) * south_per_block;
    const std::uint32_t left = s.bucket_start[1][low + 1] - sh.first;
    sh.count = left < south_per_block ? left : south_per_block;
    sh.fits = 0;
  }

  // Phase 1: the block's south codes, and which of its slots hold one.
  NQUEENS_HD static void load_south(const gpu_job& job, std::uint32_t thread, shared& sh) {
    for (std::uint32_t i = thread; i < south_per_block; i += block_threads) {
      sh.south[i] = i < sh.count ? job.codes[1][sh.first + i] : 0;
    }
    if (thread < words_per_block) {
      const std::uint32_t from = thread * 32;
      sh.valid[thread] = sh.count <= from        ? 0
                         : sh.count - from >= 32 ? ~0U
                                                 : low_bits(static_cast<int>(sh.count - from));
    }
  }

  // Phase 2: for each digit bit, which halves lack it; a thread per digit
  // and word, each half's digit taken once for its five bits.
  NQUEENS_HD static void bit_rows(const code_layout& layout, std::uint32_t digits, std::uint32_t thread, shared& sh) {
    for (std::uint32_t job_index = thread; job_index < digits * words_per_block; job_index += block_threads) {
      const std::uint32_t w = job_index % words_per_block, d = job_index / words_per_block;
      std::uint32_t lacking[digit_bits] = {};
      for (std::uint32_t step = 0; step < 32; ++step) {
        const std::uint32_t slot = bit_rows_slot(w, step), digit = digit_of(layout, sh.south[slot], d);
        NQUEENS_UNROLL
        for (std::uint32_t b = 0; b < digit_bits; ++b) lacking[b] |= ((digit >> b & 1U) ^ 1U) << (slot % 32);
      }
      NQUEENS_UNROLL
      for (std::uint32_t b = 0; b < digit_bits; ++b) sh.without_bit[d][b][w] = lacking[b];
    }
  }

  // The south half word w's thread reads at a step: each word's 32 in turn,
  // from its own place, so that the 16 lanes of a half warp (words in a
  // row) read 8-byte codes in 16 distinct bank pairs. In step, all lanes
  // read the halves 32 apart, one bank: ncu on an H100 counted 291 million
  // bank conflicts in 688 million shared-memory wavefronts of the visit.
  NQUEENS_HD static constexpr std::uint32_t bit_rows_slot(std::uint32_t w, std::uint32_t step) {
    return w * 32 + (step + w) % 32;
  }

  // Phase 3: the codes are read, the tables take their place.
  NQUEENS_HD static void build_tables(std::uint32_t digits, std::uint32_t thread, shared& sh) {
    for (std::uint32_t job_index = thread; job_index < digits * digit_values * words_per_block;
         job_index += block_threads) {
      const std::uint32_t w = job_index % words_per_block, v = job_index / words_per_block % digit_values;
      const std::uint32_t d = job_index / (words_per_block * digit_values);
      std::uint32_t entry = d == 0 ? sh.valid[w] : ~0U;
      for (std::uint32_t b = 0; b < digit_bits; ++b) {
        if ((v >> b & 1U) != 0) entry &= sh.without_bit[d][b][w];
      }
      sh.table[d][v][w] = entry;
    }
  }

  // Phase 4: every north half whose key misses this block's (the keys that
  // are subsets of the free ones), a warp per half, a lane per word.
  NQUEENS_HD static void visit_north(const gpu_job& job, std::uint32_t digits, std::uint32_t thread, shared& sh) {
    const job_state& s = *job.state;
    const code_layout& layout = s.layout;
    const std::uint32_t warp = thread / warp_lanes, lane = thread % warp_lanes;
    const std::uint32_t free = ((1U << layout.key_bits) - 1) & ~sh.key;
    std::uint64_t fits = 0;
    std::uint32_t key = 0;
    do {
      for (std::uint32_t i = s.bucket_start[0][key] + warp; i < s.bucket_start[0][key + 1]; i += block_warps) {
        const std::uint64_t code = job.codes[0][i];
        std::uint32_t fit = digits == 0 ? sh.valid[lane] : sh.table[0][digit_of(layout, code, 0)][lane];
        // Unrolled to constant indices: the digits stay in registers.
        NQUEENS_UNROLL
        for (std::uint32_t d = 1; d < max_job_digits; ++d) {
          if (d < digits) fit &= sh.table[d][digit_of(layout, code, d)][lane];
        }
        fits += static_cast<std::uint64_t>(popcount32(fit));
      }
      key = (key - free) & free;  // the next subset of `free`
    } while (key != 0);
    if (fits != 0) atomic_add(&sh.fits, fits);
  }
};
static_assert(sizeof(visit_kernel::shared) <= 48 * 1024, "a block's static shared memory is at most 48 KiB");

struct finish_kernel {
  static constexpr int phases = 2;
  using shared = no_shared;
  NQUEENS_HD static std::uint32_t items(const gpu_job&) { return 1; }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t, std::uint32_t thread, shared&) {
    job_state& s = *job.state;
    if (phase == 0) {
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
