#pragma once

// `nqueens first N`: one solution built by formula (first_command.cpp).

#include <string>
#include <vector>

namespace nqueens::cli {

/// args[0] names the command in help and errors; returns the exit status
/// (usage errors are thrown as usage_error).
int run_first(const std::vector<std::string>& args);

}  // namespace nqueens::cli
