// The GPUs a run counts on once its threads are counted
// (gpu_run_devices.hpp): where a node's ranks share a list of GPUs and each
// drives only part of it, a GPU's sharers are the ranks that drive it, so
// that each rank's memory share is what the GPU really holds for it.

#include "engines/gpu/gpu_run_devices.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "engines/gpu/gpu_node_ranks.hpp"
#include "support/gpu_testing.hpp"

namespace nqueens {
namespace {

using detail::gpu::choose_run_devices;
using detail::gpu::dealt_device;
using detail::gpu::ranks_driving;
using gpu_testing::scoped_variable;

TEST(GpuRunDevicesTest, RanksDrivingCountsTheRanksWhosePartHoldsAGpu) {
  for (std::size_t p = 0; p < 8; ++p) EXPECT_EQ(ranks_driving(p, 8, 1, 8), 1) << p;
  for (std::size_t p = 0; p < 4; ++p) EXPECT_EQ(ranks_driving(p, 4, 2, 4), 2) << p;
  // 6 ranks of one thread on 4 GPUs: ranks 4 and 5 come round to GPUs 0 and 1.
  EXPECT_EQ(ranks_driving(0, 4, 1, 6), 2);
  EXPECT_EQ(ranks_driving(1, 4, 1, 6), 2);
  EXPECT_EQ(ranks_driving(2, 4, 1, 6), 1);
  EXPECT_EQ(ranks_driving(3, 4, 1, 6), 1);
  // 2 ranks of two threads on 3 GPUs: rank 0 drives 0 and 1, rank 1 drives 1 and 2.
  EXPECT_EQ(ranks_driving(0, 3, 2, 2), 1);
  EXPECT_EQ(ranks_driving(1, 3, 2, 2), 2);
  EXPECT_EQ(ranks_driving(2, 3, 2, 2), 1);
}

// `--devices all` given to every rank of a node: each takes as many GPUs as
// its threads from its place on, and shares each only with the ranks that
// take it too. NQUEENS_GPU_SHARERS is the user's word, kept.
TEST(GpuRunDevicesTest, RanksCutToTheirThreadsShareOnlyTheGpusTheyDrive) {
  const scoped_variable gpus("NQUEENS_GPU", "emulate:4"), bound("CUDA_VISIBLE_DEVICES", nullptr),
      sharers("NQUEENS_GPU_SHARERS", nullptr), mpich_rank("MPI_LOCALRANKID", nullptr),
      mpich_ranks("MPI_LOCALNRANKS", nullptr), slurm_rank("SLURM_LOCALID", nullptr),
      slurm_tasks("SLURM_STEP_TASKS_PER_NODE", nullptr);
  detail::gpu::set_node_deal(std::nullopt);
  {
    const scoped_variable rank("OMPI_COMM_WORLD_LOCAL_RANK", "3"), ranks("OMPI_COMM_WORLD_LOCAL_SIZE", "8");
    EXPECT_EQ(choose_run_devices("all", 1).chosen, (std::vector<dealt_device>{{3, 2}}));  // ranks 3 and 7
    EXPECT_EQ(choose_run_devices("all", 4).chosen.front().sharers, 8);                    // all four: every rank
    const scoped_variable asked("NQUEENS_GPU_SHARERS", "8");
    EXPECT_EQ(choose_run_devices("all", 1).chosen, (std::vector<dealt_device>{{3, 8}}));
  }
  {
    const scoped_variable rank("OMPI_COMM_WORLD_LOCAL_RANK", "3"), ranks("OMPI_COMM_WORLD_LOCAL_SIZE", "4");
    EXPECT_EQ(choose_run_devices("all", 1).chosen, (std::vector<dealt_device>{{3, 1}}));
    EXPECT_EQ(choose_run_devices("all", 2).chosen, (std::vector<dealt_device>{{3, 2}, {0, 2}}));
    EXPECT_EQ(choose_run_devices("1,2", 1).chosen, (std::vector<dealt_device>{{2, 2}}));  // ranks 1 and 3
  }
}

}  // namespace
}  // namespace nqueens
