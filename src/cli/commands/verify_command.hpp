#pragma once

// `nqueens verify`: a range of N counted and checked against the published table (verify_command.cpp).

#include <string>
#include <vector>

namespace nqueens::cli {

/// args[0] names the command in help and errors; returns the exit status
/// (usage errors are thrown as usage_error).
int run_verify(const std::vector<std::string>& args);

}  // namespace nqueens::cli
