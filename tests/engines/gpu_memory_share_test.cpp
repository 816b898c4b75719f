// A stream's share of the device's memory (gpu_memory_share.hpp), and the
// node placement that says how many processes share a device
// (gpu_node_ranks.hpp).

#include <gtest/gtest.h>

#include <stdexcept>

#include "engines/gpu/gpu_node_ranks.hpp"
#include "support/gpu_testing.hpp"

namespace nqueens {
namespace {

using gpu_testing::scoped_variable;

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
  // Too little free: nothing, and the stream refuses (gpu_cuda_stream.cu).
  EXPECT_EQ(stream_share(device_memory{256 * mib, 80 * gib, 0, 1}, 4, UINT64_MAX), 0u);
  EXPECT_EQ(stream_share(device_memory{79 * gib, 80 * gib, 50 * gib, 2}, 4, UINT64_MAX), 0u);
}

// The processes sharing a GPU: NQUEENS_GPU_SHARERS first, else the node's
// ranks over its GPUs (rounded up), else 1; never Slurm's job-wide count. The
// node-local rank picks the GPU; a value that is no rank is refused, not
// read as 0.
TEST(GpuNodeRanksTest, SharersAndRankComeFromTheLaunchersVariables) {
  using detail::gpu::gpu_sharers;
  using detail::gpu::local_rank;
  const scoped_variable asked("NQUEENS_GPU_SHARERS", nullptr), open_mpi("OMPI_COMM_WORLD_LOCAL_SIZE", nullptr),
      mpich("MPI_LOCALNRANKS", nullptr), slurm_tasks("SLURM_NTASKS", "64"),
      open_mpi_rank("OMPI_COMM_WORLD_LOCAL_RANK", nullptr), mpich_rank("MPI_LOCALRANKID", nullptr),
      slurm_rank("SLURM_LOCALID", nullptr);
  EXPECT_EQ(gpu_sharers(8), 1);
  EXPECT_EQ(local_rank(), 0);
  {
    const scoped_variable ranks("OMPI_COMM_WORLD_LOCAL_SIZE", "8");
    EXPECT_EQ(gpu_sharers(8), 1);
    EXPECT_EQ(gpu_sharers(4), 2);
    EXPECT_EQ(gpu_sharers(3), 3);
    EXPECT_EQ(gpu_sharers(0), 8);  // no device seen: every rank on one
    const scoped_variable override_it("NQUEENS_GPU_SHARERS", "1");
    EXPECT_EQ(gpu_sharers(4), 1);
  }
  {
    const scoped_variable ranks("MPI_LOCALNRANKS", "5");
    EXPECT_EQ(gpu_sharers(2), 3);
  }
  {
    const scoped_variable rank("SLURM_LOCALID", "3");
    EXPECT_EQ(local_rank(), 3);
    const scoped_variable first("OMPI_COMM_WORLD_LOCAL_RANK", "6");
    EXPECT_EQ(local_rank(), 6);
  }
  {
    const scoped_variable bad("OMPI_COMM_WORLD_LOCAL_RANK", "2x");
    EXPECT_THROW(local_rank(), std::invalid_argument);
    const scoped_variable none("NQUEENS_GPU_SHARERS", "0");
    EXPECT_THROW(gpu_sharers(1), std::invalid_argument);
  }
}

}  // namespace
}  // namespace nqueens
