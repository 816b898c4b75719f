// The streams of a run across its devices (gpu_stream_pool.hpp): leases
// spread over the devices, fewest leased first, each device within its
// share of streams; a lease past every share waits for the next stream
// freed and takes that one.

#include "engines/gpu/gpu_stream_pool.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "support/gpu_testing.hpp"

namespace nqueens {
namespace {

using detail::gpu::stream_pool;

std::vector<std::unique_ptr<detail::gpu::gpu_backend>> emulated_devices(const detail::half_board_tables& tables,
                                                                        int count) {
  std::vector<std::unique_ptr<detail::gpu::gpu_backend>> devices;
  for (int d = 0; d < count; ++d) devices.push_back(detail::gpu::emulated_backend(tables, {.device = d}));
  return devices;
}

TEST(GpuStreamPoolTest, LeasesSpreadOverTheDevicesFewestLeasedFirst) {
  const detail::half_board_tables tables(6);
  stream_pool pool(emulated_devices(tables, 3), 2);
  ASSERT_EQ(pool.devices(), 3U);
  std::vector<std::unique_ptr<stream_pool::lease>> held;
  std::vector<std::size_t> devices;
  for (int k = 0; k < 6; ++k) {
    held.push_back(std::make_unique<stream_pool::lease>(pool));
    devices.push_back(held.back()->stream().device);
  }
  EXPECT_EQ(devices, (std::vector<std::size_t>{0, 1, 2, 0, 1, 2}));
  for (std::size_t k = 0; k < held.size(); ++k) {
    for (std::size_t j = 0; j < k; ++j) EXPECT_NE(&held[k]->stream(), &held[j]->stream());  // six streams
  }
  // Every share taken: the next lease waits, and takes the stream freed.
  detail::gpu::gpu_stream* freed = held[4]->stream().stream.get();
  std::promise<void> asked;
  auto next = std::async(std::launch::async, [&] {
    asked.set_value();
    const stream_pool::lease lease(pool);
    return std::make_pair(lease.stream().device, lease.stream().stream.get());
  });
  asked.get_future().wait();
  // Until a stream is freed it cannot end, however the threads are scheduled.
  EXPECT_EQ(next.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout);
  held[4].reset();
  const bool took_it = next.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  if (!took_it) held.clear();  // every stream back, so that the future's end cannot hang
  ASSERT_TRUE(took_it);
  const auto [device, stream] = next.get();
  EXPECT_EQ(device, 1U);
  EXPECT_EQ(stream, freed);
}

// Rounds run on the leased device's stream; the pool's work is every
// device's, and each device's is its own.
TEST(GpuStreamPoolTest, EachDevicesWorkIsItsOwn) {
  const detail::half_board_tables tables(10);
  stream_pool pool(emulated_devices(tables, 2), 1);
  {
    const stream_pool::lease first(pool), second(pool);
    const std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, pool.device(0));
    std::vector<detail::gpu::pair_counts> counts(jobs.size());
    for (const stream_pool::lease* lease : {&first, &second}) {
      stream_pool::pooled_stream& s = lease->stream();
      s.rounds.count(gpu_testing::jobs_of(tables, pool.device(s.device)), counts);
    }
    first.stream().rounds.count(jobs, counts);  // a third round, on device 0 alone
  }
  const device_work zero = pool.work_of(0), one = pool.work_of(1), all = pool.work();
  EXPECT_GT(one.launches, 0U);
  EXPECT_GT(zero.launches, one.launches);
  EXPECT_EQ(all.launches, zero.launches + one.launches);
}

}  // namespace
}  // namespace nqueens
