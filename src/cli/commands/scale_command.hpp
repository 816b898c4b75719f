#pragma once

// `nqueens scale N`: the count timed on 1, 2, 4, ... threads (scale_command.cpp).

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "nqueens/progress.hpp"

namespace nqueens::cli {

/// `shown` (may be empty), with `line` written to `out` before the first
/// report that it or any copy of it is given: measure_scaling copies a
/// count's callback into each of its counts, and the line is the run's.
std::function<void(const progress&)> with_line_first(std::function<void(const progress&)> shown, std::string line,
                                                     std::ostream& out);

/// A CSV field (RFC 4180): as it is where it holds no comma, quote or line
/// break, else quoted, its quotes doubled. A processor's name may hold any
/// of them.
std::string csv_field(const std::string& text);

/// The share of what a row of `threads` could keep busy that it did
/// (`busy_threads`): its threads, on no more than the `hardware` threads,
/// within a CPU `quota`'s time (0 where it could keep none).
double busy_share(int threads, double busy_threads, int hardware, std::optional<double> quota);

/// args[0] names the command in help and errors; returns the exit status
/// (usage errors are thrown as usage_error).
int run_scale(const std::vector<std::string>& args);

}  // namespace nqueens::cli
