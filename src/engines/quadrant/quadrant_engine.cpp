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
// turns) is used too: from n = 4 a subproblem counts only its class's share
// of the solutions, 2 for each whose transposed solution's class ranks
// higher and 1 for each whose ranks the same (transposition.hpp, odd n by
// the middle column's queen), found on 65.8% of the halves and 49.3% of the
// pairs at n = 20 (docs/engines.md, by rank_rows).

#include "engines/quadrant/quadrant_engine.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>

#include "engines/engine_definition.hpp"
#include "engines/fingerprint.hpp"
#include "engines/join_model/class_plan.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/quadrant_memory.hpp"
#include "engines/join_model/transposition.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quadrant_solve.hpp"
#include "nqueens/engine.hpp"

namespace nqueens::detail {

namespace {

class quadrant_plan final : public class_plan {
 public:
  using class_plan::class_plan;

  void add_to_fingerprint(fnv1a& hash, const std::atomic<bool>* cancel) const override {
    // A subproblem's count is its class's share under the transposition
    // filter's order (transposition.hpp), not every solution of its class,
    // and a slice's is that of the halves of one group at its stride, whose
    // order follows the quarters' (walked column by column); by size, a
    // class takes as many slices as its bound asks: a journal of the earlier
    // plans (no filter, rows in plain order, quarters walked row by row,
    // slices of index ranges, always of the north group, or by size with
    // a 3-slice class in 3) must not mix with it.
    std::string marker = transposition_filtered(board_size())
                             ? "transposition filter, ranked rows, slices in table order before the partition, "
                               "quarters by column"
                             : "";
    if (slicing().slices > 1) marker += ", slices by stride of the north group or of a south group 8 times larger";
    if (slicing().by_size()) {
      marker += ", by size, bound pairs a slice " +
                std::to_string(static_cast<unsigned long long>(slicing().pairs_per_slice)) + ", every slot past " +
                std::to_string(most_slices_by_bound) + " slices";
    }
    add_tasks_to_fingerprint(hash, cancel, marker);
  }

  std::unique_ptr<engine_context> make_context(isa kernels, int threads, std::uint64_t max_memory, const gpu_options&,
                                               const std::atomic<bool>* cancel) const override;
};

class quadrant_context final : public engine_context {
 public:
  // The whole quarter tables where they fit in `max_memory`, else each
  // subproblem builds its own quarters, in slices where a group would not
  // fit (quadrant_layout_for).
  quadrant_context(int n, const quadrant_plan& plan, isa kernels, const quadrant_layout& layout,
                   const std::atomic<bool>* cancel)
      : tables_(layout.tables ? std::make_unique<half_board_tables>(n, cancel) : nullptr),
        source_(n, tables_.get(), layout),
        plan_(plan),
        tasks_(plan),
        kernels_(quadrant_kernels_for(kernels)) {}

  subproblem_count solve(std::size_t index, const std::atomic<bool>* cancel) override {
    const quadrant_task task = tasks_[index];
    quadrant_scratch& scratch = scratch_.local();
    scratch.pairs.cancel = cancel;
    return {solve_task(kernels_, source_, task, plan_.slicing(), scratch), 0};
  }

 private:
  const std::unique_ptr<const half_board_tables> tables_;
  const quarter_source source_;
  const quadrant_plan& plan_;
  const task_lookup tasks_;
  const quadrant_kernels& kernels_;
  tbb::enumerable_thread_specific<quadrant_scratch> scratch_;  // one set of buffers per thread
};

std::unique_ptr<engine_context> quadrant_plan::make_context(isa kernels, int threads, std::uint64_t max_memory,
                                                            const gpu_options&, const std::atomic<bool>* cancel) const {
  return std::make_unique<quadrant_context>(board_size(), *this, kernels,
                                            quadrant_layout_for(board_size(), threads, max_memory), cancel);
}

std::unique_ptr<engine_plan> make_plan(int n, int split_depth, std::size_t, std::uint64_t,
                                       const std::atomic<bool>*) {  // a block table: KiB
  column_classes classes(n);
  const class_slicing slicing = class_slicing_for(n, split_depth, class_plan::slices_for(classes, split_depth));
  return std::make_unique<quadrant_plan>(n, slicing, std::move(classes));
}

}  // namespace

quadrant_task quadrant_task_of(const engine_plan& p, std::size_t index) {
  return static_cast<const quadrant_plan&>(p).task(index);
}

const class_slicing& quadrant_slicing_of(const engine_plan& p) {
  return static_cast<const quadrant_plan&>(p).slicing();
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
