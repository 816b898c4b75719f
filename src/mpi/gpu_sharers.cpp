#include "mpi/gpu_sharers.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engines/fingerprint.hpp"
#include "engines/gpu/gpu_node_ranks.hpp"
#include "engines/gpu/gpu_seen_devices.hpp"

namespace nqueens::mpi {
namespace {

// The GPUs this rank sees, as one number (0: none, or none usable: the
// count's own checks say why).
std::uint64_t seen_gpu_set() {
  std::vector<std::string> uuids;
  try {
    for (const auto& device : detail::gpu::seen_devices()) uuids.push_back(device.uuid);
  } catch (...) {
    return 0;
  }
  if (uuids.empty()) return 0;
  std::ranges::sort(uuids);  // a set: the order CUDA_VISIBLE_DEVICES gives them is the rank's own
  detail::fnv1a hash;
  for (const std::string& uuid : uuids) {
    hash.add_text(uuid);
    hash.add_byte(0);
  }
  return hash.value() | 1;  // never 0
}

}  // namespace

void place_among_gpu_sharers(bool gpu_run) {
  const std::uint64_t mine = gpu_run ? seen_gpu_set() : 0;
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0, node_ranks = 1;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_ranks);
  std::vector<std::uint64_t> sets(static_cast<std::size_t>(node_ranks));
  MPI_Allgather(&mine, 1, MPI_UINT64_T, sets.data(), 1, MPI_UINT64_T, node);
  MPI_Comm_free(&node);
  if (mine == 0) return;
  const auto before = sets.begin() + node_rank;
  detail::gpu::set_node_place(detail::gpu::node_place{
      .rank = static_cast<int>(std::count(sets.begin(), before, mine)),
      .ranks = static_cast<int>(std::ranges::count(sets, mine)),
  });
}

}  // namespace nqueens::mpi
