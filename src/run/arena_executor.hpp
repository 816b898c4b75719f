#pragma once

// The executor of a process's own threads: a plan's subproblems counted on
// a oneTBB arena (execute_on_arena.hpp), each reported to the run driver.

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>

#include "nqueens/count.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/gpu_options.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/plan.hpp"
#include "run/executor.hpp"

namespace nqueens::detail {

/// The subproblems counted on a oneTBB arena in this process.
class arena_executor final : public executor {
 public:
  /// `threads` 0 means every hardware thread; `kernels` empty, active_isa().
  /// `max_memory` as execute_options::max_memory.
  /// `gpu` as count_options::gpu. `cancel` (null: none), the count's
  /// caller's flag: no subproblem starts once it is set, before the run's
  /// `stop` hears of it.
  arena_executor(int threads, std::optional<isa> kernels, std::uint64_t max_memory, gpu_options gpu = {},
                 const std::atomic<bool>* cancel = nullptr);

  /// Each subproblem's wall-clock time into `by_index[index]` (sized like
  /// the plan; `nqueens plan --stats`), from the next run on.
  void time_subproblems_into(std::span<double> by_index) noexcept { seconds_by_index_ = by_index; }

  int threads() const noexcept override { return threads_; }
  isa kernels() const override { return kernels_; }
  void run(const plan& p, std::span<const std::size_t> indices, const report_fn& report,
           const std::atomic<bool>& stop) override;
  device_work device() const noexcept override { return device_; }
  run_phases phases() const noexcept override { return phases_; }
  bool counting_began() const noexcept override { return counting_began_; }

 private:
  int threads_;
  isa kernels_;
  std::uint64_t max_memory_;
  gpu_options gpu_;
  const std::atomic<bool>* cancel_;
  std::span<double> seconds_by_index_;  // empty: untimed
  device_work device_;
  run_phases phases_;
  bool counting_began_ = false;
};

}  // namespace nqueens::detail
