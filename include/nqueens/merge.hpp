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
  explicit merge_error(std::vector<std::string> problems);
  const std::vector<std::string>& problems() const noexcept { return problems_; }

 private:
  std::vector<std::string> problems_;
};

/// Adds up the results of count(n, {.shard = {i, m}}) for every i in
/// 0..m-1, in any order, into the whole count: its totals, the fundamental
/// count derived from them, and `check` against the published table. Parts
/// must share n, engine, split depth, plan fingerprint and m, and each must
/// have finished its whole shard; `names[k]` names part k in messages (a
/// file name, say), "part k" where names is shorter. The result's seconds,
/// finished, resumed and device work are the parts' added up. Throws
/// merge_error listing every problem: parts of another run, a shard given
/// twice or missing, a part that did not finish or counted only the
/// rotation-symmetric solutions, or counts that cannot all be right (their
/// sum past 2^128, or one Burnside's lemma cannot divide).
count_result merge(std::span<const count_result> parts, std::span<const std::string> names = {});

}  // namespace nqueens
