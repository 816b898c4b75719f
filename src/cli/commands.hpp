#pragma once

// Sub-commands of the `nqueens` tool. Each takes its arguments with args[0]
// set to "nqueens <command>", prints its own output and returns the exit
// status: 0 ok, 1 count mismatch, 2 usage error (thrown as usage_error).

#include <string>
#include <vector>

namespace nqueens::cli {

int run_count(const std::vector<std::string>& args);
int run_verify(const std::vector<std::string>& args);
int run_scale(const std::vector<std::string>& args);
int run_plan(const std::vector<std::string>& args);
int run_merge(const std::vector<std::string>& args);

}  // namespace nqueens::cli
