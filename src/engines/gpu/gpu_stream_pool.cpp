#include "engines/gpu/gpu_stream_pool.hpp"

#include <algorithm>

#include "nqueens/device_work.hpp"

namespace nqueens::detail::gpu {

stream_pool::stream_pool(std::vector<std::unique_ptr<gpu_backend>> devices, std::size_t streams_per_device)
    : devices_(std::move(devices)),
      streams_per_device_(std::max<std::size_t>(streams_per_device, 1)),
      streams_(devices_.size()) {
  for (device_streams& d : streams_) {
    d.opened.reserve(streams_per_device_);
    d.free.reserve(streams_per_device_);
  }
}

int stream_pool::device_to_lease() const noexcept {
  int best = -1;
  for (std::size_t d = 0; d < streams_.size(); ++d) {
    const device_streams& s = streams_[d];
    if (s.free.empty() && s.opened.size() + s.opening >= streams_per_device_) continue;
    if (best < 0) {
      best = static_cast<int>(d);
      continue;
    }
    const device_streams& b = streams_[static_cast<std::size_t>(best)];
    if (s.leased < b.leased || (s.leased == b.leased && s.leases < b.leases)) best = static_cast<int>(d);
  }
  return best;
}

stream_pool::lease::lease(stream_pool& pool, const std::atomic<bool>* cancel) : pool_(pool) {
  std::unique_lock lock(pool_.mutex_);
  int d = pool_.device_to_lease();
  while (d < 0) {
    pool_.freed_.wait(lock);
    d = pool_.device_to_lease();
  }
  device_streams& s = pool_.streams_[static_cast<std::size_t>(d)];
  ++s.leased;
  ++s.leases;
  if (!s.free.empty()) {
    stream_ = s.free.back();
    s.free.pop_back();
  } else {
    // Opened outside the lock: a stream takes its device memory, which can
    // take a while, and stop_cancelled must not wait for it. Counted as
    // opening meanwhile, so that a device's streams never outnumber its share.
    ++s.opening;
    lock.unlock();
    std::unique_ptr<pooled_stream> opened;
    try {
      opened = std::make_unique<pooled_stream>(pool_.devices_[static_cast<std::size_t>(d)]->open_stream(),
                                               static_cast<std::size_t>(d));
    } catch (...) {
      lock.lock();
      --s.opening;
      --s.leased;
      lock.unlock();
      pool_.freed_.notify_one();  // its share is open again to a waiting lease
      throw;
    }
    lock.lock();
    --s.opening;
    s.opened.push_back(std::move(opened));  // within the capacity reserved: does not throw
    stream_ = s.opened.back().get();
  }
  stream_->cancel = cancel;
}

stream_pool::lease::~lease() {
  {
    const std::lock_guard lock(pool_.mutex_);
    device_streams& s = pool_.streams_[stream_->device];
    stream_->cancel = nullptr;
    s.free.push_back(stream_);
    --s.leased;
  }
  pool_.freed_.notify_one();
}

void stream_pool::stop_cancelled() noexcept {
  const std::lock_guard lock(mutex_);
  for (device_streams& d : streams_) {
    for (const auto& s : d.opened) {
      if (s->cancel != nullptr && s->cancel->load(std::memory_order_relaxed)) s->stream->stop();
    }
  }
}

void stream_pool::stop_all() noexcept {
  const std::lock_guard lock(mutex_);
  for (device_streams& d : streams_) {
    for (const auto& s : d.opened) s->stream->stop();
  }
}

device_work stream_pool::work_of(std::size_t d) const {
  const std::lock_guard lock(mutex_);
  device_work sum;
  for (const auto& s : streams_[d].opened) sum += s->stream->work();
  return sum;
}

device_work stream_pool::work() const {
  device_work sum;
  for (std::size_t d = 0; d < streams_.size(); ++d) sum += work_of(d);
  return sum;
}

}  // namespace nqueens::detail::gpu
