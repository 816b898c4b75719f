#pragma once

// Before anything is counted, every rank reports whether it can run (its
// arguments, memory and CPU), the fingerprint of the plan it built and every
// option it was given that shapes the run (cli::count_settings); rank 0
// compares them with its own. Any refusal or disagreement ends the whole job
// there, with one line per problem on rank 0's stderr and the journal
// untouched.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands/count_command.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/gpu_options.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::mpi {

/// What one rank found before counting: 0 and its plan, or the exit status
/// and the reason it cannot run.
struct readiness {
  int status = 0;
  std::string problem;
  /// The problem came from this rank's own node (its GPUs, the engine's
  /// check of it), not from the job's command line or its journal.
  bool node_problem = false;
  /// Rank 0's, refused for memory: the line a rank refused for the engine's
  /// memory alone, on the same need and bound, would say (rank 0's own
  /// line, which names the lists too, says it already).
  std::string engine_memory_problem;
  /// Rank 0's, refused for memory: its refusal before rank 0 reworded it
  /// (the split that fits, a kept journal's), which a rank refused for the
  /// plan on the same bound says as it is.
  std::string plan_memory_problem;
  std::optional<cli::count_request> request;  ///< empty for --help and --version
  std::string settings;                       ///< the request's options as given, for agree() to compare
  std::optional<plan> p;
  checkpoint_file journal;      ///< rank 0's, taken (locked) before planning
  std::vector<gpu_taken> gpus;  ///< the GPUs it will count on (the GPU engine), as its count chooses them
  /// When prepare() had checked the request (count's checks phase ends there).
  std::chrono::steady_clock::time_point checked;
};

/// Parses the command line as `count` does (and prints --version); never
/// throws: a refusal is in the readiness.
readiness parse(const std::vector<std::string>& args);

/// Where `ready` holds a request: checks that this rank can run it, takes
/// the journal (rank 0), checks memory and plans, as `count` does; never
/// throws.
void prepare(readiness& ready, int rank);

/// What the ranks agreed on.
struct agreement {
  /// 0 to go on, else the exit status every rank returns.
  int verdict = 0;
  /// Each rank's worker threads, rank 0 first (rank 0 alone; empty elsewhere).
  std::vector<int> rank_threads;
  /// Each rank's kernels, rank 0 first (rank 0 alone; empty elsewhere).
  std::vector<isa> rank_kernels;
  /// Each rank's GPUs, rank 0 first (rank 0 alone; empty elsewhere, and
  /// for the CPU engines).
  std::vector<std::vector<gpu_taken>> rank_gpus;
};

/// Every rank's readiness, plan and options to rank 0, which decides for the
/// job. Collective.
agreement agree(const readiness& ready, int rank, int ranks);

}  // namespace nqueens::mpi
