#pragma once

// How far the progress line's ETA strays over a run whose subproblems'
// times are known (plan --stats): the check on the dispatch order.

#include <cstddef>
#include <cstdint>
#include <span>

namespace nqueens::detail {

/// The worst relative error of the progress line's ETA between 10% and 90%
/// of the estimated work, replayed one subproblem at a time in `order` on
/// measured per-subproblem `seconds` (indexed like the plan) with work
/// estimates `work` (indexed like the plan): at each step the ETA is
/// elapsed * (1 - f) / f for the estimated fraction f done, the truth is the
/// measured time left. Positive: the ETA said too much. 0 when nothing ran.
double replayed_eta_error(std::span<const std::size_t> order, std::span<const double> seconds,
                          std::span<const std::uint64_t> work);

}  // namespace nqueens::detail
