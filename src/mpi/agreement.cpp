#include "mpi/agreement.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <exception>
#include <iostream>

#include "cli/arguments.hpp"
#include "cli/exit_status.hpp"
#include "cli/signals.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/version.hpp"

namespace nqueens::mpi {
namespace {

// "plan 0123456789abcdef (n = 12, engine quadrant, split depth 2)"
std::string describe_plan(const std::array<std::uint64_t, 5>& w) {
  if (w[2] == 0) return "no plan (it was given --help or --version)";
  return "plan " + format_fingerprint(w[1]) + " (n = " + std::to_string(w[2]) + ", engine " +
         std::string(to_string(static_cast<engine>(w[3]))) + ", split depth " + std::to_string(w[4]) + ")";
}

}  // namespace

readiness prepare(const std::vector<std::string>& args, int rank) {
  readiness ready;
  try {
    const isa kernels = active_isa();  // a bad NQUEENS_ISA is refused before any work
    if (args.size() == 2 && (args[1] == "--version" || args[1] == "-V")) {  // which build runs on each node
      std::cout << "nqueens-mpi " << version() << "\nisa: " << to_string(kernels) << '\n';
      return ready;
    }
    // Every rank parses the same command line, so every rank agrees on errors.
    ready.request = cli::parse_count_request(args, /*plan_is_shared=*/true);
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
  } catch (...) {  // as nqueens would exit, with the same line
    const cli::failure f = cli::failure_of(std::current_exception());
    ready.status = f.status;
    ready.problem = f.message;
  }
  return ready;
}

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

}  // namespace nqueens::mpi
