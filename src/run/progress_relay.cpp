#include "run/progress_relay.hpp"

#include <utility>

namespace nqueens::detail {

progress_relay::progress_relay(const std::function<void(const progress&)>& callback, std::atomic<bool>& stop)
    : callback_(callback), stop_(stop), thread_([this] { relay(); }) {}

progress_relay::~progress_relay() { finish(); }

std::exception_ptr progress_relay::finish() {
  if (thread_.joinable()) {
    {
      const std::lock_guard lock(mutex_);
      closing_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  return error_;  // the thread is gone: nothing writes it now
}

void progress_relay::post(const progress& p) {
  {
    const std::lock_guard lock(mutex_);
    if (error_) return;
    waiting_ = p;
  }
  wake_.notify_one();
}

void progress_relay::relay() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return closing_ || waiting_.has_value(); });
    if (closing_) return;
    const progress p = *std::exchange(waiting_, std::nullopt);
    lock.unlock();
    std::exception_ptr thrown;
    try {
      callback_(p);
    } catch (...) {
      thrown = std::current_exception();
    }
    lock.lock();
    if (thrown) {
      error_ = thrown;
      waiting_.reset();
      stop_ = true;
    }
  }
}

}  // namespace nqueens::detail
