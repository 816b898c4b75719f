#pragma once

// The GPU engine's kernels run on the CPU, over host memory: slow (a core
// does a GPU's work), exact, and the same source as on the device. What
// the tests check against the quadrant engine on machines with no GPU, and
// what NQUEENS_GPU=emulate selects.
//
// It is a harsher device than a real one in what a kernel may assume: a
// launch's blocks run in a shuffled order, few of them (each takes several
// items in turn, as round_items_of deals them), the threads of a block run
// each phase in a shuffled order, and a block's shared memory is poisoned
// before each of its items. A kernel that relied on an order within a phase,
// between blocks, or on what shared memory held before would count wrong
// here under some seed.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_device_choice.hpp"
#include "engines/gpu/gpu_kernels.hpp"
#include "nqueens/device_work.hpp"

namespace nqueens::detail::gpu {

/// A fault a test gives an emulated device (NQUEENS_GPU_TEST_FAULT): none;
/// `fail`, every round of it throws, as a device whose kernel faulted does;
/// `park`, each round waits until its stream is stopped, as a round of
/// minutes does, so that only a stop from elsewhere ends it; `miscount`,
/// each round of counts adds 8 to its first job's share, 8 times the job's
/// weight in solutions (a multiple of 8, so that the fundamental count
/// stays whole): a wrong kernel that faults nowhere, which only the check
/// against the published values can catch.
enum class emulated_fault { none, fail, park, miscount };

/// How the emulator runs.
struct emulator_options {
  /// Seeds the order of blocks in a launch and of threads in a phase.
  std::uint64_t seed = 1;
  /// The most blocks a launch has: past it, blocks take several items.
  std::uint32_t max_grid = 7;
  /// Every launch max_grid blocks, however few its items, as a device's
  /// round graph launches them (NQUEENS_GPU_ROUND_GRAPHS): blocks past the
  /// items end at once.
  bool whole_grid = false;
  /// Jobs a round holds (1 to most_round_jobs), and each stream's arena in
  /// 64-bit words.
  std::uint32_t max_jobs = round_jobs;
  std::uint64_t arena_words = std::uint64_t{1} << 19;  // 4 MiB
  /// Whether its streams let the rounds size jobs on the host
  /// (gpu_stream::sizes_on_host), as the device's module does unless
  /// built with NQUEENS_GPU_HOST_SIZES=0.
  bool host_sizes = true;
  /// Time each kernel (device_work::kernel_nanoseconds), as
  /// NQUEENS_GPU_TIMES=1 asks of every stream.
  bool timed = false;
  /// Which device of an emulated node this is (emulated_node), for messages.
  int device = 0;
  emulated_fault fault = emulated_fault::none;
  /// Where set, a count round's visit is not run: this is called with the
  /// round's jobs instead, their states as the scan and scatter left them,
  /// and their pairs stay uncounted. For models of the visit's work that
  /// need its dealing, not its counts (bench/gpu_round_balance.cpp), at
  /// boards whose visits the CPU could not emulate in hours.
  std::function<void(std::span<const gpu_job>)> instead_of_visit;
};

/// The fault NQUEENS_GPU_TEST_FAULT=D gives emulated device `device` (its
/// index among those seen): D fails, every other parks; none where the
/// variable is unset or empty. What the tests of a device failing mid-run
/// use: the run must stop the parked devices' rounds and end with D's
/// error. NQUEENS_GPU_TEST_FAULT=miscount makes every device miscount,
/// miscount:D device D alone.
/// Throws std::invalid_argument where D is neither (the engine also refuses
/// a D this process does not see: all would park).
emulated_fault emulated_fault_of(int device);

/// The most devices an emulated node has (NQUEENS_GPU=emulate:N).
inline constexpr int max_emulated_devices = 64;

/// The devices of an emulated node of `devices` GPUs, as visible_devices
/// describes a real one: UUIDs GPU-e...-N and names that say they are
/// emulated, N the GPU's place on the node; indices 0.. among those this
/// process sees. Where CUDA_VISIBLE_DEVICES is set, it sees those it names,
/// by N or UUID, in its order, up to the first it cannot find or names
/// again, as the CUDA runtime reads it: so that ranks bound to GPUs of
/// their own are tested as they run on a node. Throws
/// std::invalid_argument where it names none of them.
std::vector<device_identity> emulated_node(int devices);

/// The shuffled orders of one stream's launches, drawn from its seed.
class launch_order {
 public:
  launch_order(std::uint64_t seed, std::uint32_t max_grid) : random_(seed), blocks_(max_grid), taken_(max_grid) {}
  /// 0..grid-1 shuffled. Precondition: grid <= max_grid.
  std::span<const std::uint32_t> blocks(std::uint32_t grid) {
    for (std::uint32_t b = 0; b < grid; ++b) blocks_[b] = b;
    std::shuffle(blocks_.begin(), blocks_.begin() + grid, random_);
    return {blocks_.data(), grid};
  }
  /// The threads of a phase in a drawn order: k-th is ((k ^ x) * a + b) mod
  /// block_threads, a odd (each step a bijection). One draw per phase where
  /// a full shuffle cost the emulator half its time.
  class thread_order {
   public:
    explicit thread_order(std::uint64_t draw) noexcept
        : x_(static_cast<std::uint32_t>(draw)),
          a_(static_cast<std::uint32_t>(draw >> 16) | 1U),
          b_(static_cast<std::uint32_t>(draw >> 32)) {}
    std::uint32_t operator[](std::uint32_t k) const noexcept { return ((k ^ x_) * a_ + b_) % block_threads; }

   private:
    std::uint32_t x_, a_, b_;
  };
  thread_order threads() { return thread_order(random_()); }
  /// Room for the item each of `grid` blocks took from a counter.
  /// Precondition: grid <= max_grid.
  std::span<std::uint32_t> taken(std::uint32_t grid) { return {taken_.data(), grid}; }

 private:
  std::mt19937_64 random_;
  std::vector<std::uint32_t> blocks_;
  std::vector<std::uint32_t> taken_;
};
static_assert((block_threads & (block_threads - 1)) == 0, "the thread order needs a power of two");

/// One launch of `Kernel` over a round's `jobs` with `grid` blocks, on the
/// CPU, in `order`: every phase for every thread of an item before the next
/// phase (the barrier). A kernel dealt by a counter takes its items from it,
/// `grid` at a time (one a block), each such batch run in a drawn order.
template <class Kernel>
void emulate_launch(std::span<const gpu_job> jobs, std::uint32_t grid, launch_order& order,
                    typename Kernel::shared& shared) {
  const auto run_item = [&](const gpu_job& job, std::uint32_t item) {
    std::memset(static_cast<void*>(&shared), 0xA5, sizeof shared);
    for (int phase = 0; phase < Kernel::phases; ++phase) {
      const launch_order::thread_order threads = order.threads();
      for (std::uint32_t k = 0; k < block_threads; ++k) Kernel::run(phase, job, item, threads[k], shared);
    }
  };
  const auto count = static_cast<std::uint32_t>(jobs.size());
  round_items_of<most_round_jobs, round_item_count<counter_dealt<Kernel>>> round;  // any round its options allow
  for (std::uint32_t k = 0; k < block_threads; ++k) round.template count<Kernel>(jobs.data(), count, k);
  round.add_up(count);
  const auto run_taken = [&](std::uint64_t item) {
    const std::uint32_t j = round.job_of(count, item);
    run_item(jobs[j], static_cast<std::uint32_t>(item - round.before[j]));
  };
  if constexpr (counter_dealt<Kernel>) {
    if (!counter_deals(round.before[count], grid)) {
      for (const gpu_job& job : jobs) raise_fault(*job.state, job_fault::counter_overflow);
      return;
    }
    const std::span<std::uint32_t> taken = order.taken(grid);
    for (std::uint32_t takes = 0, more = 1; more != 0; ++takes) {  // each block takes an item a pass
      const bool look = takes % items_between_stop_looks == 0;
      for (std::uint32_t& item : taken) {
        item = look && stop_set(jobs[0].stop) ? UINT32_MAX : atomic_add(round_counter(jobs.data()), 1U);
      }
      for (const std::uint32_t block : order.blocks(grid)) {
        const std::uint32_t item = taken[block];
        more = more != 0 && item < round.before[count] ? 1 : 0;
        if (item < round.before[count]) run_taken(item);
      }
    }
  } else {
    for (const std::uint32_t block : order.blocks(grid)) {
      std::uint32_t takes = 0;
      for (std::uint64_t item = block; item < round.before[count]; item += grid) {
        if (looks_for_stop<Kernel> && takes++ % items_between_stop_looks == 0 && stop_set(jobs[0].stop)) break;
        run_taken(item);
      }
    }
  }
}

/// A backend over `tables` (kept by reference: they must outlive it), or,
/// null, with none: its jobs bring their own quarters.
std::unique_ptr<gpu_backend> emulated_backend(const half_board_tables* tables, const emulator_options& options = {});
inline std::unique_ptr<gpu_backend> emulated_backend(const half_board_tables& tables,
                                                     const emulator_options& options = {}) {
  return emulated_backend(&tables, options);
}

}  // namespace nqueens::detail::gpu
