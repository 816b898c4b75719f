// nqueens-mpi: `nqueens count` across the ranks of an MPI job.
//
// Every rank builds the same plan, and the ranks agree on it before anything
// is counted (agreement.hpp). Rank 0 runs the run driver (journal, progress,
// reduction, verification: the same code as `nqueens count`) with its MPI
// executor (rank0_executor.hpp); the others are workers (worker.hpp). A
// journal rank 0 refuses ends the job as a refusal (exit 2, every rank
// finalized); a failure once counting has started (a rank's error, rank 0's
// journal write) ends it with MPI_Abort and the rank's message: no partial
// total is ever printed. (A journal write that fails once every subproblem
// is counted prints the total, then the failure, and ends with exit 3.) If a rank dies, MPI's default error handler
// aborts the job; if mpirun dies, every rank exits by itself (launcher_watch.hpp).

#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands/count_command.hpp"
#include "cli/count_report.hpp"
#include "cli/exit_status.hpp"
#include "cli/interruption.hpp"
#include "cli/io/standard_descriptors.hpp"
#include "cli/io/standard_output.hpp"
#include "cli/machine_refusal.hpp"
#include "cli/progress_line.hpp"
#include "cli/signals.hpp"
#include "cli/stack_limit.hpp"
#include "mpi/agreement.hpp"
#include "mpi/gpu_sharers.hpp"
#include "mpi/launcher_watch.hpp"
#include "mpi/rank0_executor.hpp"
#include "mpi/rank_binding.hpp"
#include "mpi/worker.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/engine.hpp"
#include "run/run_driver.hpp"

namespace {

using namespace nqueens;
using namespace nqueens::mpi;

// A job a signal stopped ends without MPI_Finalize, on every rank: once
// mpirun itself was signalled it tears the job down, and a rank waiting in
// MPI_Finalize would wait there for its SIGKILL instead of ending with
// 128 + the signal, as nqueens does. Rank 0 flushes its journal and writes
// its report before it lets any worker go: Open MPI's mpirun kills every
// other rank as soon as one ends, so a worker that left first could take
// rank 0's report with it.
[[noreturn]] void leave_stopped(int status) {
  std::cout.flush();
  std::cerr.flush();
  std::_Exit(status);
}

// `begun` and `checked` bound rank 0's checks, as count's; its planning
// phase and its seconds then run from `checked`, through the journal, the
// plan and the ranks' agreement, as count's run through the journal and plan.
int run_rank0(cli::count_request& request, const plan& p, int ranks, const agreement& agreed, checkpoint_file journal,
              std::chrono::steady_clock::time_point begun, std::chrono::steady_clock::time_point checked) {
  const std::vector<int>& rank_threads = agreed.rank_threads;
  cli::progress_printer printer(request.progress.terminal, STDERR_FILENO, true, cli::describe_ranks(rank_threads));
  cli::show_progress(printer, request.progress, request.options);
  request.options.cancel = &cli::stop_requested();
  rank0_executor executor(request.options, ranks);
  std::optional<count_result> counted;
  try {
    counted = detail::drive(p, request.options, executor, checked, std::move(journal));
    counted->phases.checks = std::chrono::duration<double>(checked - begun).count();
  } catch (const run_cancelled&) {
    // Stopped while rank 0 read its journal, or before any count reached it
    // (its ranks building their tables, or in their first subproblems):
    // nothing was kept, and a journal made for the job was removed. The workers, waiting for a chunk, are
    // let go, and every rank ends with 128 + the signal, as in any other
    // phase, not by MPI_Abort; a worker's signal is named as its own.
    executor.release_workers();
    const auto stopped = executor.worker_stop();
    const bool own = cli::stop_requested() || !stopped;
    const int status = cli::report_interruption_before_finishing(
        request.options.checkpoint, own ? 0 : stopped->second,
        own ? "nqueens-mpi" : "nqueens-mpi: rank " + std::to_string(stopped->first));
    executor.dismiss_workers();
    leave_stopped(status);
  } catch (const checkpoint_error& e) {
    if (e.why() == checkpoint_error::reason::write) throw;  // mid-run: the job is aborted
    // Refused before anything was counted (another run's journal, a damaged
    // one, a path it cannot create): the workers, waiting for their first
    // chunk, are let go, and the job ends with one line and exit 2 as the
    // agreement's refusals end it, not by MPI_Abort.
    executor.release_workers();
    const cli::failure f = cli::failure_of(std::current_exception());
    std::cerr << "nqueens-mpi: " << f.message << '\n';
    // A stop that came meanwhile left the workers held, waiting for the word
    // to leave: they get it (128 + the signal), and rank 0 leaves without
    // MPI_Finalize, as a stopped job does, with the refusal's status.
    if (executor.stopping_signal() != 0) {
      executor.dismiss_workers();
      leave_stopped(f.status);
    }
    executor.finish_workers(false);  // refused: they finalize, whatever reached them now
    return f.status;
  }
  const count_result& r = *counted;
  executor.release_workers();  // whatever drive() did: no worker is left waiting for work
  // A signal that reached a worker as the job ended is heard here: the job
  // is then stopped, as count reports a signal that came as it finished.
  if (executor.stopping_signal() == 0) executor.finish_workers(true);
  if (const int sig = executor.stopping_signal(); sig != 0) {
    const auto stopped = executor.worker_stop();
    const bool own = cli::stop_requested() || !stopped;
    const int status = cli::status_after_closing_output(
        cli::report_interruption(r, request.options.checkpoint, own ? 0 : sig,
                                 own ? "nqueens-mpi" : "nqueens-mpi: rank " + std::to_string(stopped->first)),
        "nqueens-mpi");
    executor.dismiss_workers();
    leave_stopped(status);
  }
  if (!r.complete) throw std::runtime_error("the job ended with subproblems missing: no total");
  cli::count_report report(r, request.options.checkpoint);
  report.rank_threads = rank_threads;  // what the job adds to a count's report
  report.rank_kernels = agreed.rank_kernels;
  report.rank_gpus = agreed.rank_gpus;
  cli::write_report(report, cli::format_for(request.json));
  return cli::status_after_journal(r, r.check.ok() ? 0 : 1, "nqueens-mpi", request.options.checkpoint);
}

// The end of a rank refused memory or a thread by its machine, from the
// thread that was refused (machine_refusal.hpp).
[[noreturn]] void end_job_refused(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
  ::_exit(status);  // MPI_Abort does not return; should it, leave anyway
}

// The end of a job that had started counting: every rank must stop, now.
[[noreturn]] void abort_job(int rank, const std::string& message, int status) {
  std::cerr << "nqueens-mpi: " << (rank == 0 ? "" : "rank " + std::to_string(rank) + ": ") << message << std::endl;
  MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);  // MPI_Abort does not return; should it, leave anyway
}

}  // namespace

int main(int argc, char** argv) {
  cli::prepare_standard_streams("nqueens-mpi");  // before MPI_Init opens anything
  if (!cli::ensure_least_stack("nqueens-mpi")) return 3;
  cli::end_machine_refusals_cleanly("nqueens-mpi");
  exit_with_launcher();  // before MPI_Init, which waits for the launcher
  // A stop signal during MPI_Init (a second or more) is heard too: under a
  // shell without job control SIGINT would otherwise stay ignored there, and
  // the job ran to its end. Installed again below, should MPI have set its own.
  cli::install_stop_handlers();
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // From here a rank refused memory or a thread says which it is, and ends
  // the job: a launcher without mpirun's kill-on-exit would leave the
  // others waiting for it.
  static const std::string refusal_prefix = "nqueens-mpi: rank " + std::to_string(rank);
  cli::end_machine_refusals_cleanly(refusal_prefix.c_str(), end_job_refused);
  std::vector<std::string> args(argv, argv + argc);
  args.front() = "nqueens-mpi";
  if (rank != 0) std::cout.setstate(std::ios::badbit);  // rank 0 alone prints (--help included)
  // Every rank runs threads beside its MPI calls (made from one thread):
  // an MPI library built without thread support may not allow even that.
  if (provided < MPI_THREAD_FUNNELED) {
    if (rank == 0) {
      std::cerr << "nqueens-mpi: this MPI library gives no thread support (MPI_THREAD_FUNNELED), which the "
                   "counting threads need; nothing was counted\n";
    }
    MPI_Finalize();
    return 2;  // a refusal before counting, as a node without the instruction set gets
  }
  // The stop signals (mpirun forwards them): rank 0 hands out no more work and
  // flushes its journal; the others cut their chunk short.
  cli::install_stop_handlers();

  readiness ready = parse(args);
  // Before any GPU is chosen: which of the node's ranks share this rank's GPUs.
  place_among_gpu_sharers(ready.status == 0 && ready.request && counts_on_gpus(ready.request->options.kind));
  const auto begun = std::chrono::steady_clock::now();
  prepare(ready, rank);
  const agreement agreed = agree(ready, rank, ranks);
  const int verdict = agreed.verdict;
  if (verdict != 0 || !ready.request) {
    ready.journal = checkpoint_file();  // unlocked, untouched
    // Stopped while planning: every rank was told the same verdict.
    if (verdict > 128) leave_stopped(verdict);
    MPI_Finalize();
    cli::end_process(rank == 0 && verdict == 0 ? cli::status_after_closing_output(0, "nqueens-mpi") : verdict);
  }
  // A rank bound to one core counts on one core: said before the count, by
  // rank 0 (which the others mostly mirror).
  if (rank == 0) {
    if (const auto warning = binding_warning(ready.request->options.threads))
      std::cerr << "nqueens-mpi: warning: " << *warning << std::endl;
  }
  int status = 0;
  try {
    if (rank == 0) {
      status = run_rank0(*ready.request, *ready.p, ranks, agreed, std::move(ready.journal), begun, ready.checked);
    } else if (const int stopped = run_worker(*ready.request, *ready.p, rank); stopped != 0) {
      leave_stopped(stopped);
    }
  } catch (...) {
    const cli::failure f = cli::failure_of(std::current_exception());
    abort_job(rank, f.message, f.status);
  }
  if (rank == 0) status = cli::status_after_closing_output(status, "nqueens-mpi");
  // A stop that came as rank 0 wrote its report (mpirun's SIGTERM, say):
  // left as any stopped job is, not through MPI_Finalize.
  if (rank == 0 && status > 128 && cli::stop_requested()) leave_stopped(status);
  MPI_Finalize();
  cli::end_process(status);
}
