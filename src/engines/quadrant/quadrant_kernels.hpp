#pragma once

// The quadrant engine's per-instruction-set kernels: a group's join
// (quadrant_join.inc) and the pair counter (pair_counter.inc), compiled
// once per set by quadrant_kernel_<isa>.cpp. What calls them, once per
// group, is compiled once (quadrant_solve.cpp, transposed_pairs.cpp).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engines/join_model/quarter_tables.hpp"
#include "engines/quadrant/group_join.hpp"
#include "engines/quadrant/pair_counter.hpp"
#include "engines/quadrant/row_runs.hpp"
#include "nqueens/isa.hpp"

namespace nqueens::detail {

/// The quadrant kernels of one instruction set.
struct quadrant_kernels {
  /// The halves of a group (rows 0..h-1, as north_mask) joined from its
  /// quarters `west` and `east`, row set by row set from `at` on, written
  /// to out[start_at..) until `capacity` halves would be passed (but at
  /// least one outer placement's joins); returns the new count and leaves
  /// `at` where it stopped (done once every row set is joined). `out` only
  /// grows, to hold capacity + join_slack. With `runs`, records there where
  /// each row set's halves end (cleared first when start_at is 0); with
  /// `skip`, the placements it skips make no half. With `turn`
  /// (low_bits(n), even n) writes each as the south half it makes
  /// (south_mask); 0 writes them as they are. The order is fixed for given
  /// n and columns, the same for every instruction set.
  std::size_t (*join_group)(const quarter_view& west, const quarter_view& east, int h, std::vector<std::uint64_t>& out,
                            join_cursor& at, std::size_t capacity, std::vector<row_run>* runs, quarter_skip* skip,
                            std::size_t start_at, std::uint32_t turn);
  /// The placements of `east` (an east quarter of the tables, rows 0..h-1,
  /// whose placements east_contents names `contents`) that skip.rule keeps,
  /// as a view on skip.east: filtered again only when the contents or the
  /// rule changed.
  quarter_view (*keep_east)(const quarter_view& east, std::uint64_t contents, int h, quarter_skip& skip);
  /// Number of pairs (a, b), a in `north`, b in `south`, with a & b == 0;
  /// any masks, in any order (pair_counter.inc). The smaller list is walked
  /// mask by mask and the larger cut into blocks, whichever is `north`. The
  /// smaller must hold fewer than 2^32 masks and the larger fewer than 2^31
  /// (its blocks are padded): offsets into them are 32-bit to halve the
  /// scratch memory (larger lists throw std::length_error).
  std::uint64_t (*count_pairs)(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                               pair_scratch& scratch);
};

/// A pair count with one thread's scratch: what the counts under the
/// transposition filter call.
struct pair_count {
  const quadrant_kernels& kernels;
  pair_scratch& scratch;
  std::uint64_t operator()(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south) const {
    return kernels.count_pairs(north, south, scratch);
  }
};

struct implementation;  // isa/implementation.hpp

/// The kernels for `kernels`: those of implementation_for(kernels) (the
/// AVX-512 ones use VPOPCNTDQ where the CPU has it; every compiled set is
/// in isa/implementation.hpp's list). Precondition: cpu_supports(kernels).
const quadrant_kernels& quadrant_kernels_for(isa kernels) noexcept;

/// The kernels compiled for implementation `i` (tests compare them).
const quadrant_kernels& quadrant_kernels_of(const implementation& i) noexcept;

}  // namespace nqueens::detail
