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
// request. If a rank dies, MPI's default error handler aborts the whole job:
// no partial total is printed.

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "executor.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/threads.hpp"
#include "run_driver.hpp"

namespace {

using namespace nqueens;

constexpr int tag_results = 1;  // worker -> 0: a record per subproblem of its last chunk; asks for more
constexpr int tag_chunk = 2;    // 0 -> worker: subproblem indices; none means stop
// A result record: index, total, unique, symmetric_180, symmetric_90.
constexpr std::size_t record_words = 5;

// The executor of rank 0: the driver's subproblems, spread over every rank.
class mpi_executor final : public detail::executor {
 public:
  mpi_executor(const plan& p, const count_options& options, int ranks)
      : ranks_(ranks),
        threads_(resolve_threads(options.threads)),
        context_(p, options.kernels, threads_) {}

  int threads() const noexcept override { return threads_; }
  isa kernels() const override { return context_.kernels(); }

  void run(const plan& p, std::span<const std::size_t> indices, const detail::report_fn& report,
           const std::atomic<bool>& stop) override {
    todo_.assign(indices.begin(), indices.end());
    next_ = 0;
    // Rank 0 counts too, on a thread of its own; only this (main) thread calls MPI.
    std::exception_ptr local_error;
    std::thread local([&] {
      try {
        execute_options options;
        options.threads = threads_;
        options.on_finished = report;
        options.cancel = &stop;
        for (auto chunk = next_chunk(stop); !chunk.empty(); chunk = next_chunk(stop)) {
          const std::vector<std::size_t> mine(chunk.begin(), chunk.end());
          execute(p, mine, options, &context_);
        }
      } catch (...) {
        local_error = std::current_exception();
        failed_ = true;  // no more chunks for anyone: the job fails now, not after the rest of the plan
      }
    });
    try {
      serve_workers(p, report, stop);
    } catch (...) {
      failed_ = true;  // the local thread takes no further chunk
      local.join();
      throw;
    }
    local.join();
    if (local_error) std::rethrow_exception(local_error);
  }

 private:
  // Answers every worker's request with the next chunk until each got an empty one.
  void serve_workers(const plan& p, const detail::report_fn& report, const std::atomic<bool>& stop) {
    int active = ranks_ - 1;
    std::vector<std::uint64_t> buffer;
    while (active > 0) {
      int ready = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, tag_results, MPI_COMM_WORLD, &ready, &status);
      if (ready == 0) {
        // Polling with a short sleep keeps this thread off the CPU the workers use.
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      int size = 0;
      MPI_Get_count(&status, MPI_UINT64_T, &size);
      buffer.resize(static_cast<std::size_t>(size));
      MPI_Recv(buffer.data(), size, MPI_UINT64_T, status.MPI_SOURCE, tag_results, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (std::size_t k = 0; k + record_words <= buffer.size(); k += record_words) {
        const auto index = static_cast<std::size_t>(buffer[k]);
        if (index >= p.size()) throw std::runtime_error("a rank reported an unexpected subproblem");
        report(index, {buffer[k + 1], buffer[k + 2], buffer[k + 3], buffer[k + 4]});
      }
      const std::vector<std::uint64_t> chunk = next_chunk(stop);
      MPI_Send(chunk.data(), static_cast<int>(chunk.size()), MPI_UINT64_T, status.MPI_SOURCE, tag_chunk,
               MPI_COMM_WORLD);
      if (chunk.empty()) --active;
    }
  }

  // The next chunk: a quarter of the remaining work's fair share per rank;
  // none once stopped.
  std::vector<std::uint64_t> next_chunk(const std::atomic<bool>& stop) {
    const std::lock_guard lock(mutex_);
    std::vector<std::uint64_t> chunk;
    if (stop.load() || failed_.load()) return chunk;
    const std::size_t left = todo_.size() - next_;
    const std::size_t size = std::clamp<std::size_t>(left / (4 * static_cast<std::size_t>(ranks_)), 1, 4096);
    for (std::size_t k = 0; k < size && next_ < todo_.size(); ++k) chunk.push_back(todo_[next_++]);
    return chunk;
  }

  int ranks_;
  int threads_;
  run_context context_;
  std::mutex mutex_;
  std::vector<std::size_t> todo_;  // guarded by mutex_
  std::size_t next_ = 0;
  std::atomic<bool> failed_{false};
};

void run_worker(const cli::count_request& request, const plan& p, int rank) {
  const int threads = resolve_threads(request.options.threads);
  const run_context context(p, request.options.kernels, threads);
  execute_options options;
  options.threads = threads;
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
    const std::vector<std::size_t> indices(chunk.begin(), chunk.end());
    const execution run = execute(p, indices, options, &context);
    results.clear();
    for (const std::size_t i : indices) {
      const subproblem_count& c = run.counts[i];
      results.insert(results.end(), {i, c.total, c.unique, c.symmetric_180, c.symmetric_90});
    }
  }
}

int run_rank0(const cli::count_request& request, const plan& p, int ranks) {
  const auto start = std::chrono::steady_clock::now();
  mpi_executor executor(p, request.options, ranks);
  const count_result r = detail::drive(p, request.options, executor, start);
  if (!r.complete) throw std::runtime_error("the job ended with subproblems missing: no total");
  const int status = cli::print_count_result(r, request);
  if (!request.json) std::cout << "  MPI: " << ranks << " ranks x " << r.threads << " threads\n";
  return status;
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
    active_isa();  // a bad NQUEENS_ISA is refused before any work
    if (request) {
      if (!request->options.shard.whole()) throw cli::usage_error("--shard is for separate jobs, not nqueens-mpi");
      const plan p(request->n, plan_options{.kind = request->options.kind, .split_depth = request->options.split_depth});
      // Every rank builds its own tables: each must fit.
      check_memory(request->n, request->options.kind, request->options.max_memory, request->options.threads);
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
    // Memory and the instruction sets differ between nodes: any rank may
    // refuse alone, and the others would wait for it forever. End the job.
    std::cerr << "nqueens-mpi: rank " << rank << ": " << e.what() << '\n';
    MPI_Abort(MPI_COMM_WORLD, 2);
  } catch (const isa_error& e) {
    std::cerr << "nqueens-mpi: rank " << rank << ": " << e.what() << '\n';
    MPI_Abort(MPI_COMM_WORLD, 2);
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
