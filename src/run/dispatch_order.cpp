#include "run/dispatch_order.hpp"

#include <algorithm>

#include "run/dispatch_positions.hpp"

namespace nqueens::detail {

std::vector<std::size_t> dispatch_order(std::span<const std::size_t> indices) {
  std::vector<std::size_t> order;
  order.reserve(indices.size());
  for_each_dispatch_position(indices.size(), [&](std::size_t k) { order.push_back(indices[k]); });
  return order;
}

}  // namespace nqueens::detail
