#pragma once

// Sub-commands of the `nqueens` tool. Each takes its arguments with args[0]
// set to "nqueens <command>", prints its own output and returns the exit
// status: 0 ok, 1 count mismatch, 2 usage error (thrown as usage_error).

#include <optional>
#include <string>
#include <vector>

#include "nqueens/count.hpp"

namespace nqueens::cli {

int run_count(const std::vector<std::string>& args);

/// The options of `count` (shared with nqueens-mpi).
struct count_request {
  int n = 0;
  count_options options;
  bool json = false;
  bool progress = false;
  bool terminal = false;
};

/// Parses `count`'s arguments (args[0] names the program in help and errors);
/// nullopt when --help was printed. `plan_is_shared`: other processes count
/// the same plan (nqueens-mpi's ranks), as with --shard or --checkpoint, so
/// `--engine auto` goes by N alone. Throws usage_error.
std::optional<count_request> parse_count_request(const std::vector<std::string>& args, bool plan_is_shared = false);

/// Prints a finished count as text or JSON; returns the exit status.
int print_count_result(const count_result& r, const count_request& request);
int run_verify(const std::vector<std::string>& args);
int run_scale(const std::vector<std::string>& args);
int run_plan(const std::vector<std::string>& args);
int run_merge(const std::vector<std::string>& args);
int run_list(const std::vector<std::string>& args);
int run_first(const std::vector<std::string>& args);
int run_check(const std::vector<std::string>& args);
int run_rotational(const std::vector<std::string>& args);

}  // namespace nqueens::cli
