#pragma once

// `nqueens check [P...]`: placements checked (check_command.cpp).

#include <string>
#include <vector>

namespace nqueens::cli {

/// args[0] names the command in help and errors; returns the exit status
/// (usage errors are thrown as usage_error).
int run_check(const std::vector<std::string>& args);

}  // namespace nqueens::cli
