#pragma once

// The GPU kernels that build the groups: clear, size, join, once and stats
// (gpu_kernels.hpp says how the kernels fit together).

#include <cstdint>

#include "engines/gpu/gpu_kernel_support.hpp"
#include "engines/join_model/quarter_tables.hpp"

namespace nqueens::detail::gpu {

struct clear_kernel {
  static constexpr int phases = 1;
  using shared = no_shared;
  NQUEENS_HD static std::uint32_t items(const gpu_job&) { return 1; }
  NQUEENS_HD static void run(int, const gpu_job& job, std::uint32_t, std::uint32_t thread, shared&) {
    job_state& s = *job.state;
    for (std::uint32_t i = thread; i < 64; i += block_threads) s.bit_count[0][i] = s.bit_count[1][i] = 0;
    if (thread == 0) {
      s.group_size[0] = s.group_size[1] = 0;
      s.bits_in[0] = s.bits_in[1] = 0;
      s.layout = code_layout{};
      s.once_size[0] = s.once_size[1] = 0;
      s.pairs = 0;
      s.once = 0;
      s.fault = 0;
      s.items_taken = 0;
      *job.result = job_result{};
    }
  }
};

/// Where one block's joins read: its group, its west row set (as the
/// filter reads it) and its quarters' placements, empty where the job's
/// slice or the row window skips the row set.
struct quarter_ranges {
  std::uint32_t group, rows, west_begin, west_end, east_begin, east_end;
};

/// Item `item` of a join (one per row set of either group) as quarter_ranges.
NQUEENS_HD inline void find_quarters(const gpu_job& job, std::uint32_t item, quarter_ranges& q) {
  const int group = item < job.row_sets[0] ? 0 : 1;
  const std::uint32_t rank = group == 0 ? item : item - job.row_sets[0];
  const auto rows = static_cast<std::uint32_t>(unrank_subset(rank, job.h, job.west_queens[group]));
  q.group = static_cast<std::uint32_t>(group);
  // The filter reads the row window's sets ranked, the tables by rows.
  q.rows = ranks_rows(job.rule) ? rank_rows(rows, job.h) : rows;
  q.west_begin = q.west_end = q.east_begin = q.east_end = 0;
  if (rank % job.slices[group] != job.slice[group] || !in_window(job.rule, q.rows)) return;
  // Lists of the group's own columns are keyed by rows alone.
  const std::uint32_t all_rows = low_bits(job.h);
  const std::uint32_t west_columns = job.own_quarters ? 0 : job.columns[group] & all_rows;
  const std::uint32_t east_columns = job.own_quarters ? 0 : job.columns[group] >> job.h;
  const std::size_t west_key = quarter_slot(west_columns, rows, job.h);
  const std::size_t east_key = quarter_slot(east_columns, all_rows & ~rows, job.h);
  q.west_begin = job.west[group].offsets[west_key];
  q.west_end = job.west[group].offsets[west_key + 1];
  q.east_begin = job.east[group].offsets[east_key];
  q.east_end = job.east[group].offsets[east_key + 1];
}

/// The placements of a block's quarter_ranges that its joins read. For odd
/// n, those quarter_skip_rule keeps, listed in shared memory (offsets into
/// the range) by list_quarters, so that the skipped never form a product:
/// at n = 15 and 17 the size kernel then tests 3.3 times fewer. The whole
/// range where the board is even, or where the range is longer than the
/// job's list_limit (its products that the skip would drop then fail orient
/// or classify: slower, as exact).
struct quarter_picks {
  quarter_ranges q;
  std::uint32_t count[2];  // west, east: placements read
  bool listed[2];
  std::uint16_t list[2][most_listed];
  NQUEENS_HD std::uint32_t west(std::uint32_t i) const { return q.west_begin + (listed[0] ? list[0][i] : i); }
  NQUEENS_HD std::uint32_t east(std::uint32_t i) const { return q.east_begin + (listed[1] ? list[1][i] : i); }
};

/// Phase one of a join (one thread, the block's first): the block's item as
/// quarter_picks, each range to be listed or read whole.
NQUEENS_HD inline void find_picks(const gpu_job& job, std::uint32_t item, quarter_picks& p) {
  find_quarters(job, item, p.q);
  const std::uint32_t size[2] = {p.q.west_end - p.q.west_begin, p.q.east_end - p.q.east_begin};
  for (int side = 0; side < 2; ++side) {
    p.listed[side] = job.middle >= 0 && size[side] <= job.list_limit && size[side] <= most_listed;
    p.count[side] = p.listed[side] ? 0 : size[side];
  }
}

/// Phase two of a join (every thread): the listed ranges' kept placements.
/// Their order does not matter: a group's halves are counted, not ordered.
NQUEENS_HD inline void list_quarters(const gpu_job& job, std::uint32_t thread, quarter_picks& p) {
  const quarter_skip_rule skip = quarter_skip_rule_of(job.rule, job.middle, static_cast<int>(p.q.group));
  const std::uint32_t begin[2] = {p.q.west_begin, p.q.east_begin};
  const std::uint32_t end[2] = {p.q.west_end, p.q.east_end};
  const std::uint64_t* masks[2] = {job.west[p.q.group].masks, job.east[p.q.group].masks};
  for (int side = 0; side < 2; ++side) {
    if (!p.listed[side]) continue;
    for (std::uint32_t at = begin[side] + thread; at < end[side]; at += block_threads) {
      if (skip.skips(masks[side][at])) continue;
      p.list[side][atomic_add(&p.count[side], 1U)] = static_cast<std::uint16_t>(at - begin[side]);
    }
  }
}

/// The west-east products of a block's quarter_picks that one thread
/// takes, (w, e) in row-major order of the picks, every block_threads-th
/// from `thread`: carried from one to the next rather than divided each time.
class product_walk {
 public:
  NQUEENS_HD product_walk(const quarter_picks& p, std::uint32_t thread)
      : picks_(p), east_count_(p.count[1]), products_(std::uint64_t{p.count[0]} * p.count[1]), at_(thread) {
    if (products_ == 0) return;
    w_ = thread / east_count_;
    e_ = thread % east_count_;
    w_step_ = block_threads / east_count_;
    e_step_ = block_threads % east_count_;
  }
  /// The next product, or false when none is left.
  NQUEENS_HD bool next(std::uint32_t& west, std::uint32_t& east) {
    if (at_ >= products_) return false;
    west = picks_.west(w_);
    east = picks_.east(e_);
    at_ += block_threads;
    w_ += w_step_;
    e_ += e_step_;
    if (e_ >= east_count_) {
      e_ -= east_count_;
      ++w_;
    }
    return true;
  }

 private:
  const quarter_picks& picks_;
  std::uint32_t east_count_;
  std::uint64_t products_, at_;
  std::uint32_t w_ = 0, e_ = 0, w_step_ = 0, e_step_ = 0;
};

/// The halves a job's joins can make: every west-east pair of a block's row
/// set whose signatures fit (of the placements the skip keeps, before
/// orientation and the filter drop more), a block per row set. The host
/// sizes the job's buffers from it.
struct size_kernel {
  static constexpr int phases = 4;
  /// Its blocks are short (odd n: 13 products each on average at n = 17):
  /// an SM full of them, 32 registers a thread, no spill (gpu_resources.sh).
  static constexpr int min_blocks = 8;
  struct shared {
    quarter_picks picks;
    std::uint64_t partial[block_threads];
  };
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) { return job.row_sets[0] + job.row_sets[1]; }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    if (phase == 0) {
      if (thread == 0) find_picks(job, item, sh.picks);
    } else if (phase == 1) {
      list_quarters(job, thread, sh.picks);
    } else if (phase == 2) {
      std::uint64_t fitting = 0;
      const quarter_arrays& west = job.west[sh.picks.q.group];
      const quarter_arrays& east = job.east[sh.picks.q.group];
      product_walk walk(sh.picks, thread);
      for (std::uint32_t w = 0, e = 0; walk.next(w, e);) {
        fitting += signatures_fit(west.signatures[w], east.signatures[e]) ? 1U : 0U;
      }
      sh.partial[thread] = fitting;
    } else if (thread == 0) {
      std::uint64_t sum = 0;
      for (std::uint32_t t = 0; t < block_threads; ++t) sum += sh.partial[t];
      if (sum != 0) atomic_add(&job.result->joined[sh.picks.q.group], sum);
      // Every block writes the same mark: whichever came last, it says the
      // round's size kernel reached this job.
      job.result->mark = sized_mark ^ job.sequence;
    }
  }
};

struct join_kernel {
  static constexpr int phases = 3;
  /// Halves a thread keeps before it reserves their places, with one
  /// atomic add for all of them rather than one each (one address takes
  /// every reservation of a group).
  static constexpr std::uint32_t batch = 8;
  struct shared {
    quarter_picks picks;                       // found once (thread 0), listed by all
    std::uint64_t kept[batch][block_threads];  // each thread's own column of kept halves
  };
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) { return job.row_sets[0] + job.row_sets[1]; }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    if (phase == 0) {
      if (thread == 0) find_picks(job, item, sh.picks);
      return;
    }
    if (phase == 1) {
      list_quarters(job, thread, sh.picks);
      return;
    }
    const int group = static_cast<int>(sh.picks.q.group);
    const std::uint32_t rows = sh.picks.q.rows;
    job_state& s = *job.state;
    const quarter_arrays& west = job.west[group];
    const quarter_arrays& east = job.east[group];
    std::uint32_t kept = 0;
    product_walk walk(sh.picks, thread);
    for (std::uint32_t w = 0, e = 0; walk.next(w, e);) {
      if (!signatures_fit(west.signatures[w], east.signatures[e])) continue;
      std::uint64_t mask = west.masks[w] | east.masks[e];
      if (!orient(job, group, mask) || !classify(job, group, rows, mask)) continue;
      sh.kept[kept++][thread] = mask;
      if (kept == batch) kept = store(job, group, thread, kept, sh);
      if ((mask & category_bits) != 0) {  // few: the tie row sets
        const std::uint32_t listed = atomic_add(&s.once_size[group], 1U);
        if (listed < job.capacity[group]) job.once_list[group][listed] = mask;
      }
    }
    store(job, group, thread, kept, sh);
  }

  // Writes the thread's `count` kept halves to their group, and returns 0.
  NQUEENS_HD static std::uint32_t store(const gpu_job& job, int group, std::uint32_t thread, std::uint32_t count,
                                        const shared& sh) {
    if (count == 0) return 0;
    const std::uint32_t at = atomic_add(&job.state->group_size[group], count);
    for (std::uint32_t i = 0; i < count; ++i) {
      if (at + i < job.capacity[group]) {
        job.halves[group][at + i] = sh.kept[i][thread];
      } else {
        raise_fault(*job.state, job_fault::group_past_bound);  // a bug, never a wrong count
      }
    }
    return 0;
  }
};

struct once_kernel {
  static constexpr int phases = 2;
  struct shared {
    std::uint64_t partial[block_threads];
  };
  // A list past its bound is the finish kernel's fault; never read past it.
  NQUEENS_HD static std::uint32_t listed(const gpu_job& job, int group) {
    const std::uint32_t size = job.state->once_size[group];
    return size < job.capacity[group] ? size : job.capacity[group];
  }
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) { return items_for(listed(job, 0)); }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    if (phase == 0) {
      std::uint64_t once = 0;
      const std::uint32_t i = item * block_threads + thread;
      if (i < listed(job, 0)) {
        const std::uint64_t north = job.once_list[0][i];
        for (std::uint32_t j = 0; j < listed(job, 1); ++j) {
          const std::uint64_t south = job.once_list[1][j];
          if ((north & south & diagonal_bits) == 0) {
            once += static_cast<std::uint64_t>(popcount64(north & south & category_bits));
          }
        }
      }
      sh.partial[thread] = once;
    } else if (thread == 0) {
      std::uint64_t sum = 0;
      for (std::uint32_t t = 0; t < block_threads; ++t) sum += sh.partial[t];
      atomic_add(&job.state->once, sum);
    }
  }
};

struct stats_kernel {
  static constexpr int phases = 3;
  struct shared {
    std::uint32_t count[2][64];
    std::uint64_t bits[2];
  };
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) { return items_for(halves_total(job)); }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    job_state& s = *job.state;
    if (phase == 0) {
      if (thread < 128) sh.count[thread / 64][thread % 64] = 0;
      if (thread < 2) sh.bits[thread] = 0;
    } else if (phase == 1) {
      std::uint32_t index = item * block_threads + thread;
      if (index >= halves_total(job)) return;
      const int group = group_of(job, index);
      const std::uint64_t mask = job.halves[group][index] & ~category_bits;  // not part of the count
      for (std::uint64_t rest = mask; rest != 0; rest &= rest - 1) {
        atomic_add(&sh.count[group][popcount64((rest & (~rest + 1)) - 1)], 1U);
      }
      atomic_or(&sh.bits[group], mask);
    } else {
      if (thread < 128 && sh.count[thread / 64][thread % 64] != 0) {
        atomic_add(&s.bit_count[thread / 64][thread % 64], sh.count[thread / 64][thread % 64]);
      }
      if (thread < 2) atomic_or(&s.bits_in[thread], sh.bits[thread]);
    }
  }
};

}  // namespace nqueens::detail::gpu
