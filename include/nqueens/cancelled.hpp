#pragma once

/// \file
/// Cancelling a run: planning, the run's lists, the journal and the engine's
/// tables can take seconds to minutes on large plans, and one subproblem
/// hours; each of them looks at the caller's cancel flag as it goes.

#include <atomic>
#include <stdexcept>
#include <string>

namespace nqueens {

/// Thrown when a run was cancelled before its first subproblem was counted
/// (while its plan, its lists or its tables were built; count() throws it
/// only until counting begins, and returns incomplete after): nothing was
/// counted, and a journal it was given is as it was (one the run made,
/// which held no work, is removed again).
class run_cancelled : public std::runtime_error {
 public:
  run_cancelled() : std::runtime_error("the run was cancelled before it began counting") {}
  /// With its own words (estimate_cost's: cancelled while it timed draws).
  explicit run_cancelled(const std::string& what) : std::runtime_error(what) {}
};

/// Thrown by run_context::solve when its cancel flag was set while it
/// counted: the subproblem is unfinished and nothing of it is returned. The
/// engines look at the flag often enough that a count of any size stops
/// within a fraction of a second.
class subproblem_cancelled : public std::runtime_error {
 public:
  subproblem_cancelled() : std::runtime_error("the subproblem's count was cancelled") {}
};

namespace detail {

/// Throws run_cancelled once `*cancel` is set (null: never).
inline void throw_if_cancelled(const std::atomic<bool>* cancel) {
  if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) throw run_cancelled();
}

/// Throws subproblem_cancelled once `*cancel` is set (null: never).
inline void stop_if_cancelled(const std::atomic<bool>* cancel) {
  if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) throw subproblem_cancelled();
}

}  // namespace detail
}  // namespace nqueens
