#include "run/run_tally.hpp"

#include <algorithm>

namespace nqueens::detail {

run_tally::run_tally(const plan& p, const shard_members& mine, std::span<const std::size_t> todo, const totals& resumed,
                     bool weigh, int threads, std::chrono::steady_clock::time_point start)
    : plan_(p),
      weigh_(weigh),
      uniform_(p.uniform_work()),
      subproblems_(mine.size()),
      threads_(threads),
      start_(start),
      total_resumed_(resumed.total),
      sums_(resumed) {
  // 64 a thread (a run of the dispatch order each) or a thousandth of the
  // run, whichever is more, but never more than a tenth of it.
  least_paced_ =
      std::min(std::max<std::size_t>(64 * static_cast<std::size_t>(std::max(threads, 1)), todo.size() / 1000),
               std::max<std::size_t>(todo.size() / 10, 1));
  if (!weigh_) return;
  std::uint64_t left = 0;
  for (const std::size_t i : todo) left += uniform_ ? 1 : p.estimated_work(i);
  if (uniform_) {
    work_total_ = mine.size();
  } else {
    for (std::size_t k = 0; k < mine.size(); ++k) work_total_ += p.estimated_work(mine[k]);
  }
  work_done_ = work_total_ - left;
  work_done_before_ = work_done_;
}

void run_tally::finished(std::size_t index, const subproblem_count& c) {
  const std::lock_guard lock(mutex_);
  accumulate(sums_, c);
  if (!weigh_) return;
  ++finished_here_;
  work_done_ += uniform_ ? 1 : plan_.estimated_work(index);
  if (!first_finish_) {
    first_finish_ = std::chrono::steady_clock::now();
    work_done_at_first_ = work_done_;
  }
}

totals run_tally::sums() const {
  const std::lock_guard lock(mutex_);
  return sums_;
}

void run_tally::paused(std::chrono::steady_clock::duration gap) {
  const std::lock_guard lock(mutex_);
  if (first_finish_) paused_ += gap;  // before it, the pace has not begun
  paused_in_all_ += gap;
}

progress run_tally::snapshot(bool last) const {
  const std::lock_guard lock(mutex_);
  progress p;
  p.subproblems = subproblems_;
  p.finished = sums_.finished;
  p.total_so_far = sums_.total;
  p.total_resumed = total_resumed_;
  p.threads = threads_;
  p.last = last;
  p.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  p.stopped_seconds = std::chrono::duration<double>(paused_in_all_).count();
  p.fraction = work_total_ == 0 ? 1.0 : static_cast<double>(work_done_) / static_cast<double>(work_total_);
  const std::uint64_t done_now = work_done_ - work_done_before_;
  const std::uint64_t left = work_total_ - work_done_;
  const auto now = std::chrono::steady_clock::now();
  if (finished_here_ < least_paced_) {
    // no ETA yet: too few have finished to pace the rest
  } else if (first_finish_ && work_done_ > work_done_at_first_ && now - *first_finish_ > paused_) {
    // The rate since the first finish: the setup before it is not counting,
    // nor a stop of the process since.
    const double counting = std::chrono::duration<double>(now - *first_finish_ - paused_).count();
    p.eta_seconds = counting * static_cast<double>(left) / static_cast<double>(work_done_ - work_done_at_first_);
  } else if (done_now > 0 && p.elapsed_seconds > 0) {
    p.eta_seconds = p.elapsed_seconds * static_cast<double>(left) / static_cast<double>(done_now);
  }
  return p;
}

}  // namespace nqueens::detail
