#pragma once

// Executors: where the run driver's subproblems are counted. The driver
// (run_driver.hpp) hands an executor the indices still to do and gets one
// report per finished subproblem; it never learns where they ran. The oneTBB
// arena is one executor (arena_executor.hpp), nqueens-mpi's ranks another
// (src/mpi/rank0_executor.hpp).

#include <atomic>
#include <cstddef>
#include <functional>
#include <span>

#include "nqueens/count.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::detail {

/// Called once per finished subproblem, possibly from several threads at once.
using report_fn = std::function<void(std::size_t index, const subproblem_count& count)>;

class executor {
 public:
  virtual ~executor() = default;
  /// Worker threads per process, for the result.
  virtual int threads() const noexcept = 0;
  /// The kernels that count, for the result.
  virtual isa kernels() const = 0;
  /// The run has failed (its journal cannot be written): return from run()
  /// as soon as possible, without waiting for subproblems counted elsewhere.
  /// Thread-safe.
  virtual void abandon() noexcept {}
  /// A stop reached the run elsewhere than through count_options::cancel
  /// (an MPI worker's signal): the driver saves what is finished at once, as
  /// for its own. Thread-safe.
  virtual bool stopped_elsewhere() const noexcept { return false; }
  /// Counts the subproblems `indices` of `p`, calling `report` for each, and
  /// starts no new one once `stop` is true. Returns when every started
  /// subproblem has been reported.
  virtual void run(const plan& p, std::span<const std::size_t> indices, const report_fn& report,
                   const std::atomic<bool>& stop) = 0;
  /// What the runs so far asked of a device in this process.
  virtual device_work device() const noexcept { return {}; }
  /// The seconds the runs so far spent building and releasing the
  /// engine's context (run_phases::start and release; the rest is zero).
  virtual run_phases phases() const noexcept { return {}; }
  /// False where every run so far was stopped before it began counting
  /// (while the engine's tables were built): the count then ends as one
  /// stopped while it planned.
  virtual bool counting_began() const noexcept { return true; }
};

}  // namespace nqueens::detail
