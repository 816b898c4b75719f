// The streams of a run across its devices (gpu_stream_pool.hpp): leases
// spread over the devices, fewest leased first (then fewest leases), each
// device within its share of streams; a lease past every share waits for the next stream
// freed and takes that one.

#include "engines/gpu/gpu_stream_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "nqueens/device_work.hpp"
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

// A thread that leases while no other holds a stream, lease after lease,
// takes each device in turn, not the first every time: a count's calls
// spread over its GPUs however its threads happen to overlap.
TEST(GpuStreamPoolTest, LeasesOneAtATimeTakeTheDevicesInTurn) {
  const detail::half_board_tables tables(6);
  stream_pool pool(emulated_devices(tables, 3), 1);
  std::vector<std::size_t> devices;
  for (int k = 0; k < 7; ++k) devices.push_back(stream_pool::lease(pool).stream().device);
  EXPECT_EQ(devices, (std::vector<std::size_t>{0, 1, 2, 0, 1, 2, 0}));
  // Fewest leased still comes first: with device 1's stream held, the
  // next leases alternate between 2 and 0, whatever their turns.
  const stream_pool::lease held(pool);
  ASSERT_EQ(held.stream().device, 1U);
  devices.clear();
  for (int k = 0; k < 4; ++k) devices.push_back(stream_pool::lease(pool).stream().device);
  EXPECT_EQ(devices, (std::vector<std::size_t>{2, 0, 2, 0}));
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

// Where a device fails, every stream's round is stopped, leased or not:
// a free one's stop is cleared by its next holder's count, which then runs.
TEST(GpuStreamPoolTest, StopAllStopsEveryStream) {
  const detail::half_board_tables tables(8);
  stream_pool pool(emulated_devices(tables, 2), 1);
  std::vector<detail::gpu::gpu_stream*> streams;
  {
    const stream_pool::lease first(pool), second(pool);
    streams = {first.stream().stream.get(), second.stream().stream.get()};
    pool.stop_cancelled();  // no holder's flag set: stops nothing
    for (const detail::gpu::gpu_stream* s : streams) EXPECT_FALSE(s->stopped());
  }
  {
    const stream_pool::lease held(pool);  // one leased, the other free
    pool.stop_all();
    for (const detail::gpu::gpu_stream* s : streams) EXPECT_TRUE(s->stopped());
    const std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, pool.device(held.stream().device));
    std::vector<detail::gpu::pair_counts> counts(jobs.size());
    held.stream().rounds.count(jobs, counts);  // clears its stop word, then counts
    EXPECT_FALSE(held.stream().stream->stopped());
  }
}

// A device whose streams open only once the test lets them: each open
// waits for `gate`, the first says it began, and the first `fails` throw,
// as a device without the memory does.
class gated_backend final : public detail::gpu::gpu_backend {
 public:
  gated_backend(const detail::half_board_tables& tables, std::shared_future<void> gate, int fails = 1)
      : inner_(detail::gpu::emulated_backend(tables)), gate_(std::move(gate)), fails_(fails) {}
  std::promise<void> opening;
  std::atomic<int> opens{0};
  std::unique_ptr<detail::gpu::gpu_stream> open_stream() override {
    const int open = opens++;
    if (open == 0) opening.set_value();
    gate_.wait();
    if (open < fails_) throw std::runtime_error("no device memory for a stream");
    return inner_->open_stream();
  }
  std::uint32_t round_jobs() const noexcept override { return inner_->round_jobs(); }
  detail::gpu::quarter_arrays west() const noexcept override { return inner_->west(); }
  detail::gpu::quarter_arrays east() const noexcept override { return inner_->east(); }
  std::string where() const override { return inner_->where(); }

 private:
  std::unique_ptr<detail::gpu::gpu_backend> inner_;
  std::shared_future<void> gate_;
  int fails_;
};

// A lease whose stream failed to open is no lease: the device is not left
// counted as busy. With device 0's stream held, each lease tries device 1
// (none leased there) until its open succeeds; a failure left counted would
// send the next lease to device 0's second stream instead.
TEST(GpuStreamPoolTest, AFailedOpenLeavesItsDeviceUnleased) {
  const detail::half_board_tables tables(6);
  std::promise<void> open_at_once;
  open_at_once.set_value();
  std::vector<std::unique_ptr<detail::gpu::gpu_backend>> devices;
  devices.push_back(detail::gpu::emulated_backend(tables, {.device = 0}));
  auto owned = std::make_unique<gated_backend>(tables, open_at_once.get_future().share(), 2);
  gated_backend& failing = *owned;
  devices.push_back(std::move(owned));
  stream_pool pool(std::move(devices), 2);
  const stream_pool::lease held(pool);
  ASSERT_EQ(held.stream().device, 0U);
  for (int k = 0; k < 2; ++k) {
    EXPECT_THROW({ const stream_pool::lease refused(pool); }, std::runtime_error) << "lease " << k;
  }
  EXPECT_EQ(failing.opens.load(), 2);
  const stream_pool::lease opened(pool);
  EXPECT_EQ(opened.stream().device, 1U);
  EXPECT_EQ(failing.opens.load(), 3);
}

// A stream's device memory can take a while: while one opens, stopping the
// pool's cancelled rounds does not wait for it, and the device's share
// counts it (a second lease of a one-stream device waits rather than open
// another). An open that fails gives its share back: the waiting lease
// then opens the device's stream itself.
TEST(GpuStreamPoolTest, AStreamOpensWithoutHoldingThePool) {
  const detail::half_board_tables tables(6);
  std::promise<void> gate;
  auto owned = std::make_unique<gated_backend>(tables, gate.get_future().share());
  gated_backend& gated = *owned;
  std::vector<std::unique_ptr<detail::gpu::gpu_backend>> devices;
  devices.push_back(std::move(owned));
  stream_pool pool(std::move(devices), 1);
  auto first = std::async(std::launch::async, [&] { const stream_pool::lease lease(pool); });
  gated.opening.get_future().wait();
  auto stop = std::async(std::launch::async, [&] { pool.stop_cancelled(); });
  const bool stopped_while_opening = stop.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  auto second = std::async(std::launch::async, [&] {
    const stream_pool::lease lease(pool);
    return lease.stream().device;
  });
  // Until the first open ends it cannot, however the threads are scheduled.
  const bool second_waited = second.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout;
  EXPECT_EQ(gated.opens.load(), 1);  // nor open a second stream meanwhile
  gate.set_value();                  // before any assertion that returns: every thread can end
  EXPECT_TRUE(stopped_while_opening);
  EXPECT_TRUE(second_waited);
  EXPECT_THROW(first.get(), std::runtime_error);
  ASSERT_EQ(second.wait_for(std::chrono::seconds(60)), std::future_status::ready);
  EXPECT_EQ(second.get(), 0U);
  EXPECT_EQ(gated.opens.load(), 2);
}
}  // namespace
}  // namespace nqueens
