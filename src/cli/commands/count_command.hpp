#pragma once

// `nqueens count` (count_command.cpp): its options, shared with nqueens-mpi,
// which parses and prints a count the same way.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/shared_options.hpp"
#include "nqueens/count.hpp"

namespace nqueens::cli {

/// `nqueens count N [options]`; returns the exit status.
int run_count(const std::vector<std::string>& args);

/// The options of `count` (shared with nqueens-mpi).
struct count_request {
  int n = 0;
  count_options options;
  bool json = false;
  progress_choice progress;
  /// Whether other processes share the plan (shards, a journal, MPI ranks):
  /// the engine and split then go by n alone, whatever the bound.
  bool shared_plan = false;
  /// The --split-depth given (0: none), which options.split_depth replaces
  /// with the one chosen: what a refusal's advice speaks of.
  int asked_split_depth = 0;
  /// Whether auto took a slower engine than n's own because the faster's
  /// tables do not fit --max-memory (or its default): the report says so.
  bool engine_fitted_to_memory = false;
};

/// One option of a count as the user gave it: "--threads" and "2", "N" and
/// "12"; an empty value when it was left out, "yes" for a flag given.
struct count_setting {
  std::string option;
  std::string value;
};

/// Every option of `request` that shapes the run or what it leaves behind or
/// prints (N, --engine, --split-depth, --threads, --max-memory, --devices,
/// --gpu-memory, --checkpoint, --checkpoint-interval, --json, --progress):
/// what nqueens-mpi's ranks must agree on. --engine auto appears as the engine it chose.
std::vector<count_setting> count_settings(const count_request& request);

/// The options of `count` that count_settings leaves out, each for its
/// reason: --shard is refused by nqueens-mpi, --help counts nothing. A test
/// reads `count --help` and fails on an option in neither list, so that an
/// option added to the parser is either compared across ranks or named here.
inline constexpr std::array<std::string_view, 2> count_options_not_compared = {"--shard", "--help"};

/// Parses `count`'s arguments (args[0] names the program in help and errors);
/// nullopt when --help was printed. `plan_is_shared`: other processes count
/// the same plan (nqueens-mpi's ranks), as with --shard or --checkpoint, so
/// `--engine auto` goes by N alone. Throws usage_error.
std::optional<count_request> parse_count_request(const std::vector<std::string>& args, bool plan_is_shared = false);

}  // namespace nqueens::cli
