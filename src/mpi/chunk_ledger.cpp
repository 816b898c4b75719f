#include "mpi/chunk_ledger.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace nqueens::mpi {

chunk_ledger::chunk_ledger(int ranks) : held_(static_cast<std::size_t>(std::max(ranks, 0))) {}

void chunk_ledger::handed(int rank, std::span<const std::uint64_t> chunk) {
  held_chunk& held = held_.at(static_cast<std::size_t>(rank));
  held.indices.assign(chunk.begin(), chunk.end());
  std::ranges::sort(held.indices);
  held.reported.assign(held.indices.size(), false);
}

void chunk_ledger::reported(int rank, std::uint64_t index) {
  const auto refuse = [&](const char* why) {
    throw std::runtime_error("rank " + std::to_string(rank) + " reported subproblem " + std::to_string(index) + ", " +
                             why + ": its counts cannot be trusted");
  };
  if (rank < 0 || static_cast<std::size_t>(rank) >= held_.size()) refuse("and there is no such rank");
  held_chunk& held = held_[static_cast<std::size_t>(rank)];
  const auto at = std::ranges::lower_bound(held.indices, index);
  if (at == held.indices.end() || *at != index) refuse("which it was not given");
  const auto position = static_cast<std::size_t>(at - held.indices.begin());
  if (held.reported[position]) refuse("twice");
  held.reported[position] = true;
}

void chunk_ledger::closed(int rank) {
  held_chunk& held = held_.at(static_cast<std::size_t>(rank));
  held.indices.clear();
  held.reported.clear();
}

}  // namespace nqueens::mpi
