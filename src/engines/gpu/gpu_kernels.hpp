#pragma once

// The GPU engine's kernels: jobs of the quadrant plan (a subproblem, or a
// slice of one) counted on the device, in launches that hand each other
// their results through memory (gpu_job.hpp). Each launch takes a whole
// round of jobs (launch_round, below), so that a subproblem costs a
// fraction of a launch, not ten. A round of sizes runs
//
//   clear    each job's state and result
//   size     the halves each group's joins can make, by signatures alone:
//            what the host sizes its buffers from (gpu_rounds.hpp)
//
// and a round of counts
//
//   clear    each job's state and result
//   join     the north and south groups from the quarter tables, a block per
//            west row set (the quadrant engine's join, quarter_tables.hpp),
//            each half kept, tagged and categorised by the transposition
//            filter (classify); the halves with a once category also listed
//   once     the pairs of listed halves that share a category, every pair tried
//   stats    how often each diagonal is set in each group
//   layout   the code: the diagonals both groups use, the likeliest to
//            collide first (the key), the rest in 5-bit digits
//   encode   each half as its code; a histogram of the keys
//   scan     where each key's halves and south table blocks begin
//   scatter  the codes sorted by key
//   visit    a block per 1024 south halves of one key: their bit-sliced
//            tables (a 1024-bit row per digit value: the halves that have
//            none of its bits) in shared memory, then every north half
//            whose key misses theirs, a warp each, ANDs one row per digit,
//            each lane its own word of 32 pairs
//   finish   the checks, the result, and the mark that says all of it ran
//
// Each kernel is a struct: `items(job)` blocks of work (a launch strides
// over those of every job of its round, for_each_item), `phases` run in
// order with a barrier between them, each
// `run(phase, job, item, thread, shared)` for one thread of one block. A
// thread keeps nothing between phases but what it wrote to `shared` or to
// the job's memory. So the same source runs on the GPU (gpu_device.cu) and,
// a block and a thread at a time, on the CPU (gpu_emulator.cpp), where
// the tests check it against the quadrant engine.
//
// The idea of bit-sliced disjointness tests over key-partitioned groups is
// the quadrant engine's (pair_counter.inc); on the GPU a block's tables live
// in shared memory and each thread visits with its own north half.

#include <cstdint>

#include "engines/gpu/gpu_job.hpp"
#include "engines/gpu/gpu_portable.hpp"
#include "engines/quadrant/set_ranks.hpp"
#include "kernels/bits.hpp"

namespace nqueens::detail::gpu {

/// Records why a job cannot finish (any one of its faults is reported).
NQUEENS_HD inline void raise_fault(job_state& s, job_fault fault) { s.fault = static_cast<std::uint32_t>(fault); }

/// A joined half as its group counts it, or false when it makes no solution
/// with the middle queen (odd n). The north's mask is its diagonals at row
/// h; the south's, built as a north half, is turned upside down: for even n
/// as south_mask (quarter_tables.hpp), for odd n by swapping its left and
/// right masks (the middle row lies between the halves).
NQUEENS_HD inline bool orient(const gpu_job& job, int group, std::uint64_t& mask) {
  if (job.middle < 0) {
    if (group == 1) {
      const std::uint32_t full = low_bits(job.n);
      const auto left = static_cast<std::uint32_t>(mask), right = static_cast<std::uint32_t>(mask >> 32);
      mask = std::uint64_t{(right << 1) & full} | (std::uint64_t{left >> 1} << 32);
    }
    return true;
  }
  if (group == 1) mask = (mask << 32) | (mask >> 32);
  const std::uint64_t queen = (std::uint64_t{1} << job.middle) | (std::uint64_t{1} << (32 + job.middle));
  return (mask & queen) == 0;
}

/// Whether the row window keeps a group's west row set (ranked): min(X, ~X) >= c.
NQUEENS_HD inline bool in_window(const transposition_rule& r, std::uint32_t rows) {
  return r.kind != transposition_rule::row_window || (rows >= r.c && rows <= r.c_bar);
}

/// The transposition filter on one oriented half of `group` with west row
/// set `rows`: false when it never counts; else its tie tags and once
/// categories are ORed into `mask` (the quadrant engine's tag_runs and
/// partition_by_column_h, transposition.inc, half by half).
NQUEENS_HD inline bool classify(const gpu_job& job, int group, std::uint32_t rows, std::uint64_t& mask) {
  const transposition_rule& r = job.rule;
  std::uint64_t tags = 0, categories = 0;
  if (r.kind == transposition_rule::row_window) {
    if (group == 0) {
      tags = rows == r.c       ? tag_c
             : rows == r.c_bar ? tag_c_bar
                               : (rows <= r.a ? tag_low : 0) | (rows >= r.a_bar ? tag_high : 0);
      categories = (rows == r.c ? 1U : 0U) | (rows == r.c_bar ? 2U : 0U) | (r.a_inside && rows == r.a ? 4U : 0U) |
                   (r.a_bar_inside && rows == r.a_bar ? 8U : 0U);
    } else {
      tags = (rows == r.c ? tag_low : 0) | (rows == r.c_bar ? tag_high : 0) | (rows <= r.a ? tag_c : 0) |
             (rows >= r.a_bar ? tag_c_bar : 0);
      categories = (rows == r.a ? 1U : 0U) | (rows == r.a_bar ? 2U : 0U) | (r.a_inside && rows == r.c ? 4U : 0U) |
                   (r.a_bar_inside && rows == r.c_bar ? 8U : 0U);
    }
  } else if (r.kind == transposition_rule::column_h) {
    if (static_cast<std::uint32_t>(group) == r.holder) {
      // The middle column's queen's row, from its tag (north_mask's bits
      // 28..31; the south's are turned to 60..63).
      const int shift = group == 0 ? 28 : 60;
      const auto row = static_cast<std::uint32_t>((mask >> shift) & 15U) - 1;
      mask &= ~(std::uint64_t{15} << shift);
      if (row > r.distance) return false;
      if (row == r.distance) {
        const std::uint32_t p = squeeze_bit(rows, static_cast<int>(r.distance));
        const std::uint32_t p_bar = low_bits(job.h - 1) & ~p;
        if (p == r.c) {
          tags = tag_c;
          categories = r.once_c ? 1U : 0U;
        } else if (p_bar == r.c) {
          tags = tag_c_bar;
          categories = r.once_c_bar ? 2U : 0U;
        } else if ((p < p_bar ? p : p_bar) < r.c) {
          return false;
        }
      }
    } else {
      tags = (rows < r.above ? tag_c : 0) | (rows > r.a_bar || (rows == r.a_bar && !r.to_a_bar) ? tag_c_bar : 0);
      categories = (rows == r.a ? 1U : 0U) | (rows == r.a_bar ? 2U : 0U);
    }
  }
  mask |= tags | (categories << category_shift);
  return true;
}

/// A group's halves as the join wrote them: never past its bound, which
/// the join reports (fault 1) rather than write beyond.
NQUEENS_HD inline std::uint32_t group_size(const gpu_job& job, int group) {
  const std::uint32_t size = job.state->group_size[group];
  return size < job.capacity[group] ? size : job.capacity[group];
}

NQUEENS_HD inline std::uint32_t halves_total(const gpu_job& job) { return group_size(job, 0) + group_size(job, 1); }

NQUEENS_HD inline std::uint32_t items_for(std::uint32_t elements) {
  return (elements + block_threads - 1) / block_threads;
}

/// Element `index` of both groups as one list: (group, index in it).
NQUEENS_HD inline int group_of(const gpu_job& job, std::uint32_t& index) {
  if (index < group_size(job, 0)) return 0;
  index -= group_size(job, 0);
  return 1;
}

struct no_shared {
  int unused;
};

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
  q.rows = job.rule.kind == transposition_rule::row_window ? rank_rows(rows, job.h) : rows;
  q.west_begin = q.west_end = q.east_begin = q.east_end = 0;
  if (rank % job.slices[group] != job.slice[group] || !in_window(job.rule, q.rows)) return;
  const std::uint32_t all_rows = low_bits(job.h);
  const std::uint64_t west_key = (std::uint64_t{job.columns[group] & all_rows} << job.h) | rows;
  const std::uint64_t east_key = (std::uint64_t{job.columns[group] >> job.h} << job.h) | (all_rows & ~rows);
  q.west_begin = job.west.offsets[west_key];
  q.west_end = job.west.offsets[west_key + 1];
  q.east_begin = job.east.offsets[east_key];
  q.east_end = job.east.offsets[east_key + 1];
}

/// The west-east products of a block's quarter_ranges that one thread
/// takes, (w, e) in row-major order, every block_threads-th from `thread`:
/// carried from one to the next rather than divided each time.
class product_walk {
 public:
  NQUEENS_HD product_walk(const quarter_ranges& q, std::uint32_t thread)
      : east_begin_(q.east_begin),
        east_end_(q.east_end),
        products_(std::uint64_t{q.west_end - q.west_begin} * (q.east_end - q.east_begin)),
        at_(thread) {
    const std::uint32_t east_count = q.east_end - q.east_begin;
    if (products_ == 0) return;
    w_ = q.west_begin + thread / east_count;
    e_ = q.east_begin + thread % east_count;
    w_step_ = block_threads / east_count;
    e_step_ = block_threads % east_count;
  }
  /// The next product, or false when none is left.
  NQUEENS_HD bool next(std::uint32_t& west, std::uint32_t& east) {
    if (at_ >= products_) return false;
    west = w_;
    east = e_;
    at_ += block_threads;
    w_ += w_step_;
    e_ += e_step_;
    if (e_ >= east_end_) {
      e_ -= east_end_ - east_begin_;
      ++w_;
    }
    return true;
  }

 private:
  std::uint32_t east_begin_, east_end_;
  std::uint64_t products_, at_;
  std::uint32_t w_ = 0, e_ = 0, w_step_ = 0, e_step_ = 0;
};

/// The halves a job's joins can make: every west-east pair of a block's row
/// set whose signatures fit (before orientation and the filter drop some),
/// a block per row set. The host sizes the job's buffers from it.
struct size_kernel {
  static constexpr int phases = 3;
  struct shared {
    quarter_ranges q;
    std::uint64_t partial[block_threads];
  };
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) { return job.row_sets[0] + job.row_sets[1]; }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    if (phase == 0) {
      if (thread == 0) find_quarters(job, item, sh.q);
    } else if (phase == 1) {
      std::uint64_t fitting = 0;
      product_walk walk(sh.q, thread);
      for (std::uint32_t w = 0, e = 0; walk.next(w, e);) {
        fitting += (job.west.signatures[w] & job.east.signatures[e]) == 0 ? 1U : 0U;
      }
      sh.partial[thread] = fitting;
    } else if (thread == 0) {
      std::uint64_t sum = 0;
      for (std::uint32_t t = 0; t < block_threads; ++t) sum += sh.partial[t];
      if (sum != 0) atomic_add(&job.result->joined[sh.q.group], sum);
      // Every block writes the same mark: whichever came last, it says the
      // round's size kernel reached this job.
      job.result->mark = sized_mark ^ job.sequence;
    }
  }
};

struct join_kernel {
  static constexpr int phases = 2;
  /// Halves a thread keeps before it reserves their places, with one
  /// atomic add for all of them rather than one each (one address takes
  /// every reservation of a group).
  static constexpr std::uint32_t batch = 8;
  struct shared {
    quarter_ranges q;                          // found once (thread 0)
    std::uint64_t kept[batch][block_threads];  // each thread's own column of kept halves
  };
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) { return job.row_sets[0] + job.row_sets[1]; }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    if (phase == 0) {
      if (thread == 0) find_quarters(job, item, sh.q);
      return;
    }
    const int group = static_cast<int>(sh.q.group);
    const std::uint32_t rows = sh.q.rows;
    job_state& s = *job.state;
    std::uint32_t kept = 0;
    product_walk walk(sh.q, thread);
    for (std::uint32_t w = 0, e = 0; walk.next(w, e);) {
      if ((job.west.signatures[w] & job.east.signatures[e]) != 0) continue;
      std::uint64_t mask = job.west.masks[w] | job.east.masks[e];
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

/// Key bits for groups of these sizes: while a key's south halves would
/// still fill half a table block on average, at most max_key_bits and
/// `used`. Each key bit spares the visits of the pairs that collide on it.
NQUEENS_HD inline std::uint32_t key_bits_for(std::uint32_t south, std::uint32_t used) {
  std::uint32_t bits = 0;
  while (bits < max_key_bits && bits < used && (south >> (bits + 1)) >= south_per_block / 2) ++bits;
  return bits;
}

/// The code: the diagonals both groups use, ranked by the chance a random
/// pair collides on them (the product of their counts; ties to the lower
/// bit), the first key_bits of them the key, the others in increasing order
/// as digits. A thread per bit: each finds its rank, then its place.
struct layout_kernel {
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
    const std::uint32_t key_bits = key_bits_for(s.group_size[1], used_count);
    const bool mine = thread < 64 && (used >> thread & 1U) != 0;
    if (phase == 0) {
      if (thread < 64) sh.chance[thread] = mine ? std::uint64_t{s.bit_count[0][thread]} * s.bit_count[1][thread] : 0;
    } else if (phase == 1) {
      if (!mine) return;
      std::uint32_t rank = 0;
      for (std::uint32_t b = 0; b < 64; ++b) {
        const bool before = sh.chance[b] > sh.chance[thread] || (sh.chance[b] == sh.chance[thread] && b < thread);
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
        if (s.layout.digits > max_digits) raise_fault(s, job_fault::too_many_digits);
      }
      if (!mine) return;
      std::uint32_t place = sh.rank[thread];
      if (place >= key_bits) {  // a digit bit: after the key, in bit order
        place = key_bits;
        for (std::uint32_t b = 0; b < thread; ++b) place += (used >> b & 1U) != 0 && sh.rank[b] >= key_bits ? 1U : 0U;
      }
      s.layout.position[place] = static_cast<std::uint8_t>(thread);
    }
  }
};

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

struct scan_kernel {
  static constexpr int phases = 3;
  struct shared {
    std::uint32_t partial[3][block_threads];  // north halves, south halves, south blocks
  };
  NQUEENS_HD static std::uint32_t items(const gpu_job&) { return 1; }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t, std::uint32_t thread, shared& sh) {
    job_state& s = *job.state;
    const std::uint32_t keys = 1U << s.layout.key_bits;
    const std::uint32_t chunk = (keys + block_threads - 1) / block_threads;
    const std::uint32_t first = thread * chunk, last = first + chunk < keys ? first + chunk : keys;
    if (phase == 0) {
      std::uint32_t sums[3] = {0, 0, 0};
      for (std::uint32_t k = first; k < last; ++k) {
        sums[0] += s.cursor[0][k];
        sums[1] += s.cursor[1][k];
        sums[2] += (s.cursor[1][k] + south_per_block - 1) / south_per_block;
      }
      for (int r = 0; r < 3; ++r) sh.partial[r][thread] = sums[r];
    } else if (phase == 1) {
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
        const std::uint32_t north = s.cursor[0][k], south = s.cursor[1][k];
        s.bucket_start[0][k] = s.cursor[0][k] = at[0];
        s.bucket_start[1][k] = s.cursor[1][k] = at[1];
        s.block_start[k] = at[2];
        at[0] += north;
        at[1] += south;
        at[2] += (south + south_per_block - 1) / south_per_block;
      }
    }
  }
};

// Each code to its place among its key's (the scan left each key's cursor at its start).
struct scatter_half {
  NQUEENS_HD static void half(const gpu_job& job, int group, std::uint32_t index) {
    const std::uint64_t code = job.halves[group][index];
    const std::uint32_t at = atomic_add(&job.state->cursor[group][key_of(job.state->layout, code)], 1U);
    job.codes[group][at] = code;
  }
};
using scatter_kernel = each_half_kernel<scatter_half>;

struct visit_kernel {
  static constexpr int phases = 6;
  struct shared {
    union {
      std::uint64_t south[south_per_block];  // phases 1-2: the block's south codes
      // Phases 3-4: table[d][v][w] is word w of the halves whose digit d has
      // no bit of v. A warp reads one row (its north half's digit), each
      // lane its own word: the 32 lanes read the 32 banks.
      std::uint32_t table[max_digits][digit_values][words_per_block];
    };
    std::uint32_t without_bit[max_digits][digit_bits][words_per_block];  // halves lacking digit bit b
    std::uint32_t valid[words_per_block];
    std::uint64_t fits;
    std::uint32_t key, first, count;
  };
  NQUEENS_HD static std::uint32_t items(const gpu_job& job) {
    return job.state->block_start[1U << job.state->layout.key_bits];
  }
  NQUEENS_HD static void run(int phase, const gpu_job& job, std::uint32_t item, std::uint32_t thread, shared& sh) {
    const job_state& s = *job.state;
    const code_layout& layout = s.layout;
    const std::uint32_t keys = 1U << layout.key_bits;
    // More digits than the tables hold is a fault (layout): never index past them.
    const std::uint32_t digits = layout.digits < max_digits ? layout.digits : max_digits;
    switch (phase) {
      case 0:  // which key's south halves this block holds
        if (thread == 0) {
          std::uint32_t low = 0, high = keys;  // block_start[low] <= item < block_start[high]
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
        return;
      case 1:
        for (std::uint32_t i = thread; i < south_per_block; i += block_threads) {
          sh.south[i] = i < sh.count ? job.codes[1][sh.first + i] : 0;
        }
        if (thread < words_per_block) {
          const std::uint32_t from = thread * 32;
          sh.valid[thread] = sh.count <= from        ? 0
                             : sh.count - from >= 32 ? ~0U
                                                     : low_bits(static_cast<int>(sh.count - from));
        }
        return;
      case 2:
        for (std::uint32_t job_index = thread; job_index < digits * digit_bits * words_per_block;
             job_index += block_threads) {
          const std::uint32_t w = job_index % words_per_block, b = job_index / words_per_block % digit_bits;
          const std::uint32_t d = job_index / (words_per_block * digit_bits);
          std::uint32_t word = 0;
          for (std::uint32_t j = 0; j < 32; ++j) {
            word |= ((digit_of(layout, sh.south[w * 32 + j], d) >> b & 1U) ^ 1U) << j;
          }
          sh.without_bit[d][b][w] = word;
        }
        return;
      case 3:  // the codes are read: the tables take their place
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
        return;
      case 4: {
        // Every north half whose key misses this block's (the keys that are
        // subsets of the free ones), a warp per half, a lane per word.
        const std::uint32_t warp = thread / warp_lanes, lane = thread % warp_lanes;
        const std::uint32_t free = (keys - 1) & ~sh.key;
        std::uint64_t fits = 0;
        std::uint32_t key = 0;
        do {
          for (std::uint32_t i = s.bucket_start[0][key] + warp; i < s.bucket_start[0][key + 1]; i += block_warps) {
            const std::uint64_t code = job.codes[0][i];
            std::uint32_t fit = digits == 0 ? sh.valid[lane] : sh.table[0][digit_of(layout, code, 0)][lane];
            // Unrolled to constant indices: the digits stay in registers.
            NQUEENS_UNROLL
            for (std::uint32_t d = 1; d < max_digits; ++d) {
              if (d < digits) fit &= sh.table[d][digit_of(layout, code, d)][lane];
            }
            fits += static_cast<std::uint64_t>(popcount32(fit));
          }
          key = (key - free) & free;  // the next subset of `free`
        } while (key != 0);
        if (fits != 0) atomic_add(&sh.fits, fits);
        return;
      }
      default:
        if (thread == 0 && sh.fits != 0) atomic_add(&job.state->pairs, sh.fits);
        return;
    }
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

/// Calls each(job, item) for the items block `block` of a launch of
/// `grid` blocks takes over the round's `count` jobs: item k of their items
/// in sequence, for k = block, block + grid, ... (a block takes several in
/// turn where they outnumber the grid). Block-uniform: every thread of the
/// block reads the same counts.
template <class Kernel, class Each>
NQUEENS_HD void for_each_item(const gpu_job* jobs, std::uint32_t count, std::uint32_t block, std::uint32_t grid,
                              Each&& each) {
  std::uint64_t base = 0;  // the round's items before job j
  for (std::uint32_t j = 0; j < count; ++j) {
    const std::uint64_t end = base + Kernel::items(jobs[j]);
    for (std::uint64_t k = base + (block + grid - base % grid) % grid; k < end; k += grid) {
      each(jobs[j], static_cast<std::uint32_t>(k - base));
    }
    base = end;
  }
}

/// A round's launches, in order, for a launcher (the device's or the
/// emulator's) with `template <class Kernel> void run(std::uint64_t
/// most_blocks)`: the one list of kernels both follow. `most_blocks` bounds
/// the launch's items from what the host knows of `jobs`.
template <class Launcher>
void launch_round(Launcher& launcher, round_kind round, const gpu_job* jobs, std::uint32_t count) {
  std::uint64_t row_sets = 0, north = 0, halves = 0, south = 0;
  for (std::uint32_t j = 0; j < count; ++j) {
    row_sets += std::uint64_t{jobs[j].row_sets[0]} + jobs[j].row_sets[1];
    north += items_for(jobs[j].capacity[0]);
    halves += items_for(jobs[j].capacity[0]) + items_for(jobs[j].capacity[1]) + 1;
    south += items_for(jobs[j].capacity[1]) + max_buckets;
  }
  launcher.template run<clear_kernel>(count);
  if (round == round_kind::sizes) {
    launcher.template run<size_kernel>(row_sets);
    return;
  }
  launcher.template run<join_kernel>(row_sets);
  launcher.template run<once_kernel>(north);
  launcher.template run<stats_kernel>(halves);
  launcher.template run<layout_kernel>(count);
  launcher.template run<encode_kernel>(halves);
  launcher.template run<scan_kernel>(count);
  launcher.template run<scatter_kernel>(halves);
  launcher.template run<visit_kernel>(south);
  launcher.template run<finish_kernel>(count);
}

}  // namespace nqueens::detail::gpu
