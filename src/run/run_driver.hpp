#pragma once

// The run driver: everything a count does around the counting itself, in one
// place for `count`, `scale`, `plan --stats`, the library's count() and
// nqueens-mpi: take this
// shard's subproblems, resume from the journal, hand the rest to an executor,
// report progress, flush the journal, pass cancellation on, reduce exactly,
// verify and mark the journal complete.

#include <chrono>

#include "nqueens/checkpoint.hpp"
#include "nqueens/count.hpp"
#include "nqueens/plan.hpp"
#include "run/executor.hpp"

namespace nqueens::detail {

/// Counts plan `p` as `options` say (its kind, split depth, threads and
/// kernels are already in `p` and `exec`), through `exec`; the run's time is
/// measured from `start` (before planning). `journal` is options.checkpoint,
/// opened and locked before planning (empty: no journal). Throws
/// checkpoint_error for a journal that cannot be used or written, and
/// run_cancelled when options.cancel is set while the journal is read or the
/// run's list of subproblems is built (before anything is counted).
count_result drive(const plan& p, const count_options& options, executor& exec,
                   std::chrono::steady_clock::time_point start, checkpoint_file journal);

}  // namespace nqueens::detail
