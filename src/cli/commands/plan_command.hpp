#pragma once

// `nqueens plan N`: the plan described, its subproblems timed or its cost estimated (plan_command.cpp).

#include <string>
#include <vector>

namespace nqueens::cli {

/// args[0] names the command in help and errors; returns the exit status
/// (usage errors are thrown as usage_error).
int run_plan(const std::vector<std::string>& args);

}  // namespace nqueens::cli
