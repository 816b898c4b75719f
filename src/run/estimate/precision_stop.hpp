#pragma once

// When a sample whose projection looks precise may stop
// (stratified_sample's stop rule, kept apart so that a test can feed it the
// sequence of a heavy draw arriving late).

#include <cstddef>

namespace nqueens::detail {

/// Precise once the error has stayed within its target while the engine's
/// draws doubled: a spread taken from a few draws is itself a guess, and a
/// heavy draw that widens the error again starts the doubling anew.
class precision_stop {
 public:
  /// Whether to stop, after `engine_runs` of the engine's draws, the error
  /// now `precise` (within its target) or not.
  bool stop(std::size_t engine_runs, bool precise) noexcept {
    if (!precise) {
      since_ = 0;
      return false;
    }
    if (since_ == 0) since_ = engine_runs;
    return engine_runs >= 2 * since_;
  }

 private:
  std::size_t since_ = 0;  // the draws when the error last came within the target (0: it is not)
};

}  // namespace nqueens::detail
