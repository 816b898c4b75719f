#pragma once

/// \file
/// Shards: a deterministic, balanced partition of a plan into M parts, so that
/// M independent jobs (a batch scheduler's array job) can each count one part
/// and `nqueens merge` can add them up.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nqueens/plan.hpp"

namespace nqueens {

/// Which part of a plan a run counts: shard `index` of `count` (0-based).
struct shard_spec {
  int index = 0;
  int count = 1;
  bool whole() const noexcept { return count == 1; }
  friend bool operator==(const shard_spec&, const shard_spec&) = default;
};

/// Largest number of shards accepted.
inline constexpr int max_shards = 1 << 20;

/// Throws std::invalid_argument unless 0 <= s.index < s.count <= max_shards.
void require_valid_shard(shard_spec s);

/// The subproblem indices of shard `s` of `p`, in increasing order. Shards
/// are balanced by estimated work (estimate_work): subproblems are taken from
/// the largest down and each goes to the shard with the least work so far
/// (ties to the lower shard), so every shard gets a similar load; where every
/// estimate is equal (plan::uniform_work) that is index i to shard i mod M,
/// found without sorting the plan. Every index
/// is in exactly one shard; with more shards than subproblems some are empty.
/// Throws std::invalid_argument unless 0 <= s.index < s.count <= max_shards.
std::vector<std::size_t> shard_indices(const plan& p, shard_spec s);

/// How many subproblems each of the `count` shards of `p` holds (element k:
/// shard_indices(p, {k, count}).size()), dealing the plan once: what merge
/// checks thousands of shard files against. Throws std::invalid_argument
/// unless 1 <= count <= max_shards.
std::vector<std::size_t> shard_sizes(const plan& p, int count);

/// Each of the `count` shards' digests of their subproblem indices (element
/// k: shard k's), dealing the plan once: the sum, modulo 2^64, of a 64-bit
/// mix of each index, so that the order they are dealt in does not matter.
/// A count's --json carries its shard's (count_result::shard_digest), and
/// merge checks it: shards another version dealt otherwise (another
/// estimate_work) have the sizes of this plan's, not its digests. Throws
/// std::invalid_argument unless 1 <= count <= max_shards.
std::vector<std::uint64_t> shard_digests(const plan& p, int count);

}  // namespace nqueens
