#pragma once

// A plan of quadrant tasks: one per class of north column sets (with the
// middle queen for odd n), each in `slices` slices (class_slicing.hpp), in
// the order of column_classes. The quadrant and GPU engines' plans are both this list;
// they differ in what a task counts (each adds its own marker to the
// fingerprint) and in what runs it (make_context).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "engines/engine_definition.hpp"
#include "engines/join_model/class_slicing.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/quadrant_task.hpp"

namespace nqueens::detail {

class class_plan : public engine_plan {
 public:
  /// Throws std::invalid_argument when the plan would pass 2^31 subproblems.
  class_plan(int n, class_slicing slicing, column_classes classes);

  /// Slices per class for `split_depth` (0: automatic, enough for a few
  /// hundred tasks where there are few classes).
  static int slices_for(const column_classes& classes, int split_depth) noexcept;

  std::size_t size() const noexcept override { return classes_.size() * static_cast<std::size_t>(slicing_.slices); }
  int split_depth() const noexcept override { return slicing_.slices; }
  std::size_t bytes() const noexcept override { return classes_.bytes(); }
  // A task's cost depends on the sizes of its two groups, known only once the
  // tables are built: count every one alike.
  std::uint64_t estimated_work(std::size_t) const override { return 1; }
  bool uniform_work() const noexcept override { return true; }

  int board_size() const noexcept { return n_; }
  const class_slicing& slicing() const noexcept { return slicing_; }
  /// Task `index`. Precondition: index < size().
  quadrant_task task(std::size_t index) const;
  /// Every task in order, one pass over the classes.
  std::vector<quadrant_task> tasks() const;

 protected:
  /// Each task as the row-by-row plans write a subproblem (a column per
  /// row, the middle queen the only one placed), then its column set and
  /// slice: the bytes of nqueens-plan/4, after `marker` where not empty.
  void add_tasks_to_fingerprint(fnv1a& hash, const std::atomic<bool>* cancel, std::string_view marker) const;

 private:
  int n_;
  class_slicing slicing_;
  column_classes classes_;
};

/// A plan's tasks as its contexts read them: listed once where the plan
/// holds at most listed_plan_size (quadrant_memory.hpp, which prices the
/// list), else found per index.
class task_lookup {
 public:
  explicit task_lookup(const class_plan& plan);
  quadrant_task operator[](std::size_t index) const { return tasks_.empty() ? plan_.task(index) : tasks_[index]; }

 private:
  const class_plan& plan_;
  const std::vector<quadrant_task> tasks_;
};

}  // namespace nqueens::detail
