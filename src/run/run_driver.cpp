#include "run/run_driver.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "nqueens/cancelled.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/progress.hpp"
#include "nqueens/reduce.hpp"
#include "run/dispatch_positions.hpp"
#include "run/shard_members.hpp"

namespace nqueens::detail {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

// Shared between the workers (one update per finished subproblem: a mutex is
// noise next to a subproblem's microseconds to seconds) and the helper thread.
struct run_state {
  std::mutex mutex;
  std::uint64_t work_total = 0;
  std::uint64_t work_done = 0;
  std::uint64_t work_done_before = 0;  // from the journal
  uint128 total_before = 0;            // from the journal
  totals sums;                         // the journal's, then each report's
};

progress snapshot(run_state& st, std::size_t subproblems, int threads, clock_type::time_point start, bool last) {
  const std::lock_guard lock(st.mutex);
  progress p;
  p.subproblems = subproblems;
  p.finished = st.sums.finished;
  p.total_so_far = st.sums.total;
  p.total_resumed = st.total_before;
  p.threads = threads;
  p.last = last;
  p.elapsed_seconds = seconds_since(start);
  p.fraction = st.work_total == 0 ? 1.0 : static_cast<double>(st.work_done) / static_cast<double>(st.work_total);
  const std::uint64_t done_now = st.work_done - st.work_done_before;
  const std::uint64_t left = st.work_total - st.work_done;
  if (done_now > 0 && p.elapsed_seconds > 0) {
    p.eta_seconds = p.elapsed_seconds * static_cast<double>(left) / static_cast<double>(done_now);
  }
  return p;
}

// Wakes every `tick` to report progress, flush the journal and pass an outside
// cancellation on to the workers, until told to stop.
class helper_thread {
 public:
  template <typename Body>
  helper_thread(double tick_seconds, Body body)
      : thread_([this, tick_seconds, body]() mutable {
          std::unique_lock lock(mutex_);
          while (!stop_) {
            cv_.wait_for(lock, std::chrono::duration<double>(tick_seconds));
            if (stop_) break;
            lock.unlock();
            body();
            lock.lock();
          }
        }) {}
  ~helper_thread() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

count_result drive(const plan& p, const count_options& options, executor& exec, clock_type::time_point start,
                   checkpoint_file journal_file) {
  const int n = p.board_size();
  std::unique_ptr<checkpoint_journal> journal;
  if (!journal_file.empty()) {
    journal = std::make_unique<checkpoint_journal>(std::move(journal_file), p, options.shard, options.cancel);
  }

  count_result r;
  r.n = n;
  r.kind = p.kind();
  r.kernels = exec.kernels();
  r.subproblems = p.size();
  r.split_depth = p.split_depth();
  r.plan_fingerprint = p.fingerprint();
  r.shard = options.shard;

  // What is left of this shard, in dispatch order (every prefix a fair
  // sample: an honest progress fraction): the run's only list of
  // subproblems (8 bytes each, priced by run_lists_estimate), so a shard
  // costs its own size, and sums are kept, not per-subproblem results.
  const shard_members mine(p, options.shard);
  r.shard_subproblems = mine.size();
  r.resumed = journal ? journal->finished_count() : 0;
  std::vector<std::size_t> todo;
  todo.reserve(r.shard_subproblems - r.resumed);
  for_each_dispatch_position(mine.size(), [&](std::size_t k) {
    // 2 * 10^8 subproblems take a second or two: a signal is answered within
    // a few milliseconds.
    if (k % 65536 == 0) throw_if_cancelled(options.cancel);
    const std::size_t index = mine[k];
    if (!journal || !journal->holds(index)) todo.push_back(index);
  });

  const bool watch = options.on_progress || journal || options.cancel != nullptr;
  run_state state;
  if (journal) state.sums = journal->held();
  state.total_before = state.sums.total;
  // Progress weighs subproblems by their estimates; equal ones (the
  // quadrant plan's) need no sum over the plan.
  const bool weighed = options.on_progress && !p.uniform_work();
  if (options.on_progress) {
    std::uint64_t left = 0;
    for (const std::size_t i : todo) left += weighed ? p.estimated_work(i) : 1;
    if (weighed) {
      for (std::size_t k = 0; k < mine.size(); ++k) state.work_total += p.estimated_work(mine[k]);
    } else {
      state.work_total = r.shard_subproblems;
    }
    state.work_done = state.work_total - left;
    state.work_done_before = state.work_done;
  }

  // A cancel that came during planning stops the run before it starts.
  std::atomic<bool> stop{options.cancel != nullptr && options.cancel->load()};
  std::exception_ptr helper_error;
  const report_fn report = [&](std::size_t index, const subproblem_count& c) {
    if (journal) journal->record(index, c);
    const std::lock_guard lock(state.mutex);
    accumulate(state.sums, c);
    state.work_done += weighed ? p.estimated_work(index) : 1;
  };
  const int threads = exec.threads();
  {
    std::optional<helper_thread> helper;
    if (watch) {
      // The tick serves cancellation (50 ms), progress and journal flushes.
      const double tick = 0.05;
      auto last_progress = clock_type::now();
      auto last_flush = clock_type::now();
      helper.emplace(tick, [&, last_progress, last_flush]() mutable {
        if (options.cancel != nullptr && options.cancel->load()) stop = true;
        const auto now = clock_type::now();
        if (options.on_progress &&
            std::chrono::duration<double>(now - last_progress).count() >= options.progress_interval_seconds) {
          last_progress = now;
          options.on_progress(snapshot(state, r.shard_subproblems, threads, start, false));
        }
        if (journal && std::chrono::duration<double>(now - last_flush).count() >= options.checkpoint_interval_seconds) {
          last_flush = now;
          try {
            journal->flush();
          } catch (...) {
            if (!helper_error) helper_error = std::current_exception();
            stop = true;  // a journal that cannot be written must not be trusted further
            exec.abandon();
          }
        }
      });
    }
    exec.run(p, todo, report, stop);
  }
  if (helper_error) std::rethrow_exception(helper_error);

  if (journal) journal->flush();
  const totals sums = state.sums;  // the executor has returned: no report is still running
  r.threads = threads;
  r.scope = p.scope();
  r.total = sums.total;
  r.symmetric_180 = sums.symmetric_180;
  r.symmetric_90 = sums.symmetric_90;
  r.finished = sums.finished;
  r.complete = sums.finished == r.shard_subproblems;
  const bool everything = r.complete && options.shard.whole() && p.scope() == plan_scope::all;
  if (everything) {
    r.unique = fundamental_count(n, sums.total, sums.symmetric_180, sums.symmetric_90);
    // An engine that classifies solutions itself must agree: a check of
    // both searches that costs nothing.
    if (counts_unique(p.kind()) && sums.unique != *r.unique) {
      throw std::logic_error("the " + std::string(to_string(p.kind())) + " engine counted " + to_string(sums.unique) +
                             " fundamental solutions of n = " + std::to_string(n) + ", Burnside's lemma gives " +
                             to_string(*r.unique));
    }
  }
  if (r.complete) {
    if (everything) {
      r.check = verify(n, sums.total, r.unique, sums.symmetric_180, sums.symmetric_90);
    } else if (options.shard.whole()) {
      r.check = verify(n, std::nullopt, std::nullopt, sums.symmetric_180, sums.symmetric_90);
    }
    if (journal && !journal->complete()) journal->mark_complete();
  }
  if (options.on_progress) options.on_progress(snapshot(state, r.shard_subproblems, threads, start, true));
  r.seconds = seconds_since(start);
  return r;
}

}  // namespace nqueens::detail
