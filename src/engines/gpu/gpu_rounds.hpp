#pragma once

// One stream's rounds: how a run of subproblems reaches the device in a few
// launches rather than ten each. Where the host's bounds on a call's groups
// (group_bounds) fit the stream's arena together, they size its jobs, and
// one round of counts takes them all; else a round of sizes measures the
// groups of every job not yet sized (by signatures, on the device), and
// rounds of counts then take as many sized jobs as the stream's memory
// holds. Each job's buffers are cut from the one arena the stream took
// when it opened. A job too large for the
// arena alone is cut in two by its larger group's row sets (the pieces add
// up to it, as slices do) and sized again. A job that brings its own
// quarter lists (gpu_job::own_quarters) has them in the arena, from its
// front, in each round it takes part in (the jobs' buffers are cut from
// its back); a list that jobs of a round share (the host builds a call's
// common lists once) is there once for all of them, and one that the
// round before left where this round's lists have come to (the count
// round after the size round of the same jobs) is not copied again. Nothing is allocated
// on the device after the stream opened, and nothing on the host once the
// lists here have grown.

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "engines/gpu/gpu_backend.hpp"

namespace nqueens::detail::gpu {

/// The host's copy of the whole quarter tables that a call's jobs read
/// where their own arrays are the device's: what the host bounds their
/// groups from (group_bounds).
struct host_quarters {
  quarter_arrays west, east;
};

class gpu_rounds {
 public:
  /// Rounds on `stream`, which must outlive this.
  explicit gpu_rounds(gpu_stream& stream) : stream_(stream) {}

  /// Adds each job's counts to out[k] (jobs[k]'s: its host-known fields
  /// set, as job_for leaves them). Throws std::runtime_error when a round
  /// fails its checks, or when a job does not fit the arena even cut to
  /// single row sets; subproblem_cancelled when `*cancel` (null: never) is
  /// set before a round, or the stream is stopped during one
  /// (gpu_stream::stop: its stop word is cleared first), with `out` partly
  /// added to (never a stopped round's partial counts). `tables`: where
  /// the host reads the tables of jobs that read them whole, which it may
  /// then size (null: such jobs are sized on the device; jobs with their
  /// own quarters bring them in host memory).
  void count(std::span<const gpu_job> jobs, std::span<pair_counts> out, const std::atomic<bool>* cancel = nullptr,
             const host_quarters* tables = nullptr);

  /// The jobs cut in two by row sets so far, each too large for the arena
  /// as it was (what the tests of cutting check that they reach).
  std::uint64_t jobs_cut() const noexcept { return jobs_cut_; }

  /// The 64-bit words a job of these group capacities takes of the arena:
  /// halves and codes for each group, with a slot more so that an empty
  /// group has an address.
  static constexpr std::uint64_t words_for(std::uint64_t north, std::uint64_t south) noexcept {
    return 2 * (north + 1) + 2 * (south + 1);
  }

 private:
  struct piece {
    gpu_job job;
    std::uint32_t owner;  // its index in count()'s jobs
    bool sized;
    std::uint64_t joined[2];
    std::uint64_t quarter_words;  // its own quarters' (quarter_words)
  };

  // A list in the arena for the round under way: where the host holds it
  // and where the arena does.
  struct staged_list {
    quarter_arrays host, arena;
  };

  // The arena words a job's own quarters take (0 where it reads the tables).
  static std::uint64_t quarter_words(const gpu_job& job);
  // What they add to the round under way: the words of those not in it yet.
  std::uint64_t round_quarter_words(const gpu_job& job) const;
  // `host`'s list as the round under way has it; null where it has not yet.
  const staged_list* staged(const quarter_arrays& host) const;
  // `host`'s list as the last round left it, where that is at `front` (in
  // words from the arena's start); null where it is not.
  const staged_list* left_at(const quarter_arrays& host, std::uint64_t front) const;
  // Puts the job's own quarters that the round has not yet from `front`
  // (copies staged of those the last round did not leave there), points
  // the job at all of them, and returns the front past them.
  std::uint64_t stage_quarters(gpu_job& job, std::uint64_t front);
  // Whether the first of the job's own quarters that the round has not yet
  // is where the last round left it, at `front`.
  bool lands_where_left(const gpu_job& job, std::uint64_t front) const;
  // For a job a count round passes (an empty group): takes its lists that
  // the last round left at the front, while they fit with `behind` words
  // of the arena's back taken, so that the next job's lie where they were
  // left too (count_pieces gives them back where the next job's are not,
  // or do not fit beside them); returns the front past them.
  std::uint64_t pass_over(const gpu_job& job, std::uint64_t front, std::uint64_t behind);
  [[noreturn]] void throw_too_large(const gpu_job& job, std::uint64_t words) const;

  // Sizes every piece by its group_bounds where the stream allows it and
  // they fit one count round together (no piece would have been cut);
  // returns whether it did, else leaves them unsized.
  bool size_on_host(const host_quarters* tables);
  void size_pieces();
  bool cut_pieces_too_large();
  void count_pieces(std::span<pair_counts> out);
  // Begins a round: none of its jobs or lists yet (left_ holds the last round's).
  void begin_round();
  // Runs round_ (its jobs numbered, their state and result set here).
  std::span<const job_result> run_round(round_kind round);

  gpu_stream& stream_;
  std::vector<piece> pieces_;
  std::vector<gpu_job> round_;
  std::vector<std::uint32_t> round_pieces_;  // which piece each job of round_ is
  std::vector<staged_list> staged_;          // round_'s lists, each once
  // The last round run's lists, which it left in the arena's front (set
  // by run_round): only within one count(), whose lists the host holds unchanged.
  std::vector<staged_list> left_;
  std::uint64_t jobs_cut_ = 0;
  std::uint32_t sequence_ = 0;
  const std::atomic<bool>* cancel_ = nullptr;  // count()'s, looked at before each round
};

}  // namespace nqueens::detail::gpu
