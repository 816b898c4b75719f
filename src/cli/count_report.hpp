#pragma once

// What `nqueens count` and nqueens-mpi print of a finished count: the
// verified counts (or a shard's part of them), the engine, threads, plan and
// time, as text or as the JSON object of README's "Commands".

#include <string>
#include <utility>
#include <vector>

#include "cli/report.hpp"
#include "nqueens/count.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/isa.hpp"

namespace nqueens::cli {

class count_report final : public report {
 public:
  /// `checkpoint`: the journal a resumed run took subproblems from.
  count_report(const count_result& r, std::string checkpoint) : result_(r), checkpoint_(std::move(checkpoint)) {}

  /// nqueens-mpi: each rank's worker threads, rank 0 first ("MPI: ..." in
  /// text, "ranks" and "rank_threads" in JSON). Empty for nqueens count.
  std::vector<int> rank_threads;
  /// nqueens-mpi: each rank's kernels, rank 0 first (nodes differ): where
  /// they differ, a line "kernels: avx512 on ranks 0, 2; portable on rank
  /// 1" in text, and "isa" null in JSON; "isas" lists each once, in rank
  /// order, as merge's JSON does. Empty for nqueens count.
  std::vector<isa> rank_kernels;
  /// The GPUs this process counted on (the GPU engine; "gpus" in JSON, a
  /// line "on GPU 0 (...)" in text). Empty for the CPU engines.
  std::vector<gpu_taken> gpus;
  /// nqueens-mpi on the GPU engine: each rank's GPUs, rank 0 first (in
  /// "gpus" with each one's "rank"; a line "rank R on GPU 0 (...)" a rank
  /// in text). Empty otherwise.
  std::vector<std::vector<gpu_taken>> rank_gpus;
  /// Auto took a slower engine than n's own, whose tables do not fit the
  /// memory bound: a line "the engine chosen to fit --max-memory" after
  /// the engine's in text, "fitted_to_memory" in JSON (as plan's).
  bool engine_fitted_to_memory = false;

  void write_text(std::ostream& out) const override;
  json_object json() const override;

 private:
  count_result result_;
  std::string checkpoint_;
};

/// What a GPU count or sample asked of its device, in `o`: its launches and
/// stream operations, and its host threads' time on the subproblems' own
/// quarter lists and the bytes of them staged (both 0 with the whole
/// tables), and its streams' rounds by phase: "device_launches",
/// "device_operations", "host_list_seconds", "staged_list_bytes",
/// "round_phase_seconds".
json_object& add_device_work(json_object& o, const device_work& work);

/// "1 rank x 2 threads", "3 ranks x 1 thread", "2 ranks, 3 threads (1 + 2)".
std::string describe_ranks(const std::vector<int>& rank_threads);

/// "rank 3", "ranks 1-3, 5": the ranks listed (increasing), runs as ranges.
std::string ranks_named(const std::vector<std::size_t>& ranks);

}  // namespace nqueens::cli
