#include "mpi/worker.hpp"

#include <mpi.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "cli/exit_status.hpp"
#include "cli/signals.hpp"
#include "mpi/protocol.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/threads.hpp"

namespace nqueens::mpi {

int run_worker(const cli::count_request& request, const plan& p, int rank) {
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
  std::vector<std::uint64_t> results(header_words, 0);  // no records yet: the first message only asks for work
  std::vector<std::uint64_t> chunk;
  for (int chunks = 1;; ++chunks) {
    if (cli::stop_requested()) {
      const int sig = cli::stop_signal();
      results.push_back(static_cast<std::uint64_t>(sig));
      MPI_Send(results.data(), static_cast<int>(results.size()), MPI_UINT64_T, 0, tag_stopped, MPI_COMM_WORLD);
      // Rank 0 reports first, then dismisses this rank (main.cpp says why).
      std::uint64_t word = 0;
      MPI_Recv(&word, 1, MPI_UINT64_T, 0, tag_stop, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      return cli::interrupted_status(sig);
    }
    MPI_Send(results.data(), static_cast<int>(results.size()), MPI_UINT64_T, 0, tag_results, MPI_COMM_WORLD);
    MPI_Status status;
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    int size = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &size);
    chunk.resize(static_cast<std::size_t>(size));
    MPI_Recv(chunk.data(), size, MPI_UINT64_T, 0, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (status.MPI_TAG == tag_stop)
      return cli::interrupted_status(chunk.empty() ? SIGTERM : static_cast<int>(chunk[0]));
    if (chunk.empty()) return 0;
    if (chunks == die_at_chunk) std::raise(SIGKILL);
    results.assign(header_words, 0);
    if (!context) {
      try {
        context.emplace(p, request.options.kernels, threads, &cli::stop_requested(), request.options.max_memory,
                        request.options.gpu);
      } catch (const run_cancelled&) {
        continue;  // stopped while building: leave at the top of the loop
      }
    }
    const std::vector<std::size_t> indices(chunk.begin(), chunk.end());
    const execution run = execute(p, indices, options, &*context);
    write_device_header(results, run.device);
    for (std::size_t k = 0; k < run.indices.size(); ++k) {
      if (run.finished[k] == 0) continue;  // cancelled: rank 0 does not count it as done
      const subproblem_count& c = run.counts[k];
      results.insert(results.end(), {run.indices[k], c.total, c.unique, c.symmetric_180, c.symmetric_90});
    }
  }
}

}  // namespace nqueens::mpi
