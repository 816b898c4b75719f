// A stream's share of the device's memory (gpu_memory_share.hpp), and the
// node's GPUs dealt to its ranks, with the processes that share each
// (gpu_node_ranks.hpp).

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engines/gpu/gpu_node_ranks.hpp"
#include "support/gpu_testing.hpp"

namespace nqueens {
namespace {

using gpu_testing::scoped_variable;

// `call` is refused with std::invalid_argument, its message naming
// `variable` first, as every launcher variable read wrong is.
template <class Call>
void expect_refusal_naming(Call call, const std::string& variable) {
  try {
    call();
    ADD_FAILURE() << variable << " was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind(variable + "=", 0), 0U) << e.what();
  }
}

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
    EXPECT_GE(useful,
              std::uint64_t{2} * detail::gpu::round_jobs * 8 * detail::gpu::gpu_rounds::words_for(halves, halves))
        << n;
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

// --gpu-memory: the tables go to the GPU only where every stream keeps at
// least its fixed buffers and a MiB of arena beside them; the streams share
// the rest, or the whole bound without the tables. The least bound a count
// is let start with is each stream's least with one job's own lists.
TEST(GpuKernelsTest, AGpuMemoryBoundSharesEachGpuBetweenTablesAndStreams) {
  using detail::gpu::budget_within;
  using detail::gpu::least_stream_bytes;
  constexpr std::uint64_t mib = std::uint64_t{1} << 20;
  const std::uint64_t least = least_stream_bytes(0);
  EXPECT_EQ(least, detail::gpu::priced_stream_fixed_bytes + detail::gpu::least_arena_bytes);
  // Priced before the module says its rounds: within any stream's bound, a
  // stream of any module's rounds takes its own buffers beside the arena
  // the engine lets it have and stays within the bound; at the least bound
  // that arena is at least the least a stream opens with.
  EXPECT_GE(detail::gpu::arena_bound_within(least), detail::gpu::least_arena_bytes);
  for (const std::uint64_t bound : {least, least + 1, 3 * least, 64 * mib, std::uint64_t{80} << 30}) {
    for (std::uint64_t jobs = 1; jobs <= detail::gpu::most_round_jobs; ++jobs) {
      ASSERT_LE(detail::gpu::arena_bound_within(bound) + detail::gpu::stream_fixed_bytes_for(jobs), bound)
          << bound << " bytes, rounds of " << jobs;
    }
  }
  EXPECT_EQ(detail::gpu::arena_bound_within(detail::gpu::priced_stream_fixed_bytes / 2), 0U);
  // No bound: the tables, and whatever stream_share gives.
  EXPECT_TRUE(budget_within(0, 4, 100 * mib).tables);
  EXPECT_EQ(budget_within(0, 4, 100 * mib).stream_bytes, UINT64_MAX);
  // Room for the tables and 4 least streams, exactly: both.
  const auto exact = budget_within(100 * mib + 4 * least, 4, 100 * mib);
  EXPECT_TRUE(exact.tables);
  EXPECT_EQ(exact.stream_bytes, least);
  // A byte less: the tables stay on the host, the streams share it all.
  const auto tight = budget_within(100 * mib + 4 * least - 1, 4, 100 * mib);
  EXPECT_FALSE(tight.tables);
  EXPECT_EQ(tight.stream_bytes, (100 * mib + 4 * least - 1) / 4);
  // Tables larger than the bound; no streams counts as one.
  EXPECT_FALSE(budget_within(50 * mib, 1, 100 * mib).tables);
  EXPECT_EQ(budget_within(50 * mib, 0, 100 * mib).stream_bytes, 50 * mib);
  EXPECT_EQ(detail::gpu::least_device_bytes(3, 7 * mib), 3 * (least + 7 * mib));
  EXPECT_EQ(detail::gpu::least_device_bytes(0, 0), least);
}

// Without --gpu-memory a process takes a like part of each GPU for every
// process counting on it, less the runtime's margin; the whole tables go to
// the GPU only where they fit in that part beside its streams: n = 24's
// 16.9 GiB on an 80 GB H100 alone, not on a 16 GB GPU, nor beside 8 other
// ranks on an H200 (before, each copied them and failed its cudaMalloc).
TEST(GpuKernelsTest, WithoutABoundEachProcessTakesItsPartOfTheGpu) {
  using detail::gpu::budget_within;
  using detail::gpu::own_part_of_device;
  constexpr std::uint64_t gib = std::uint64_t{1} << 30, mib = std::uint64_t{1} << 20;
  EXPECT_EQ(own_part_of_device(0, 1), 0U);  // not known (the emulator): no bound
  EXPECT_EQ(own_part_of_device(80 * gib, 1), 75 * gib);
  EXPECT_EQ(own_part_of_device(80 * gib, 3), 25 * gib);
  EXPECT_EQ(own_part_of_device(4 * gib, 0), 4 * gib - 512 * mib);  // no sharers counts as one
  EXPECT_EQ(own_part_of_device(512 * mib, 1), 1U);                 // nothing left: every need refused
  EXPECT_EQ(own_part_of_device(gib, 1u << 30), 1U);
  const auto h100 = static_cast<std::uint64_t>(80e9), h200 = static_cast<std::uint64_t>(141e9);
  const std::uint64_t tables = 17 * gib;  // n = 24's, about
  EXPECT_TRUE(budget_within(own_part_of_device(h100, 1), 2, tables).tables);
  EXPECT_FALSE(budget_within(own_part_of_device(16 * gib, 1), 2, tables).tables);
  EXPECT_TRUE(budget_within(own_part_of_device(h200, 6), 2, tables).tables);
  EXPECT_FALSE(budget_within(own_part_of_device(h200, 9), 2, tables).tables);
  // The streams then share the part, within it together.
  const std::uint64_t part = own_part_of_device(16 * gib, 1);
  EXPECT_LE(4 * budget_within(part, 4, tables).stream_bytes, part);
}

// The node's GPUs dealt to its ranks: all of them to a process alone; to
// ranks no more than the GPUs, each GPU to one rank; to more ranks, each
// rank one GPU. Every GPU is dealt, and each rank's sharers of a GPU are
// the ranks dealt it, counted GPU by GPU.
TEST(GpuNodeRanksTest, EveryGpuIsDealtAndItsSharersAreTheRanksOnIt) {
  using detail::gpu::deal_devices;
  using detail::gpu::dealt_device;
  EXPECT_EQ(deal_devices(4, std::nullopt, std::nullopt), (std::vector<dealt_device>{{0, 1}, {1, 1}, {2, 1}, {3, 1}}));
  EXPECT_EQ(deal_devices(8, 1, 2), (std::vector<dealt_device>{{1, 1}, {3, 1}, {5, 1}, {7, 1}}));
  EXPECT_EQ(deal_devices(3, 4, 5), (std::vector<dealt_device>{{1, 2}}));  // ranks 1 and 4
  EXPECT_EQ(deal_devices(3, 2, 5), (std::vector<dealt_device>{{2, 1}}));
  EXPECT_EQ(deal_devices(2, 3, std::nullopt), (std::vector<dealt_device>{{0, 1}, {1, 1}}));  // no count: alone
  for (int visible = 1; visible <= 9; ++visible) {
    for (int ranks = 1; ranks <= 20; ++ranks) {
      std::vector<int> on(static_cast<std::size_t>(visible), 0);
      std::vector<dealt_device> all;
      for (int rank = 0; rank < ranks; ++rank) {
        const std::vector<dealt_device> mine = deal_devices(visible, rank, ranks);
        ASSERT_FALSE(mine.empty()) << visible << " GPUs, rank " << rank << " of " << ranks;
        for (const dealt_device& d : mine) {
          ASSERT_GE(d.index, 0);
          ASSERT_LT(d.index, visible);
          ++on[static_cast<std::size_t>(d.index)];
          all.push_back(d);
        }
      }
      for (int d = 0; d < visible; ++d) EXPECT_GE(on[static_cast<std::size_t>(d)], 1) << visible << ", " << ranks;
      for (const dealt_device& d : all) {
        EXPECT_EQ(d.sharers, on[static_cast<std::size_t>(d.index)]) << visible << " GPUs, " << ranks << " ranks";
      }
    }
  }
}

// The launchers' variables: the node-local rank (Open MPI's first), the
// node's ranks (a Slurm step's most tasks on a node; never Slurm's job-wide
// count), NQUEENS_GPU_SHARERS over both (1: every GPU it sees, alone). A rank bound to one GPU is still
// counted a sharer of it. A value that is no number in range is refused,
// not read as 0.
TEST(GpuNodeRanksTest, TheLaunchersVariablesDealTheGpus) {
  using detail::gpu::dealt_device;
  using detail::gpu::launcher_node_ranks;
  using detail::gpu::launcher_rank;
  using detail::gpu::listed_device_sharers;
  using detail::gpu::node_devices;
  const scoped_variable asked("NQUEENS_GPU_SHARERS", nullptr), open_mpi("OMPI_COMM_WORLD_LOCAL_SIZE", nullptr),
      mpich("MPI_LOCALNRANKS", nullptr), slurm_tasks("SLURM_NTASKS", "64"),
      open_mpi_rank("OMPI_COMM_WORLD_LOCAL_RANK", nullptr), mpich_rank("MPI_LOCALRANKID", nullptr),
      slurm_rank("SLURM_LOCALID", nullptr), slurm_step("SLURM_STEP_TASKS_PER_NODE", nullptr),
      slurm_node("SLURM_NODEID", nullptr);
  EXPECT_EQ(launcher_rank(), std::nullopt);
  EXPECT_EQ(launcher_node_ranks(), std::nullopt);
  EXPECT_EQ(node_devices(2), (std::vector<dealt_device>{{0, 1}, {1, 1}}));
  EXPECT_EQ(listed_device_sharers(), 1);
  {
    const scoped_variable rank("OMPI_COMM_WORLD_LOCAL_RANK", "1"), ranks("OMPI_COMM_WORLD_LOCAL_SIZE", "2");
    EXPECT_EQ(node_devices(4), (std::vector<dealt_device>{{1, 1}, {3, 1}}));
    EXPECT_EQ(node_devices(1), (std::vector<dealt_device>{{0, 2}}));
    EXPECT_EQ(listed_device_sharers(), 2);
    {
      const scoped_variable override_it("NQUEENS_GPU_SHARERS", "3");
      EXPECT_EQ(node_devices(4), (std::vector<dealt_device>{{1, 3}, {3, 3}}));
      EXPECT_EQ(listed_device_sharers(), 3);
    }
    // 1: no other process counts on the GPUs it sees (shards each bound to
    // GPUs of their own): it takes every one, whatever its rank.
    const scoped_variable alone("NQUEENS_GPU_SHARERS", "1");
    EXPECT_EQ(node_devices(4), (std::vector<dealt_device>{{0, 1}, {1, 1}, {2, 1}, {3, 1}}));
    EXPECT_EQ(node_devices(1), (std::vector<dealt_device>{{0, 1}}));
    EXPECT_EQ(listed_device_sharers(), 1);
  }
  {
    const scoped_variable ranks("MPI_LOCALNRANKS", "5");
    EXPECT_EQ(launcher_node_ranks(), 5);
  }
  {
    const scoped_variable rank("SLURM_LOCALID", "1");
    EXPECT_EQ(node_devices(4), (std::vector<dealt_device>{{0, 1}, {1, 1}, {2, 1}, {3, 1}}));  // a batch script's
    for (const auto& [tasks, most] : {std::pair<const char*, int>{"2(x3),1", 2}, {"4,8", 8}, {"1", 1}}) {
      const scoped_variable step("SLURM_STEP_TASKS_PER_NODE", tasks);
      EXPECT_EQ(launcher_node_ranks(), most) << tasks;
    }
    const scoped_variable step("SLURM_STEP_TASKS_PER_NODE", "2(x3),1");
    EXPECT_EQ(node_devices(4), (std::vector<dealt_device>{{1, 1}, {3, 1}}));
    // A node of the step knows its own tasks: the fourth node's one task
    // takes every GPU; a node id past the list falls back to the most; one
    // that is no number is refused, naming it.
    for (const auto& [node, tasks] : {std::pair<const char*, int>{"0", 2}, {"2", 2}, {"3", 1}, {"4", 2}, {"", 2}}) {
      const scoped_variable id("SLURM_NODEID", node);
      EXPECT_EQ(launcher_node_ranks(), tasks) << node;
    }
    for (const char* node : {"x", "-1", "1.0"}) {
      const scoped_variable id("SLURM_NODEID", node);
      expect_refusal_naming([] { static_cast<void>(launcher_node_ranks()); }, "SLURM_NODEID");
    }
    {
      const scoped_variable rank_zero("SLURM_LOCALID", "0"), id("SLURM_NODEID", "3");
      EXPECT_EQ(node_devices(4), (std::vector<dealt_device>{{0, 1}, {1, 1}, {2, 1}, {3, 1}}));
      const scoped_variable uneven("SLURM_STEP_TASKS_PER_NODE", "1(x2),3"), second("SLURM_NODEID", "1");
      EXPECT_EQ(launcher_node_ranks(), 1);
    }
    {
      const scoped_variable empty("SLURM_STEP_TASKS_PER_NODE", "");
      EXPECT_EQ(launcher_node_ranks(), std::nullopt);  // as unset
    }
    // Read as unset, a malformed list made each task take every GPU alone.
    for (const char* bad : {"2(x", "0", "2(x0)", "a,1", "junk", "-3", ",", "2,", "4(x0)", "2(x3)x"}) {
      const scoped_variable odd("SLURM_STEP_TASKS_PER_NODE", bad);
      expect_refusal_naming([] { static_cast<void>(launcher_node_ranks()); }, "SLURM_STEP_TASKS_PER_NODE");
    }
  }
  {
    const scoped_variable rank("SLURM_LOCALID", "3");
    EXPECT_EQ(launcher_rank(), 3);
    const scoped_variable first("OMPI_COMM_WORLD_LOCAL_RANK", "6");
    EXPECT_EQ(launcher_rank(), 6);
  }
  {
    const scoped_variable bad("OMPI_COMM_WORLD_LOCAL_RANK", "2x");
    EXPECT_THROW(launcher_rank(), std::invalid_argument);
  }
  // A rank past the node's ranks is refused, naming both, not dealt
  // modulo them (rank 5 of 2 took rank 1's GPUs); NQUEENS_GPU_SHARERS=1
  // reads neither.
  {
    const scoped_variable rank("OMPI_COMM_WORLD_LOCAL_RANK", "5"), ranks("OMPI_COMM_WORLD_LOCAL_SIZE", "2");
    try {
      static_cast<void>(node_devices(3));
      ADD_FAILURE() << "rank 5 of 2 was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_STREQ(e.what(),
                   "OMPI_COMM_WORLD_LOCAL_RANK=5 is not a rank of the 2 on this node (OMPI_COMM_WORLD_LOCAL_SIZE): "
                   "expected 0 to 1");
    }
    const scoped_variable alone("NQUEENS_GPU_SHARERS", "1");
    EXPECT_EQ(node_devices(2), (std::vector<dealt_device>{{0, 1}, {1, 1}}));
  }
  {
    const scoped_variable rank("SLURM_LOCALID", "1"), step("SLURM_STEP_TASKS_PER_NODE", "2,1"), id("SLURM_NODEID", "1");
    expect_refusal_naming([] { static_cast<void>(node_devices(2)); }, "SLURM_LOCALID");
  }
  {
    const scoped_variable none("NQUEENS_GPU_SHARERS", "0");
    EXPECT_THROW(node_devices(1), std::invalid_argument);
  }
}

}  // namespace
}  // namespace nqueens
