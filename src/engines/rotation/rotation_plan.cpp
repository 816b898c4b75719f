#include "engines/rotation/rotation_plan.hpp"

#include <algorithm>

#include "engines/fingerprint.hpp"

namespace nqueens::detail {
namespace {

// Orbits fixed per subproblem: a few thousand subproblems from n = 16 on,
// none on the small boards whose whole search takes microseconds; a fourth
// half-turn orbit from n = 30, where a task of three took seconds (n = 32:
// a stop, heard between tasks, took 2-9 s).
int prefix_orbits(int n, int order) noexcept {
  if (order == 2) return std::clamp(n / 2 - 5, 0, n >= 30 ? 4 : 3);
  return n >= 16 ? 2 : n >= 8 ? 1 : 0;
}

// The row the search of `order` fills next (the kernels' order), -1 when none.
int next_row(const rotation_state& s, int n, int order) noexcept {
  if (s.rows == low_bits(n)) return -1;
  return order == 2 ? next_half_turn_row(s, n) : first_empty_row(s);
}

// The columns an orbit may start from in `row` of `s`.
std::uint32_t orbit_columns(const rotation_state& s, int n, int order, int row) noexcept {
  return order == 2 ? half_turn_columns(s, n, row) : free_columns(s, n, row);
}

// Appends, in column order, every task of `order` extending `task` by orbits
// until it has `depth` of them or fills the board.
void extend(int n, int depth, const rotation_state& s, rotation_task task, std::vector<rotation_task>& out) {
  const int row = next_row(s, n, task.order);
  if (task.orbits == depth || row < 0) {
    out.push_back(task);
    return;
  }
  for (std::uint32_t free = orbit_columns(s, n, task.order, row); free != 0; free = clear_lowest_bit(free)) {
    rotation_state next = s;
    const int c = column_of(free);
    if (!place_orbit(next, n, task.order, row, c)) continue;
    rotation_task child = task;
    child.columns[task.orbits] = static_cast<std::uint8_t>(c);
    ++child.orbits;
    extend(n, depth, next, child, out);
  }
}

}  // namespace

std::vector<rotation_task> rotation_tasks(int n) { return rotation_tasks(n, prefix_orbits(n, 2)); }

std::vector<rotation_task> rotation_tasks(int n, int half_turn_orbits) {
  std::vector<rotation_task> tasks;
  for (const int order : {2, 4}) {
    rotation_task root;
    root.order = static_cast<std::uint8_t>(order);
    extend(n, order == 2 ? std::clamp(half_turn_orbits, 0, max_task_orbits) : prefix_orbits(n, order),
           rotation_start(n), root, tasks);
  }
  return tasks;
}

void add_to_fingerprint(fnv1a& hash, const std::vector<rotation_task>& tasks) {
  hash.add_u64(tasks.size());
  for (const rotation_task& t : tasks) {
    hash.add_byte(t.order);
    hash.add_byte(t.orbits);
    for (int k = 0; k < t.orbits; ++k) hash.add_byte(t.columns[static_cast<std::size_t>(k)]);
  }
}

subproblem_count solve_rotation_task(int n, const rotation_task& task, const search_kernels& search) noexcept {
  rotation_state s = rotation_start(n);
  for (int k = 0; k < task.orbits; ++k) {
    place_orbit(s, n, task.order, next_row(s, n, task.order), task.columns[static_cast<std::size_t>(k)]);
  }
  subproblem_count c;
  if (task.order == 2) {
    c.symmetric_180 = search.count_half_turn(n, s);
  } else {
    c.symmetric_90 = search.count_quarter_turn(n, s);
  }
  return c;
}

}  // namespace nqueens::detail
