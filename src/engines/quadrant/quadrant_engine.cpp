// The quadrant engine's plan, run context and registry entry.
//
// North half: rows 0..h-1, h = n/2; south half: the last h rows; for odd n
// the middle row between them holds one queen, fixed per subproblem. A
// subproblem stands for the solutions whose north half uses exactly the
// columns `north` (and whose middle queen is the one given). The left-right
// mirror and the upside-down flip map such a set of solutions onto another
// with as many members (the flip swaps the halves: the north columns become
// the south's, the complement); one subproblem per class, weighted by the
// class size. The transposition of the board (and with it the quarter
// turns) is used too: for even n a subproblem counts only its class's share
// of the solutions, 2 for each whose transposed solution's class ranks
// higher and 1 for each whose ranks the same (transposition.hpp), and that
// share is found on about 72% of the halves and 56% of the pairs (n = 20).

#include "engines/quadrant/quadrant_engine.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>

#include "engines/engine.hpp"
#include "engines/fingerprint.hpp"
#include "engines/quadrant/column_classes.hpp"
#include "engines/quadrant/quadrant_memory.hpp"
#include "engines/quadrant/transposition.hpp"
#include "isa/implementation.hpp"
#include "kernels/bits.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::detail {

namespace {

// A larger plan is a mistake (far too many slices), not a useful run; and a
// journal writes indices in 32 bits.
constexpr std::size_t max_plan_size = std::size_t{1} << 31;

class quadrant_plan final : public engine_plan {
 public:
  quadrant_plan(int n, int slices, column_classes classes) : n_(n), slices_(slices), classes_(std::move(classes)) {
    if (classes_.size() > max_plan_size / static_cast<std::size_t>(slices)) {
      throw std::invalid_argument("the quadrant plan for n = " + std::to_string(n) + " would exceed " +
                                  std::to_string(max_plan_size) + " subproblems: choose fewer slices");
    }
  }

  std::size_t size() const noexcept override { return classes_.size() * static_cast<std::size_t>(slices_); }
  int split_depth() const noexcept override { return slices_; }
  std::size_t bytes() const noexcept override { return classes_.bytes(); }

  quadrant_task task(std::size_t index) const {
    const auto slices = static_cast<std::size_t>(slices_);
    const column_class c = classes_.at(index / slices);
    return {c.north, c.middle, c.weight, static_cast<std::uint8_t>(index % slices)};
  }

  // Every task in order, one pass over the classes.
  std::vector<quadrant_task> tasks() const {
    std::vector<quadrant_task> tasks;
    tasks.reserve(size());
    classes_.for_each([&](const column_class& c) {
      for (int k = 0; k < slices_; ++k) tasks.push_back({c.north, c.middle, c.weight, static_cast<std::uint8_t>(k)});
    });
    return tasks;
  }

  // Each task as the row-by-row plans write a subproblem (a column per row,
  // the middle queen the only one placed), then its column set and slice:
  // the same bytes as when the plan was a list (nqueens-plan/4), so journals
  // and shards of earlier runs still match where counts mean the same.
  void add_to_fingerprint(fnv1a& hash, const std::atomic<bool>* cancel) const override {
    // A subproblem's count is its class's share under the transposition
    // filter (transposition.hpp), not every solution of its class: a journal
    // of the earlier plans must not mix with it.
    if (transposition_filtered(n_)) hash.add_text("transposition filter");
    std::size_t classes = 0;
    classes_.for_each([&](const column_class& c) {
      // 2 * 10^8 subproblems at n = 25 with 12 slices take 9 s: a look per
      // 2^12 classes (under a millisecond) keeps a signal answered at once.
      if (classes++ % 4096 == 0) throw_if_cancelled(cancel);
      for (int k = 0; k < slices_; ++k) {
        for (int r = 0; r < n_; ++r) {
          hash.add_byte(r == n_ / 2 && c.middle >= 0 ? static_cast<std::uint8_t>(c.middle) : std::uint8_t{0xFF});
        }
        hash.add_byte(c.weight);
        hash.add_byte(0);
        hash.add_u64(c.north);
        hash.add_byte(static_cast<std::uint8_t>(k));
      }
    });
  }

  // A task's cost depends on the sizes of its two groups, known only once the
  // tables are built: count every one alike.
  std::uint64_t estimated_work(std::size_t) const override { return 1; }
  bool uniform_work() const noexcept override { return true; }

  std::unique_ptr<engine_context> make_context(isa kernels, int threads, std::uint64_t max_memory,
                                               const std::atomic<bool>* cancel) const override;

 private:
  int n_;
  int slices_;
  column_classes classes_;
};

class quadrant_context final : public engine_context {
 public:
  // The whole quarter tables where they fit in `max_memory`, else each
  // subproblem builds its own quarters, in slices where a group would not
  // fit (quadrant_layout_for).
  quadrant_context(int n, const quadrant_plan& plan, isa kernels, const quadrant_layout& layout,
                   const std::atomic<bool>* cancel)
      : tables_(layout.tables ? std::make_unique<half_board_tables>(n, cancel) : nullptr),
        source_(n, tables_.get(), layout.max_group, layout.compact_lists),
        plan_(plan),
        tasks_(plan.size() <= listed_plan_size ? plan.tasks() : std::vector<quadrant_task>{}),
        kernels_(quadrant_kernels_for(kernels)) {}

  subproblem_count solve(std::size_t index) override {
    const quadrant_task task = tasks_.empty() ? plan_.task(index) : tasks_[index];
    return {kernels_.solve(source_, task, plan_.split_depth(), scratch_.local()), 0};
  }

 private:
  const std::unique_ptr<const half_board_tables> tables_;
  const quarter_source source_;
  const quadrant_plan& plan_;
  const std::vector<quadrant_task> tasks_;  // the plan's, where it is small
  const quadrant_kernels& kernels_;
  tbb::enumerable_thread_specific<quadrant_scratch> scratch_;  // one set of buffers per thread
};

std::unique_ptr<engine_context> quadrant_plan::make_context(isa kernels, int threads, std::uint64_t max_memory,
                                                            const std::atomic<bool>* cancel) const {
  return std::make_unique<quadrant_context>(n_, *this, kernels, quadrant_layout_for(n_, threads, max_memory), cancel);
}

std::unique_ptr<engine_plan> make_plan(int n, int split_depth, std::size_t, std::uint64_t) {  // a block table: KiB
  column_classes classes(n);
  // Slices only matter where there are few column sets (n < 14): every
  // slice builds both groups again (n = 16 took 0.43 s in 2 slices per class
  // against 0.25 s in one), so only enough for a few hundred tasks.
  int slices = split_depth;
  if (slices == 0) {
    constexpr std::size_t enough_tasks = 256;
    slices = static_cast<int>(
        std::clamp<std::size_t>((enough_tasks + classes.size() - 1) / classes.size(), 1, max_split_depth));
  }
  return std::make_unique<quadrant_plan>(n, slices, std::move(classes));
}

}  // namespace

quadrant_task quadrant_task_of(const engine_plan& p, std::size_t index) {
  return static_cast<const quadrant_plan&>(p).task(index);
}

extern const engine_definition quadrant_engine = {
    .id = engine::quadrant,
    .name = "quadrant",
    .summary =
        "half boards joined from quarter-board tables, disjoint (north, south) pairs counted 512 at a time "
        "(fastest from n = 16; needs the most memory)",
    .counts_unique = false,
    .max_board_size = max_quadrant_board_size,
    // Measured one thread (best of 3, `nqueens count N --engine E -t 1`):
    // quadrant / symmetric 0.136 / 0.145 s at n = 15, 0.40 / 0.89 s at 16,
    // 2.32 / 6.13 s at 17, 3.7 / 41 s at 18; below 15 the quarter tables cost
    // more than they save.
    .auto_from = 16,
    .make_plan = &make_plan,
    .memory_estimate = &quadrant_memory_bytes,
};

}  // namespace nqueens::detail
