#pragma once

// The streams of a GPU run across the devices it counts on (a backend each,
// over one host copy of the tables), leased to the counting threads. A
// thread takes a stream of the device with the fewest leased (of those
// alike, the one leased the fewest times: a thread that leases while the
// others count still spreads its calls): a free one, or a new one while the
// device has fewer than its share of the threads; else it waits for the
// next stream freed. So subproblems go to the devices as they free up, and a
// device whose rounds run long takes fewer.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_rounds.hpp"
#include "nqueens/device_work.hpp"

namespace nqueens::detail::gpu {

class stream_pool {
 public:
  /// A stream with its rounds.
  struct pooled_stream {
    pooled_stream(std::unique_ptr<gpu_stream> opened, std::size_t on)
        : stream(std::move(opened)), rounds(*stream), device(on) {}
    std::unique_ptr<gpu_stream> stream;
    gpu_rounds rounds;
    std::size_t device;  ///< its backend's index in the pool
    /// Its holder's cancel flag while leased (stop_cancelled), else null:
    /// set and cleared under the pool's lock.
    const std::atomic<bool>* cancel = nullptr;
  };

  /// Over `devices` (at least one), each opening at most
  /// `streams_per_device` streams (at least one).
  stream_pool(std::vector<std::unique_ptr<gpu_backend>> devices, std::size_t streams_per_device);

  /// A stream, the holder's until it ends; `cancel` (may be null) the
  /// holder's flag, which stop_cancelled looks at meanwhile.
  class lease {
   public:
    explicit lease(stream_pool& pool, const std::atomic<bool>* cancel = nullptr);
    ~lease();
    lease(const lease&) = delete;
    lease& operator=(const lease&) = delete;
    pooled_stream& stream() const noexcept { return *stream_; }

   private:
    stream_pool& pool_;
    pooled_stream* stream_ = nullptr;
  };

  std::size_t devices() const noexcept { return devices_.size(); }
  /// Backend `d`: its tables are what a job of its streams reads.
  const gpu_backend& device(std::size_t d) const noexcept { return *devices_[d]; }
  /// Stops the round under way of every leased stream whose holder's
  /// cancel flag is set (gpu_stream::stop); from any thread. A stream's
  /// next holder clears its stop word (gpu_rounds::count): a flag of a
  /// lease that ended stops nothing.
  void stop_cancelled() noexcept;
  /// Stops the round under way of every stream, leased or not (a free
  /// one's stop is cleared by its next holder): where one device failed,
  /// the others' rounds, which can take minutes past n = 24, end too.
  void stop_all() noexcept;
  /// The work of device `d`'s streams, and of them all.
  device_work work_of(std::size_t d) const;
  device_work work() const;

 private:
  struct device_streams {
    std::vector<std::unique_ptr<pooled_stream>> opened;
    std::vector<pooled_stream*> free;
    std::size_t opening = 0;  // streams a lease opens now, outside the lock
    std::size_t leased = 0;
    std::uint64_t leases = 0;  // every lease it gave, for the tie above
  };

  // Under the lock: the device to lease from, or none (-1) while every
  // device's streams are leased and opened to its share.
  int device_to_lease() const noexcept;

  const std::vector<std::unique_ptr<gpu_backend>> devices_;
  const std::size_t streams_per_device_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<device_streams> streams_;
};

}  // namespace nqueens::detail::gpu
