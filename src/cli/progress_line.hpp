#pragma once

// The --progress display on stderr: one line redrawn in place on a terminal,
// or a plain line every 10 seconds when stderr is a file or a pipe.

#include <string>

#include "nqueens/progress.hpp"

namespace nqueens::cli {

/// "42.3%  1m12s elapsed  ETA 1m38s  123456789 solutions  4212/13070 subproblems  2 threads"
std::string format_progress(const progress& p);

/// Seconds as "8.2s", "1m12s" or "3h05m".
std::string format_duration(double seconds);

class progress_printer {
 public:
  explicit progress_printer(bool terminal) : terminal_(terminal) {}
  /// Prints `p` if it is time to (always on a terminal; every 10 s otherwise).
  void operator()(const progress& p);

 private:
  bool terminal_;
  double next_plain_ = 0.0;
};

}  // namespace nqueens::cli
