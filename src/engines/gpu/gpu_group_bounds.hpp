#pragma once

// The halves each group of a job can make at most, found on the host from
// its quarter ranges alone: what lets a call's jobs go to a count round with
// no round of sizes before it, where their bounds fit the stream's arena
// (gpu_rounds.hpp).

#include <array>
#include <cstdint>

#include "engines/gpu/gpu_job.hpp"
#include "engines/join_model/filter_rule.hpp"

namespace nqueens::detail::gpu {

/// At least the halves each group (north, south) of `job` keeps, as its
/// count round's join writes them: every west-east product of each of its
/// row sets within its slice and the filter's row window, a range none of
/// whose placements the middle queen allows (odd n) counted as empty, so
/// that a group the middle queen forbids whole is bounded by 0 as the size
/// round finds it (where a join block reads such a range whole rather than
/// listed, its products all fail the filter: the size round counts them,
/// the join keeps none). Signatures are not tested (on the emulator,
/// n = 13..19: 2 to 3.6 times the joined halves where n is even, up to 9
/// where odd). `job`'s quarter arrays must be host memory.
std::array<std::uint64_t, 2> group_bounds(const gpu_job& job);

/// Whether `skip` leaves any placement of masks[begin, end): a range it
/// forbids whole is bounded by 0 (group_bounds).
bool keeps_any(const quarter_skip_rule& skip, const std::uint64_t* masks, std::uint32_t begin, std::uint32_t end);

}  // namespace nqueens::detail::gpu
