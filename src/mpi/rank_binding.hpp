#pragma once

#include <optional>
#include <string>

namespace nqueens::mpi {

/// A warning, where the launcher bound this rank to fewer CPUs than its share
/// of those the launcher itself may use (over the ranks on this node): Open
/// MPI binds each rank to one core where a job has two ranks or fewer, so
/// that `mpirun -np 1` on a node of 64 cores counts on one of them. nullopt
/// where the rank has its share, or where nothing says how many ranks share
/// the node, or where `threads` (the --threads given; 0: none) is no more
/// than the rank's CPUs: the binding then costs nothing.
std::optional<std::string> binding_warning(int threads);

}  // namespace nqueens::mpi
