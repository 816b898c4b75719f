// The run driver against an executor that counts nothing itself: what the
// driver hands out, what it sums, resumes, stops and verifies, whatever
// runs the subproblems.

#include "run/run_driver.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "nqueens/execute.hpp"
#include "run/arena_executor.hpp"
#include "run/executor.hpp"

namespace nqueens::detail {
namespace {

namespace fs = std::filesystem;

// Runs each subproblem through a real context (so the sums are the true
// counts), records what it was handed, and can stop after `stop_after`.
class recording_executor final : public executor {
 public:
  explicit recording_executor(std::size_t stop_after = SIZE_MAX, std::size_t fail_after = SIZE_MAX)
      : stop_after_(stop_after), fail_after_(fail_after) {}
  int threads() const noexcept override { return 1; }
  isa kernels() const override { return active_isa(); }
  void run(const plan& p, std::span<const std::size_t> indices, const report_fn& report,
           const std::atomic<bool>& stop) override {
    const run_context context(p, std::nullopt, 1);
    for (const std::size_t i : indices) {
      if (handed.size() == fail_after_) throw std::runtime_error("the executor failed");
      if (stop.load() || handed.size() == stop_after_) return;
      handed.push_back(i);
      report(i, context.solve(i));
    }
  }
  std::vector<std::size_t> handed;

 private:
  std::size_t stop_after_;
  std::size_t fail_after_;
};

// Counts `counts` subproblems, then stops as an MPI job does when a signal
// reaches one of its workers: the stop is the executor's, not the caller's
// cancel. Counting began only where a count was reported.
class stopped_elsewhere_executor final : public executor {
 public:
  explicit stopped_elsewhere_executor(std::size_t counts) : counts_(counts) {}
  int threads() const noexcept override { return 1; }
  isa kernels() const override { return active_isa(); }
  void run(const plan& p, std::span<const std::size_t> indices, const report_fn& report,
           const std::atomic<bool>&) override {
    const run_context context(p, std::nullopt, 1);
    for (std::size_t k = 0; k < counts_ && k < indices.size(); ++k) report(indices[k], context.solve(indices[k]));
    stopped_ = true;
  }
  bool stopped_elsewhere() const noexcept override { return stopped_; }
  bool counting_began() const noexcept override { return counts_ > 0; }

 private:
  std::size_t counts_;
  bool stopped_ = false;
};

count_result drive_with(executor& exec, const plan& p, const count_options& options, const std::string& journal = "") {
  return drive(p, options, exec, std::chrono::steady_clock::now(),
               journal.empty() ? checkpoint_file() : checkpoint_file(journal));
}

TEST(RunDriverTest, HandsOutEveryIndexOnceAndSumsExactly) {
  const plan p(12);
  recording_executor exec;
  const count_result r = drive_with(exec, p, {});
  std::vector<std::size_t> sorted = exec.handed;
  std::sort(sorted.begin(), sorted.end());
  ASSERT_EQ(sorted.size(), p.size());
  for (std::size_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);
  EXPECT_NE(exec.handed, sorted) << "handed out in plan order, not dispatch order";
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.total, 14200U);
  EXPECT_EQ(*r.unique, 1787U);
  EXPECT_TRUE(r.check.ok());
}

TEST(RunDriverTest, AShardGetsItsOwnIndicesAndNoVerdictOnTheWhole) {
  const plan p(12, {.kind = engine::quadrant});
  recording_executor exec;
  count_options o;
  o.shard = {1, 3};
  const count_result r = drive_with(exec, p, o);
  EXPECT_EQ(exec.handed.size(), r.shard_subproblems);
  for (const std::size_t i : exec.handed) EXPECT_EQ(i % 3, 1U);
  EXPECT_TRUE(r.complete);
  EXPECT_FALSE(r.unique.has_value());
}

TEST(RunDriverTest, ResumesWhatTheJournalHoldsAndHandsOutOnlyTheRest) {
  const fs::path journal = fs::temp_directory_path() / ("nqueens-driver-" + std::to_string(::getpid()) + ".ckpt");
  fs::remove(journal);
  const plan p(12);
  recording_executor first(100);  // stops after 100: an interrupted run
  const count_result partial = drive_with(first, p, {}, journal.string());
  EXPECT_FALSE(partial.complete);
  EXPECT_EQ(partial.finished, 100U);
  recording_executor second;
  const count_result r = drive_with(second, p, {}, journal.string());
  EXPECT_EQ(r.resumed, 100U);
  EXPECT_EQ(second.handed.size(), p.size() - 100);
  for (const std::size_t i : first.handed) {
    EXPECT_EQ(std::count(second.handed.begin(), second.handed.end(), i), 0) << i << " was counted twice";
  }
  EXPECT_EQ(r.total, 14200U);
  recording_executor third;  // a finished journal: nothing handed out
  EXPECT_EQ(drive_with(third, p, {}, journal.string()).total, 14200U);
  EXPECT_TRUE(third.handed.empty());
  fs::remove(journal);
}

TEST(RunDriverTest, ACancelBeforeCountingHandsOutNothing) {
  const plan p(12);
  recording_executor exec;
  const std::atomic<bool> cancel{true};
  count_options o;
  o.cancel = &cancel;
  EXPECT_THROW(drive_with(exec, p, o), run_cancelled);
  EXPECT_TRUE(exec.handed.empty());
}

// A journal this run made is removed again when the run ends by a throw
// before anything was recorded (a stop, a failure): it held no work, and
// would bind the next run to this one's plan. One that was there before,
// or that took records, is kept as it is.
TEST(RunDriverTest, AJournalMadeForARunThatCountedNothingIsRemoved) {
  const fs::path journal =
      fs::temp_directory_path() / ("nqueens-driver-unused-" + std::to_string(::getpid()) + ".ckpt");
  fs::remove(journal);
  const plan p(12);
  const std::atomic<bool> cancel{true};
  count_options stopped;
  stopped.cancel = &cancel;
  recording_executor exec;
  EXPECT_THROW(drive_with(exec, p, stopped, journal.string()), run_cancelled);
  EXPECT_FALSE(fs::exists(journal)) << "a stop before counting left a journal of its header alone";

  recording_executor failing(SIZE_MAX, 0);
  EXPECT_THROW(drive_with(failing, p, {}, journal.string()), std::runtime_error);
  EXPECT_FALSE(fs::exists(journal)) << "a failure before the first count left a journal of its header alone";

  recording_executor failing_later(SIZE_MAX, 50);
  EXPECT_THROW(drive_with(failing_later, p, {}, journal.string()), std::runtime_error);
  ASSERT_TRUE(fs::exists(journal)) << "a failure after 50 counts took the journal that holds them";
  const auto size = fs::file_size(journal);
  recording_executor stopped_again;
  EXPECT_THROW(drive_with(stopped_again, p, stopped, journal.string()), run_cancelled);
  ASSERT_TRUE(fs::exists(journal)) << "a stop took a journal that was there before";
  EXPECT_EQ(fs::file_size(journal), size);
  recording_executor resumed;
  const count_result r = drive_with(resumed, p, {}, journal.string());
  EXPECT_EQ(r.resumed, 50U);
  EXPECT_EQ(r.total, 14200U);
  fs::remove(journal);
}

// A stop that came from elsewhere (an MPI worker's signal) before any count
// ends the run as the caller's own would: run_cancelled, the journal made
// for it removed; after counts, a partial result, the journal kept with them.
TEST(RunDriverTest, AStopFromElsewhereBeforeAnyCountIsAStopBeforeCounting) {
  const fs::path journal =
      fs::temp_directory_path() / ("nqueens-driver-elsewhere-" + std::to_string(::getpid()) + ".ckpt");
  fs::remove(journal);
  const plan p(12);
  stopped_elsewhere_executor none(0);
  EXPECT_THROW(drive_with(none, p, {}, journal.string()), run_cancelled);
  EXPECT_FALSE(fs::exists(journal)) << "the journal made for the run, its header alone, was left";
  stopped_elsewhere_executor some(5);
  const count_result r = drive_with(some, p, {}, journal.string());
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.finished, 5U);
  recording_executor resumed;
  EXPECT_EQ(drive_with(resumed, p, {}, journal.string()).resumed, 5U);
  fs::remove(journal);
}

// A run that ends one subproblem short is not complete: no fundamental
// count, and its journal not marked finished, so that the same run again
// counts exactly the one left.
TEST(RunDriverTest, ARunOneSubproblemShortIsNotComplete) {
  const fs::path journal = fs::temp_directory_path() / ("nqueens-driver-short-" + std::to_string(::getpid()) + ".ckpt");
  fs::remove(journal);
  const plan p(12);
  recording_executor all_but_one(p.size() - 1);
  const count_result r = drive_with(all_but_one, p, {}, journal.string());
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.finished, p.size() - 1);
  EXPECT_FALSE(r.unique.has_value());
  recording_executor rest;
  const count_result whole = drive_with(rest, p, {}, journal.string());
  EXPECT_EQ(rest.handed.size(), 1U);
  EXPECT_TRUE(whole.complete);
  EXPECT_EQ(whole.total, 14200U);
  fs::remove(journal);
}

// Counts five subproblems, then sets the caller's cancel and, as running
// subproblems do, keeps the run going until the journal on disk holds those
// five (or 60 s pass): a stop saves what is finished at once, not when the
// run ends (a scheduler's kill -9 may follow within seconds).
class slow_to_stop_executor final : public executor {
 public:
  slow_to_stop_executor(std::atomic<bool>& cancel, fs::path journal) : cancel_(cancel), journal_(std::move(journal)) {}
  int threads() const noexcept override { return 1; }
  isa kernels() const override { return active_isa(); }
  void run(const plan& p, std::span<const std::size_t> indices, const report_fn& report,
           const std::atomic<bool>&) override {
    const run_context context(p, std::nullopt, 1);
    for (std::size_t k = 0; k < 5; ++k) report(indices[k], context.solve(indices[k]));
    cancel_ = true;
    const std::uintmax_t five_records = 64 + 5 * 48;
    for (const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
         !saved && std::chrono::steady_clock::now() < give_up;) {
      std::error_code error;
      saved = fs::file_size(journal_, error) >= five_records && !error;
      if (!saved) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  bool saved = false;

 private:
  std::atomic<bool>& cancel_;
  fs::path journal_;
};

TEST(RunDriverTest, AStopSavesWhatIsFinishedAtOnce) {
  const fs::path journal = fs::temp_directory_path() / ("nqueens-driver-save-" + std::to_string(::getpid()) + ".ckpt");
  fs::remove(journal);
  const plan p(12);
  std::atomic<bool> cancel{false};
  count_options o;
  o.cancel = &cancel;
  o.checkpoint_interval_seconds = 3600;  // no flush falls due meanwhile
  slow_to_stop_executor exec(cancel, journal);
  const count_result r = drive_with(exec, p, o, journal.string());
  EXPECT_TRUE(exec.saved) << "the five finished subproblems were not saved while the run wound down";
  EXPECT_EQ(r.finished, 5U);
  fs::remove(journal);
}

// The count's caller's cancel reaches the arena at once, not at the
// driver's next look (every 50 ms) through the run's own stop: set while
// that stop is not, it starts no subproblem and counting has not begun
// (count() then throws run_cancelled, as for a cancel while the tables
// were built); set as the third subproblem is reported, on one thread, the
// fourth never starts.
TEST(ArenaExecutorTest, TheCallersCancelStartsNoFurtherSubproblem) {
  const plan p(12);
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  const std::atomic<bool> stop{false};
  {
    const std::atomic<bool> cancel{true};
    arena_executor exec(2, std::nullopt, 0, {}, &cancel);
    std::atomic<int> reported{0};
    exec.run(
        p, all, [&](std::size_t, const subproblem_count&) { ++reported; }, stop);
    EXPECT_EQ(reported.load(), 0);
    EXPECT_FALSE(exec.counting_began());
  }
  std::atomic<bool> cancel{false};
  arena_executor exec(1, std::nullopt, 0, {}, &cancel);
  int reported = 0;
  exec.run(
      p, all,
      [&](std::size_t, const subproblem_count&) {
        if (++reported == 3) cancel = true;
      },
      stop);
  EXPECT_EQ(reported, 3);
  EXPECT_TRUE(exec.counting_began());
}

// A run of no subproblems (a journal that holds them all, its mark not yet
// written) has nothing to wait for: counting began, so that a stop heard
// now finishes the run (its mark, its total) rather than calling it
// stopped before it counted.
TEST(ArenaExecutorTest, ARunOfNoSubproblemsHasBegunCounting) {
  const std::atomic<bool> stop{false};
  arena_executor exec(2, std::nullopt, 0);
  exec.run(
      plan(8), {}, [](std::size_t, const subproblem_count&) {}, stop);
  EXPECT_TRUE(exec.counting_began());
}

}  // namespace
}  // namespace nqueens::detail
