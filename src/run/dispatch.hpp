#pragma once

// The order in which a run hands its subproblems to an executor, and the
// replay that checks its ETA: the run's internals, not the library's API.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nqueens::detail {

/// `indices` reordered so that every prefix is spread evenly over the plan:
/// the list is cut into runs of up to 64 neighbours (size / 1024 of them,
/// at least one), and the k-th run taken is run (k * stride) mod runs, with
/// a stride near runs / golden ratio and coprime to it (a Weyl sequence,
/// the low-discrepancy order of H. Weyl, 1916); for_each_dispatch_position
/// (dispatch_positions.hpp) is the one rule, which a run follows. Plans list their subproblems in
/// an order whose cost drifts (the quadrant plan's cheap column sets come
/// first), so a run in plan order finishes its cheap part first and its
/// ETA lies; in this order the finished subproblems are a fair sample of
/// the whole at every moment. Deterministic: the same on every machine.
std::vector<std::size_t> dispatch_order(std::span<const std::size_t> indices);

/// The worst relative error of the progress line's ETA between 10% and 90%
/// of the estimated work, replayed one subproblem at a time in `order` on
/// measured per-subproblem `seconds` (indexed like the plan) with work
/// estimates `work` (indexed like the plan): at each step the ETA is
/// elapsed * (1 - f) / f for the estimated fraction f done, the truth is the
/// measured time left. Positive: the ETA said too much. 0 when nothing ran.
double replayed_eta_error(std::span<const std::size_t> order, std::span<const double> seconds,
                          std::span<const std::uint64_t> work);

}  // namespace nqueens::detail
