#include "engines/gpu/gpu_emulator.hpp"

#include <cstring>
#include <type_traits>
#include <vector>

namespace nqueens::detail::gpu {

namespace {

// Each kernel's shared memory, one block's at a time.
struct emulated_shared {
  join_kernel::shared join;
  once_kernel::shared once;
  stats_kernel::shared stats;
  layout_kernel::shared layout;
  scan_kernel::shared scan;
  visit_kernel::shared visit;
  no_shared none;

  template <class Kernel>
  typename Kernel::shared& of() {
    if constexpr (std::is_same_v<typename Kernel::shared, join_kernel::shared>) {
      return join;
    } else if constexpr (std::is_same_v<typename Kernel::shared, once_kernel::shared>) {
      return once;
    } else if constexpr (std::is_same_v<typename Kernel::shared, stats_kernel::shared>) {
      return stats;
    } else if constexpr (std::is_same_v<typename Kernel::shared, layout_kernel::shared>) {
      return layout;
    } else if constexpr (std::is_same_v<typename Kernel::shared, scan_kernel::shared>) {
      return scan;
    } else if constexpr (std::is_same_v<typename Kernel::shared, visit_kernel::shared>) {
      return visit;
    } else {
      return none;
    }
  }
};

class emulated_stream final : public gpu_stream {
 public:
  pair_counts pairs(gpu_job job) override {
    for (int g = 0; g < 2; ++g) {
      // A slot more than the bound, so that an empty group has an address.
      if (halves_[g].size() < job.capacity[g] + std::size_t{1}) {
        halves_[g].resize(job.capacity[g] + std::size_t{1});
        codes_[g].resize(job.capacity[g] + std::size_t{1});
      }
      job.halves[g] = halves_[g].data();
      job.codes[g] = codes_[g].data();
      job.once_list[g] = codes_[g].data();  // free until scatter
    }
    job.state = state_.get();
    std::memset(static_cast<void*>(state_.get()), 0xFF, sizeof(job_state));  // the kernels must set all they read
    job_ = &job;
    launch_subproblem(*this, job);
    check_finished(*state_, job);
    return {state_->pairs, state_->once};
  }

  // The launcher launch_subproblem calls.
  template <class Kernel>
  void run(std::uint32_t) {
    emulate_launch<Kernel>(*job_, shared_->of<Kernel>());
  }

 private:
  std::vector<std::uint64_t> halves_[2], codes_[2];
  std::unique_ptr<job_state> state_ = std::make_unique<job_state>();
  std::unique_ptr<emulated_shared> shared_ = std::make_unique<emulated_shared>();
  const gpu_job* job_ = nullptr;
};

class emulator final : public gpu_backend {
 public:
  explicit emulator(const half_board_tables& tables) : tables_(tables) {}
  std::unique_ptr<gpu_stream> open_stream() override { return std::make_unique<emulated_stream>(); }
  quarter_arrays west() const noexcept override { return arrays(tables_.west()); }
  quarter_arrays east() const noexcept override { return arrays(tables_.east()); }
  std::string where() const override { return "emulated on the CPU (NQUEENS_GPU=emulate)"; }

 private:
  static quarter_arrays arrays(const quarter_table& t) noexcept {
    return {t.offsets().data(), t.masks().data(), t.signatures().data()};
  }
  const half_board_tables& tables_;
};

}  // namespace

std::unique_ptr<gpu_backend> emulated_backend(const half_board_tables& tables) {
  return std::make_unique<emulator>(tables);
}

}  // namespace nqueens::detail::gpu
