#include "run/estimate/stratified_sample.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>

#include "nqueens/cancelled.hpp"
#include "run/measure/cpu_clock.hpp"

namespace nqueens::detail {

namespace {

// `start` + `seconds`, or the clock's end where that is past it: a cast of
// 1e10 s to the clock's 64-bit nanoseconds overflowed, and a caller who
// bounds the sampling by its draws alone gave such a time.
std::chrono::steady_clock::time_point after(std::chrono::steady_clock::time_point start, double seconds) {
  using clock = std::chrono::steady_clock;
  const double room = std::chrono::duration<double>(clock::time_point::max() - start).count();
  if (!(seconds < 0.5 * room)) return clock::time_point::max();  // half: no rounding reaches past it
  return start + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace

// Runs are whole blocks of run_length, drawn without replacement: once
// every block is drawn the sums are exact, and the standard error shrinks
// to 0 on the way (the finite population correction). The rotation tasks,
// one a draw (the CPU counts them, not a batch), have an order of their own.
stratified_sample::stratified_sample(const plan& p, const run_context& context, const estimate_options& options,
                                     draw_shape shape, std::chrono::steady_clock::time_point start)
    : context_(context),
      options_(options),
      shape_(shape),
      deadline_(after(start, options.seconds)),
      last_call_(after(start, 2 * options.seconds)),
      clock_cost_(thread_cpu_clock_cost()) {
  strata_[0] = {.first = 0, .size = p.engine_subproblems(), .run_length = shape.run_length, .batch = shape.batch};
  strata_[1] = {.first = p.engine_subproblems(), .size = p.size() - p.engine_subproblems()};
  for (std::size_t k = 0; k < strata_.size(); ++k) {
    stratum& st = strata_[k];
    st.blocks = (st.size + st.run_length - 1) / st.run_length;
    st.draws = (st.blocks + st.batch - 1) / st.batch;
    st.order.emplace(std::max<std::size_t>(st.blocks, 1), options.seed + k);
  }
}

std::optional<estimate_end> stratified_sample::ended(std::chrono::steady_clock::time_point now) {
  if (cancelled()) return estimate_end::cancelled;
  if (!strata_[0].left() && !strata_[1].left()) return estimate_end::exhausted;
  if (options_.max_runs != 0 && drawn_ >= options_.max_runs) return estimate_end::runs;
  // Precise: the projected seconds' standard error, both strata's, within
  // the target, after at least min_estimate_runs of the engine's draws
  // (which the count's time is made of), and with every stratum's spread
  // known; and still within it once the engine's draws have doubled since
  // it first was. A spread taken from a few draws is itself a guess: where
  // most subproblems are light and a few heavy, the first 30 often hold
  // no heavy one, look precise, and projected half the cost (a simulated
  // 1% of subproblems at 100 times the rest stopped at 30 draws 77% of the
  // time). A plan whose engine draws are fewer goes on to its end (exact:
  // the rotation tasks left are light), so that a small plan's estimate is
  // the same every time, not precise or exhausted as the threads raced.
  double mean = 0, variance = 0;
  bool measured = strata_[0].seconds.count() >= min_estimate_runs;
  for (const stratum& st : strata_) {
    if (st.size == 0) continue;
    const double error = st.seconds.error(st.draws) * st.whole();
    measured = measured && std::isfinite(error);
    mean += st.seconds.mean() * st.whole();
    variance += error * error;
  }
  const std::size_t engine_runs = strata_[0].seconds.count();
  const bool precise =
      options_.target_error > 0 && measured && mean > 0 && std::sqrt(variance) <= options_.target_error * mean;
  if (precision_.stop(engine_runs, precise)) return estimate_end::precise;
  // The time: once each stratum has a draw under way.
  const bool begun = (strata_[0].size == 0 || strata_[0].drawn > 0) && (strata_[1].size == 0 || strata_[1].drawn > 0);
  if (begun && now >= deadline_) return estimate_end::time;
  return std::nullopt;
}

// By the draws begun alone (never their times), so that the same seed and
// number of draws is the same sample on any number of threads. The engine's
// first, then the rotation tasks' two (light: done at once, so that even a
// short sample measures their spread), then one in eight of theirs: a light
// search beside Q(n), whose draws cost little time; most go to what the
// count's time is made of.
std::size_t stratified_sample::pick_stratum() const {
  if (!strata_[1].left()) return 0;
  if (!strata_[0].left()) return 1;
  if (strata_[0].drawn == 0) return 0;
  if (strata_[1].drawn < 2) return 1;
  if (strata_[0].drawn < 2) return 0;
  return 8 * strata_[1].drawn < drawn_ ? 1 : 0;
}

stratified_sample::draw stratified_sample::take(std::vector<std::size_t>& indices) {
  stratum& st = strata_[pick_stratum()];
  ++drawn_;
  const std::size_t run = st.drawn++;
  st.per_run.resize(st.drawn);
  indices.clear();
  for (std::size_t b = run * st.batch; b < std::min(st.blocks, (run + 1) * st.batch); ++b) {
    const std::size_t from = st.first + (*st.order)[b] * st.run_length;
    for (std::size_t i = from; i < std::min(st.first + st.size, from + st.run_length); ++i) indices.push_back(i);
  }
  return {&st, run};
}

// A draw of the engine's subproblems where they are light enough to draw
// several together (run_length above 1) and the engine counts best in
// batches (the GPU engine: a round of up to 64 jobs) is counted as a count
// hands them: in calls of batch_size (which also keeps their own quarter
// lists within the thread's memory; a round of one light job leaves a GPU
// mostly idle and prices a count several times dearer). Runs on a device
// are timed by the wall clock: the thread waits for it meanwhile, and that
// wait is the cost (the emulator counts on the thread: its CPU time, not a
// loaded machine's waits).
std::optional<std::pair<double, double>> stratified_sample::count(const draw& d,
                                                                  const std::vector<std::size_t>& indices,
                                                                  std::vector<subproblem_count>& counts) const {
  double spent = 0, found = 0;
  try {
    if (d.from->batch == 1 && !shape_.by_wall_clock) {
      // Timed whole, less the clock's own cost: timed one by one, light
      // subproblems (a row plan split deep) were priced at the clock's
      // cost, ten times a count's.
      const double begin = thread_cpu_seconds();
      for (const std::size_t i : indices) found += static_cast<double>(context_.solve(i, &stop_draws_).total);
      spent = std::max(0.0, thread_cpu_seconds() - begin - clock_cost_);
    } else {
      counts.resize(indices.size());
      const auto wall_begin = std::chrono::steady_clock::now();
      const double begin = thread_cpu_seconds();
      for (std::size_t at = 0; at < indices.size(); at += shape_.call_length) {
        const std::size_t length = std::min(shape_.call_length, indices.size() - at);
        context_.solve(std::span(indices).subspan(at, length), std::span(counts).subspan(at, length), &stop_draws_);
      }
      spent = shape_.by_wall_clock
                  ? std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_begin).count()
                  : std::max(0.0, thread_cpu_seconds() - begin - clock_cost_);
      for (const subproblem_count& c : counts) found += static_cast<double>(c.total);
    }
  } catch (const subproblem_cancelled&) {
    return std::nullopt;
  }
  return std::pair(spent, found);
}

void stratified_sample::fail(std::exception_ptr error) {
  if (!failure_) failure_ = std::move(error);
  stop_draws_ = true;  // the other threads' draws end at once
}

void stratified_sample::draw_until_done() {
  try {
    std::vector<std::size_t> indices;  // a run's subproblems
    std::vector<subproblem_count> counts;
    for (;;) {
      draw d;
      {
        const std::lock_guard lock(mutex_);
        if (failure_) return;
        const auto now = std::chrono::steady_clock::now();
        if (const auto end = ended(now)) {
          if (!end_reason_) end_reason_ = *end;
          if (!ran_out_) {  // the first thread out: until now every thread drew
            ran_out_ = true;
            busy_ = {std::chrono::duration<double>(now - busy_from_).count(), process_cpu_seconds() - busy_cpu_from_};
          }
          return;
        }
        d = take(indices);
      }
      const std::optional<std::pair<double, double>> result = count(d, indices, counts);
      const std::lock_guard lock(mutex_);
      if (!result) {  // a cancel is thrown by run() as any other; a draw cut at the last call is counted
        if (cancelled()) return;
        ++d.from->cut;
        continue;
      }
      const auto [spent, found] = *result;
      d.from->seconds.add(spent);
      d.from->per_run[d.run] = std::pair(spent, found);
      d.from->all_seconds += spent;
      d.from->all_solutions += found;
      d.from->sampled += indices.size();
    }
  } catch (...) {
    const std::lock_guard lock(mutex_);
    fail(std::current_exception());
  }
}

void stratified_sample::run(int threads) {
  busy_from_ = std::chrono::steady_clock::now();
  busy_cpu_from_ = process_cpu_seconds();
  // Passes the caller's cancel on to the draws, and stops them at the last call.
  std::mutex watch_mutex;
  std::condition_variable_any watch_wait;
  std::jthread watcher([&](const std::stop_token& token) {
    std::unique_lock lock(watch_mutex);
    while (!token.stop_requested()) {
      if (cancelled() || std::chrono::steady_clock::now() >= last_call_) {
        stop_draws_ = true;
        return;
      }
      watch_wait.wait_for(lock, token, std::chrono::milliseconds(20), [] { return false; });
    }
  });
  // Plain threads, not the arena's tasks: the sample prices `threads`
  // threads counting at once (a device's runs by the wall clock, shared
  // caches and memory bandwidth), and a task_arena only lets its workers
  // join when they are free, with no promise that they all run together.
  std::vector<std::thread> workers;
  try {
    for (int t = 1; t < threads; ++t) workers.emplace_back([this] { draw_until_done(); });
  } catch (...) {  // a thread the system would not start (a process limit): those started stop their draws
    const std::lock_guard lock(mutex_);
    fail(std::current_exception());
  }
  draw_until_done();
  for (std::thread& w : workers) w.join();
  watcher.request_stop();
  watcher.join();
  if (failure_) std::rethrow_exception(failure_);
  if (cancelled()) throw run_cancelled("the estimate was cancelled while it timed its draws");
}

void stratified_sample::project(cost_estimate& e) const {
  e.ended = end_reason_.value_or(estimate_end::time);
  double variance_seconds = 0, variance_total = 0;
  for (std::size_t k = 0; k < strata_.size(); ++k) {
    const stratum& st = strata_[k];
    e.draws_cut += st.cut;
    e.sampled += st.sampled;
    if (st.size == 0) continue;
    running_mean run_seconds, solutions;
    for (const auto& run : st.per_run) {
      if (!run) continue;  // cut at the last call
      run_seconds.add(run->first);
      solutions.add(run->second);
    }
    e.runs += run_seconds.count();
    if (k == 1) {
      e.rotation_runs = run_seconds.count();
      e.rotation_sampled = st.sampled;
    }
    if (run_seconds.count() == 0 && st.drawn == 0) {  // never drawn (max_runs came first): unknown
      variance_seconds = variance_total = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    if (run_seconds.count() == 0) {
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", 2 * options_.seconds);
      throw std::runtime_error(std::string("no draw of ") +
                               (k == 0 ? "the engine's subproblems" : "the rotation search's tasks") +
                               " ended within " + limit +
                               " s (twice the sampling time): one takes longer; sample longer, or split the plan "
                               "finer");
    }
    if (st.sampled == st.size) {  // every subproblem of the stratum: the sums themselves
      e.thread_seconds += st.all_seconds;
      e.total += st.all_solutions;
      continue;
    }
    e.thread_seconds += run_seconds.mean() * st.whole();
    e.total += solutions.mean() * st.whole();
    const double seconds_error = run_seconds.error(st.draws) * st.whole();
    const double total_error = solutions.error(st.draws) * st.whole();
    variance_seconds += seconds_error * seconds_error;
    variance_total += total_error * total_error;
  }
  e.thread_seconds_error = std::sqrt(variance_seconds);
  e.total_error = std::sqrt(variance_total);
  if (e.ended == estimate_end::exhausted && e.sampled < e.subproblems) e.ended = estimate_end::time;  // some were cut
}

}  // namespace nqueens::detail
