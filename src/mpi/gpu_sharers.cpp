#include "mpi/gpu_sharers.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engines/fingerprint.hpp"
#include "engines/gpu/gpu_node_ranks.hpp"
#include "engines/gpu/gpu_seen_devices.hpp"

namespace nqueens::mpi {
namespace {

// The most GPUs of a rank compared; a rank seeing more is compared on
// these (a node of more than 128 GPUs is far off).
constexpr std::size_t most_compared = 128;

// The GPUs this rank sees, each as a number (its UUID's hash, never 0),
// sorted: a set, whatever order CUDA_VISIBLE_DEVICES gives them in. Empty
// where none is usable (the count's own checks say why).
std::vector<std::uint64_t> seen_gpu_set() {
  std::vector<std::uint64_t> set;
  try {
    for (const auto& device : detail::gpu::seen_devices()) {
      detail::fnv1a hash;
      hash.add_text(device.uuid);
      set.push_back(hash.value() | 1);
    }
  } catch (...) {
    return {};
  }
  std::ranges::sort(set);
  if (set.size() > most_compared) set.resize(most_compared);
  return set;
}

bool overlap(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) {
  return std::ranges::any_of(a, [&](std::uint64_t g) { return std::ranges::binary_search(b, g); });
}

}  // namespace

void place_among_gpu_sharers(bool gpu_run) {
  // Each rank's set as a count and most_compared words.
  std::vector<std::uint64_t> mine(1 + most_compared, 0);
  if (gpu_run) {
    const std::vector<std::uint64_t> set = seen_gpu_set();
    mine[0] = set.size();
    std::ranges::copy(set, mine.begin() + 1);
  }
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0, node_ranks = 1;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_ranks);
  std::vector<std::uint64_t> all(mine.size() * static_cast<std::size_t>(node_ranks));
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, all.data(), static_cast<int>(mine.size()),
                MPI_UINT64_T, node);
  MPI_Comm_free(&node);
  if (mine[0] == 0) return;
  const auto set_of = [&](int r) {
    const std::size_t at = static_cast<std::size_t>(r) * mine.size();
    return std::span<const std::uint64_t>(all).subspan(at + 1, all[at]);
  };
  const std::span<const std::uint64_t> own = set_of(node_rank);
  // The ranks that see this rank's set; where some see a set that overlaps
  // it without being it, every rank that sees a GPU, as one node: a GPU
  // two groups see would otherwise be taken by each as its own.
  bool tangled = false;
  for (int r = 0; r < node_ranks; ++r) {
    const std::span<const std::uint64_t> other = set_of(r);
    if (!std::ranges::equal(other, own) && overlap(other, own)) tangled = true;
  }
  int place = 0, ranks = 0;
  for (int r = 0; r < node_ranks; ++r) {
    const std::span<const std::uint64_t> other = set_of(r);
    if (other.empty() || (!tangled && !std::ranges::equal(other, own))) continue;
    place += r < node_rank ? 1 : 0;
    ++ranks;
  }
  detail::gpu::set_node_place(detail::gpu::node_place{.rank = place, .ranks = ranks});
}

}  // namespace nqueens::mpi
