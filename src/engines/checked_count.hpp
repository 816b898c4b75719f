#pragma once

// Sums and products of one subproblem's 64-bit counts, as every engine
// forms them (a class's weight, a filter's 2 * twice + once, the parts of a
// split search): none wraps; each throws std::overflow_error ("a subproblem
// has more than 2^64 solutions") past 2^64. The run's own sums are 128-bit
// (reduce.hpp).

#include <cstdint>

namespace nqueens::detail {

/// a + b.
std::uint64_t checked_sum(std::uint64_t a, std::uint64_t b);

/// a * b.
std::uint64_t checked_product(std::uint64_t a, std::uint64_t b);

}  // namespace nqueens::detail
