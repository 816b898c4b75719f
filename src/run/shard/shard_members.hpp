#pragma once

// The subproblems of one shard, without listing them where the plan's
// estimates are equal: there shard I of M is every index i = I (mod M), so a
// quadrant plan of 2 * 10^8 subproblems costs nothing here, where a list of
// them would cost 1.6 GB before the first subproblem ran. Plans with unequal
// estimates are the row-by-row engines' (a few million subproblems at most):
// their shards are listed, as shard_indices() deals them out.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nqueens/plan.hpp"
#include "nqueens/shard.hpp"

namespace nqueens::detail {

/// How many of indices 0..size-1 a shard dealt indices in turn gets: first,
/// first + step, ... (shard `first` of `step`, equal estimates).
constexpr std::size_t dealt_in_turn(std::size_t size, std::size_t first, std::size_t step) noexcept {
  return size > first ? (size - first + step - 1) / step : 0;
}

/// A subproblem index's term in a shard's digest (shard_digests): the
/// splitmix64 finalizer, which spreads every bit of the index over the word.
constexpr std::uint64_t digest_term(std::size_t index) noexcept {
  std::uint64_t z = static_cast<std::uint64_t>(index) + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class shard_members {
 public:
  /// Throws std::invalid_argument for a shard out of range (as shard_indices).
  shard_members(const plan& p, shard_spec s);

  std::size_t size() const noexcept { return size_; }
  /// The k-th member, in increasing order. Precondition: k < size().
  std::size_t operator[](std::size_t k) const noexcept { return listed_ ? members_[k] : first_ + k * step_; }
  bool contains(std::size_t index) const noexcept;
  /// The digest of its indices, as shard_digests gives it.
  std::uint64_t digest() const noexcept;

 private:
  bool listed_;
  std::vector<std::size_t> members_;  // listed_ only
  std::size_t first_ = 0, step_ = 1, size_ = 0;
};

}  // namespace nqueens::detail
