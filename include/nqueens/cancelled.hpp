#pragma once

/// \file
/// Cancelling a run before it counts: planning, the run's lists, the journal
/// and the engine's tables can take seconds to minutes on large plans, and
/// each of them looks at the caller's cancel flag as it goes.

#include <atomic>
#include <stdexcept>

namespace nqueens {

/// Thrown when a run was cancelled before its first subproblem was counted
/// (while its plan, its lists or its tables were built): nothing was counted,
/// and a journal it was given is as it was.
class run_cancelled : public std::runtime_error {
 public:
  run_cancelled() : std::runtime_error("the run was cancelled before it began counting") {}
};

namespace detail {

/// Throws run_cancelled once `*cancel` is set (null: never).
inline void throw_if_cancelled(const std::atomic<bool>* cancel) {
  if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) throw run_cancelled();
}

}  // namespace detail
}  // namespace nqueens
