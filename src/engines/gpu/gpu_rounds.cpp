#include "engines/gpu/gpu_rounds.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "engines/gpu/gpu_code_kernels.hpp"
#include "engines/gpu/gpu_group_bounds.hpp"
#include "nqueens/cancelled.hpp"

namespace nqueens::detail::gpu {

namespace {

// The 64-bit words `count` elements of T take in the arena.
template <typename T>
std::uint64_t words_of(std::uint64_t count) {
  return (count * sizeof(T) + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t);
}

// Whether two jobs' lists are the one list on the host (a call's jobs
// share those they have in common).
bool same_list(const quarter_arrays& a, const quarter_arrays& b) {
  return a.offsets == b.offsets && a.masks == b.masks && a.signatures == b.signatures;
}

// The kernels index both groups as one list, and round it up to whole
// blocks, in 32 bits (halves_total, items_for); a visit's index steps past
// a key's end by up to a stride of every part's warps, each lane on a north
// half of its own in the narrowest blocks (visit_keys). So a job's groups
// hold fewer halves than this together.
constexpr std::uint32_t visit_overshoot = block_threads * most_visit_parts;
constexpr std::uint64_t most_joined = UINT32_MAX - std::max(block_threads, visit_overshoot);

// The words a list of 2^h row sets takes: its offsets, masks and signatures.
std::uint64_t list_words(const quarter_arrays& list, int h) {
  const std::uint64_t placements = list.offsets[std::size_t{1} << h];
  return words_of<std::uint32_t>((std::uint64_t{1} << h) + 1) + placements + words_of<std::uint32_t>(placements);
}

}  // namespace

std::uint64_t gpu_rounds::quarter_words(const gpu_job& job) {
  if (!job.own_quarters) return 0;
  std::uint64_t words = 0;
  for (int g = 0; g < 2; ++g) words += list_words(job.west[g], job.h) + list_words(job.east[g], job.h);
  return words;
}

std::uint64_t gpu_rounds::round_quarter_words(const gpu_job& job) const {
  if (!job.own_quarters) return 0;
  std::uint64_t words = 0;
  for (int g = 0; g < 2; ++g) {
    for (const quarter_arrays* list : {&job.west[g], &job.east[g]}) {
      if (!staged(*list)) words += list_words(*list, job.h);
    }
  }
  return words;
}

const gpu_rounds::staged_list* gpu_rounds::staged(const quarter_arrays& host) const {
  const auto same = std::ranges::find_if(staged_, [&](const staged_list& s) { return same_list(s.host, host); });
  return same != staged_.end() ? &*same : nullptr;
}

const gpu_rounds::staged_list* gpu_rounds::left_at(const quarter_arrays& host, std::uint64_t front) const {
  const auto left = std::ranges::find_if(left_, [&](const staged_list& s) { return same_list(s.host, host); });
  const std::uint64_t* at = stream_.arena() + front;
  return left != left_.end() && left->arena.offsets == reinterpret_cast<const std::uint32_t*>(at) ? &*left : nullptr;
}

std::uint64_t gpu_rounds::stage_quarters(gpu_job& job, std::uint64_t front) {
  if (!job.own_quarters) return front;
  const std::uint64_t row_sets = (std::uint64_t{1} << job.h) + 1;
  const auto stage = [&](const auto*& array, std::uint64_t count) {
    using element = std::remove_cvref_t<decltype(*array)>;
    std::uint64_t* at = stream_.arena() + front;
    stream_.stage(array, count * sizeof(element), at);
    array = reinterpret_cast<const element*>(at);
    front += words_of<element>(count);
  };
  for (int g = 0; g < 2; ++g) {
    for (quarter_arrays* list : {&job.west[g], &job.east[g]}) {
      if (const staged_list* same = staged(*list)) {
        *list = same->arena;
        continue;
      }
      const quarter_arrays host = *list;
      // Where the last round left it at the front, it is there still: that
      // round's buffers lay behind its lists, and this round's copies so
      // far end at the front.
      if (const staged_list* left = left_at(host, front)) {
        *list = left->arena;
        front += list_words(host, job.h);
      } else {
        const std::uint64_t placements = list->offsets[row_sets - 1];
        stage(list->offsets, row_sets);
        stage(list->masks, placements);
        stage(list->signatures, placements);
      }
      staged_.push_back({host, *list});
    }
  }
  return front;
}

bool gpu_rounds::lands_where_left(const gpu_job& job, std::uint64_t front) const {
  if (!job.own_quarters) return false;
  for (int g = 0; g < 2; ++g) {
    for (const quarter_arrays* list : {&job.west[g], &job.east[g]}) {
      if (staged(*list) == nullptr) return left_at(*list, front) != nullptr;
    }
  }
  return false;
}

std::uint64_t gpu_rounds::pass_over(const gpu_job& job, std::uint64_t front, std::uint64_t behind) {
  if (!job.own_quarters) return front;
  for (int g = 0; g < 2; ++g) {
    for (const quarter_arrays* list : {&job.west[g], &job.east[g]}) {
      if (staged(*list) != nullptr) continue;
      const staged_list* left = left_at(*list, front);
      const std::uint64_t words = list_words(*list, job.h);
      if (left == nullptr || front + words + behind > stream_.arena_words()) return front;
      staged_.push_back(*left);
      front += words;
    }
  }
  return front;
}

void gpu_rounds::count(std::span<const gpu_job> jobs, std::span<pair_counts> out, const std::atomic<bool>* cancel,
                       const host_quarters* tables) {
  cancel_ = cancel;
  stream_.clear_stop();  // a stop of an earlier call; `cancel` is looked at before each round
  // An earlier call's lists may have changed on the host since, at the
  // same addresses (and a failed round may have left them half copied).
  staged_.clear();
  left_.clear();
  pieces_.clear();
  for (std::uint32_t k = 0; k < jobs.size(); ++k) {
    const std::uint64_t quarters = quarter_words(jobs[k]);
    const std::uint64_t least = quarters + words_for(0, 0) + key_words_for(jobs[k].n, jobs[k].digits_limit, 0);
    if (least > stream_.arena_words()) throw_too_large(jobs[k], least);
    pieces_.push_back({jobs[k], k, false, {0, 0}, quarters});
  }
  if (!size_on_host(tables)) {
    do {
      size_pieces();
    } while (cut_pieces_too_large());
  }
  count_pieces(out);
}

bool gpu_rounds::size_on_host(const host_quarters* tables) {
  if (!stream_.sizes_on_host() || pieces_.size() > stream_.max_jobs()) return false;
  std::uint64_t words = 0;  // as count_pieces takes them, each job's lists counted whole
  for (piece& p : pieces_) {
    gpu_job job = p.job;
    if (!job.own_quarters) {
      if (tables == nullptr) return false;  // its arrays may be the device's
      job.west[0] = job.west[1] = tables->west;
      job.east[0] = job.east[1] = tables->east;
    }
    const std::array<std::uint64_t, 2> bounds = group_bounds(job);
    if (bounds[0] + bounds[1] > most_joined) return false;  // the size round may find fewer
    p.joined[0] = bounds[0];
    p.joined[1] = bounds[1];
    words += p.quarter_words;
    if (bounds[0] != 0 && bounds[1] != 0) {
      words += words_for(bounds[0], bounds[1]) + key_words_for(p.job.n, p.job.digits_limit, bounds[1]);
    }
    if (words > stream_.arena_words()) return false;  // size_pieces sets every piece's joined again
  }
  for (piece& p : pieces_) p.sized = true;
  return true;
}

void gpu_rounds::begin_round() {
  round_.clear();
  round_pieces_.clear();
  staged_.clear();
}

std::span<const job_result> gpu_rounds::run_round(round_kind round) {
  for (std::uint32_t k = 0; k < round_.size(); ++k) {
    round_[k].sequence = ++sequence_;
    round_[k].state = stream_.state(k);
    round_[k].result = stream_.result(k);
    round_[k].stop = stream_.stop_word();
  }
  const std::span<const job_result> results = stream_.run(round_, round);
  // A round the stop word cut short is partial: a size round's jobs carry
  // their marks (it has no finish), a count round's may carry another
  // fault from halves a stopped join never made. None of it is taken.
  if (stream_.stopped()) throw subproblem_cancelled();
  for (std::uint32_t k = 0; k < round_.size(); ++k) check_result(results[k], round_[k], round);
  // Copied, not swapped: a call of one round (sized on the host) would
  // hand each call the other's buffer, one of them not yet grown.
  left_.assign(staged_.begin(), staged_.end());
  return results;
}

void gpu_rounds::size_pieces() {
  std::size_t next = 0;
  for (;;) {
    // A round takes up to seconds: between rounds is soon enough. Before
    // any copy is staged, so that none is left for the stream's next use.
    stop_if_cancelled(cancel_);
    begin_round();
    std::uint64_t front = 0;  // the jobs' own quarters end there
    for (; next < pieces_.size() && round_.size() < stream_.max_jobs(); ++next) {
      const piece& p = pieces_[next];
      if (p.sized) continue;
      if (front + round_quarter_words(p.job) > stream_.arena_words()) break;  // the next round takes it (it fits alone)
      round_.push_back(p.job);
      front = stage_quarters(round_.back(), front);
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
    const bool too_many = p.joined[0] + p.joined[1] > most_joined;
    const std::uint64_t words =
        p.quarter_words + words_for(p.joined[0], p.joined[1]) + key_words_for(p.job.n, p.job.digits_limit, p.joined[1]);
    if (!too_many && words <= stream_.arena_words()) continue;
    // The larger group first, while its slices can still hold fewer row sets.
    int group = p.joined[1] > p.joined[0] ? 1 : 0;
    if (p.job.slices[group] >= p.job.row_sets[group]) group = 1 - group;
    if (p.job.slices[group] >= p.job.row_sets[group]) throw_too_large(p.job, words);
    gpu_job half = p.job;
    half.slices[group] *= 2;
    half.slice[group] += p.job.slices[group];  // the other half of this slice's row sets
    p.job.slices[group] *= 2;
    p.sized = false;
    const std::uint32_t owner = p.owner;
    const std::uint64_t quarters = p.quarter_words;
    pieces_.push_back({half, owner, false, {0, 0}, quarters});  // may move pieces_: `p` is not used after
    ++jobs_cut_;
    cut = true;
  }
  return cut;
}

void gpu_rounds::count_pieces(std::span<pair_counts> out) {
  std::size_t next = 0;
  while (next < pieces_.size()) {
    stop_if_cancelled(cancel_);  // as size_pieces
    begin_round();
    // The lists from the arena's front, as the size rounds put them (so
    // that those of the same jobs lie where they were left), the buffers
    // from its back.
    std::uint64_t front = 0, buffers = 0;
    // Where the lists of the jobs taken end, and how many of staged_ are
    // theirs: lists passed over since are given back (no job taken reads
    // them) where the next job's do not lie where they were left beside
    // them, or do not fit.
    std::uint64_t taken_front = 0;
    std::size_t taken_lists = 0;
    for (; next < pieces_.size() && round_.size() < stream_.max_jobs(); ++next) {
      const piece& p = pieces_[next];
      // A group no join can make has no pair: its count is 0 (the first
      // tenth of an odd board's plan, whose north halves the middle queen
      // all forbids, would take a round each 64 of them, tables built for nothing).
      if (p.joined[0] == 0 || p.joined[1] == 0) {
        front = pass_over(p.job, front, buffers);
        continue;
      }
      const std::uint64_t key_words = key_words_for(p.job.n, p.job.digits_limit, p.joined[1]);
      const std::uint64_t own = words_for(p.joined[0], p.joined[1]) + key_words;
      const auto fits = [&] { return front + round_quarter_words(p.job) + buffers + own <= stream_.arena_words(); };
      if (front != taken_front && (!fits() || !lands_where_left(p.job, front))) {
        staged_.erase(staged_.begin() + static_cast<std::ptrdiff_t>(taken_lists), staged_.end());
        front = taken_front;
      }
      if (!fits()) break;  // the next round takes it (it fits alone)
      gpu_job job = p.job;
      front = stage_quarters(job, front);
      taken_front = front;
      taken_lists = staged_.size();
      buffers += own;
      std::uint64_t* at = stream_.arena() + stream_.arena_words() - buffers;
      for (int g = 0; g < 2; ++g) {
        job.capacity[g] = static_cast<std::uint32_t>(p.joined[g]);
        job.halves[g] = at;
        job.codes[g] = at + p.joined[g] + 1;
        job.once_list[g] = job.codes[g];  // free until scatter
        at += 2 * (p.joined[g] + 1);
      }
      job.keys = reinterpret_cast<std::uint32_t*>(at);
      job.key_bits_limit = key_bits_bound(job.n, job.digits_limit, p.joined[1]);
      round_.push_back(job);
      round_pieces_.push_back(static_cast<std::uint32_t>(next));
    }
    if (round_.empty()) continue;  // every piece left had an empty group (a job that fits alone is taken)
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

void gpu_rounds::throw_too_large(const gpu_job& job, std::uint64_t words) const {
  throw std::runtime_error("GPU engine: a subproblem with north columns " + std::to_string(job.columns[0]) + " needs " +
                           std::to_string(words >> 17) + " MiB of device memory in one row set" +
                           (job.own_quarters ? " and its quarters" : "") + ", and a stream holds " +
                           std::to_string(stream_.arena_words() >> 17) +
                           " MiB (its share of the GPU): count with fewer threads, or on a GPU with more memory");
}

}  // namespace nqueens::detail::gpu
