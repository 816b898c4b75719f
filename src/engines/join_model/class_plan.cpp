#include "engines/join_model/class_plan.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <stdexcept>
#include <string>

#include "engines/fingerprint.hpp"
#include "engines/join_model/quadrant_memory.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/engine.hpp"

namespace nqueens::detail {

namespace {

// A larger plan is a mistake (far too many slices), not a useful run; and a
// journal writes indices in 32 bits.
constexpr std::size_t max_class_plan_size = std::size_t{1} << 31;

}  // namespace

class_plan::class_plan(int n, class_slicing slicing, column_classes classes)
    : n_(n), slicing_(slicing), classes_(std::move(classes)) {
  if (classes_.size() > max_class_plan_size / static_cast<std::size_t>(slicing_.slices)) {
    throw std::invalid_argument("the quadrant plan for n = " + std::to_string(n) + " would exceed " +
                                std::to_string(max_class_plan_size) + " subproblems: choose fewer slices");
  }
}

int class_plan::slices_for(const column_classes& classes, int split_depth) noexcept {
  if (split_depth != 0) return split_depth;
  // Slices only matter where there are few column sets (n < 14): every
  // slice builds both groups again (n = 16 took 0.43 s in 2 slices per class
  // against 0.25 s in one), so only enough for a few hundred tasks.
  constexpr std::size_t enough_tasks = 256;
  return static_cast<int>(
      std::clamp<std::size_t>((enough_tasks + classes.size() - 1) / classes.size(), 1, max_split_depth));
}

quadrant_task class_plan::task(std::size_t index) const {
  const auto slices = static_cast<std::size_t>(slicing_.slices);
  const column_class c = classes_.at(index / slices);
  return {c.north, c.middle, c.weight, static_cast<std::uint8_t>(index % slices)};
}

std::vector<quadrant_task> class_plan::tasks() const {
  std::vector<quadrant_task> tasks;
  tasks.reserve(size());
  classes_.for_each([&](const column_class& c) {
    for (int k = 0; k < slicing_.slices; ++k)
      tasks.push_back({c.north, c.middle, c.weight, static_cast<std::uint8_t>(k)});
  });
  return tasks;
}

void class_plan::add_tasks_to_fingerprint(fnv1a& hash, const std::atomic<bool>* cancel, std::string_view marker) const {
  if (!marker.empty()) hash.add_text(marker);
  // A task's bytes: a column per row (0xFF, the middle row's queen where
  // there is one), its weight, 0, its column set as 8 bytes (the upper 4
  // zero: sets have 32 bits), its slice. The runs that repeat from task to
  // task are hashed as prepared strings (fnv1a_string): n = 27's plan of
  // 7 * 10^7 tasks built in 2.3 s rather than 5.4 (with a faster set walk).
  const auto rows_weight_of = [&](int middle, std::uint8_t weight) {
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n_), 0xFF);
    if (middle >= 0) bytes[static_cast<std::size_t>(n_ / 2)] = static_cast<std::uint8_t>(middle);
    bytes.push_back(weight);
    bytes.push_back(0);
    return fnv1a_string(bytes);
  };
  constexpr std::array<std::uint8_t, 4> upper_set_bytes{};
  const fnv1a_string upper_set(upper_set_bytes);
  // Per weight (1, 2 or 4), for the middle column of the classes at hand.
  std::array<std::optional<fnv1a_string>, 3> rows_weight;
  int rows_middle = -2;
  std::size_t classes = 0;
  classes_.for_each([&](const column_class& c) {
    // 2 * 10^8 subproblems at n = 25 with 12 slices take 3 s: a look per
    // 2^12 classes (under a millisecond) keeps a signal answered at once.
    if (classes++ % 4096 == 0) throw_if_cancelled(cancel);
    if (c.middle != rows_middle) {
      rows_middle = c.middle;
      rows_weight = {};
    }
    std::optional<fnv1a_string>& prefix = rows_weight.at(static_cast<std::size_t>(std::countr_zero(c.weight)));
    if (!prefix) prefix.emplace(rows_weight_of(c.middle, c.weight));
    for (int k = 0; k < slicing_.slices; ++k) {
      hash.add(*prefix);
      for (int i = 0; i < 4; ++i) hash.add_byte(static_cast<std::uint8_t>(c.north >> (8 * i)));
      hash.add(upper_set);
      hash.add_byte(static_cast<std::uint8_t>(k));
    }
  });
}

task_lookup::task_lookup(const class_plan& plan)
    : plan_(plan), tasks_(plan.size() <= listed_plan_size ? plan.tasks() : std::vector<quadrant_task>{}) {}

}  // namespace nqueens::detail
