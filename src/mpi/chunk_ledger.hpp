#pragma once

// What each worker rank holds: the chunk rank 0 handed it last. Its records
// are checked against it before the run driver sums them, which adds
// whatever it is told: a record of a subproblem the rank was not given, or
// of one it reported already, would count solutions twice and could still
// leave the job's tally of finished subproblems whole.

#include <cstdint>
#include <span>
#include <vector>

namespace nqueens::mpi {

class chunk_ledger {
 public:
  /// A ledger of `ranks` ranks, none holding a chunk.
  explicit chunk_ledger(int ranks);

  /// `rank` now holds `chunk` (one index at most once, as rank 0 deals them).
  void handed(int rank, std::span<const std::uint64_t> chunk);

  /// Checks a record of subproblem `index` from `rank`: throws
  /// std::runtime_error naming both unless `index` is in its chunk and not
  /// yet reported. A rank may report a part of its chunk (one cut short by
  /// a stop).
  void reported(int rank, std::uint64_t index);

  /// `rank`'s chunk is over (it asks for more, or it leaves): its next
  /// records are of the next chunk.
  void closed(int rank);

 private:
  struct held_chunk {
    std::vector<std::uint64_t> indices;  // sorted
    std::vector<bool> reported;          // by position in `indices`
  };
  std::vector<held_chunk> held_;  // by rank
};

}  // namespace nqueens::mpi
