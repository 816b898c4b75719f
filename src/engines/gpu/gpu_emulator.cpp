#include "engines/gpu/gpu_emulator.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engines/gpu/gpu_stream_tally.hpp"
#include "engines/plain_number.hpp"
#include "nqueens/device_work.hpp"

namespace nqueens::detail::gpu {

namespace {

// Each kernel's shared memory, one per thread that emulates it (taken once).
template <class Kernel>
typename Kernel::shared& shared_of() {
  // Freed at the thread's exit, never read after (the analyzer sees a use after free).
  thread_local const std::unique_ptr<typename Kernel::shared> memory = std::make_unique<typename Kernel::shared>();
  return *memory;  // NOLINT(clang-analyzer-cplusplus.NewDelete)
}

class emulated_stream final : public gpu_stream {
 public:
  explicit emulated_stream(const emulator_options& options)
      : options_(options),
        arena_(options.arena_words),
        states_(options.max_jobs),
        results_(options.max_jobs),
        copied_results_(options.max_jobs),
        order_(options.seed, options.max_grid),
        timed_(options.timed || kernel_times_asked()) {
    jobs_.reserve(options.max_jobs);
    // Memory a device hands over holds anything: the kernels must set all they read.
    std::fill(arena_.begin(), arena_.end(), 0xA5A5A5A5A5A5A5A5ULL);
    std::memset(static_cast<void*>(states_.data()), 0xFF, states_.size() * sizeof(job_state));
    std::memset(static_cast<void*>(results_.data()), 0xFF, results_.size() * sizeof(job_result));
  }

  std::uint32_t max_jobs() const noexcept override { return options_.max_jobs; }
  bool sizes_on_host() const noexcept override { return options_.host_sizes; }
  std::uint64_t* arena() const noexcept override { return arena_.data(); }
  std::uint64_t arena_words() const noexcept override { return arena_.size(); }
  job_state* state(std::uint32_t k) const noexcept override { return &states_[k]; }
  job_result* result(std::uint32_t k) const noexcept override { return &results_[k]; }

  // As the device: the jobs copied, the launches, the results copied back,
  // the wait; each counted as the device counts it. The launches run here,
  // so the round's phases take them as its wait: the device's work.
  std::span<const job_result> run(std::span<const gpu_job> jobs, round_kind round) override {
    tally_.round_began();
    if (options_.fault == emulated_fault::fail) {
      staged_.clear();  // as a device's stream drops the copies a failed round did not issue
      throw std::runtime_error("CUDA: a kernel of the GPU engine: an emulated fault (NQUEENS_GPU_TEST_FAULT)");
    }
    while (options_.fault == emulated_fault::park && !stopped()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    for (const staged_copy& c : staged_) {
      std::memcpy(c.to, c.from, c.bytes);
      tally_.count_staged(c.bytes);
    }
    staged_.clear();
    jobs_.assign(jobs.begin(), jobs.end());
    tally_.count_operation();
    tally_.round_submitted();
    launch_round(*this, round, jobs_.data(), static_cast<std::uint32_t>(jobs_.size()));
    std::copy_n(results_.begin(), jobs.size(), copied_results_.begin());
    if (options_.fault == emulated_fault::miscount && round == round_kind::counts && !jobs.empty()) {
      // 8 more of the share solutions_of() reads: pairs, or once under a filter (twice + twice + once).
      job_result& wrong = copied_results_.front();
      (jobs.front().rule.kind == filter_rule::every_pair ? wrong.pairs : wrong.once) += 8;
    }
    tally_.count_operation();
    tally_.count_operation();  // the wait
    tally_.round_ended();
    return {copied_results_.data(), jobs.size()};
  }

  device_work work() const noexcept override { return tally_.work(); }

  void stage(const void* from, std::uint64_t bytes, std::uint64_t* to) override {
    staged_.push_back({from, static_cast<std::size_t>(bytes), to});
  }

  std::uint32_t* stop_word() const noexcept override { return &stop_; }
  void stop() noexcept override { std::atomic_ref<std::uint32_t>(stop_).store(1, std::memory_order_relaxed); }
  bool stopped() const noexcept override { return stop_set(&stop_); }
  void clear_stop() noexcept override { std::atomic_ref<std::uint32_t>(stop_).store(0, std::memory_order_relaxed); }

  // The launcher launch_round calls; timed by the host's clock where asked.
  template <class Kernel, std::size_t Slot>
  void run(std::uint64_t most_blocks) {
    if constexpr (Slot == kernel_slot("visit")) {
      if (options_.instead_of_visit) {
        options_.instead_of_visit(jobs_);
        return;
      }
    }
    const auto grid = options_.whole_grid
                          ? options_.max_grid
                          : static_cast<std::uint32_t>(std::clamp<std::uint64_t>(most_blocks, 1, options_.max_grid));
    tally_.count_launch();
    const auto start = timed_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    emulate_launch<Kernel>(jobs_, grid, order_, shared_of<Kernel>());
    if (timed_) {
      const auto took = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
      tally_.add_time(Slot, static_cast<std::uint64_t>(took.count()));
    }
  }

 private:
  emulator_options options_;
  // The "device's" memory: the kernels write it through the jobs' pointers.
  mutable std::vector<std::uint64_t> arena_;
  mutable std::vector<job_state> states_;
  mutable std::vector<job_result> results_;
  std::vector<job_result> copied_results_;  // the host's copy
  std::vector<gpu_job> jobs_;               // the device's copy of the round
  launch_order order_;
  alignas(std::atomic_ref<std::uint32_t>::required_alignment) mutable std::uint32_t stop_ = 0;  // stop_set reads it
  bool timed_;
  stream_tally tally_;
  struct staged_copy {
    const void* from;
    std::size_t bytes;
    std::uint64_t* to;
  };
  std::vector<staged_copy> staged_;  // for the next run, as the device's stream queues them
};

class emulator final : public gpu_backend {
 public:
  emulator(const half_board_tables* tables, const emulator_options& options) : tables_(tables), options_(options) {}
  std::uint32_t round_jobs() const noexcept override { return options_.max_jobs; }
  std::unique_ptr<gpu_stream> open_stream() override {
    emulator_options options = options_;
    options.seed += streams_++;  // each stream its own order
    return std::make_unique<emulated_stream>(options);
  }
  quarter_arrays west() const noexcept override {
    return tables_ == nullptr ? quarter_arrays{} : arrays_of(tables_->west());
  }
  quarter_arrays east() const noexcept override {
    return tables_ == nullptr ? quarter_arrays{} : arrays_of(tables_->east());
  }
  std::string where() const override {
    return "emulated GPU " + std::to_string(options_.device) + " (NQUEENS_GPU=emulate)";
  }

 private:
  const half_board_tables* tables_;
  const emulator_options options_;
  std::atomic<std::uint64_t> streams_{0};
};

}  // namespace

std::vector<device_identity> emulated_node(int devices) {
  std::vector<device_identity> node;
  for (int d = 0; d < devices; ++d) {
    char uuid[48];
    std::snprintf(uuid, sizeof uuid, "GPU-e0000000-0000-0000-0000-%012d", d);
    node.push_back({d, uuid, "emulated GPU " + std::to_string(d)});
  }
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (visible == nullptr) return node;
  std::vector<device_identity> seen;
  std::string_view rest = visible;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const std::optional<long long> index = plain_integer(item, 0, devices - 1);
    const auto named = std::ranges::find_if(
        node, [&](const device_identity& d) { return index ? d.index == *index : d.uuid == item; });
    if (named == node.end()) break;
    if (std::ranges::any_of(seen, [&](const device_identity& d) { return d.uuid == named->uuid; })) break;
    seen.push_back(*named);
    seen.back().index = static_cast<int>(seen.size()) - 1;
  }
  if (seen.empty()) {
    throw std::invalid_argument("CUDA_VISIBLE_DEVICES='" + std::string(visible) + "' names none of the " +
                                std::to_string(devices) + " emulated GPU" + (devices == 1 ? "" : "s") + " (0 to " +
                                std::to_string(devices - 1) + "): no GPU is visible");
  }
  return seen;
}

emulated_fault emulated_fault_of(int device) {
  const char* asked = std::getenv("NQUEENS_GPU_TEST_FAULT");
  if (asked == nullptr || *asked == '\0') return emulated_fault::none;
  const std::string_view text(asked);
  if (text == "miscount") return emulated_fault::miscount;
  // miscount:D, device D alone: runs that count on different devices then
  // come to different totals, as no fault of every device makes them.
  constexpr std::string_view one_miscounts = "miscount:";
  const bool one = text.starts_with(one_miscounts);
  const std::optional<long long> named =
      plain_integer(one ? text.substr(one_miscounts.size()) : text, 0, max_emulated_devices - 1);
  if (!named) {
    throw std::invalid_argument("NQUEENS_GPU_TEST_FAULT='" + std::string(asked) +
                                "' names no emulated GPU: expected a number from 0 to " +
                                std::to_string(max_emulated_devices - 1) + ", miscount or miscount:NUMBER");
  }
  if (one) return *named == device ? emulated_fault::miscount : emulated_fault::none;
  return *named == device ? emulated_fault::fail : emulated_fault::park;
}

std::unique_ptr<gpu_backend> emulated_backend(const half_board_tables* tables, const emulator_options& options) {
  if (options.max_jobs < 1 || options.max_jobs > most_round_jobs) {
    throw std::invalid_argument("an emulated GPU's rounds hold 1 to " + std::to_string(most_round_jobs) +
                                " jobs, not " + std::to_string(options.max_jobs));
  }
  return std::make_unique<emulator>(tables, options);
}

}  // namespace nqueens::detail::gpu
