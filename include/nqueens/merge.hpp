#pragma once

/// \file
/// The parts of a sharded count added into the whole, verified: what
/// `nqueens merge` does with the parts' --json outputs, for results held in
/// memory (count() with count_options::shard, on several machines).

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "nqueens/count.hpp"

namespace nqueens {

/// Why parts do not make up one whole count: every problem found, each a
/// sentence naming the parts it concerns.
class merge_error : public std::invalid_argument {
 public:
  enum class reason {
    parts,   ///< parts of another run, a shard twice, missing or out of range, a part unfinished or too large
    counts,  ///< the parts make up the run, but their counts cannot all be right
  };
  merge_error(reason why, std::vector<std::string> problems);
  reason why() const noexcept { return why_; }
  const std::vector<std::string>& problems() const noexcept { return problems_; }

 private:
  reason why_;
  std::vector<std::string> problems_;
};

/// Adds up the results of count(n, {.shard = {i, m}}) for every i in
/// 0..m-1, in any order, into the whole count: its totals, the fundamental
/// count derived from them, and `check` against the published table. Parts
/// must share n, engine, split depth, plan fingerprint and m, and each must
/// have finished its whole shard; `names[k]` names part k in messages (a
/// file name, say), "part k" where names is shorter. The result's seconds
/// (wall-clock seconds added up, not the wall time of parts run at once),
/// cpu_seconds, finished, resumed, journal_bytes_cut and device work are
/// the parts' added up, its journal_unfinished every part's reason joined
/// by "; "; its threads and phases are zero, its kernels part 0's. Throws
/// merge_error listing every problem: parts of another run, a shard given
/// twice or missing, a part that did not finish, counted only the
/// rotation-symmetric solutions or names more subproblems than its plan
/// holds (or more resumed than finished), or counts that cannot all be right (their
/// sum, or Burnside's sum of them, past 2^128, or one Burnside's lemma
/// cannot divide).
count_result merge(std::span<const count_result> parts, std::span<const std::string> names = {});

}  // namespace nqueens
