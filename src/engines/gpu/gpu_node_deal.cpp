#include "engines/gpu/gpu_node_deal.hpp"

#include <algorithm>
#include <cstddef>
#include <map>

namespace nqueens::detail::gpu {

std::vector<std::vector<keyed_share>> deal_node_gpus(std::span<const std::vector<std::uint64_t>> sees) {
  std::map<std::uint64_t, std::vector<std::size_t>> seen_by;  // each GPU's processes, in process order
  for (std::size_t p = 0; p < sees.size(); ++p) {
    for (const std::uint64_t key : sees[p]) {
      std::vector<std::size_t>& by = seen_by[key];
      if (by.empty() || by.back() != p) by.push_back(p);  // a key listed twice counts once
    }
  }
  std::vector<std::uint64_t> gpus;
  gpus.reserve(seen_by.size());
  for (const auto& [key, by] : seen_by) gpus.push_back(key);
  std::ranges::stable_sort(gpus, {}, [&](std::uint64_t key) { return seen_by[key].size(); });
  std::vector<std::vector<std::uint64_t>> taken(sees.size());
  std::map<std::uint64_t, int> sharers;
  for (const std::uint64_t key : gpus) {
    const std::vector<std::size_t>& by = seen_by[key];
    const std::size_t p =
        *std::ranges::min_element(by, {}, [&](std::size_t q) { return taken[q].size(); });  // the first on a tie
    taken[p].push_back(key);
    sharers[key] = 1;
  }
  for (std::size_t p = 0; p < sees.size(); ++p) {
    if (!taken[p].empty() || sees[p].empty()) continue;
    std::vector<std::uint64_t> own = sees[p];
    std::ranges::sort(own);
    const std::uint64_t key = *std::ranges::min_element(own, {}, [&](std::uint64_t k) { return sharers[k]; });
    taken[p].push_back(key);
    ++sharers[key];
  }
  std::vector<std::vector<keyed_share>> out(sees.size());
  for (std::size_t p = 0; p < sees.size(); ++p) {
    std::ranges::sort(taken[p]);
    for (const std::uint64_t key : taken[p]) out[p].push_back({key, sharers[key]});
  }
  return out;
}

}  // namespace nqueens::detail::gpu
