#pragma once

// oneTBB's process-wide worker limit, raised for calls that ask for more
// threads than the hardware has. oneTBB obeys the smallest of the limits
// alive at once, so a limit of each call's own let two such calls cap each
// other (and oneTBB warned on stderr): one limit serves them all, at the
// most that any of them asks for.

#include <cstddef>

namespace nqueens::detail {

/// How many of `threads` (resolved, >= 1) oneTBB would let an arena run:
/// all of them, raised past the hardware as raised_worker_limit raises it,
/// unless the program's own limit (a tbb::global_control) is lower, or the
/// ceiling oneTBB fixed when first used, max(256, 4 x the hardware threads)
/// where no raised limit was alive then.
int threads_allowed(int threads);

class raised_worker_limit {
 public:
  /// Keeps oneTBB's limit at `threads` or more while this lives.
  explicit raised_worker_limit(int threads);
  ~raised_worker_limit();
  raised_worker_limit(const raised_worker_limit&) = delete;
  raised_worker_limit& operator=(const raised_worker_limit&) = delete;

 private:
  int threads_;
};

}  // namespace nqueens::detail
