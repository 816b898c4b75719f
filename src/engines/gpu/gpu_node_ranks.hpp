#pragma once

// Where a process of an MPI job sits on its node, read from what the
// launchers set (Open MPI, MPICH, Slurm), and which of the node's GPUs that
// gives it: every GPU where it is alone on its node, its share of them where
// ranks share the node, and how many processes count on each GPU it takes
// (gpu_memory_share.hpp), counted GPU by GPU. Host code only, so that the
// tests read it without a device.

#include <optional>
#include <string>
#include <vector>

#include "engines/gpu/gpu_memory_share.hpp"

namespace nqueens::detail::gpu {

/// The node-local rank of an MPI job or a Slurm step, where a launcher set
/// one. Read strictly: a rank atoi made 0 of would take rank 0's GPUs.
std::optional<int> launcher_rank();

/// The tasks a Slurm step runs on this node, from SLURM_STEP_TASKS_PER_NODE
/// ("2(x3),1": 2 on each of three nodes, then 1) at this node's place in the
/// step (SLURM_NODEID); where that is not set or not within the list (the
/// job's node index past the step's nodes), the most on any node, so that
/// ranks never take the same GPU alone. nullopt where the list is not set.
/// Throws std::invalid_argument, naming the variable, for a list not of
/// that form or a SLURM_NODEID that is no number: read as unset, a task
/// would take every GPU as if alone on its node.
std::optional<int> slurm_step_node_tasks();

/// The ranks on this node: Open MPI's and MPICH's count, else a Slurm
/// step's on this node (slurm_step_node_tasks); never Slurm's job-wide task count, which
/// a plain run inside a batch job inherits.
std::optional<int> launcher_node_ranks();

/// A GPU by its UUID, and the processes of its node counting on it.
struct uuid_share {
  std::string uuid;
  int sharers = 1;
};

/// What a program that sees its whole node dealt this process
/// (nqueens-mpi's ranks compare the GPUs each sees: gpu_node_deal.hpp),
/// standing for the launchers' variables.
struct node_deal {
  /// Its place among the node's processes that see a GPU: where the GPUs of
  /// a list it is given start.
  int rank = 0;
  /// The GPUs it takes by default.
  std::vector<uuid_share> taken;
  /// Every GPU it sees, with the node's processes that see it: the sharers
  /// of a GPU that --devices names, which each of them may be given too.
  std::vector<uuid_share> seen;
};

/// The deal set_node_deal set, if any.
std::optional<node_deal>& node_deal_set();

/// Sets what this process takes of its node's GPUs. Call before a GPU
/// count, never during one.
void set_node_deal(std::optional<node_deal> deal);

/// This process's place on its node: set_node_deal's, else launcher_rank.
std::optional<int> node_rank();

/// NQUEENS_GPU_SHARERS, where set: the processes counting on each GPU this
/// one takes, whatever the launcher says. Throws std::invalid_argument on
/// a value out of range.
std::optional<int> asked_sharers();

/// A GPU a process takes: its index among those it sees, and the processes
/// counting on it (this one included).
struct dealt_device {
  int index = 0;
  int sharers = 1;
  friend bool operator==(const dealt_device&, const dealt_device&) = default;
};

/// The GPUs of `visible` (>= 1) that node-local rank `rank` of `ranks` takes:
/// all of them, alone, where it is alone (no rank, or no count of the
/// node's ranks: a plain run, or a batch script's own process); those of
/// index = rank modulo ranks, alone, where the node has no more ranks than
/// GPUs; else GPU rank modulo visible, with the ranks dealt to it.
std::vector<dealt_device> deal_devices(int visible, std::optional<int> rank, std::optional<int> ranks);

/// The GPUs this process takes of the `visible` it sees (>= 1), by default
/// where no deal was set: deal_devices from the launchers' variables,
/// NQUEENS_GPU_SHARERS setting the sharers of each. Processes each bound to
/// GPUs of their own (a per-rank CUDA_VISIBLE_DEVICES) that are not
/// nqueens-mpi's ranks look like processes sharing them: NQUEENS_GPU_SHARERS=1
/// says that none does, and each takes every GPU it sees, alone, whatever
/// its rank. Throws std::invalid_argument where a variable is no number in
/// range (the node-local rank below the node's ranks), or
/// SLURM_STEP_TASKS_PER_NODE no list of Slurm's form.
std::vector<dealt_device> node_devices(int visible);

/// The sharers of each GPU a process was told to take (--devices) where no
/// deal was set: every rank of its node may have been told the same, so
/// the node's ranks, unless
/// NQUEENS_GPU_SHARERS says; 1 outside MPI.
int listed_device_sharers();

}  // namespace nqueens::detail::gpu
