#include "nqueens/shard.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "nqueens/progress.hpp"
#include "run/shard_members.hpp"

namespace nqueens {

void require_valid_shard(shard_spec s) {
  if (s.count < 1 || s.count > max_shards || s.index < 0 || s.index >= s.count) {
    throw std::invalid_argument("shard " + std::to_string(s.index) + "/" + std::to_string(s.count) +
                                " is out of range: expected I/M with 0 <= I < M <= " + std::to_string(max_shards));
  }
}

std::vector<std::size_t> shard_indices(const plan& p, shard_spec s) {
  require_valid_shard(s);
  if (p.uniform_work()) {
    const detail::shard_members members(p, s);
    std::vector<std::size_t> mine(members.size());
    for (std::size_t k = 0; k < mine.size(); ++k) mine[k] = members[k];
    return mine;
  }
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  if (s.whole()) return all;

  const std::vector<std::uint64_t> work = estimate_work(p);
  std::stable_sort(all.begin(), all.end(), [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
  // Least-loaded shard first; ties go to the lower shard number.
  using load = std::pair<std::uint64_t, int>;
  std::priority_queue<load, std::vector<load>, std::greater<>> shards;
  for (int k = 0; k < s.count && static_cast<std::size_t>(k) < std::max<std::size_t>(all.size(), 1); ++k) {
    shards.emplace(0, k);
  }
  std::vector<std::size_t> mine;
  for (const std::size_t index : all) {
    auto [weight, k] = shards.top();
    shards.pop();
    if (k == s.index) mine.push_back(index);
    shards.emplace(weight + work[index], k);
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

}  // namespace nqueens
