#pragma once

// A shard file: the --json output of `nqueens count N --shard I/M`, which
// `nqueens merge` adds up. It carries a checksum of the fields merge reads,
// so that a digit changed in transit is refused rather than merged into a
// wrong Q(n) that Burnside's divisibility cannot always see.

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "nqueens/count.hpp"
#include "nqueens/count_types.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::cli {

/// What merge reads from a shard file, checked for form (read_shard_file)
/// and against the plan its fingerprint names (check_against_plan).
struct shard_file {
  std::string name;
  int n = 0;
  std::string engine;
  int split_depth = 0;
  std::size_t subproblems = 0;
  std::string fingerprint;
  int shard = 0;
  int shards = 0;
  std::size_t shard_subproblems = 0;
  std::uint64_t shard_digest = 0;  // of its subproblem indices (shard_digests)
  uint128 total = 0;
  uint128 symmetric_180 = 0;
  uint128 symmetric_90 = 0;
  /// The instruction sets that counted it, as the file names them: its
  /// "isa", or, where that is null (nqueens-mpi's ranks on different
  /// kernels), its "isas"; names of no instruction set left out. Outside
  /// the checksum: merge only reports them.
  std::vector<std::string> isas;
};

/// The checksum of a count's shard fields, 16 lower-case hex digits: the
/// "checksum" member of count's JSON.
std::string shard_checksum(const shard_file& f);

/// The shard fields of a count `r`.
shard_file shard_fields_of(const count_result& r);

/// The count `f` is a part of, for merge (its fields checked already by
/// read_shard_file): shard_fields_of's inverse.
count_result part_of(const shard_file& f);

/// A shard file that holds nothing (whitespace at most): what
/// `count --json > FILE` leaves of a count stopped or failed before its end,
/// a shard not yet counted rather than a malformed file.
class unfinished_shard_file : public usage_error {
 public:
  using usage_error::usage_error;
};

/// The output of `nqueens merge` (its text report, or its JSON: "shards"
/// and "ok", no "shard"), which a glob of the shards' names can take in:
/// not a shard.
class merge_output_file : public usage_error {
 public:
  using usage_error::usage_error;
};

/// A checkpoint journal (`count --checkpoint`), which a glob of a job's
/// files can take in beside its shards (q23-5.ckpt beside q23-5.json): not
/// a shard.
class journal_file : public usage_error {
 public:
  using usage_error::usage_error;
};

/// Reads and checks shard file `name`: strict JSON, every field in range, no
/// verified total or fundamental count in a part of a run, the checksum
/// matching. Throws unfinished_shard_file for an empty file,
/// merge_output_file for merge's output, journal_file for a journal,
/// usage_error naming the file for any other; run_cancelled when a stop
/// signal ends a wait for it (a FIFO's or a pipe's writer).
shard_file read_shard_file(const std::string& name);

/// The plan that `f`'s n, engine and split depth make; run_cancelled once
/// `*cancel` (if given) is set while it is built.
plan plan_of(const shard_file& f, const std::atomic<bool>* cancel = nullptr);

/// Where `f`'s fingerprint is not that of `p`, plan_of(f): the problem, in
/// one line naming the file (another version of nqueens counted it, with
/// another plan for the same options); nullopt where it is.
std::optional<std::string> foreign_plan(const shard_file& f, const plan& p);

/// The shards of a plan as this version deals them: each one's size and
/// digest (shard_sizes, shard_digests).
struct dealt_shards {
  std::vector<std::size_t> sizes;
  std::vector<std::uint64_t> digests;
};
dealt_shards deal_shards(const plan& p, int count);

/// Refuses (usage_error naming the file) a subproblem count, shard size or
/// digest of `f` that contradicts `p`, plan_of(f), dealt in f.shards shards
/// as `dealt` (deal_shards(p, f.shards)): a shard another version dealt
/// otherwise has the plan's fingerprint, but not its members. Precondition:
/// foreign_plan(f, p) is nullopt.
void check_against_plan(const shard_file& f, const plan& p, const dealt_shards& dealt);

}  // namespace nqueens::cli
