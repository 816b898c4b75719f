#pragma once

// The GPU kernels that build the groups: clear, size, join, once and stats
// (gpu_kernels.hpp says how the kernels fit together).

#include <cstdint>

#include "engines/gpu/gpu_kernel_support.hpp"
#include "engines/gpu/gpu_round_items.hpp"
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
      if (job.keys != nullptr) point_key_arrays(s, job.keys, job.key_bits_limit);
      *job.result = job_result{};
    }
  }
};

/// Row sets a block of the size and join kernels takes, their products
/// dealt to its lanes as one list (product_walk): odd n's row sets have
/// fewer products than a block has lanes (n = 17: 12 on average, n = 21:
/// 130 to 230), and a block a row set left most of its lanes idle. A
/// module built with NQUEENS_GPU_BLOCK_ROW_SETS=1 takes a row set a block,
/// to compare on a device.
#ifndef NQUEENS_GPU_BLOCK_ROW_SETS
#define NQUEENS_GPU_BLOCK_ROW_SETS 8
#endif
inline constexpr std::uint32_t block_row_sets = NQUEENS_GPU_BLOCK_ROW_SETS;
static_assert(block_row_sets >= 1 && block_row_sets <= block_threads, "a thread finds each row set's ranges");

/// The size and join kernels' items of a job: its row sets of either group
/// (north's first), block_row_sets an item.
NQUEENS_HD inline std::uint32_t row_set_items(const gpu_job& job) {
  return (job.row_sets[0] + job.row_sets[1] + block_row_sets - 1) / block_row_sets;
}

/// Where one row set's joins read: its group, its west row set (as the
/// filter reads it) and its quarters' placements, empty where the job's
/// slice or the row window skips the row set.
struct quarter_ranges {
  std::uint32_t group, rows, west_begin, west_end, east_begin, east_end;
};

/// Row set `rows` of group `group` of a job, the `rank`-th in its colex
/// order, as quarter_ranges: empty outside the job's slice and the filter's
/// row window.
NQUEENS_HD inline void quarters_of_row_set(const gpu_job& job, int group, std::uint32_t rank, std::uint32_t rows,
                                           quarter_ranges& q) {
  q.west_begin = q.west_end = q.east_begin = q.east_end = 0;
  q.group = static_cast<std::uint32_t>(group);
  // The filter reads the row window's sets ranked, the tables by rows.
  q.rows = ranks_rows(job.rule) ? rank_rows(rows, job.h) : rows;
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

/// Row set `index` of a job (north's first) as quarter_ranges; empty past
/// the job's last.
NQUEENS_HD inline void find_quarters(const gpu_job& job, std::uint32_t index, quarter_ranges& q) {
  if (index >= job.row_sets[0] + job.row_sets[1]) {
    q.west_begin = q.west_end = q.east_begin = q.east_end = 0;
    q.group = q.rows = 0;
    return;
  }
  const int group = index < job.row_sets[0] ? 0 : 1;
  const std::uint32_t rank = group == 0 ? index : index - job.row_sets[0];
  quarters_of_row_set(job, group, rank, static_cast<std::uint32_t>(unrank_subset(rank, job.h, job.west_queens[group])),
                      q);
}

// A listed range holds at most most_listed placements: offsets into it fit list's 16 bits.
static_assert(most_listed <= 65536);

/// The placements of a block's row sets that its joins read. For odd n,
/// those quarter_skip_rule keeps, listed in shared memory (offsets into
/// the range) by list_quarters, so that the skipped never form a product:
/// at n = 15 and 17 the size kernel then tests 3.3 times fewer. The block's
/// row sets share each side's list: a range is listed where it fits what
/// the row sets before it left of the job's list_limit (at most
/// most_listed), else read whole (where the board is even too): its
/// products that the skip would drop then fail orient or classify: slower,
/// as exact.
struct block_picks {
  quarter_ranges q[block_row_sets];
  std::uint32_t count[block_row_sets][2];  // west, east: placements read
  std::uint32_t base[block_row_sets][2];   // where a listed range's list begins
  bool listed[block_row_sets][2];
  std::uint16_t list[2][most_listed];
  NQUEENS_HD std::uint32_t west(std::uint32_t r, std::uint32_t i) const {
    return q[r].west_begin + (listed[r][0] ? list[0][base[r][0] + i] : i);
  }
  NQUEENS_HD std::uint32_t east(std::uint32_t r, std::uint32_t i) const {
    return q[r].east_begin + (listed[r][1] ? list[1][base[r][1] + i] : i);
  }
  NQUEENS_HD std::uint64_t products(std::uint32_t r) const { return std::uint64_t{count[r][0]} * count[r][1]; }
};

/// Phase one of a join (the block's first block_row_sets threads, one each):
/// the block's row sets as quarter_ranges.
NQUEENS_HD inline void find_picks(const gpu_job& job, std::uint32_t item, std::uint32_t thread, block_picks& p) {
  if (thread < block_row_sets) find_quarters(job, item * block_row_sets + thread, p.q[thread]);
}

/// Phase two (the block's first thread): which ranges are listed, and where.
NQUEENS_HD inline void plan_lists(const gpu_job& job, std::uint32_t thread, block_picks& p) {
  if (thread != 0) return;
  const std::uint32_t room = job.list_limit < most_listed ? job.list_limit : most_listed;
  std::uint32_t used[2] = {0, 0};
  for (std::uint32_t r = 0; r < block_row_sets; ++r) {
    const std::uint32_t size[2] = {p.q[r].west_end - p.q[r].west_begin, p.q[r].east_end - p.q[r].east_begin};
    for (int side = 0; side < 2; ++side) {
      p.listed[r][side] = job.middle >= 0 && size[side] <= room - used[side];
      p.base[r][side] = used[side];
      p.count[r][side] = p.listed[r][side] ? 0 : size[side];
      used[side] += p.listed[r][side] ? size[side] : 0;
    }
  }
}

/// Phase three (every thread): the listed ranges' kept placements. Their
/// order does not matter: a group's halves are counted, not ordered.
NQUEENS_HD inline void list_quarters(const gpu_job& job, std::uint32_t thread, block_picks& p) {
  for (std::uint32_t r = 0; r < block_row_sets; ++r) {
    const quarter_ranges& q = p.q[r];
    const quarter_skip_rule skip = quarter_skip_rule_of(job.rule, job.middle, static_cast<int>(q.group));
    const std::uint32_t begin[2] = {q.west_begin, q.east_begin};
    const std::uint32_t end[2] = {q.west_end, q.east_end};
    const std::uint64_t* masks[2] = {job.west[q.group].masks, job.east[q.group].masks};
    for (int side = 0; side < 2; ++side) {
      if (!p.listed[r][side]) continue;
      for (std::uint32_t at = begin[side] + thread; at < end[side]; at += block_threads) {
        if (skip.skips(masks[side][at])) continue;
        p.list[side][p.base[r][side] + atomic_add(&p.count[r][side], 1U)] =
            static_cast<std::uint16_t>(at - begin[side]);
      }
    }
  }
}

/// The west-east products of a block's row sets that one thread takes, in
/// one list (row set, then w, e in row-major order of its picks), every
/// block_threads-th from `thread`: a row set at a time (its arrays read
/// once), carried from one product to the next within it rather than
/// divided each time. Where in a row set a thread begins depends only on
/// the products before it modulo block_threads, so 32 bits hold the walk
/// whatever the products.
class product_walk {
  static_assert((block_threads & (block_threads - 1)) == 0, "a thread's place in a row set taken modulo a power of 2");

 public:
  NQUEENS_HD product_walk(const block_picks& p, std::uint32_t thread) : picks_(p), first_(thread) {}
  /// The next row set that holds a product of this thread, or false when
  /// none is left.
  NQUEENS_HD bool next_row_set(std::uint32_t& row_set) {
    while (row_set_ < block_row_sets) {
      const std::uint64_t products = picks_.products(row_set_);
      const std::uint32_t first = first_;
      // The thread's first product in the next row set: (thread - products before it) mod block_threads.
      first_ = (first_ - static_cast<std::uint32_t>(products)) & (block_threads - 1);
      if (first >= products) {
        ++row_set_;
        continue;
      }
      row_set = row_set_++;
      west_count_ = picks_.count[row_set][0];
      east_count_ = picks_.count[row_set][1];
      w_ = first / east_count_;
      e_ = first % east_count_;
      w_step_ = block_threads / east_count_;
      e_step_ = block_threads % east_count_;
      return true;
    }
    return false;
  }
  /// The row set's next product of this thread, or false when it has none.
  NQUEENS_HD bool next(std::uint32_t& west, std::uint32_t& east) {
    if (w_ >= west_count_) return false;
    west = w_;
    east = e_;
    w_ += w_step_;
    e_ += e_step_;
    if (e_ >= east_count_) {
      e_ -= east_count_;
      ++w_;
    }
    return true;
  }

 private:
  const block_picks& picks_;
  std::uint32_t first_;  // this thread's first product in row set row_set_
  std::uint32_t row_set_ = 0;
  std::uint32_t west_count_ = 0, east_count_ = 0, w_ = 0, e_ = 0, w_step_ = 0, e_step_ = 0;
};

/// The halves a job's joins can make: every west-east pair of a row set
/// whose signatures fit (of the placements the skip keeps, before
/// orientation and the filter drop more), block_row_sets row sets a block.
/// The host sizes the job's buffers from it.
struct size_kernel {
  static constexpr int phases = 5;
  static constexpr bool looks_for_stop = true;  // an item: every product of its row sets
  /// Its blocks are short: an SM full of them, 32 registers a thread, a
  /// spill of 20 bytes (gpu_resources.sh).
  static constexpr int min_blocks = 8;
  struct shared {
    block_picks picks;
    std::uint64_t partial[2][block_threads];  // each group's fitting pairs, a thread's
  };
  static_assert(blocks_fit_an_sm(sizeof(shared), min_blocks), "min_blocks blocks fit an SM's shared memory");
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) { return row_set_items(job); }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    if (phase == 0) {
      find_picks(job, item, thread, sh.picks);
    } else if (phase == 1) {
      plan_lists(job, thread, sh.picks);
    } else if (phase == 2) {
      list_quarters(job, thread, sh.picks);
    } else if (phase == 3) {
      sh.partial[0][thread] = sh.partial[1][thread] = 0;  // fitting pairs of each group, this thread's
      product_walk walk(sh.picks, thread);
      for (std::uint32_t r = 0; walk.next_row_set(r);) {
        const block_picks& p = sh.picks;
        const std::uint32_t group = p.q[r].group;
        const std::uint32_t* west = job.west[group].signatures;
        const std::uint32_t* east = job.east[group].signatures;
        std::uint64_t fitting = 0;
        for (std::uint32_t w = 0, e = 0; walk.next(w, e);) {
          fitting += signatures_fit(west[p.west(r, w)], east[p.east(r, e)]) ? 1U : 0U;
        }
        sh.partial[group][thread] += fitting;
      }
    } else if (thread < 2) {
      std::uint64_t sum = 0;
      for (std::uint32_t t = 0; t < block_threads; ++t) sum += sh.partial[thread][t];
      if (sum != 0) atomic_add(&job.result->joined[thread], sum);
      // Every block writes the same mark: whichever came last, it says the
      // round's size kernel reached this job.
      if (thread == 0) job.result->mark = sized_mark ^ job.sequence;
    }
  }
};

struct join_kernel {
  static constexpr int phases = 4;
  static constexpr bool looks_for_stop = true;  // as the size kernel
  /// An SM full of blocks to hide the tables' loads: 32 registers, a
  /// spill of 16 bytes (gpu_resources.sh); 40 registers would spill 8 at
  /// six blocks an SM.
  static constexpr int min_blocks = 8;
  /// Halves a thread keeps before it reserves their places, with one
  /// atomic add for all of them rather than one each (one address takes
  /// every reservation of a group); 4, not 8, leaves the block's lists
  /// room within eight blocks an SM.
  static constexpr std::uint32_t batch = 4;
  struct shared {
    block_picks picks;                         // found, planned and listed as the size kernel's
    std::uint64_t kept[batch][block_threads];  // each thread's own column of kept halves
  };
  static_assert(blocks_fit_an_sm(sizeof(shared), min_blocks), "min_blocks blocks fit an SM's shared memory");
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) { return row_set_items(job); }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    if (phase == 0) {
      find_picks(job, item, thread, sh.picks);
      return;
    }
    if (phase == 1) {
      plan_lists(job, thread, sh.picks);
      return;
    }
    if (phase == 2) {
      list_quarters(job, thread, sh.picks);
      return;
    }
    job_state& s = *job.state;
    std::uint32_t kept = 0;  // halves of kept_group, waiting in sh.kept
    int kept_group = 0;
    product_walk walk(sh.picks, thread);
    for (std::uint32_t r = 0; walk.next_row_set(r);) {
      const block_picks& p = sh.picks;
      const int group = static_cast<int>(p.q[r].group);
      if (group != kept_group) kept = store(job, kept_group, thread, kept, sh);  // once a block at most
      kept_group = group;
      const std::uint32_t rows = p.q[r].rows;
      const quarter_arrays& west = job.west[group];
      const quarter_arrays& east = job.east[group];
      for (std::uint32_t w = 0, e = 0; walk.next(w, e);) {
        const std::uint32_t west_at = p.west(r, w), east_at = p.east(r, e);
        if (!signatures_fit(west.signatures[west_at], east.signatures[east_at])) continue;
        std::uint64_t mask = west.masks[west_at] | east.masks[east_at];
        if (!orient(job, group, mask) || !classify(job, group, rows, mask)) continue;
        sh.kept[kept++][thread] = mask;
        if (kept == batch) kept = store(job, group, thread, kept, sh);
        if ((mask & category_bits) != 0) {  // few: the tie row sets
          const std::uint32_t listed = atomic_add(&s.once_size[group], 1U);
          if (listed < job.capacity[group]) job.once_list[group][listed] = mask;
        }
      }
    }
    store(job, kept_group, thread, kept, sh);
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
  static constexpr bool looks_for_stop = true;  // an item: its north halves against every listed south one
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
