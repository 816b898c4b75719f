#pragma once

// What the GPU round studies (gpu_round_balance.cpp, gpu_join_lanes.cpp)
// read from their command line, `PROGRAM N FIRST [JOBS] [SLOTS] [SETUP]`: a
// round's window of board N's classes, FIRST.. FIRST+JOBS-1 (a class a job,
// as the GPU plan of split depth 1 has them; JOBS 64, a round's), and the
// model's block slots and setup cost.

#include <cstdint>
#include <vector>

#include "engines/join_model/column_classes.hpp"

namespace nqueens::bench {

struct round_window {
  int n = 0;
  std::uint64_t first = 0;                    // the window's first class
  std::vector<detail::column_class> classes;  // the window's, in plan order
  std::uint32_t slots = 0;
  double setup = 0;
};

/// The window the arguments name (N from 8 to `most_board`), the slots and
/// setup given or these defaults; throws cli::usage_error (the usage, or
/// what is wrong).
round_window read_round_window(int argc, char** argv, const char* program, int most_board, std::uint32_t default_slots,
                               std::uint64_t default_setup);

}  // namespace nqueens::bench
