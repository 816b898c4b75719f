#include "nqueens/shard.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "nqueens/progress.hpp"
#include "run/shard/shard_members.hpp"

namespace nqueens {

void require_valid_shard(shard_spec s) {
  if (s.count < 1 || s.count > max_shards || s.index < 0 || s.index >= s.count) {
    throw std::invalid_argument("shard " + std::to_string(s.index) + "/" + std::to_string(s.count) +
                                " is out of range: expected I/M with 0 <= I < M <= " + std::to_string(max_shards));
  }
}

namespace {

// Deals every subproblem of a plan with unequal estimates to one of `count`
// shards: the largest first, each to the shard with the least work so far
// (ties to the lower shard number); calls dealt(index, shard) for each.
template <class Dealt>
void deal(const plan& p, int count, Dealt&& dealt) {
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  const std::vector<std::uint64_t> work = estimate_work(p);
  std::stable_sort(all.begin(), all.end(), [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
  using load = std::pair<std::uint64_t, int>;
  std::priority_queue<load, std::vector<load>, std::greater<>> shards;
  for (int k = 0; k < count && static_cast<std::size_t>(k) < std::max<std::size_t>(all.size(), 1); ++k) {
    shards.emplace(0, k);
  }
  for (const std::size_t index : all) {
    auto [weight, k] = shards.top();
    shards.pop();
    dealt(index, k);
    shards.emplace(weight + work[index], k);
  }
}

}  // namespace

std::vector<std::size_t> shard_indices(const plan& p, shard_spec s) {
  require_valid_shard(s);
  if (p.uniform_work()) {
    const detail::shard_members members(p, s);
    std::vector<std::size_t> mine(members.size());
    for (std::size_t k = 0; k < mine.size(); ++k) mine[k] = members[k];
    return mine;
  }
  std::vector<std::size_t> mine;
  if (s.whole()) {
    mine.resize(p.size());
    for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = i;
    return mine;
  }
  deal(p, s.count, [&](std::size_t index, int k) {
    if (k == s.index) mine.push_back(index);
  });
  std::sort(mine.begin(), mine.end());
  return mine;
}

std::vector<std::size_t> shard_sizes(const plan& p, int count) {
  require_valid_shard({0, count});
  std::vector<std::size_t> sizes(static_cast<std::size_t>(count), 0);
  if (p.uniform_work() || count == 1) {
    for (int k = 0; k < count; ++k) sizes[static_cast<std::size_t>(k)] = detail::shard_members(p, {k, count}).size();
    return sizes;
  }
  deal(p, count, [&](std::size_t, int k) { ++sizes[static_cast<std::size_t>(k)]; });
  return sizes;
}

std::vector<std::uint64_t> shard_digests(const plan& p, int count) {
  require_valid_shard({0, count});
  std::vector<std::uint64_t> digests(static_cast<std::size_t>(count), 0);
  if (p.uniform_work() || count == 1) {
    const auto shards = static_cast<std::size_t>(count);
    for (std::size_t i = 0; i < p.size(); ++i) digests[i % shards] += detail::digest_term(i);
    return digests;
  }
  deal(p, count, [&](std::size_t index, int k) { digests[static_cast<std::size_t>(k)] += detail::digest_term(index); });
  return digests;
}

}  // namespace nqueens
