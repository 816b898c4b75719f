#include "engines/gpu/gpu_rounds.hpp"

#include <stdexcept>
#include <string>

#include "nqueens/cancelled.hpp"

namespace nqueens::detail::gpu {

void gpu_rounds::count(std::span<const gpu_job> jobs, std::span<pair_counts> out, const std::atomic<bool>* cancel) {
  cancel_ = cancel;
  pieces_.clear();
  for (std::uint32_t k = 0; k < jobs.size(); ++k) pieces_.push_back({jobs[k], k, false, {0, 0}});
  do {
    size_pieces();
  } while (cut_pieces_too_large());
  count_pieces(out);
}

std::span<const job_result> gpu_rounds::run_round(round_kind round) {
  stop_if_cancelled(cancel_);  // a round takes up to seconds: between rounds is soon enough
  for (std::uint32_t k = 0; k < round_.size(); ++k) {
    round_[k].sequence = ++sequence_;
    round_[k].state = stream_.state(k);
    round_[k].result = stream_.result(k);
  }
  const std::span<const job_result> results = stream_.run(round_, round);
  for (std::uint32_t k = 0; k < round_.size(); ++k) check_result(results[k], round_[k], round);
  return results;
}

void gpu_rounds::size_pieces() {
  std::size_t next = 0;
  for (;;) {
    round_.clear();
    round_pieces_.clear();
    for (; next < pieces_.size() && round_.size() < stream_.max_jobs(); ++next) {
      if (pieces_[next].sized) continue;
      round_.push_back(pieces_[next].job);
      round_pieces_.push_back(static_cast<std::uint32_t>(next));
    }
    if (round_.empty()) return;
    const std::span<const job_result> results = run_round(round_kind::sizes);
    for (std::uint32_t k = 0; k < round_.size(); ++k) {
      piece& p = pieces_[round_pieces_[k]];
      p.sized = true;
      p.joined[0] = results[k].joined[0];
      p.joined[1] = results[k].joined[1];
    }
  }
}

bool gpu_rounds::cut_pieces_too_large() {
  bool cut = false;
  const std::size_t count = pieces_.size();  // the pieces cut from them come after
  for (std::size_t i = 0; i < count; ++i) {
    piece& p = pieces_[i];
    const bool too_many = p.joined[0] > UINT32_MAX || p.joined[1] > UINT32_MAX;
    if (!too_many && words_for(p.joined[0], p.joined[1]) <= stream_.arena_words()) continue;
    // The larger group first, while its slices can still hold fewer row sets.
    int group = p.joined[1] > p.joined[0] ? 1 : 0;
    if (p.job.slices[group] >= p.job.row_sets[group]) group = 1 - group;
    if (p.job.slices[group] >= p.job.row_sets[group]) {
      throw std::runtime_error("GPU engine: a subproblem with north columns " + std::to_string(p.job.columns[0]) +
                               " needs " + std::to_string(words_for(p.joined[0], p.joined[1]) >> 17) +
                               " MiB of device memory in one row set, and a stream holds " +
                               std::to_string(stream_.arena_words() >> 17) + " MiB: count with fewer threads");
    }
    gpu_job half = p.job;
    half.slices[group] *= 2;
    half.slice[group] += p.job.slices[group];  // the other half of this slice's row sets
    p.job.slices[group] *= 2;
    p.sized = false;
    const std::uint32_t owner = p.owner;
    pieces_.push_back({half, owner, false, {0, 0}});  // may move pieces_: `p` is not used after
    cut = true;
  }
  return cut;
}

void gpu_rounds::count_pieces(std::span<pair_counts> out) {
  std::size_t next = 0;
  while (next < pieces_.size()) {
    round_.clear();
    round_pieces_.clear();
    std::uint64_t used = 0;
    for (; next < pieces_.size() && round_.size() < stream_.max_jobs(); ++next) {
      const piece& p = pieces_[next];
      const std::uint64_t words = words_for(p.joined[0], p.joined[1]);
      if (used + words > stream_.arena_words()) break;  // the next round takes it (it fits alone)
      gpu_job job = p.job;
      std::uint64_t* at = stream_.arena() + used;
      for (int g = 0; g < 2; ++g) {
        job.capacity[g] = static_cast<std::uint32_t>(p.joined[g]);
        job.halves[g] = at;
        job.codes[g] = at + p.joined[g] + 1;
        job.once_list[g] = job.codes[g];  // free until scatter
        at += 2 * (p.joined[g] + 1);
      }
      used += words;
      round_.push_back(job);
      round_pieces_.push_back(static_cast<std::uint32_t>(next));
    }
    const std::span<const job_result> results = run_round(round_kind::counts);
    for (std::uint32_t k = 0; k < round_.size(); ++k) {
      pair_counts& c = out[pieces_[round_pieces_[k]].owner];
      if (__builtin_add_overflow(c.pairs, results[k].pairs, &c.pairs) ||
          __builtin_add_overflow(c.once, results[k].once, &c.once)) {
        throw std::overflow_error("a GPU subproblem has more than 2^64 pairs");
      }
    }
  }
}

}  // namespace nqueens::detail::gpu
