#pragma once

// `nqueens merge F...`: the shards of one run added up and verified (merge_command.cpp).

#include <string>
#include <vector>

namespace nqueens::cli {

/// args[0] names the command in help and errors; returns the exit status
/// (usage errors are thrown as usage_error).
int run_merge(const std::vector<std::string>& args);

}  // namespace nqueens::cli
