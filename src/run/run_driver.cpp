#include "run/run_driver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "nqueens/cancelled.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/progress.hpp"
#include "nqueens/reduce.hpp"
#include "run/dispatch_positions.hpp"
#include "run/helper_thread.hpp"
#include "run/journal/journal_io.hpp"
#include "run/progress_relay.hpp"
#include "run/run_tally.hpp"
#include "run/shard/shard_members.hpp"

namespace nqueens::detail {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

// A difference of seconds to the clock's nanosecond: printed as 0.041741497,
// not as the 0.041741496999999995 that the subtraction left.
double whole_nanoseconds(double seconds) { return std::round(seconds * 1e9) / 1e9; }

// Queued journal records flushed before their interval is up: the most a
// journal holds in memory is this and what 50 ms add.
constexpr std::size_t journal_queue_bytes = std::size_t{1} << 20;

// What is left of this shard, in dispatch order (every prefix a fair
// sample: an honest progress fraction): the run's only list of subproblems
// (8 bytes each, priced by run_lists_estimate), so a shard costs its own
// size, and sums are kept, not per-subproblem results.
std::vector<std::size_t> subproblems_left(const shard_members& mine, const checkpoint_journal* journal,
                                          std::size_t resumed, const std::atomic<bool>* cancel) {
  std::vector<std::size_t> todo;
  todo.reserve(mine.size() - resumed);
  for_each_dispatch_position(mine.size(), [&](std::size_t k) {
    // 2 * 10^8 subproblems take a second or two: a signal is answered within
    // a few milliseconds.
    if (k % 65536 == 0) throw_if_cancelled(cancel);
    const std::size_t index = mine[k];
    if (journal == nullptr || !journal->holds(index)) todo.push_back(index);
  });
  return todo;
}

// Runs `todo` through `exec`, with a helper thread that passes an outside
// cancellation on (every 50 ms), hands progress to the callback's own thread
// (progress_relay: a callback that waits holds up neither the stop nor the
// journal) and flushes the journal while it runs. A progress callback's
// exception stops the run and is rethrown here. A journal
// that cannot be written stops the run, and its error is returned: the
// caller throws it, unless every subproblem was counted by then (the last
// records' flush can fail as the workers end). `callback_wait_seconds`:
// how long a callback call under way at the end was waited for.
std::optional<checkpoint_error> run_watched(const plan& p, const count_options& options, executor& exec,
                                            const std::vector<std::size_t>& todo, checkpoint_journal* journal,
                                            run_tally& tally, double& callback_wait_seconds) {
  // A cancel that came during planning stops the run before it starts.
  std::atomic<bool> stop{options.cancel != nullptr && options.cancel->load()};
  std::exception_ptr helper_error;
  std::optional<checkpoint_error> journal_error;
  const report_fn report = [&](std::size_t index, const subproblem_count& c) {
    if (journal != nullptr) journal->record(index, c);
    tally.finished(index, c);
  };
  std::optional<progress_relay> relay;  // outlives the helper, which posts to it
  if (options.on_progress) relay.emplace(options.on_progress, stop);
  {
    std::optional<helper_thread> helper;
    if (options.on_progress || journal != nullptr || options.cancel != nullptr) {
      auto last_progress = clock_type::now();
      auto last_flush = clock_type::now();
      bool stop_seen = false;
      // Every 50 ms, or as often as the journal is to be flushed.
      const double tick = journal != nullptr ? std::min(0.05, options.checkpoint_interval_seconds) : 0.05;
      auto last_tick_end = clock_type::now();
      helper.emplace(tick, [&, tick, last_progress, last_flush, stop_seen, last_tick_end]() mutable {
        // A second or more missing between two ticks (measured from the
        // end of the last, so that its journal flush is not in it): the
        // process was stopped, workers and all.
        const auto gap = clock_type::now() - last_tick_end;
        if (gap > std::chrono::duration<double>(tick + 1.0)) {
          tally.paused(std::chrono::duration_cast<clock_type::duration>(gap - std::chrono::duration<double>(tick)));
        }
        if ((options.cancel != nullptr && options.cancel->load()) || exec.stopped_elsewhere()) stop = true;
        // A stop saves what is finished at once, before the running
        // subproblems end: a scheduler's kill -9 may follow within seconds.
        bool save_now = stop && !stop_seen;
        stop_seen = stop_seen || stop;
        const auto now = clock_type::now();
        if (relay && std::chrono::duration<double>(now - last_progress).count() >= options.progress_interval_seconds) {
          last_progress = now;
          relay->post(tally.snapshot(false));
        }
        // Also once a MiB of records waits (about 22 000): the queue's
        // memory stays within what the run's estimate leaves it.
        if (journal != nullptr &&
            (save_now ||
             std::chrono::duration<double>(now - last_flush).count() >= options.checkpoint_interval_seconds ||
             journal->queued_bytes() >= journal_queue_bytes)) {
          last_flush = now;
          try {
            journal->flush();
          } catch (const checkpoint_error& e) {
            if (!journal_error) journal_error = e;
            stop = true;  // a journal that cannot be written must not be trusted further
            exec.abandon();
          } catch (...) {
            if (!helper_error) helper_error = std::current_exception();
            stop = true;
            exec.abandon();
          }
        }
        last_tick_end = clock_type::now();
      });
    }
    exec.run(p, todo, report, stop);
  }
  // The callback's exception ends the count (count() rethrows it). It set
  // `stop`, and the helper saved what was finished then; one it threw after
  // the helper's last look is saved here.
  // A call of the callback still under way is waited for, and its time
  // left out of the count's: the caller's own work, not the count's.
  const auto waiting = clock_type::now();
  const std::exception_ptr thrown = relay ? relay->finish() : nullptr;
  callback_wait_seconds = seconds_since(waiting);
  if (thrown) {
    if (journal != nullptr && !journal_error && !helper_error) {
      try {
        journal->flush();
      } catch (...) {  // the callback's exception is the one to tell
      }
    }
    if (!helper_error) helper_error = thrown;
  }
  if (helper_error) std::rethrow_exception(helper_error);
  return journal_error;
}

// Reduce and verify: the sums into `r`, the fundamental count by Burnside's
// lemma for a whole count (checked against an engine that classifies
// solutions itself), the published values compared.
void settle(count_result& r, const plan& p, const count_options& options, const totals& sums) {
  const int n = p.board_size();
  r.scope = p.scope();
  r.total = sums.total;
  r.symmetric_180 = sums.symmetric_180;
  r.symmetric_90 = sums.symmetric_90;
  r.finished = sums.finished;
  r.complete = sums.finished == r.shard_subproblems;
  const bool everything = r.complete && options.shard.whole() && p.scope() == plan_scope::all;
  if (everything) {
    r.unique = fundamental_count(n, sums.total, sums.symmetric_180, sums.symmetric_90);
    // A check of both searches that costs nothing.
    if (counts_unique(p.kind()) && sums.unique != *r.unique) {
      throw std::logic_error("the " + std::string(to_string(p.kind())) + " engine counted " + to_string(sums.unique) +
                             " fundamental solutions of n = " + std::to_string(n) + ", Burnside's lemma gives " +
                             to_string(*r.unique));
    }
  }
  if (!r.complete) return;
  if (everything) {
    r.check = verify(n, sums.total, r.unique, sums.symmetric_180, sums.symmetric_90);
  } else if (options.shard.whole()) {
    r.check = verify(n, std::nullopt, std::nullopt, sums.symmetric_180, sums.symmetric_90);
  }
}

// Calls remove_if_unused() on the journal where the scope is left by a throw.
class unused_journal_removal {
 public:
  explicit unused_journal_removal(checkpoint_journal* journal) noexcept : journal_(journal) {}
  unused_journal_removal(const unused_journal_removal&) = delete;
  unused_journal_removal& operator=(const unused_journal_removal&) = delete;
  ~unused_journal_removal() {
    if (journal_ != nullptr && std::uncaught_exceptions() > throwing_) journal_->remove_if_unused();
  }

 private:
  checkpoint_journal* journal_;
  int throwing_ = std::uncaught_exceptions();
};

}  // namespace

count_result drive(const plan& p, const count_options& options, executor& exec, clock_type::time_point start,
                   checkpoint_file journal_file) {
  std::unique_ptr<checkpoint_journal> journal;
  if (!journal_file.empty()) {
    journal = std::make_unique<checkpoint_journal>(std::move(journal_file), p, options.shard, options.cancel);
  }
  // A journal made here that took no record when the run ends by a throw (a
  // stop while the tables were built, a failure before the first count) is
  // removed: it holds no work, and left behind it would bind the next run
  // to this one's engine and split (run_cancelled promises the journal as
  // it was).
  const unused_journal_removal removal{journal.get()};
  count_result r;
  r.n = p.board_size();
  r.kind = p.kind();
  r.kernels = exec.kernels();
  r.subproblems = p.size();
  r.split_depth = p.split_depth();
  r.plan_fingerprint = p.fingerprint();
  r.shard = options.shard;
  r.threads = exec.threads();

  // Plan: this shard's subproblems, less the journal's.
  const shard_members mine(p, options.shard);
  r.shard_subproblems = mine.size();
  r.shard_digest = mine.digest();
  r.resumed = journal ? journal->finished_count() : 0;
  r.journal_bytes_cut = journal ? journal->dropped_bytes() : 0;
  const std::vector<std::size_t> todo = subproblems_left(mine, journal.get(), r.resumed, options.cancel);

  // Execute, reducing as the subproblems finish (the journal's sums first).
  run_tally tally(p, mine, todo, journal ? journal->held() : totals{}, static_cast<bool>(options.on_progress),
                  r.threads, start);
  const auto planned = clock_type::now();
  // A journal write that fails once everything is counted (a full disk at
  // the last flush or the mark) costs the journal its end, not the result:
  // the counts are whole in memory, and the same run again finishes the
  // journal. One that fails earlier is thrown.
  double callback_wait = 0.0;
  std::optional<checkpoint_error> journal_error =
      run_watched(p, options, exec, todo, journal.get(), tally, callback_wait);
  // Stopped while the engine's tables were built: nothing was counted, as
  // for a stop while the plan was built (the journal as it was). The stop
  // may be another process's (an MPI worker's signal).
  if (!journal_error && !exec.counting_began() &&
      ((options.cancel != nullptr && options.cancel->load()) || exec.stopped_elsewhere())) {
    throw run_cancelled();
  }
  const auto finish_journal = [&](auto step) {
    try {
      step();
    } catch (const checkpoint_error& e) {
      if (e.why() != checkpoint_error::reason::write) throw;
      journal_error = e;
    }
  };
  if (journal && !journal_error) finish_journal([&] { journal->flush(); });
  r.device = exec.device();
  r.phases = exec.phases();
  r.phases.planning = std::chrono::duration<double>(planned - start).count();
  r.phases.counting =
      whole_nanoseconds(std::max(0.0, seconds_since(planned) - r.phases.start - r.phases.release - callback_wait));

  // Reduce and verify; a finished journal gets its completion mark. Counts
  // at odds with one another (Burnside's lemma, the engine's own classes),
  // some of them the journal's, name the journal: a record of it whose
  // checksum holds may still be another run's or forged, and the run is not
  // marked finished on it.
  try {
    settle(r, p, options, tally.sums());  // the executor has returned: no report is still running
  } catch (const std::logic_error& e) {   // domain_error too
    if (!journal || r.resumed == 0) throw;
    throw checkpoint_error(checkpoint_error::reason::corrupt,
                           journal_name(journal->path()) + " gave " + std::to_string(r.resumed) +
                               " of the counts, and the counts disagree (" + e.what() +
                               "): one of its records is damaged or another run's; count again without it");
  }
  if (r.complete && !journal_error && journal && !journal->complete()) {
    finish_journal([&] { journal->mark_complete(); });
  }
  if (journal_error) {
    if (!r.complete) throw *journal_error;
    r.journal_unfinished = journal_error->what();
  }
  r.seconds = whole_nanoseconds(seconds_since(start) -
                                callback_wait);  // before the last call: the caller's time, not the count's
  if (options.on_progress) {
    // The last snapshot's time is the result's: a call the end waited for
    // is the caller's time there too.
    progress last = tally.snapshot(true);
    last.elapsed_seconds = r.seconds;
    options.on_progress(last);
  }
  return r;
}

}  // namespace nqueens::detail
