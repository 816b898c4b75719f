#pragma once

// What every GPU kernel shares: faults, the transposition filter's tags and
// categories of a half, the groups' sizes and items
// (gpu_kernels.hpp says how the kernels fit together).

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
/// partition_by_column_h, transposed_pairs.cpp, half by half).
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

}  // namespace nqueens::detail::gpu
