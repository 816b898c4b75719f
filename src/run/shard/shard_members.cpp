#include "run/shard/shard_members.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "nqueens/shard.hpp"

namespace nqueens::detail {

shard_members::shard_members(const plan& p, shard_spec s) : listed_(!p.uniform_work()) {
  require_valid_shard(s);
  if (listed_) {
    members_ = shard_indices(p, s);
    size_ = members_.size();
    return;
  }
  // Equal estimates: the greedy assignment of shard_indices deals the
  // indices out in turn, index i to shard i mod M.
  first_ = static_cast<std::size_t>(s.index);
  step_ = static_cast<std::size_t>(s.count);
  size_ = dealt_in_turn(p.size(), first_, step_);
}

bool shard_members::contains(std::size_t index) const noexcept {
  if (listed_) return std::binary_search(members_.begin(), members_.end(), index);
  return index >= first_ && (index - first_) % step_ == 0 && (index - first_) / step_ < size_;
}

std::uint64_t shard_members::digest() const noexcept {
  std::uint64_t sum = 0;
  for (std::size_t k = 0; k < size_; ++k) sum += digest_term((*this)[k]);
  return sum;
}

}  // namespace nqueens::detail
