#pragma once

// What every GPU kernel shares: faults, the transposition filter's tags and
// categories of a half, the groups' sizes and items
// (gpu_kernels.hpp says how the kernels fit together).

#include <cstdint>

#include "engines/gpu/gpu_job.hpp"
#include "engines/gpu/gpu_portable.hpp"
#include "engines/join_model/filter_rule.hpp"
#include "engines/join_model/half_masks.hpp"
#include "kernels/bits.hpp"

namespace nqueens::detail::gpu {

/// Records why a job cannot finish (any one of its faults is reported).
NQUEENS_HD inline void raise_fault(job_state& s, job_fault fault) { s.fault = static_cast<std::uint32_t>(fault); }

/// A joined half as its group counts it, or false when it makes no solution
/// with the middle queen (odd n). The north's mask is its diagonals at row
/// h; the south's, built as a north half, is turned upside down
/// (half_masks.hpp): for even n as south_mask, for odd n by odd_south_mask.
NQUEENS_HD inline bool orient(const gpu_job& job, int group, std::uint64_t& mask) {
  if (job.middle < 0) {
    if (group == 1) {
      mask = south_mask(static_cast<std::uint32_t>(mask), static_cast<std::uint32_t>(mask >> 32), low_bits(job.n));
    }
    return true;
  }
  if (group == 1) mask = odd_south_mask(mask);
  return (mask & middle_queen_mask(job.middle)) == 0;
}

/// The once categories of a half of group `group` (0: the first of
/// once_pairs, 1: the second) whose row set (column_h's holder: P squeezed)
/// is `rows`.
NQUEENS_HD inline std::uint64_t once_categories(const filter_rule& r, int group, std::uint32_t rows) {
  const once_pairs once = once_pairs_of(r);
  std::uint64_t categories = 0;
  NQUEENS_UNROLL
  for (int k = 0; k < 4; ++k) {
    const std::uint32_t set = group == 0 ? once.first[k] : once.second[k];
    categories |= ((once.valid >> k) & 1U) != 0 && rows == set ? std::uint64_t{1} << k : 0;
  }
  return categories;
}

/// The transposition filter on one oriented half of `group` with west row
/// set `rows`: false when it never counts; else its tie tags and once
/// categories are ORed into `mask` (filter_rule.hpp's rules, as the quadrant
/// engine's partition_by_column_h and tags apply them, half by half).
NQUEENS_HD inline bool classify(const gpu_job& job, int group, std::uint32_t rows, std::uint64_t& mask) {
  const filter_rule& r = job.rule;
  std::uint64_t tags = 0, categories = 0;
  if (r.kind == filter_rule::row_window) {
    tags = group == 0 ? north_tie_tags(r, rows) : south_tie_tags(r, rows);
    categories = once_categories(r, group, rows);
  } else if (r.kind == filter_rule::column_h) {
    if (static_cast<std::uint32_t>(group) == r.holder) {
      // The middle column's queen's row, from its tag (turned with a south half).
      const int shift = group == 0 ? north_row_tag_shift : south_row_tag_shift;
      const int row = column_h_row_of(mask, shift);
      mask &= ~row_tag_bits(shift);
      const holder_kind kind = holder_kind_of(r, row, holder_kind_at_distance(r, rows));
      if (kind == holder_kind::dropped) return false;
      tags = holder_tie_tags(kind);
      categories = kind == holder_kind::tie_c       ? once_categories(r, 0, r.c)
                   : kind == holder_kind::tie_c_bar ? once_categories(r, 0, r.c_bar)
                                                    : 0;
    } else {
      tags = other_tie_tags(r, rows);
      categories = once_categories(r, 1, rows);
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
