#pragma once

// A worker rank: asks rank 0 for chunks of subproblem indices, counts each on
// its own oneTBB arena with one run context (tables built with the first
// chunk), and sends the counts back with its next request, until rank 0
// answers with an empty chunk or a signal stops it.

#include "cli/count_command.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::mpi {

void run_worker(const cli::count_request& request, const plan& p, int rank);

}  // namespace nqueens::mpi
