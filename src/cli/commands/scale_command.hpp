#pragma once

// `nqueens scale N`: the count timed on 1, 2, 4, ... threads (scale_command.cpp).

#include <string>
#include <vector>

namespace nqueens::cli {

/// args[0] names the command in help and errors; returns the exit status
/// (usage errors are thrown as usage_error).
int run_scale(const std::vector<std::string>& args);

}  // namespace nqueens::cli
