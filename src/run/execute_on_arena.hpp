#pragma once

// execute()'s work: a plan's subproblems counted on a oneTBB arena, one per
// task (or one engine batch per task), each reported as it finishes.

#include <atomic>
#include <cstddef>
#include <span>

#include "nqueens/execute.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::detail {

/// As execute(p, indices, options, context), starting no subproblem once
/// `also_cancel` (null: none) is set either. The run driver's stop flag is
/// options.cancel, which the engines look at inside a subproblem and while
/// their tables are built; its caller's own cancel flag, which a helper
/// passes on to it every 50 ms, is also_cancel, looked at as each
/// subproblem starts: none starts once the caller has cancelled.
execution execute_on_arena(const plan& p, std::span<const std::size_t> indices, const execute_options& options,
                           const run_context* context, const std::atomic<bool>* also_cancel);

}  // namespace nqueens::detail
