// Which GPUs a run counts on (gpu_device_choice.hpp): --devices' forms,
// and the list chosen among an emulated node's devices by index and UUID,
// or refused in a line that says what is visible.

#include "engines/gpu/gpu_device_choice.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "support/gpu_testing.hpp"

namespace nqueens {
namespace {

using detail::gpu::check_device_list;
using detail::gpu::choose_devices;
using detail::gpu::dealt_device;
using gpu_testing::scoped_variable;

// The message choose_devices or check_device_list refuses `value` with ("" if none).
std::string refusal(const std::string& value, int visible = 3) {
  try {
    choose_devices(value, detail::gpu::emulated_node(visible));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(GpuDeviceChoiceTest, ListsTakeIndicesAndUuidsOnce) {
  for (const char* good : {"", "all", "0", "2,0", "1023", "GPU-e0000000-0000-0000-0000-000000000001", "GPU-0a1B2c3D",
                           "0,GPU-e0000000-0000-0000-0000-000000000002"}) {
    EXPECT_NO_THROW(check_device_list(good)) << good;
  }
  for (const char* bad : {",", "0,", ",1", "a", "-1", "01", "1024", "0,0", "GPU-", "GPU-xyz", "all,0", " 1", "gpu-1",
                          "GPU-abc,GPU-ABC", "MIG-0a1b"}) {
    EXPECT_THROW(check_device_list(bad), std::invalid_argument) << bad;
  }
  EXPECT_EQ(refusal("0,x"),
            "--devices item 'x' is no GPU: expected all, or GPU indices (0 to 1023) and UUIDs (GPU-...) separated by "
            "commas");
  EXPECT_EQ(refusal("1,1"), "--devices names GPU 1 twice");
  // A UUID names itself: "GPU-...", not "GPU GPU-...".
  EXPECT_EQ(refusal("GPU-e0000000-0000-0000-0000-000000000001,GPU-e0000000-0000-0000-0000-000000000001"),
            "--devices names GPU-e0000000-0000-0000-0000-000000000001 twice");
}

TEST(GpuDeviceChoiceTest, ChoosesByIndexAndUuidAmongTheVisible) {
  const scoped_variable rank("OMPI_COMM_WORLD_LOCAL_RANK", nullptr), ranks("OMPI_COMM_WORLD_LOCAL_SIZE", nullptr),
      mpich_rank("MPI_LOCALRANKID", nullptr), mpich_ranks("MPI_LOCALNRANKS", nullptr), slurm("SLURM_LOCALID", nullptr),
      sharers("NQUEENS_GPU_SHARERS", nullptr), bound("CUDA_VISIBLE_DEVICES", nullptr);
  const std::vector<detail::gpu::device_identity> node = detail::gpu::emulated_node(3);
  ASSERT_EQ(node.size(), 3U);
  EXPECT_EQ(node[2].uuid, "GPU-e0000000-0000-0000-0000-000000000002");
  const std::vector<dealt_device> every{{0, 1}, {1, 1}, {2, 1}};
  EXPECT_EQ(choose_devices("", node), every);  // alone on the node: every GPU
  EXPECT_EQ(choose_devices("all", node), every);
  EXPECT_EQ(choose_devices("2,0", node), (std::vector<dealt_device>{{2, 1}, {0, 1}}));
  EXPECT_EQ(choose_devices("GPU-E0000000-0000-0000-0000-000000000001", node), (std::vector<dealt_device>{{1, 1}}));
  EXPECT_EQ(refusal("3"), "--devices names GPU 3, but 3 GPUs are visible (0 to 2)");
  EXPECT_EQ(refusal("1", 1), "--devices names GPU 1, but 1 GPU is visible (0 to 0)");
  EXPECT_EQ(refusal("GPU-e0000000-0000-0000-0000-000000000009"),
            "--devices names GPU-e0000000-0000-0000-0000-000000000009, which is not visible (3 GPUs are: "
            "nvidia-smi -L lists their UUIDs)");
  EXPECT_EQ(refusal("1,GPU-e0000000-0000-0000-0000-000000000001"), "--devices names GPU 1 twice (by index and UUID)");
  EXPECT_EQ(refusal("", 0), "no GPU is visible");
  // A list under MPI: every rank of the node may have been given it.
  const scoped_variable two("OMPI_COMM_WORLD_LOCAL_SIZE", "2"), second("OMPI_COMM_WORLD_LOCAL_RANK", "1");
  EXPECT_EQ(choose_devices("0", node), (std::vector<dealt_device>{{0, 2}}));
  EXPECT_EQ(choose_devices("", node), (std::vector<dealt_device>{{1, 1}}));
}

// An emulated node shows what CUDA_VISIBLE_DEVICES names, as the runtime
// does: by place or UUID, in its order, up to the first it cannot find or
// names again; each keeps its UUID and takes its index among those seen.
TEST(GpuDeviceChoiceTest, AnEmulatedNodeShowsWhatCudaVisibleDevicesNames) {
  const auto uuids = [](const char* visible) {
    const scoped_variable bound("CUDA_VISIBLE_DEVICES", visible);
    std::string text;
    int index = 0;
    for (const detail::gpu::device_identity& d : detail::gpu::emulated_node(3)) {
      EXPECT_EQ(d.index, index++) << visible;
      text += d.uuid.substr(d.uuid.size() - 1) + " ";
    }
    return text;
  };
  EXPECT_EQ(uuids(nullptr), "0 1 2 ");
  EXPECT_EQ(uuids("2,GPU-e0000000-0000-0000-0000-000000000000"), "2 0 ");
  EXPECT_EQ(uuids("1,3,0"), "1 ");  // no GPU 3: the list ends there
  EXPECT_EQ(uuids("2,2,0"), "2 ");
  for (const char* none : {"x,0", "", "3"}) {
    const scoped_variable bound("CUDA_VISIBLE_DEVICES", none);
    try {
      detail::gpu::emulated_node(3);
      ADD_FAILURE() << none << ": no refusal";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(e.what(), "CUDA_VISIBLE_DEVICES='" + std::string(none) +
                              "' names none of the 3 emulated GPUs (0 to 2): no GPU is visible");
    }
  }
}

// The launcher's deal goes by the GPUs' UUIDs: two ranks that see the same
// two GPUs in other orders take different ones.
TEST(GpuDeviceChoiceTest, RanksThatSeeTheSameGpusInOtherOrdersTakeDifferentOnes) {
  const scoped_variable ranks("OMPI_COMM_WORLD_LOCAL_SIZE", "2"), sharers("NQUEENS_GPU_SHARERS", nullptr);
  std::vector<std::string> taken;
  for (const char* rank_and_order : {"0:0,1", "1:1,0"}) {
    const std::string text = rank_and_order;
    const scoped_variable rank("OMPI_COMM_WORLD_LOCAL_RANK", text.substr(0, 1).c_str()),
        bound("CUDA_VISIBLE_DEVICES", text.substr(2).c_str());
    const std::vector<detail::gpu::device_identity> node = detail::gpu::emulated_node(2);
    const std::vector<dealt_device> dealt = choose_devices("", node);
    ASSERT_EQ(dealt.size(), 1U) << text;
    taken.push_back(node[static_cast<std::size_t>(dealt[0].index)].uuid);
  }
  EXPECT_NE(taken[0], taken[1]);
}

// A deal set by the program (nqueens-mpi's ranks compare the GPUs each
// sees) stands for the launchers' variables: its GPUs by default, and each
// listed GPU's sharers are the processes that see it.
TEST(GpuDeviceChoiceTest, ADealSetOnTheNodeStandsForTheLaunchers) {
  const scoped_variable rank("OMPI_COMM_WORLD_LOCAL_RANK", "0"), ranks("OMPI_COMM_WORLD_LOCAL_SIZE", "6"),
      sharers("NQUEENS_GPU_SHARERS", nullptr), bound("CUDA_VISIBLE_DEVICES", nullptr);
  const std::vector<detail::gpu::device_identity> node = detail::gpu::emulated_node(3);
  EXPECT_EQ(choose_devices("", node), (std::vector<dealt_device>{{0, 2}}));  // 6 ranks on 3 GPUs
  const auto uuid = [&](int d) { return node[static_cast<std::size_t>(d)].uuid; };
  detail::gpu::set_node_deal(detail::gpu::node_deal{
      .rank = 1, .taken = {{uuid(2), 1}, {uuid(1), 1}}, .seen = {{uuid(0), 3}, {uuid(1), 1}, {uuid(2), 2}}});
  EXPECT_EQ(choose_devices("", node), (std::vector<dealt_device>{{2, 1}, {1, 1}}));
  EXPECT_EQ(choose_devices("all", node), (std::vector<dealt_device>{{0, 3}, {1, 1}, {2, 2}}));
  EXPECT_EQ(choose_devices("2", node), (std::vector<dealt_device>{{2, 2}}));
  {
    const scoped_variable asked("NQUEENS_GPU_SHARERS", "4");
    EXPECT_EQ(choose_devices("", node), (std::vector<dealt_device>{{2, 4}, {1, 4}}));
  }
  detail::gpu::set_node_deal(std::nullopt);
  EXPECT_EQ(choose_devices("", node), (std::vector<dealt_device>{{0, 2}}));
}

}  // namespace
}  // namespace nqueens
