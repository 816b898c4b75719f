#pragma once

// The GPUs of a node dealt among its processes from the GPUs each sees,
// where the processes can compare them (nqueens-mpi's ranks): the same deal
// on every process, whatever order each sees its GPUs in and whichever of
// them it sees. Host code only.

#include <cstdint>
#include <span>
#include <vector>

namespace nqueens::detail::gpu {

/// A GPU a process takes, by its key, and the processes counting on it.
struct keyed_share {
  std::uint64_t key = 0;
  int sharers = 1;
  friend bool operator==(const keyed_share&, const keyed_share&) = default;
};

/// What each process of a node takes, `sees[p]` holding process p's GPUs
/// as keys (one per GPU, the same in every process: its UUID's hash).
/// First every GPU goes to one process that sees it, the GPUs seen by the
/// fewest processes first, each to the process with the fewest so far (the
/// lowest first on a tie): ranks that see the same G GPUs take G / R each,
/// ranks bound to GPUs of their own take those. Then each process left
/// without one shares the GPU it sees that the fewest share. Each
/// process's GPUs in key order; none for a process that sees none.
std::vector<std::vector<keyed_share>> deal_node_gpus(std::span<const std::vector<std::uint64_t>> sees);

}  // namespace nqueens::detail::gpu
