#pragma once

// One untimed solve before a sampler's first timed one. A thread's first
// solve also pays for its scratch buffers' first touches: at n = 17 it took
// 7 times the next ones (98 us against 14), and a 40-draw estimate came out
// about 15% dear. Only where a solve takes milliseconds (n <= 23): past it
// one takes minutes, and the start-up is lost in it. The plan's middle
// subproblem is solved, whose quarter lists a random run seldom shares.

#include <cstddef>

#include "nqueens/execute.hpp"

namespace nqueens::bench {

inline void warm_up(const run_context& context, int n, std::size_t subproblems) {
  if (n <= 23 && subproblems > 0) static_cast<void>(context.solve(subproblems / 2));
}

}  // namespace nqueens::bench
