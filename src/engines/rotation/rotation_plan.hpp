#pragma once

// The subproblems of the search for solutions unchanged by a half turn, P(n),
// or a quarter turn, R(n) (kernels/rotation.hpp). They are part of every
// count's plan, after the engine's subproblems: with Q(n) they give the
// fundamental count by Burnside's lemma, whatever the engine. `nqueens
// rotational` runs them alone. They name no engine.

#include <array>
#include <cstdint>
#include <vector>

#include "kernels/rotation.hpp"
#include "kernels/search.hpp"
#include "nqueens/subproblem_count.hpp"

namespace nqueens::detail {

class fnv1a;

/// One subproblem: the solutions unchanged by the rotation of order `order`
/// (2: half turn, 4: quarter turn) whose first `orbits` orbits are those
/// with a queen in `columns[k]` of the row the search fills next, k = 0, 1, ...
inline constexpr int max_task_orbits = 4;

struct rotation_task {
  std::uint8_t order = 2;
  std::uint8_t orbits = 0;
  std::array<std::uint8_t, max_task_orbits> columns{};
};

/// The half-turn subproblems, then the quarter-turn ones, in a fixed order;
/// enough of them that a run keeps many threads busy.
std::vector<rotation_task> rotation_tasks(int n);

/// The same with `half_turn_orbits` (0..max_task_orbits) fixed per
/// half-turn subproblem: every depth counts the same (a test's check).
std::vector<rotation_task> rotation_tasks(int n, int half_turn_orbits);

/// Adds every task, in order, to a plan's fingerprint.
void add_to_fingerprint(fnv1a& hash, const std::vector<rotation_task>& tasks);

/// The counts of one task: symmetric_180 or symmetric_90, the rest 0.
/// Allocates nothing.
subproblem_count solve_rotation_task(int n, const rotation_task& task, const search_kernels& search) noexcept;

}  // namespace nqueens::detail
