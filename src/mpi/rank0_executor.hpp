#pragma once

// Rank 0's executor: the run driver's subproblems, spread over every rank.
// It hands out chunks of subproblem indices on request, largest first and
// shrinking as the work runs out (guided self-scheduling), so fast and slow
// nodes finish together, and counts chunks itself on a second thread; only
// the main thread calls MPI.

#include <atomic>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "mpi/chunk_ledger.hpp"
#include "nqueens/count.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/threads.hpp"
#include "run/executor.hpp"

namespace nqueens::mpi {

class rank0_executor final : public detail::executor {
 public:
  rank0_executor(const count_options& options, int ranks)
      : ranks_(ranks),
        waiting_(ranks - 1),
        threads_(resolve_threads(options.threads)),
        kernels_(options.kernels ? *options.kernels : active_isa()),
        max_memory_(options.max_memory),
        gpu_(options.gpu),
        cancel_(options.cancel),
        ledger_(ranks) {}

  int threads() const noexcept override { return threads_; }
  isa kernels() const override { return kernels_; }
  // The journal failed: end now, without waiting for the workers' chunks
  // (main then aborts the job; the journal holds its whole records).
  void abandon() noexcept override { abandoned_ = true; }
  bool stopped_elsewhere() const noexcept override { return worker_stopped_; }
  /// The rank and signal that stopped a worker, when one was (rank 0 then
  /// reports the interruption as if the signal were its own).
  std::optional<std::pair<int, int>> worker_stop() const { return worker_stop_; }

  /// Answers every worker still waiting for work with an empty chunk, so
  /// that each waits for the end (finish_workers()); once the job is
  /// stopping, holds each instead (and
  /// takes the message of one a signal stopped) for dismiss_workers(). Rank
  /// 0 calls it whenever drive() returns: run() serves no one when the
  /// journal left nothing to do.
  void release_workers();

  /// The signal that stops the job (rank 0's own, or the first a worker
  /// reported); 0 while none has.
  int stopping_signal() const;

  /// Asks every worker given no more work whether a stop reached it, takes
  /// each one's answer, and unless one was stopped (`stops_count`), lets
  /// them all finalize; a worker stopped is held, the others kept, for
  /// dismiss_workers(). Rank 0 calls it after release_workers() at the
  /// job's end (false where the job was refused: they finalize anyway).
  void finish_workers(bool stops_count);

  /// Tells every worker held by a stop, or given no more work, to leave
  /// with 128 + the signal. Rank 0 calls it once its own report is out.
  void dismiss_workers();

  void run(const plan& p, std::span<const std::size_t> indices, const detail::report_fn& report,
           const std::atomic<bool>& stop) override;

  /// What every rank asked of its device (zero but for the GPU engine).
  device_work device() const noexcept override;
  /// Rank 0's own: the seconds its tables took to build and to release.
  /// Read once run() has returned (its thread, which builds them, joined).
  run_phases phases() const noexcept override { return phases_; }
  /// True once a subproblem's count reached rank 0 (or there was none to
  /// count): a job stopped before that, its tables being built, kept
  /// nothing, and ends as one stopped while it planned (its journal, made
  /// for it, removed). A worker counting a subproblem it had not finished is
  /// not told apart: what it counted is lost either way.
  bool counting_began() const noexcept override { return counted_.load(); }

 private:
  // Answers every worker's request with the next chunk until each got an
  // empty one or left, and rank 0's own thread is done; passes a stop on to
  // that thread. A failure or an abandoned run ends it at once.
  void serve_workers(const detail::report_fn& report, const std::atomic<bool>& stop,
                     const std::atomic<bool>& local_done);

  // A tag_stopped message ends with the signal: the first one is reported.
  void note_stop(int rank, const std::vector<std::uint64_t>& message);

  // A worker that sent tag_stopped: its stop noted, the worker held (taken
  // from the waiting or the finished).
  void worker_left(int rank, const std::vector<std::uint64_t>& message);

  // Answers a worker's request with `chunk`; an empty one releases the
  // worker: it waits for the job's end (finish_workers()), or is held for
  // dismiss_workers() once the job stops.
  void answer(int worker, const std::vector<std::uint64_t>& chunk);

  // Once the job stops: tells every worker that holds a chunk to cut it
  // short (tag_cut), so that it reports and is held within a second, not
  // after up to 4096 subproblems.
  void cut_busy_workers();

  // Adds a worker message's header to the job's device work; throws
  // std::runtime_error for a message too short to hold it.
  void add_header(const std::vector<std::uint64_t>& message);

  // The next chunk: a quarter of the remaining work's fair share per rank;
  // none once stopped.
  std::vector<std::uint64_t> next_chunk();

  int ranks_;
  int waiting_;  // workers not yet released (sent an empty chunk, or left); the main thread's
  int threads_;
  isa kernels_;
  std::uint64_t max_memory_;
  gpu_options gpu_;
  const std::atomic<bool>* cancel_;
  std::optional<run_context> context_;
  std::mutex mutex_;
  std::span<const std::size_t> todo_;  // run()'s indices; next_ guarded by mutex_
  std::size_t next_ = 0;
  std::atomic<bool> halt_{false};  // rank 0's own thread starts nothing more
  std::atomic<bool> failed_{false};
  std::atomic<bool> abandoned_{false};
  std::atomic<bool> counted_{false};                // a count reported, from either thread
  std::optional<std::pair<int, int>> worker_stop_;  // written by the serving (main) thread only
  std::atomic<bool> worker_stopped_{false};         // worker_stop_ set, for the driver's helper thread
  std::vector<int> held_;                           // workers waiting for dismiss_workers(); the main thread's
  std::vector<int> finished_;                       // workers given no more work, waiting for the end; the same
  std::vector<int> busy_;                           // workers holding a chunk; the main thread's
  chunk_ledger ledger_;                             // what each of them holds; the main thread's
  bool cut_sent_ = false;                           // tag_cut sent to every busy worker; the main thread's
  mutable std::mutex device_mutex_;
  device_work device_;  // every rank's, rank 0's own thread's included
  run_phases phases_;   // start written by rank 0's own thread, release by run(), once it is joined
};

}  // namespace nqueens::mpi
