#pragma once

// dispatch_order() without the list: visits the positions 0..size-1 in the
// order dispatch_order() would put them, so a run builds its one list of
// subproblems directly in that order (no second list of the same size).

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace nqueens::detail {

/// Calls visit(k) for each k in 0..size-1, in dispatch order (see dispatch_order.hpp).
template <typename Visit>
void for_each_dispatch_position(std::size_t size, Visit&& visit) {
  // Runs of consecutive subproblems stay together: neighbours in a plan
  // share table rows (a whole Weyl shuffle made Q(18) 13% slower), and a
  // thousand runs are still a fine sample.
  const std::size_t run = std::clamp<std::size_t>(size / 1024, 1, 64);
  const std::size_t runs = (size + run - 1) / run;
  if (runs == 0) return;
  // 1 / golden ratio: the stride whose multiples spread most evenly.
  std::size_t stride = static_cast<std::size_t>(0.6180339887498949 * static_cast<double>(runs)) | 1U;
  while (std::gcd(stride, runs) != 1) stride += 2;
  if (stride >= runs) stride = 1;  // runs <= 2
  std::size_t at = 0;
  for (std::size_t k = 0; k < runs; ++k) {
    for (std::size_t i = at * run; i < std::min(size, (at + 1) * run); ++i) visit(i);
    at += stride;
    if (at >= runs) at -= runs;
  }
}

}  // namespace nqueens::detail
