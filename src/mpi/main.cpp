// nqueens-mpi: `nqueens count` across the ranks of an MPI job.
//
// Every rank builds the same plan. Rank 0 hands out chunks of subproblem
// indices on request, largest chunks first and shrinking as the work runs out
// (guided self-scheduling), so fast and slow nodes finish together; it also
// counts chunks itself on a second thread. Each rank runs its chunk on its own
// oneTBB arena (--threads per rank). Per-subproblem counts come back with the
// next request and rank 0 reduces them exactly, keeps the checkpoint journal,
// and prints the same text or JSON as `nqueens count`. If a rank dies, MPI's
// default error handler aborts the whole job: no partial total is printed.

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/reduce.hpp"

namespace {

using namespace nqueens;

constexpr int tag_results = 1;  // worker -> 0: (index, total, unique) triples of its last chunk; asks for more
constexpr int tag_chunk = 2;    // 0 -> worker: subproblem indices; none means stop

std::vector<std::uint64_t> run_chunk(const plan& p, const std::vector<std::uint64_t>& chunk, int threads) {
  const std::vector<std::size_t> indices(chunk.begin(), chunk.end());
  execute_options options;
  options.threads = threads;
  options.max_memory = UINT64_MAX;  // checked once, up front, against --max-memory
  const execution run = execute(p, indices, options);
  std::vector<std::uint64_t> triples;
  triples.reserve(3 * indices.size());
  for (const std::size_t i : indices) {
    triples.insert(triples.end(), {i, run.counts[i].total, run.counts[i].unique});
  }
  return triples;
}

// Rank 0's shared state: the queue of indices still to hand out and the results.
class coordinator {
 public:
  coordinator(const plan& p, int ranks, checkpoint_journal* journal) : p_(p), ranks_(ranks), journal_(journal) {
    run_.counts.assign(p.size(), {});
    run_.finished.assign(p.size(), 0);
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (journal_ != nullptr && journal_->finished()[i] != 0) {
        run_.counts[i] = journal_->counts()[i];
        run_.finished[i] = 1;
        ++resumed_;
      } else {
        todo_.push_back(i);
      }
    }
  }

  // The next chunk: a quarter of the remaining work's fair share per rank.
  std::vector<std::uint64_t> next_chunk() {
    const std::lock_guard lock(mutex_);
    const std::size_t left = todo_.size() - next_;
    const std::size_t size = std::clamp<std::size_t>(left / (4 * static_cast<std::size_t>(ranks_)), 1, 4096);
    std::vector<std::uint64_t> chunk;
    for (std::size_t k = 0; k < size && next_ < todo_.size(); ++k) chunk.push_back(todo_[next_++]);
    return chunk;
  }

  void store(const std::vector<std::uint64_t>& triples) {
    const std::lock_guard lock(mutex_);
    for (std::size_t k = 0; k + 2 < triples.size(); k += 3) {
      const auto i = static_cast<std::size_t>(triples[k]);
      if (i >= p_.size() || run_.finished[i] != 0) throw std::runtime_error("a rank reported an unexpected subproblem");
      run_.counts[i] = {triples[k + 1], triples[k + 2]};
      run_.finished[i] = 1;
      if (journal_ != nullptr) journal_->record(i, run_.counts[i]);
    }
  }

  execution& run() { return run_; }
  std::size_t resumed() const { return resumed_; }

 private:
  const plan& p_;
  int ranks_;
  checkpoint_journal* journal_;
  std::mutex mutex_;
  std::vector<std::size_t> todo_;
  std::size_t next_ = 0;
  std::size_t resumed_ = 0;
  execution run_;
};

int run_rank0(const cli::count_request& request, const plan& p, int ranks) {
  const auto start = std::chrono::steady_clock::now();
  const count_options& opts = request.options;
  std::unique_ptr<checkpoint_journal> journal;
  if (!opts.checkpoint.empty()) journal = std::make_unique<checkpoint_journal>(opts.checkpoint, p);
  coordinator work(p, ranks, journal.get());
  const int threads = opts.threads == 0 ? hardware_threads() : opts.threads;

  // Rank 0 counts too, on a thread of its own; only this (main) thread calls MPI.
  std::exception_ptr local_error;
  std::thread local([&] {
    try {
      for (auto chunk = work.next_chunk(); !chunk.empty(); chunk = work.next_chunk()) {
        work.store(run_chunk(p, chunk, threads));
      }
    } catch (...) {
      local_error = std::current_exception();
    }
  });
  int active = ranks - 1;
  auto last_flush = std::chrono::steady_clock::now();
  std::vector<std::uint64_t> buffer;
  while (active > 0) {
    int ready = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, tag_results, MPI_COMM_WORLD, &ready, &status);
    if (ready == 0) {
      // Polling with a short sleep keeps this thread off the CPU the workers use.
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    } else {
      int size = 0;
      MPI_Get_count(&status, MPI_UINT64_T, &size);
      buffer.resize(static_cast<std::size_t>(size));
      MPI_Recv(buffer.data(), size, MPI_UINT64_T, status.MPI_SOURCE, tag_results, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      work.store(buffer);
      const std::vector<std::uint64_t> chunk = work.next_chunk();
      MPI_Send(chunk.data(), static_cast<int>(chunk.size()), MPI_UINT64_T, status.MPI_SOURCE, tag_chunk,
               MPI_COMM_WORLD);
      if (chunk.empty()) --active;
    }
    if (journal && std::chrono::steady_clock::now() - last_flush >
                       std::chrono::duration<double>(opts.checkpoint_interval_seconds)) {
      journal->flush();
      last_flush = std::chrono::steady_clock::now();
    }
  }
  local.join();
  if (local_error) std::rethrow_exception(local_error);

  const totals sums = reduce(work.run());
  count_result r;
  r.n = p.board_size();
  r.kind = p.kind();
  r.total = sums.total;
  if (counts_unique(p.kind())) r.unique = sums.unique;
  r.threads = threads;
  r.subproblems = p.size();
  r.shard_subproblems = p.size();
  r.split_depth = p.split_depth();
  r.plan_fingerprint = p.fingerprint();
  r.finished = sums.finished;
  r.resumed = work.resumed();
  r.complete = sums.complete();
  if (!r.complete) throw std::runtime_error("the job ended with subproblems missing: no total");
  r.check = verify(r.n, r.total, r.unique);
  if (journal) journal->mark_complete();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int status = cli::print_count_result(r, request);
  if (!request.json) std::cout << "  MPI: " << ranks << " ranks x " << threads << " threads\n";
  return status;
}

void run_worker(const cli::count_request& request, const plan& p, int rank) {
  const int threads = request.options.threads == 0 ? hardware_threads() : request.options.threads;
  std::vector<std::uint64_t> results;  // nothing yet: the first message only asks for work
  std::vector<std::uint64_t> chunk;
  for (;;) {
    MPI_Send(results.data(), static_cast<int>(results.size()), MPI_UINT64_T, 0, tag_results, MPI_COMM_WORLD);
    MPI_Status status;
    MPI_Probe(0, tag_chunk, MPI_COMM_WORLD, &status);
    int size = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &size);
    chunk.resize(static_cast<std::size_t>(size));
    MPI_Recv(chunk.data(), size, MPI_UINT64_T, 0, tag_chunk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (chunk.empty()) return;
    // Test hook: NQUEENS_MPI_TEST_DIE_RANK=k makes rank k die mid-job, to prove
    // that the job then fails loudly instead of printing a partial total.
    if (const char* die = std::getenv("NQUEENS_MPI_TEST_DIE_RANK"); die != nullptr && std::atoi(die) == rank) {
      std::abort();
    }
    results = run_chunk(p, chunk, threads);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<std::string> args(argv, argv + argc);
  args.front() = "nqueens-mpi";
  int status = 0;
  try {
    // Every rank parses the same command line, so every rank agrees on errors.
    const std::optional<cli::count_request> request = cli::parse_count_request(args);
    if (request) {
      if (!request->options.shard.whole()) throw cli::usage_error("--shard is for separate jobs, not nqueens-mpi");
      const plan p(request->n, plan_options{.kind = request->options.kind, .split_depth = request->options.split_depth});
      // Every rank builds its own quadrant tables: each must fit.
      check_memory(request->n, request->options.kind, request->options.max_memory);
      if (rank == 0) {
        status = run_rank0(*request, p, ranks);
      } else {
        run_worker(*request, p, rank);
      }
    }
  } catch (const cli::usage_error& e) {
    if (rank == 0) std::cerr << "nqueens-mpi: " << e.what() << '\n';
    status = 2;
  } catch (const memory_limit_error& e) {
    if (rank == 0) std::cerr << "nqueens-mpi: " << e.what() << '\n';
    status = 2;
  } catch (const checkpoint_error& e) {
    // Only rank 0 opens the journal; the others wait for work that never comes.
    std::cerr << "nqueens-mpi: " << e.what() << '\n';
    MPI_Abort(MPI_COMM_WORLD, e.why() == checkpoint_error::reason::write ? 3 : 2);
  } catch (const std::exception& e) {
    std::cerr << "nqueens-mpi: error on rank " << rank << ": " << e.what() << '\n';
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return status;
}
