#pragma once

// The order in which a run hands its subproblems to an executor: the run's
// internals, not the library's API (measure/eta_replay.hpp checks the ETA
// it gives).

#include <cstddef>
#include <span>
#include <vector>

namespace nqueens::detail {

/// `indices` reordered so that every prefix is spread evenly over the plan:
/// the list is cut into runs of up to 64 neighbours (size / 1024 of them,
/// at least one), and the k-th run taken is run (k * stride) mod runs, with
/// a stride near runs / golden ratio and coprime to it (a Weyl sequence,
/// the low-discrepancy order of H. Weyl, 1916); for_each_dispatch_position
/// (dispatch_positions.hpp) is the one rule, which a run follows. Plans list
/// their subproblems in an order whose cost drifts (the quadrant plan's cheap column sets come
/// first), so a run in plan order finishes its cheap part first and its
/// ETA lies; in this order the finished subproblems are a fair sample of
/// the whole at every moment. Deterministic: the same on every machine.
std::vector<std::size_t> dispatch_order(std::span<const std::size_t> indices);

}  // namespace nqueens::detail
