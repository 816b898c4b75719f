#pragma once

// Which ranks of a node count on the same GPUs. The launchers' variables
// say how many ranks a node runs, not which GPUs each sees: ranks each bound
// to GPUs of their own (a per-rank CUDA_VISIBLE_DEVICES, Slurm's
// --gpus-per-task) would each take a share of their GPU's memory as if all
// the node's ranks shared it. The ranks compare the GPUs they see instead.

namespace nqueens::mpi {

/// Groups this node's ranks by the set of GPUs each sees (their UUIDs) and
/// tells the GPU engine this rank's place in its group
/// (gpu_node_ranks.hpp's set_node_place): each group is dealt its GPUs as a
/// node of its own. `gpu_run`: whether this rank counts on the GPU engine
/// (a rank that does not, or sees no GPU, joins no group). Collective over
/// MPI_COMM_WORLD: every rank calls it, whatever it was asked.
void place_among_gpu_sharers(bool gpu_run);

}  // namespace nqueens::mpi
