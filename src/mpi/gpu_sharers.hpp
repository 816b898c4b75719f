#pragma once

// Which ranks of a node count on the same GPUs. The launchers' variables
// say how many ranks a node runs, not which GPUs each sees: ranks each bound
// to GPUs of their own (a per-rank CUDA_VISIBLE_DEVICES, Slurm's
// --gpus-per-task) would each take a share of their GPU's memory as if all
// the node's ranks shared it. The ranks compare the GPUs they see instead.

namespace nqueens::mpi {

/// Deals the node's GPUs among its ranks from the GPUs each sees (their
/// UUIDs; gpu_node_deal.hpp) and tells the GPU engine this rank's share
/// (gpu_node_ranks.hpp's set_node_deal): ranks that see the same GPUs
/// split them, ranks bound to GPUs of their own take those, and each GPU's
/// sharers are the ranks dealt it. `gpu_run`: whether this rank counts on
/// the GPU engine (a rank that does not, or sees no GPU, takes none).
/// Collective over MPI_COMM_WORLD: every rank calls it, whatever it was
/// asked.
void place_among_gpu_sharers(bool gpu_run);

}  // namespace nqueens::mpi
