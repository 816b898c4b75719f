#include "mpi/gpu_sharers.hpp"

#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engines/fingerprint.hpp"
#include "engines/gpu/gpu_node_deal.hpp"
#include "engines/gpu/gpu_node_ranks.hpp"
#include "engines/gpu/gpu_seen_devices.hpp"

namespace nqueens::mpi {
namespace {

// The most GPUs of a rank compared; a rank seeing more is compared on
// these (a node of more than 128 GPUs is far off).
constexpr std::size_t most_compared = 128;

// A GPU's key, the same in every rank: its UUID's hash (never 0).
std::uint64_t key_of(const std::string& uuid) {
  detail::fnv1a hash;
  for (const char c : uuid) hash.add_byte(static_cast<std::uint8_t>(std::tolower(static_cast<unsigned char>(c))));
  return hash.value() | 1;
}

// The UUIDs of the GPUs this rank sees; none where none is usable (the
// count's own checks say why).
std::vector<std::string> seen_uuids() {
  std::vector<std::string> uuids;
  try {
    for (const auto& device : detail::gpu::seen_devices()) uuids.push_back(device.uuid);
  } catch (...) {
    return {};
  }
  if (uuids.size() > most_compared) uuids.resize(most_compared);
  return uuids;
}

}  // namespace

void place_among_gpu_sharers(bool gpu_run) {
  const std::vector<std::string> uuids = gpu_run ? seen_uuids() : std::vector<std::string>();
  // Each rank's GPUs as a count and most_compared keys.
  std::vector<std::uint64_t> mine(1 + most_compared, 0);
  mine[0] = uuids.size();
  for (std::size_t g = 0; g < uuids.size(); ++g) mine[1 + g] = key_of(uuids[g]);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0, node_ranks = 1;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_ranks);
  std::vector<std::uint64_t> all(mine.size() * static_cast<std::size_t>(node_ranks));
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, all.data(), static_cast<int>(mine.size()),
                MPI_UINT64_T, node);
  MPI_Comm_free(&node);
  if (uuids.empty()) return;
  std::vector<std::vector<std::uint64_t>> sees(static_cast<std::size_t>(node_ranks));
  for (std::size_t r = 0; r < sees.size(); ++r) {
    const std::size_t at = r * mine.size();
    sees[r].assign(all.begin() + static_cast<std::ptrdiff_t>(at + 1),
                   all.begin() + static_cast<std::ptrdiff_t>(at + 1 + all[at]));
  }
  const auto me = static_cast<std::size_t>(node_rank);
  const std::vector<std::vector<detail::gpu::keyed_share>> dealt = detail::gpu::deal_node_gpus(sees);
  detail::gpu::node_deal deal;
  for (std::size_t r = 0; r < me; ++r) deal.rank += sees[r].empty() ? 0 : 1;
  const auto uuid_of = [&](std::uint64_t key) {
    return *std::ranges::find_if(uuids, [&](const std::string& uuid) { return key_of(uuid) == key; });
  };
  for (const detail::gpu::keyed_share& g : dealt[me]) deal.taken.push_back({uuid_of(g.key), g.sharers});
  std::ranges::sort(deal.taken, {}, &detail::gpu::uuid_share::uuid);  // as the launchers' deal lists them
  for (const std::string& uuid : uuids) {
    const std::uint64_t key = key_of(uuid);
    const auto seeing = std::ranges::count_if(
        sees, [&](const std::vector<std::uint64_t>& set) { return std::ranges::find(set, key) != set.end(); });
    deal.seen.push_back({uuid, static_cast<int>(seeing)});
  }
  detail::gpu::set_node_deal(std::move(deal));
}

}  // namespace nqueens::mpi
