#pragma once

// `nqueens rotational N`: the solutions a half or a quarter turn leaves unchanged (rotational_command.cpp).

#include <string>
#include <vector>

namespace nqueens::cli {

/// args[0] names the command in help and errors; returns the exit status
/// (usage errors are thrown as usage_error).
int run_rotational(const std::vector<std::string>& args);

}  // namespace nqueens::cli
