#pragma once

// count_options::on_progress called on a thread of its own. A callback that
// waits (its line to a paused terminal, a full pipe nobody reads) then holds
// up only itself: the run driver's helper, which passes a stop on to the
// workers and flushes the journal, never waits on it.

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "nqueens/progress.hpp"

namespace nqueens::detail {

class progress_relay {
 public:
  /// `callback` and `stop` must outlive the relay; `stop` is set where the
  /// callback throws, so that the run starts no further subproblem.
  progress_relay(const std::function<void(const progress&)>& callback, std::atomic<bool>& stop);
  /// finish(), if it was not called.
  ~progress_relay();
  progress_relay(const progress_relay&) = delete;
  progress_relay& operator=(const progress_relay&) = delete;

  /// Hands `p` to the callback without waiting: at once where it is idle,
  /// else when the call under way returns, in place of any snapshot still
  /// waiting. Nothing once the callback has thrown.
  void post(const progress& p);

  /// Waits for a call under way to return and ends the thread; a snapshot
  /// not yet handed over is dropped (the run's last is the caller's to
  /// give). Returns what the callback threw, if it did; else null.
  std::exception_ptr finish();

 private:
  void relay();

  const std::function<void(const progress&)>& callback_;
  std::atomic<bool>& stop_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<progress> waiting_;
  bool closing_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: started once the rest is set
};

}  // namespace nqueens::detail
