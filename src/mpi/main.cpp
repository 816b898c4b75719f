// nqueens-mpi: `nqueens count` across the ranks of an MPI job.
//
// Every rank builds the same plan. Rank 0 runs the run driver (journal,
// progress, reduction, verification: the same code as `nqueens count`) with
// an MPI executor: it hands out chunks of subproblem indices on request,
// largest chunks first and shrinking as the work runs out (guided
// self-scheduling), so fast and slow nodes finish together, and counts chunks
// itself on a second thread. Each rank runs its chunks on its own oneTBB arena
// (--threads per rank) with one run context (the quadrant engine's tables are
// built once per rank). Per-subproblem counts come back with the next
// request.
//
// Before anything is counted, every rank reports whether it can run (its
// arguments, memory and CPU) and the fingerprint of the plan it built; rank 0
// compares them with its own. Any refusal or disagreement ends the whole job
// there, with exit 2, one line per problem on rank 0's stderr, and the journal
// untouched. A failure after that (a rank's error, rank 0's journal write)
// ends the job with MPI_Abort and the rank's message: no partial total is
// ever printed. If a rank dies, MPI's default error handler aborts the job;
// if mpirun dies, every rank exits by itself.

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/progress_line.hpp"
#include "cli/signals.hpp"
#include "cli/standard_descriptors.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/threads.hpp"
#include "nqueens/version.hpp"
#include "run/executor.hpp"
#include "run/run_driver.hpp"

namespace {

using namespace nqueens;

constexpr int tag_results = 1;  // worker -> 0: a record per subproblem of its last chunk; asks for more
constexpr int tag_chunk = 2;    // 0 -> worker: subproblem indices; none means stop
constexpr int tag_stopped = 3;  // worker -> 0: its last records, then the signal that stopped it; it leaves
// A result record: index, total, unique, symmetric_180, symmetric_90.
constexpr std::size_t record_words = 5;

// The executor of rank 0: the driver's subproblems, spread over every rank.
class mpi_executor final : public detail::executor {
 public:
  mpi_executor(const count_options& options, int ranks)
      : ranks_(ranks),
        waiting_(ranks - 1),
        threads_(resolve_threads(options.threads)),
        kernels_(options.kernels ? *options.kernels : active_isa()),
        max_memory_(options.max_memory),
        cancel_(options.cancel) {}

  int threads() const noexcept override { return threads_; }
  isa kernels() const override { return kernels_; }
  // The journal failed: end now, without waiting for the workers' chunks
  // (main then aborts the job; the journal holds its whole records).
  void abandon() noexcept override { abandoned_ = true; }
  /// The rank and signal that stopped a worker, when one was (rank 0 then
  /// reports the interruption as if the signal were its own).
  std::optional<std::pair<int, int>> worker_stop() const { return worker_stop_; }

  /// Answers every worker still waiting for work with an empty chunk (or
  /// takes the message of one a signal stopped), so that each leaves and
  /// MPI_Finalize can end the job. Rank 0 calls it whenever drive() returns:
  /// run() serves no one when the journal left nothing to do.
  void release_workers() {
    std::vector<std::uint64_t> buffer;
    while (waiting_ > 0) {
      MPI_Status status;
      MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      receive(status, buffer);
      --waiting_;
      // A request here carries no records: every chunk handed out was
      // answered inside run().
      if (status.MPI_TAG == tag_stopped) {
        note_stop(status.MPI_SOURCE, buffer);
      } else {
        MPI_Send(nullptr, 0, MPI_UINT64_T, status.MPI_SOURCE, tag_chunk, MPI_COMM_WORLD);
      }
    }
  }

  void run(const plan& p, std::span<const std::size_t> indices, const detail::report_fn& report,
           const std::atomic<bool>& stop) override {
    if (indices.empty()) return;  // a finished journal: no tables, no work (release_workers answers them)
    // The tables are built here, once the driver holds the journal: a second
    // job on it is refused before it spends minutes on them.
    if (!context_) context_.emplace(p, kernels_, threads_, cancel_, max_memory_);
    todo_ = indices;  // the driver's list, alive until run() returns: no copy of 10^8 indices
    next_ = 0;
    // Rank 0 counts too, on a thread of its own; only this (main) thread calls MPI.
    std::exception_ptr local_error;
    std::atomic<bool> local_done{false};
    std::thread local([&] {
      try {
        execute_options options;
        options.threads = threads_;
        options.on_finished = report;
        options.cancel = &halt_;
        for (auto chunk = next_chunk(); !chunk.empty(); chunk = next_chunk()) {
          const std::vector<std::size_t> mine(chunk.begin(), chunk.end());
          execute(p, mine, options, &*context_);
        }
      } catch (...) {
        local_error = std::current_exception();
        failed_ = true;  // no more chunks for anyone: the job fails now, not after the rest of the plan
      }
      local_done = true;
    });
    try {
      serve_workers(p, report, stop, local_done);
    } catch (...) {
      failed_ = true;
      halt_ = true;
      local.join();
      throw;
    }
    halt_ = true;
    local.join();
    if (local_error) std::rethrow_exception(local_error);
  }

 private:
  // Answers every worker's request with the next chunk until each got an
  // empty one or left, and rank 0's own thread is done; passes a stop on to
  // that thread. A failure or an abandoned run ends it at once.
  void serve_workers(const plan& p, const detail::report_fn& report, const std::atomic<bool>& stop,
                     const std::atomic<bool>& local_done) {
    std::vector<std::uint64_t> buffer;
    while ((waiting_ > 0 || !local_done) && !abandoned_ && !failed_) {
      if (stop.load()) halt_ = true;
      int ready = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status);
      if (ready == 0 || (status.MPI_TAG != tag_results && status.MPI_TAG != tag_stopped)) {
        // Polling with a short sleep keeps this thread off the CPU the workers use.
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      receive(status, buffer);
      const bool leaving = status.MPI_TAG == tag_stopped;
      const std::size_t records = leaving && !buffer.empty() ? buffer.size() - 1 : buffer.size();
      for (std::size_t k = 0; k + record_words <= records; k += record_words) {
        const auto index = static_cast<std::size_t>(buffer[k]);
        if (index >= p.size()) throw std::runtime_error("a rank reported an unexpected subproblem");
        report(index, {buffer[k + 1], buffer[k + 2], buffer[k + 3], buffer[k + 4]});
      }
      if (leaving) {  // a signal reached that rank: the job stops, as if it had reached rank 0
        note_stop(status.MPI_SOURCE, buffer);
        halt_ = true;
        --waiting_;
        continue;
      }
      const std::vector<std::uint64_t> chunk = next_chunk();
      MPI_Send(chunk.data(), static_cast<int>(chunk.size()), MPI_UINT64_T, status.MPI_SOURCE, tag_chunk,
               MPI_COMM_WORLD);
      if (chunk.empty()) --waiting_;
    }
  }

  // The message `status` announced, into `buffer`.
  static void receive(const MPI_Status& status, std::vector<std::uint64_t>& buffer) {
    int size = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &size);
    buffer.resize(static_cast<std::size_t>(size));
    MPI_Recv(buffer.data(), size, MPI_UINT64_T, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }

  // A tag_stopped message ends with the signal: the first one is reported.
  void note_stop(int rank, const std::vector<std::uint64_t>& message) {
    if (!worker_stop_ && !message.empty()) worker_stop_ = std::pair{rank, static_cast<int>(message.back())};
  }

  // The next chunk: a quarter of the remaining work's fair share per rank;
  // none once stopped.
  std::vector<std::uint64_t> next_chunk() {
    const std::lock_guard lock(mutex_);
    std::vector<std::uint64_t> chunk;
    if (halt_.load() || failed_.load() || abandoned_.load()) return chunk;
    const std::size_t left = todo_.size() - next_;
    const std::size_t size = std::clamp<std::size_t>(left / (4 * static_cast<std::size_t>(ranks_)), 1, 4096);
    for (std::size_t k = 0; k < size && next_ < todo_.size(); ++k) chunk.push_back(todo_[next_++]);
    return chunk;
  }

  int ranks_;
  int waiting_;  // workers not yet released (sent an empty chunk, or left); the main thread's
  int threads_;
  isa kernels_;
  std::uint64_t max_memory_;
  const std::atomic<bool>* cancel_;
  std::optional<run_context> context_;
  std::mutex mutex_;
  std::span<const std::size_t> todo_;  // run()'s indices; next_ guarded by mutex_
  std::size_t next_ = 0;
  std::atomic<bool> halt_{false};  // rank 0's own thread starts nothing more
  std::atomic<bool> failed_{false};
  std::atomic<bool> abandoned_{false};
  std::optional<std::pair<int, int>> worker_stop_;  // written by the serving (main) thread only
};

void run_worker(const cli::count_request& request, const plan& p, int rank) {
  const int threads = resolve_threads(request.options.threads);
  std::optional<run_context> context;  // built with the first chunk: none for a finished journal
  execute_options options;
  options.threads = threads;
  options.cancel = &cli::stop_requested();  // a signal cuts the current chunk short, then this rank leaves
  // Test hook: NQUEENS_MPI_TEST_DIE_RANK=k[:c] makes rank k die on its c-th
  // chunk (default 1), as kill -9 would, to prove that the job then fails
  // loudly instead of printing a partial total, and that rank 0's journal
  // survives it.
  int die_at_chunk = 0;
  if (const char* die = std::getenv("NQUEENS_MPI_TEST_DIE_RANK"); die != nullptr && std::atoi(die) == rank) {
    const char* colon = std::strchr(die, ':');
    die_at_chunk = colon != nullptr ? std::max(1, std::atoi(colon + 1)) : 1;
  }
  std::vector<std::uint64_t> results;  // nothing yet: the first message only asks for work
  std::vector<std::uint64_t> chunk;
  for (int chunks = 1;; ++chunks) {
    if (cli::stop_requested()) {
      results.push_back(static_cast<std::uint64_t>(cli::stop_signal() == 0 ? SIGINT : cli::stop_signal()));
      MPI_Send(results.data(), static_cast<int>(results.size()), MPI_UINT64_T, 0, tag_stopped, MPI_COMM_WORLD);
      return;
    }
    MPI_Send(results.data(), static_cast<int>(results.size()), MPI_UINT64_T, 0, tag_results, MPI_COMM_WORLD);
    MPI_Status status;
    MPI_Probe(0, tag_chunk, MPI_COMM_WORLD, &status);
    int size = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &size);
    chunk.resize(static_cast<std::size_t>(size));
    MPI_Recv(chunk.data(), size, MPI_UINT64_T, 0, tag_chunk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (chunk.empty()) return;
    if (chunks == die_at_chunk) std::raise(SIGKILL);
    results.clear();
    if (!context) {
      try {
        context.emplace(p, request.options.kernels, threads, &cli::stop_requested(), request.options.max_memory);
      } catch (const run_cancelled&) {
        continue;  // stopped while building: leave at the top of the loop
      }
    }
    const std::vector<std::size_t> indices(chunk.begin(), chunk.end());
    const execution run = execute(p, indices, options, &*context);
    for (std::size_t k = 0; k < run.indices.size(); ++k) {
      if (run.finished[k] == 0) continue;  // cancelled: rank 0 does not count it as done
      const subproblem_count& c = run.counts[k];
      results.insert(results.end(), {run.indices[k], c.total, c.unique, c.symmetric_180, c.symmetric_90});
    }
  }
}

int run_rank0(cli::count_request& request, const plan& p, int ranks, checkpoint_file journal) {
  const auto start = std::chrono::steady_clock::now();
  cli::progress_printer printer(request.terminal);
  if (request.progress) request.options.on_progress = [&printer](const progress& pr) { printer(pr); };
  request.options.cancel = &cli::stop_requested();
  mpi_executor executor(request.options, ranks);
  const count_result r = detail::drive(p, request.options, executor, start, std::move(journal));
  executor.release_workers();  // whatever drive() did: MPI_Finalize must not wait for a worker
  if (cli::stop_requested()) return cli::report_interruption(r, request.options.checkpoint, 0, "nqueens-mpi");
  if (const auto stopped = executor.worker_stop()) {
    return cli::report_interruption(r, request.options.checkpoint, stopped->second,
                                    "nqueens-mpi: rank " + std::to_string(stopped->first));
  }
  if (!r.complete) throw std::runtime_error("the job ended with subproblems missing: no total");
  const int status = cli::print_count_result(r, request);
  if (!request.json) std::cout << "  MPI: " << ranks << " ranks x " << r.threads << " threads\n";
  return status;
}

// What one rank found before counting: 0 and its plan, or the exit status and
// the reason it cannot run.
struct readiness {
  int status = 0;
  std::string problem;
  std::optional<cli::count_request> request;
  std::optional<plan> p;
  checkpoint_file journal;  // rank 0's, taken (locked) before planning
};

readiness prepare(const std::vector<std::string>& args, int rank) {
  readiness ready;
  try {
    const isa kernels = active_isa();  // a bad NQUEENS_ISA is refused before any work
    if (args.size() == 2 && (args[1] == "--version" || args[1] == "-V")) {  // which build runs on each node
      std::cout << "nqueens-mpi " << version() << "\nisa: " << to_string(kernels) << '\n';
      return ready;
    }
    // Every rank parses the same command line, so every rank agrees on errors.
    ready.request = cli::parse_count_request(args);
    if (!ready.request) return ready;  // --help
    count_options& o = ready.request->options;
    if (!o.shard.whole()) throw cli::usage_error("--shard is for separate jobs, not nqueens-mpi");
    if (rank == 0 && !o.checkpoint.empty()) ready.journal = checkpoint_file(o.checkpoint);
    // Every rank builds its own tables: each must fit, checked before the
    // plan (seconds at 10^8 subproblems), which a signal stops.
    check_memory(ready.request->n, o.kind, o.max_memory, o.threads);
    ready.p.emplace(ready.request->n,
                    plan_options{.kind = o.kind,
                                 .split_depth = o.split_depth,
                                 .cancel = &cli::stop_requested(),
                                 .max_memory = o.max_memory != 0 ? o.max_memory : default_memory_limit()});
    // Rank 0 lists the plan's subproblems too; a worker holds a chunk.
    if (rank == 0) o.max_memory = check_run_memory(*ready.p, o.max_memory, o.threads);
  } catch (const run_cancelled&) {
    const int sig = cli::stop_signal() == 0 ? SIGINT : cli::stop_signal();
    ready.status = 128 + sig;
    ready.problem = std::string("interrupted by ") + (sig == SIGTERM ? "SIGTERM" : "SIGINT") +
                    " while planning; nothing was counted";
  } catch (const checkpoint_error& e) {
    ready.status = e.why() == checkpoint_error::reason::write ? 3 : 2;
    ready.problem = e.what();
  } catch (const cli::usage_error& e) {
    ready.status = 2;
    ready.problem = e.what();
  } catch (const memory_limit_error& e) {
    ready.status = 2;
    ready.problem = e.what();
  } catch (const std::invalid_argument& e) {  // isa_error among them
    ready.status = 2;
    ready.problem = e.what();
  } catch (const std::exception& e) {
    ready.status = 3;
    ready.problem = std::string("error: ") + e.what();
  }
  return ready;
}

// "plan 0123456789abcdef (n = 12, engine quadrant, split depth 2)"
std::string describe_plan(const std::array<std::uint64_t, 5>& w) {
  if (w[2] == 0) return "no plan (it was given --help or --version)";
  return "plan " + format_fingerprint(w[1]) + " (n = " + std::to_string(w[2]) + ", engine " +
         std::string(to_string(static_cast<engine>(w[3]))) + ", split depth " + std::to_string(w[4]) + ")";
}

// Every rank's readiness and plan to rank 0, which decides for the job: 0 to
// go on, else the exit status every rank returns. Collective.
int agree(const readiness& ready, int rank, int ranks) {
  std::array<std::uint64_t, 5> mine{static_cast<std::uint64_t>(ready.status), 0, 0, 0, 0};
  if (ready.status == 0 && ready.p) {
    mine = {0, ready.p->fingerprint(), static_cast<std::uint64_t>(ready.p->board_size()),
            static_cast<std::uint64_t>(ready.p->kind()), static_cast<std::uint64_t>(ready.p->split_depth())};
  }
  std::vector<std::uint64_t> all(rank == 0 ? 5 * static_cast<std::size_t>(ranks) : 0);
  MPI_Gather(mine.data(), 5, MPI_UINT64_T, all.data(), 5, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  // The problems, as text, to rank 0 (a refusal is worded where it happened).
  const int length = static_cast<int>(ready.problem.size());
  std::vector<int> lengths(rank == 0 ? static_cast<std::size_t>(ranks) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(lengths.size(), 0);
  int text_size = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    offsets[r] = text_size;
    text_size += lengths[r];
  }
  std::string text(static_cast<std::size_t>(text_size), '\0');
  MPI_Gatherv(ready.problem.data(), length, MPI_CHAR, text.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);

  int verdict = 0;
  if (rank == 0) {
    std::vector<std::string> lines;
    const auto add_line = [&](const std::string& line) {
      if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
    };
    for (int r = 0; r < ranks; ++r) {
      const auto status = static_cast<int>(all[5 * static_cast<std::size_t>(r)]);
      if (status == 0) continue;
      if (verdict == 0 || status == 2) verdict = status;
      const std::string problem = text.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]),
                                              static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)]));
      // Rank 0's and every rank's usage errors read alike: name the rank only
      // where its problem is its own.
      add_line(r == 0 || problem == ready.problem ? problem : "rank " + std::to_string(r) + ": " + problem);
    }
    if (verdict == 0) {  // a rank given --help or --version has plan 0: it disagrees with one that counts
      std::array<std::uint64_t, 5> root{};
      std::copy_n(all.begin(), 5, root.begin());
      for (int r = 1; r < ranks; ++r) {
        std::array<std::uint64_t, 5> other{};
        std::copy_n(all.begin() + 5 * static_cast<std::ptrdiff_t>(r), 5, other.begin());
        if (other[1] == root[1]) continue;
        verdict = 2;
        add_line("rank " + std::to_string(r) + " built " + describe_plan(other) + ", rank 0 " + describe_plan(root) +
                 ": every rank must count the same plan (give each the same N, --engine and --split-depth); "
                 "nothing was counted");
      }
    }
    for (const std::string& line : lines) std::cerr << "nqueens-mpi: " << line << '\n';
  }
  MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return verdict;
}

// A rank whose launcher (mpirun, or the daemon that started it on its node)
// died must not go on counting for no one, holding the journal's lock. Open
// MPI often notices, not always, so the rank watches its parent itself: a
// thread polls getppid(), which changes when the parent dies. Not
// PR_SET_PDEATHSIG: it fires when the launcher's *thread* that forked the
// rank ends, which may come long before the launcher does. Only under a
// launcher (its variables are in the environment): a singleton started from
// a shell may outlive it (nohup).
void exit_with_launcher() {
  if (std::getenv("OMPI_COMM_WORLD_SIZE") == nullptr && std::getenv("PMIX_RANK") == nullptr &&
      std::getenv("PMI_RANK") == nullptr) {
    return;
  }
  const pid_t launcher = ::getppid();
  std::thread([launcher] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      // As kill -9 would: the journal holds whole records only.
      if (::getppid() != launcher) ::kill(::getpid(), SIGKILL);
    }
  }).detach();
}

// The end of a job that had started counting: every rank must stop, now.
[[noreturn]] void abort_job(int rank, const std::string& message, int status) {
  std::cerr << "nqueens-mpi: " << (rank == 0 ? "" : "rank " + std::to_string(rank) + ": ") << message << std::endl;
  MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);  // MPI_Abort does not return; should it, leave anyway
}

// Rank 0's standard output, flushed and checked: a result that did not reach
// its file is a failure (3), not a success.
int check_stdout(int status) {
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || std::fclose(stdout) != 0) {
    std::cerr << "nqueens-mpi: cannot write to standard output: " << std::strerror(errno) << '\n';
    return 3;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  nqueens::cli::reserve_standard_descriptors("nqueens-mpi");  // before MPI_Init opens anything
  // Past a file-size limit, write() fails with EFBIG and the journal reports
  // it (exit 3), rather than SIGXFSZ killing the rank.
  std::signal(SIGXFSZ, SIG_IGN);
  exit_with_launcher();  // before MPI_Init, which waits for the launcher
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<std::string> args(argv, argv + argc);
  args.front() = "nqueens-mpi";
  if (rank != 0) std::cout.setstate(std::ios::badbit);  // rank 0 alone prints (--help included)
  // SIGINT/SIGTERM (mpirun forwards them): rank 0 hands out no more work and
  // flushes its journal; the others cut their chunk short.
  cli::install_stop_handlers();

  readiness ready = prepare(args, rank);
  const int verdict = agree(ready, rank, ranks);
  if (verdict != 0 || !ready.request) {
    ready.journal = checkpoint_file();  // unlocked, untouched
    MPI_Finalize();
    return rank == 0 && verdict == 0 ? check_stdout(0) : verdict;
  }
  int status = 0;
  try {
    if (rank == 0) {
      status = run_rank0(*ready.request, *ready.p, ranks, std::move(ready.journal));
    } else {
      run_worker(*ready.request, *ready.p, rank);
    }
  } catch (const run_cancelled&) {
    const int sig = cli::stop_signal() == 0 ? SIGINT : cli::stop_signal();
    abort_job(rank,
              std::string("interrupted by ") + (sig == SIGTERM ? "SIGTERM" : "SIGINT") +
                  " before counting began; nothing was counted, the journal is valid",
              128 + sig);
  } catch (const checkpoint_error& e) {
    abort_job(rank, e.what(), e.why() == checkpoint_error::reason::write ? 3 : 2);
  } catch (const std::exception& e) {
    abort_job(rank, std::string("error: ") + e.what(), 3);
  }
  if (rank == 0) status = check_stdout(status);
  MPI_Finalize();
  return status;
}
