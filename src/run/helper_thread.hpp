#pragma once

// A thread that wakes every `tick` to run one body until it is destroyed:
// beside a run, it passes an outside cancellation on to the workers, hands
// progress snapshots over and flushes the journal, none of which the
// workers should wait for.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace nqueens::detail {

class helper_thread {
 public:
  template <typename Body>
  helper_thread(double tick_seconds, Body body)
      : thread_([this, tick_seconds, body]() mutable {
          std::unique_lock lock(mutex_);
          while (!stop_) {
            cv_.wait_for(lock, std::chrono::duration<double>(tick_seconds));
            if (stop_) break;
            lock.unlock();
            body();
            lock.lock();
          }
        }) {}
  /// Wakes the thread and waits for a body under way to return.
  ~helper_thread() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  helper_thread(const helper_thread&) = delete;
  helper_thread& operator=(const helper_thread&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;  // last: started once the rest is set
};

}  // namespace nqueens::detail
