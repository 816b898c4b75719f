#pragma once

// A worker rank: asks rank 0 for chunks of subproblem indices, counts each on
// its own oneTBB arena with one run context (tables built with the first
// chunk), and sends the counts back with its next request, until rank 0
// answers with an empty chunk (the worker then waits for the job's end,
// still heeding a signal), or a signal stops it or the job.

#include "cli/commands/count_command.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::mpi {

/// 0 once rank 0 said the job is done; 128 + signal when a signal stopped
/// this rank or (as rank 0 said) the job: the rank then leaves at once.
int run_worker(const cli::count_request& request, const plan& p, int rank);

}  // namespace nqueens::mpi
