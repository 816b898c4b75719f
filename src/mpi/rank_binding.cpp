#include "mpi/rank_binding.hpp"

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <limits>

#include "engines/plain_number.hpp"

namespace nqueens::mpi {

namespace {

// CPUs process `pid` may run on (0: this one); 0 where it cannot be read.
int allowed_cpus(pid_t pid) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  return ::sched_getaffinity(pid, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 0;
}

}  // namespace

std::optional<std::string> binding_warning(int threads) {
  int node_ranks = 0;
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    const char* value = std::getenv(name);
    if (value == nullptr) continue;
    if (const auto ranks = detail::plain_integer(value, 1, std::numeric_limits<int>::max())) {
      node_ranks = static_cast<int>(*ranks);
      break;
    }
  }
  if (node_ranks == 0) return std::nullopt;
  // The launcher's CPUs, not the machine's: a container's or a batch job's
  // cpuset bounds both alike, and is no binding of the rank's.
  const int mine = allowed_cpus(0), launcher = allowed_cpus(::getppid());
  if (mine == 0 || launcher == 0 || mine >= launcher / node_ranks) return std::nullopt;
  if (threads != 0 && threads <= mine) return std::nullopt;  // `-t 1` asks for no more than it has
  return "this rank may run on " + std::to_string(mine) + " of the " + std::to_string(launcher) +
         " CPUs its launcher has for " + std::to_string(node_ranks) + (node_ranks == 1 ? " rank" : " ranks") +
         ": mpirun bound it (Open MPI binds each rank to a core in a job of 1 or 2 ranks); give mpirun "
         "--bind-to none to count on them all";
}

}  // namespace nqueens::mpi
