// A stream's share of the device's memory (gpu_memory_share.hpp).

#include <gtest/gtest.h>

#include "support/gpu_testing.hpp"

namespace nqueens {
namespace {

using detail::column_class;
using gpu_testing::classes_of;
using gpu_testing::counted_rounds;
using gpu_testing::disjoint_pairs;
using gpu_testing::gpu_variable;
using gpu_testing::reference_count;
using gpu_testing::round_counts;

// A stream takes what its rounds can use, not all that is free: 16 streams
// of a small count once took all of an H100's 80 GB, and a second process
// on the device failed its first allocation. Processes sharing the device
// (ranks of a node) stay within a like part of it together.
TEST(GpuKernelsTest, AStreamTakesItsShareOfTheDeviceNotAllOfIt) {
  using detail::gpu::device_memory;
  using detail::gpu::most_useful_stream_bytes;
  using detail::gpu::stream_share;
  constexpr std::uint64_t gib = std::uint64_t{1} << 30, mib = std::uint64_t{1} << 20;
  // A round of round_jobs jobs twice the largest group's size fits.
  for (const int n : {12, 18, 22, 24}) {
    const double largest = detail::largest_group_halves(n);
    const std::uint64_t useful = most_useful_stream_bytes(largest);
    const auto halves = static_cast<std::uint64_t>(largest);
    EXPECT_GE(useful, 2 * detail::gpu::round_jobs * 8 * detail::gpu::gpu_rounds::words_for(halves, halves)) << n;
    EXPECT_GE(useful, 64 * mib) << n;
    if (n > 12) EXPECT_GT(useful, most_useful_stream_bytes(detail::largest_group_halves(n - 2))) << n;
  }
  const std::uint64_t small = most_useful_stream_bytes(detail::largest_group_halves(12));
  EXPECT_EQ(small, 64 * mib);
  // One process, a small count: 64 MiB a stream, far from the 79 GB free.
  EXPECT_EQ(stream_share(device_memory{79 * gib, 80 * gib, 0, 1}, 16, small), 64 * mib);
  // A large count: what is free less a sixteenth, shared by the streams.
  EXPECT_EQ(stream_share(device_memory{64 * gib, 80 * gib, 0, 1}, 16, UINT64_MAX), 60 * gib / 16);
  // Two and three ranks on one device: each within its part, tables counted.
  for (const int sharers : {2, 3}) {
    const device_memory m{79 * gib, 80 * gib, 2 * gib, sharers};
    const std::uint64_t each = stream_share(m, 16, UINT64_MAX);
    EXPECT_GT(each, 0u);
    EXPECT_LE(sharers * (16 * each + m.tables), m.total - m.free / 16) << sharers << " ranks";
  }
  // Too little free: nothing, and the stream refuses (gpu_device.cu).
  EXPECT_EQ(stream_share(device_memory{256 * mib, 80 * gib, 0, 1}, 4, UINT64_MAX), 0u);
  EXPECT_EQ(stream_share(device_memory{79 * gib, 80 * gib, 50 * gib, 2}, 4, UINT64_MAX), 0u);
}


}  // namespace
}  // namespace nqueens
