// The GPU engine's plan, run context and registry entry: the quadrant
// engine's subproblems (one per class of north column sets under the mirror
// and the flip, weighted), counted on the CUDA devices a run takes
// (gpu_device_choice.hpp: every GPU it sees by default), dealt as they free
// up (gpu_stream_pool.hpp), by the kernels of gpu_kernels.hpp (the half
// joins, the transposition filter, the keying and the pair count), a round
// of subproblems per launch (gpu_rounds.hpp). A subproblem counts what the quadrant engine's
// does; a slice of a class takes the north row sets of its rank modulo the
// slices (not the quadrant engine's slices), so the plan has its own
// fingerprint, and per-subproblem counts are the same on every run, as
// journals, shards and MPI need.
//
// Where no GPU is usable it refuses before counting; NQUEENS_GPU=emulate
// runs the same kernels on the CPU (gpu_emulator.hpp), which is how every
// test of the suite's engine axis reaches them on machines without a GPU,
// and NQUEENS_GPU=emulate:N as a node of N GPUs.

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <typeinfo>
#include <utility>
#include <vector>

#include "engines/engine_definition.hpp"
#include "engines/fingerprint.hpp"
#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_device_loader.hpp"
#include "engines/gpu/gpu_emulator.hpp"
#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/gpu/gpu_node_ranks.hpp"
#include "engines/gpu/gpu_run_devices.hpp"
#include "engines/gpu/gpu_seen_devices.hpp"
#include "engines/gpu/gpu_stream_pool.hpp"
#include "engines/join_model/class_plan.hpp"
#include "engines/join_model/quadrant_memory.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "engines/plain_number.hpp"
#include "kernels/bits.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/memory_limit.hpp"

namespace nqueens::detail {

namespace {

class gpu_plan final : public class_plan {
 public:
  using class_plan::class_plan;

  // The quadrant engine's share of each class, but sliced by north row set.
  void add_to_fingerprint(fnv1a& hash, const std::atomic<bool>* cancel) const override {
    add_tasks_to_fingerprint(hash, cancel, "gpu: transposition share (ranked rows), slices by north row set");
  }

  std::unique_ptr<engine_context> make_context(isa kernels, int threads, std::uint64_t max_memory,
                                               const gpu_options& gpu, const std::atomic<bool>* cancel) const override;
};

// A backend on each chosen device, over one host copy of the tables (or
// none); each device's memory shared (gpu_memory_share.hpp) as
// `streams_per_device` counting threads, a stream taking at most what a
// round's groups use and `staged_bytes` more for its jobs' own quarters,
// and no more than `stream_bound` (--gpu-memory's share). An emulated
// stream's arena is the emulator's 4 MiB and `job_staged_bytes`, one job's
// quarters (its rounds then hold fewer jobs), within the same bound.
std::vector<std::unique_ptr<gpu::gpu_backend>> open_devices(const half_board_tables* tables,
                                                            const gpu::run_devices& choice,
                                                            std::size_t streams_per_device,
                                                            std::uint64_t most_group_bytes, std::uint64_t staged_bytes,
                                                            std::uint64_t job_staged_bytes,
                                                            std::uint64_t stream_bound) {
  std::vector<std::unique_ptr<gpu::gpu_backend>> out;
  const std::uint64_t arena_bound = gpu::arena_bound_within(stream_bound);
  // NQUEENS_GPU_TEST_ROUND_JOBS: an emulated round's jobs, as a module
  // built with NQUEENS_GPU_ROUND_JOBS takes them (what the tests of larger
  // rounds count through).
  const auto emulated_round_jobs =
      choice.emulated > 0 ? environment_integer("NQUEENS_GPU_TEST_ROUND_JOBS", 1, gpu::most_round_jobs) : std::nullopt;
  // NQUEENS_GPU_TEST_HOST_SIZES=0: every call sized on the emulated device,
  // as a module built with NQUEENS_GPU_HOST_SIZES=0 sizes them.
  const auto emulated_host_sizes =
      choice.emulated > 0 ? environment_integer("NQUEENS_GPU_TEST_HOST_SIZES", 0, 1) : std::nullopt;
  for (const gpu::dealt_device& d : choice.chosen) {
    gpu::emulator_options emulated{
        .seed = static_cast<std::uint64_t>(d.index) + 1,
        .max_jobs = static_cast<std::uint32_t>(emulated_round_jobs.value_or(gpu::round_jobs)),
        .host_sizes = emulated_host_sizes.value_or(1) == 1,
        .device = d.index,
        .fault = choice.emulated > 0 ? gpu::emulated_fault_of(d.index) : gpu::emulated_fault::none};
    emulated.arena_words =
        std::min(emulated.arena_words + job_staged_bytes / sizeof(std::uint64_t), arena_bound / sizeof(std::uint64_t));
    out.push_back(choice.emulated > 0 ? gpu::emulated_backend(tables, emulated)
                                      : gpu::device_backend(tables, d, static_cast<int>(streams_per_device),
                                                            std::min(most_group_bytes + staged_bytes, arena_bound)));
  }
  // A fault on a GPU this process does not see would park every GPU it
  // counts on, and nothing would stop them: the test hook's mistake, refused
  // rather than a hang. One it sees but another rank of nqueens-mpi counts
  // on (the node's deal set) is taken: that rank's failure ends the job; a
  // process alone that leaves it out (--devices) would hang the same.
  const auto fails = [](int index) { return gpu::emulated_fault_of(index) == gpu::emulated_fault::fail; };
  const gpu::emulated_fault asked =
      choice.emulated > 0 ? gpu::emulated_fault_of(choice.chosen.front().index) : gpu::emulated_fault::none;
  if (asked == gpu::emulated_fault::fail || asked == gpu::emulated_fault::park) {
    const std::string named = std::string("NQUEENS_GPU_TEST_FAULT='") + std::getenv("NQUEENS_GPU_TEST_FAULT") + "'";
    if (!std::ranges::any_of(choice.seen, fails, &gpu::device_identity::index)) {
      throw std::invalid_argument(named + " names an emulated GPU this process does not see");
    }
    if (!gpu::node_deal_set() && !std::ranges::any_of(choice.chosen, fails, &gpu::dealt_device::index)) {
      throw std::invalid_argument(named + " names an emulated GPU this count does not take (--devices)");
    }
  }
  return out;
}

// The counting threads' streams on each of `devices` devices: the threads
// shared among them, rounded up (no device waits for a stream while a
// thread is idle).
std::size_t streams_per_device(int threads, std::size_t devices) {
  const auto t = static_cast<std::size_t>(std::max(threads, 1));
  return (t + devices - 1) / devices;
}

// What a run without whole tables holds beside its threads' quarter lists,
// as the quadrant engine's layout prices it: 10% and 8 MiB.
constexpr double lists_margin_factor = 1.1, lists_margin_bytes = 8.0 * 1024 * 1024;

// Subproblems per call where each brings its own quarter lists: as many as
// their lists (quarter_lists_bytes) fit in each thread's part of
// `max_memory`, past the margin, from 1 to 8. Those subproblems are heavy
// (past n = 24, milliseconds each on a GPU at least): 8 share a round's
// launches well enough, and more would hold lists for nothing.
constexpr double most_own_quarters_jobs = 8;
std::size_t own_quarters_batch(int n, int threads, std::uint64_t max_memory, bool compact) {
  const double part =
      (static_cast<double>(max_memory) - lists_margin_bytes) / lists_margin_factor / std::max(threads, 1);
  const double jobs = std::floor(part / static_cast<double>(quarter_lists_bytes(n, compact)));
  return static_cast<std::size_t>(std::clamp(jobs, 1.0, most_own_quarters_jobs));
}

class gpu_context final : public engine_context {
 public:
  // The whole quarter tables where the quadrant engine's layout for this
  // bound has them (n <= 24, and they fit) and each GPU's bound
  // (`gpu_memory`: --gpu-memory, or the GPU's own part) holds them beside
  // its streams, on the host and each device; else each subproblem's own
  // lists, built on the host per batch and staged on its device with its
  // round.
  gpu_context(const gpu_plan& plan, const gpu::run_devices& choice, int threads, std::uint64_t max_memory,
              std::uint64_t gpu_memory, const std::atomic<bool>* cancel)
      : plan_(plan),
        on_a_device_(choice.emulated == 0),
        layout_(quadrant_layout_for(plan.board_size(), threads, max_memory)),
        // No room kept for tables the host layout has not (n > 24, or --max-memory).
        budget_(gpu::budget_within(gpu_memory, streams_per_device(threads, choice.chosen.size()),
                                   layout_.tables ? quarter_tables_bytes(plan.board_size()) : UINT64_MAX)),
        tables_(layout_.tables && budget_.tables ? std::make_unique<const half_board_tables>(plan.board_size(), cancel)
                                                 : nullptr),
        source_(plan.board_size(), tables_.get(), layout_),
        lists_batch_(tables_ ? 0 : own_quarters_batch(plan.board_size(), threads, max_memory, layout_.compact_lists)),
        pool_(
            open_devices(tables_.get(), choice, streams_per_device(threads, choice.chosen.size()),
                         gpu::most_useful_stream_bytes(largest_group_halves(plan.board_size())),
                         lists_batch_ * quarter_lists_bytes(plan.board_size(), /*compact=*/true),
                         tables_ ? 0 : quarter_lists_bytes(plan.board_size(), /*compact=*/true), budget_.stream_bytes),
            streams_per_device(threads, choice.chosen.size())),
        // With the tables, a round's worth: the jobs a round of the loaded
        // module (or the emulator) holds, the same on each of its devices.
        batch_(tables_ ? pool_.device(0).round_jobs() : lists_batch_),
        tasks_(plan),
        watcher_([this](const std::stop_token& token) { stop_rounds_when_cancelled(token); }) {}

  subproblem_count solve(std::size_t index, const std::atomic<bool>* cancel) override {
    subproblem_count c;
    solve_batch({&index, 1}, {&c, 1}, cancel);
    return c;
  }

  std::size_t batch_size() const noexcept override { return batch_; }
  bool waits_on_a_device() const noexcept override { return on_a_device_; }

  // The jobs of a call: with the whole tables, once a stream is taken (they
  // read its device's copy); with their own lists, before, so that the
  // host builds them while the GPUs count other calls' rounds.
  void solve_batch(std::span<const std::size_t> indices, std::span<subproblem_count> out,
                   const std::atomic<bool>* cancel) override {
    try {
      count_batch(indices, out, cancel);
    } catch (const subproblem_cancelled&) {
      // A call another device's failure stopped ends with that failure: the
      // executor cancels its task group on a cancel, and oneTBB keeps the
      // exception only of the task that cancelled first, so a plain cancel
      // here could drop the error (the run would end unfinished, unexplained).
      if (const std::exception_ptr failure = first_failure()) std::rethrow_exception(failure);
      throw;
    } catch (...) {
      // A failure outside a round (a stream's memory, a call's lists) stops
      // the other devices too; a round's was kept already, named.
      stop_every_device(std::current_exception());
      throw;
    }
  }

  device_work device() const noexcept override {
    device_work work = pool_.work();
    work.host_list_nanoseconds = list_nanoseconds_.load(std::memory_order_relaxed);
    return work;
  }

 private:
  void count_batch(std::span<const std::size_t> indices, std::span<subproblem_count> out,
                   const std::atomic<bool>* cancel) {
    const batch_lease held(*this);
    host_batch& b = held.batch();
    const auto fill = [&](const gpu::gpu_backend& device) {
      b.jobs.clear();
      b.weights.clear();
      b.built.clear();
      if (!tables_ && b.quarters.size() < indices.size()) b.quarters.resize(indices.size());  // grown once
      for (std::size_t k = 0; k < indices.size(); ++k) {
        const quadrant_task task = tasks_[indices[k]];
        b.jobs.push_back(gpu::job_for(task, plan_.board_size(), plan_.split_depth(), device));
        if (!tables_) take_own_quarters(b, k, cancel);
        b.weights.push_back(task.weight);
      }
    };
    if (!tables_) {  // no tables to read: any device's job is the same
      const auto start = std::chrono::steady_clock::now();
      fill(pool_.device(0));
      list_nanoseconds_.fetch_add(
          static_cast<std::uint64_t>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count()),
          std::memory_order_relaxed);
    }
    const gpu::stream_pool::lease lease(pool_, cancel);
    gpu::stream_pool::pooled_stream& s = lease.stream();
    if (tables_) fill(pool_.device(s.device));
    b.counts.assign(indices.size(), gpu::pair_counts{});
    try {
      // The host's tables, where the jobs' arrays are the device's: what the host sizes them from.
      const gpu::host_quarters host{tables_ ? gpu::arrays_of(tables_->west()) : gpu::quarter_arrays{},
                                    tables_ ? gpu::arrays_of(tables_->east()) : gpu::quarter_arrays{}};
      s.rounds.count(b.jobs, b.counts, cancel, tables_ ? &host : nullptr);
    } catch (const subproblem_cancelled&) {
      throw;
    } catch (const std::runtime_error& e) {
      if (typeid(e) != typeid(std::runtime_error)) {  // a type the caller tells apart, kept
        stop_every_device(std::current_exception());
        throw;
      }
      const std::exception_ptr named =
          std::make_exception_ptr(std::runtime_error(e.what() + (", on " + pool_.device(s.device).where())));
      stop_every_device(named);
      std::rethrow_exception(named);
    } catch (...) {
      stop_every_device(std::current_exception());
      throw;
    }
    for (std::size_t k = 0; k < indices.size(); ++k) {
      out[k] = {gpu::solutions_of(b.jobs[k], b.counts[k], b.weights[k]), 0};
    }
  }

  // The rounds look at the cancel flag between rounds, and a round can take
  // seconds past n = 24: once a leased stream's holder's flag is set, this
  // stops the round it runs, mid-kernel (gpu_stream::stop), so that a stop
  // ends the count within a second. Looks every 20 ms. Its waiting is the
  // context's, built before the thread starts: a condition_variable_any
  // allocates when made, and a thread started late by a loaded machine
  // would do that while a count runs (the no-allocation test saw it).
  void stop_rounds_when_cancelled(const std::stop_token& token) {
    std::unique_lock lock(watch_mutex_);
    while (!token.stop_requested()) {
      // Once a device failed, every round, a round begun since included
      // (its holder cleared the stop word), so that the run ends with the
      // failure at once rather than when every other device's call ends.
      if (failed_.load(std::memory_order_acquire)) {
        pool_.stop_all();
      } else {
        pool_.stop_cancelled();
      }
      watch_wait_.wait_for(lock, token, std::chrono::milliseconds(20), [] { return false; });
    }
  }

  // A device's round failed: the other devices' rounds stop (the watcher
  // stops any begun since), and the run ends with that failure, the
  // subproblems the others counted meanwhile unfinished. The first failure
  // is kept before any round stops, so that every stopped call finds it.
  void stop_every_device(std::exception_ptr failure) noexcept {
    {
      const std::scoped_lock lock(failure_mutex_);
      if (!first_failure_) first_failure_ = std::move(failure);
    }
    failed_.store(true, std::memory_order_release);
    pool_.stop_all();
  }

  std::exception_ptr first_failure() const {
    if (!failed_.load(std::memory_order_acquire)) return nullptr;
    const std::scoped_lock lock(failure_mutex_);
    return first_failure_;
  }

  // A quarter list a call has built: its side, that side's columns, where it is.
  struct built_quarter {
    bool east = false;
    std::uint32_t side_columns = 0;  // of its side alone
    gpu::quarter_arrays arrays;
  };
  // A call's host lists, grown once: its jobs, their weights and counts, and
  // each job's own quarter lists where the run has no whole tables (north
  // west, north east, south west, south east).
  struct host_batch {
    std::vector<gpu::gpu_job> jobs;
    std::vector<gpu::pair_counts> counts;
    std::vector<std::uint64_t> weights;
    std::vector<std::array<quarter_list, 4>> quarters;
    std::vector<built_quarter> built;  // the call's lists so far, each once
  };

  // Points both groups of the call's job k at lists of their own columns:
  // the list of an earlier quarter of the call with the same side and
  // columns, else one built in the job's own (north west, north east, south
  // west, south east). A plan's neighbours share their east columns (they
  // change once in hundreds of subproblems, the west ones every time): the
  // first call of each run of neighbours built the same east lists in each
  // of its slots, and a thread's next call may hold another thread's slots
  // (bench/gpu_host_lists.cpp times it). Each slot's list is built at most
  // once a call, so what `built` points at stays put; gpu_rounds stages a
  // shared list once a round.
  void take_own_quarters(host_batch& b, std::size_t k, const std::atomic<bool>* cancel) const {
    gpu::gpu_job& job = b.jobs[k];
    const int h = plan_.board_size() / 2;
    for (int q = 0; q < 4; ++q) {
      const int group = q / 2;
      const bool east = q % 2 != 0;
      const std::uint32_t columns = job.columns[group];
      const std::uint32_t side_columns = east ? columns >> h : columns & static_cast<std::uint32_t>(low_bits(h));
      const auto same = std::find_if(b.built.begin(), b.built.end(), [&](const built_quarter& c) {
        return c.east == east && c.side_columns == side_columns;
      });
      gpu::quarter_arrays arrays;
      if (same != b.built.end()) {
        arrays = same->arrays;
      } else {
        const quarter_view v = source_.quarter(east, columns, b.quarters[k][static_cast<std::size_t>(q)], cancel);
        arrays = {v.offsets, v.masks, v.signatures};
        b.built.push_back({east, side_columns, arrays});
      }
      if (east) {
        job.east[group] = arrays;
      } else {
        job.west[group] = arrays;
      }
    }
    job.own_quarters = true;
  }

  // A host_batch, the calling thread's until the lease ends: a free one, or
  // a new one (no more than the threads that call at once).
  class batch_lease {
   public:
    explicit batch_lease(gpu_context& context) : context_(context) {
      const std::lock_guard lock(context_.batches_mutex_);
      if (context_.free_batches_.empty()) {
        context_.batches_.push_back(std::make_unique<host_batch>());
        context_.free_batches_.reserve(context_.batches_.size());
        batch_ = context_.batches_.back().get();
      } else {
        batch_ = context_.free_batches_.back();
        context_.free_batches_.pop_back();
      }
    }
    ~batch_lease() {
      const std::lock_guard lock(context_.batches_mutex_);
      context_.free_batches_.push_back(batch_);
    }
    batch_lease(const batch_lease&) = delete;
    batch_lease& operator=(const batch_lease&) = delete;
    host_batch& batch() const noexcept { return *batch_; }

   private:
    gpu_context& context_;
    host_batch* batch_ = nullptr;
  };

  const gpu_plan& plan_;
  const bool on_a_device_;  // not the emulator: a call waits while the device counts
  const quadrant_layout layout_;
  const gpu::device_budget budget_;                        // what --gpu-memory leaves each GPU's streams
  const std::unique_ptr<const half_board_tables> tables_;  // the host's copy (the emulator runs on it), or none
  const quarter_source source_;
  const std::size_t lists_batch_;  // subproblems per call where each brings its own lists (0: with the tables)
  gpu::stream_pool pool_;
  const std::size_t batch_;  // subproblems per call
  const task_lookup tasks_;
  std::mutex batches_mutex_;
  std::vector<std::unique_ptr<host_batch>> batches_;
  std::vector<host_batch*> free_batches_;
  std::atomic<std::uint64_t> list_nanoseconds_{0};  // device_work::host_list_nanoseconds
  std::atomic<bool> failed_{false};                 // a device's round threw (stop_every_device)
  mutable std::mutex failure_mutex_;
  std::exception_ptr first_failure_;        // that round's error, which every stopped call ends with
  std::mutex watch_mutex_;                  // the watcher's alone
  std::condition_variable_any watch_wait_;  // never notified: the watcher's clock
  std::jthread watcher_;                    // last: stopped and joined before the pool goes
};

// The bound on each GPU of the run: --gpu-memory's, else the part of the
// smallest of its GPUs this process takes (own_part_of_device), and the
// GPU it is (-1 for --gpu-memory's); 0 where neither is known (the
// emulator's GPUs, with no --gpu-memory).
struct device_bound {
  std::uint64_t bytes = 0;
  int smallest = -1;  // index of the GPU whose part it is
};
device_bound bound_of_each_device(const gpu_options& gpu, const gpu::run_devices& choice) {
  if (gpu.memory != 0 || choice.emulated > 0) return {gpu.memory};
  device_bound least;
  for (const gpu::dealt_device& d : choice.chosen) {
    const auto seen =
        std::ranges::find_if(choice.seen, [&](const gpu::device_identity& g) { return g.index == d.index; });
    const std::uint64_t part = seen == choice.seen.end() ? 0 : gpu::own_part_of_device(seen->memory, d.sharers);
    if (part != 0 && (least.bytes == 0 || part < least.bytes)) least = {part, d.index};
  }
  return least;
}

// Refuses where the kernels cannot run or gpu.devices names a GPU not
// visible (std::invalid_argument), or where gpu.memory, or without it a
// GPU's own part of its memory, cannot hold an n-board count's streams on
// `threads` threads (resolved: at least 1; memory_limit_error): before a
// journal is taken or a table built.
void check_gpu_runnable(int n, int threads, const gpu_options& gpu) {
  // Its form first, GPU or none: a list mistyped is said here, not on a GPU node later.
  gpu::check_device_list(gpu.devices);
  if (gpu::emulated_devices() == 0) {  // the probe: it says why no GPU is usable
    const gpu::device_probe probe = gpu::probe_device();
    if (!probe.usable) throw std::invalid_argument("--engine gpu needs an NVIDIA GPU: " + probe.description);
  }
  const gpu::run_devices choice = gpu::choose_run_devices(gpu.devices, threads);
  if (choice.emulated == 0) {
    for (const gpu::dealt_device& d : choice.chosen) {
      const std::string refusal = gpu::kernel_refusal(d.index);
      if (!refusal.empty()) throw std::invalid_argument("--engine gpu needs an NVIDIA GPU: " + refusal);
    }
  }
  const device_bound bound = bound_of_each_device(gpu, choice);
  if (bound.bytes == 0 || n <= 0 || n > gpu::max_gpu_board_size) return;  // a board it does not take: refused elsewhere
  const std::size_t streams = streams_per_device(threads, choice.chosen.size());
  // A job's key arrays lie in the arena beside its groups: past n = 26 the
  // digits leave the key at least 13 to 15 bits, 160 to 640 KiB of them.
  const std::uint64_t key_bytes = sizeof(std::uint64_t) * gpu::key_words_for(n, gpu::job_digits_for(n), 0);
  const std::uint64_t need = gpu::least_device_bytes(streams, quarter_lists_bytes(n, /*compact=*/true) + key_bytes);
  if (need <= bound.bytes) return;
  // Named in whole MiB, rounded up: a figure --gpu-memory takes as it is
  // (the least is a few MiB: "2.2 MiB" could not be given back).
  constexpr std::uint64_t mib = std::uint64_t{1} << 20;
  const std::uint64_t named = need > UINT64_MAX - mib ? need : (need + mib - 1) / mib * mib;
  const bool whole =
      bound.bytes % mib == 0 && format_bytes(named, 0, byte_rounding::up) != format_bytes(bound.bytes, 0);
  const int decimals = whole ? 0 : digits_to_tell(named, bound.bytes);
  const std::string fewer_threads = streams > 1 ? "count with fewer --threads" : "";  // one stream a GPU is the least
  // The figure to give back as it is: "2.36 GiB" names the need, which
  // --gpu-memory takes only in whole units ("2412M").
  constexpr std::uint64_t gib = std::uint64_t{1} << 30;
  const std::string option = named % gib == 0 ? std::to_string(named / gib) + "G" : std::to_string(named / mib) + "M";
  std::string limit = "the " + format_bytes(bound.bytes, decimals) + " allowed (--gpu-memory); raise --gpu-memory to " +
                      option + " or more" + (fewer_threads.empty() ? "" : ", or " + fewer_threads);
  if (bound.smallest >= 0) {
    const auto dealt =
        std::ranges::find_if(choice.chosen, [&](const gpu::dealt_device& d) { return d.index == bound.smallest; });
    const int sharers = dealt == choice.chosen.end() ? 1 : dealt->sharers;
    limit = "the " + format_bytes(bound.bytes, decimals) + " this process takes of GPU " +
            std::to_string(bound.smallest) +
            (sharers > 1
                 ? " (a part of its memory for each of the " + std::to_string(sharers) + " processes counting on it)"
                 : " (its memory, less the CUDA runtime's part)") +
            ": " +
            (sharers > 1 ? "count with fewer processes a GPU" + (fewer_threads.empty() ? "" : ", or " + fewer_threads)
             : fewer_threads.empty() ? "count on a GPU with more memory"
                                     : fewer_threads);
  }
  throw memory_limit_error("the gpu engine needs at least " + format_bytes(named, decimals, byte_rounding::up) +
                           " of each GPU for n = " + std::to_string(n) + " on " + std::to_string(threads) +
                           (threads == 1 ? " thread (" : " threads (") + std::to_string(streams) +
                           (streams == 1 ? " stream" : " streams") +
                           " a GPU, each with its buffers and a subproblem's quarter lists), more than " + limit);
}

std::unique_ptr<engine_context> gpu_plan::make_context(isa, int threads, std::uint64_t max_memory,
                                                       const gpu_options& gpu, const std::atomic<bool>* cancel) const {
  check_gpu_runnable(board_size(), threads, gpu);
  const gpu::run_devices choice =
      gpu::choose_run_devices(gpu.devices, threads);  // before the tables: a wrong list costs nothing
  return std::make_unique<gpu_context>(*this, choice, threads, max_memory, bound_of_each_device(gpu, choice).bytes,
                                       cancel);
}

std::unique_ptr<engine_plan> make_plan(int n, int split_depth, std::size_t, std::uint64_t, const std::atomic<bool>*) {
  column_classes classes(n);
  const int slices = class_plan::slices_for(classes, split_depth);
  return std::make_unique<gpu_plan>(n, class_slicing{slices}, std::move(classes));  // every class takes them all
}

// The host's memory: where the quadrant engine's layout for the bound has
// whole tables, the tables and each thread's buffers, as that layout prices
// them (each device holds the same tables in its own memory); else each
// thread's batch of quarter lists, with that layout's margin for the rest.
std::uint64_t gpu_memory_bytes(int n, int threads, std::uint64_t max_memory) noexcept {
  const quadrant_layout layout = quadrant_layout_for(n, threads, max_memory);
  if (layout.tables) return layout.bytes;
  const double lists = static_cast<double>(quarter_lists_bytes(n, layout.compact_lists));
  const auto batch =
      static_cast<double>(own_quarters_batch(n, threads, memory_limit_or_default(max_memory), layout.compact_lists));
  const double bytes =
      lists_margin_factor * static_cast<double>(std::max(threads, 1)) * batch * lists + lists_margin_bytes;
  return bytes >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
}

}  // namespace

extern const engine_definition gpu_engine = {
    .id = engine::gpu,
    .name = "gpu",
    .summary =
        "the quadrant join on an NVIDIA GPU (CUDA), a round of subproblems per launch; refused where no GPU "
        "is usable (NQUEENS_GPU=emulate runs its kernels on the CPU, slowly, for tests)",
    .counts_unique = false,
    .max_board_size = gpu::max_gpu_board_size,  // past 24, each subproblem's own quarter lists
    .auto_from = 0,                             // never picked by auto: it needs a device
    .make_plan = &make_plan,
    .memory_estimate = &gpu_memory_bytes,
    .check_runnable = &check_gpu_runnable,
    .counts_on_gpus = true,
};

}  // namespace nqueens::detail
