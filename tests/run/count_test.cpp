#include "nqueens/count.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <future>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/threads.hpp"
#include "support/axes.hpp"
#include "support/brute_force.hpp"

namespace nqueens {
namespace {

class CountTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(CountTest, SymmetricMatchesPublishedCounts) {
  const auto [n, threads] = GetParam();
  const count_result r = count(n, {.kind = engine::symmetric, .threads = threads});
  EXPECT_EQ(r.total, *published_total(n));
  ASSERT_TRUE(r.unique.has_value());
  EXPECT_EQ(*r.unique, *published_unique(n));
  EXPECT_TRUE(r.check.verified());
  EXPECT_EQ(r.threads, threads);
}

TEST_P(CountTest, MirrorMatchesPublishedTotalAndSymmetricEngine) {
  const auto [n, threads] = GetParam();
  const count_result r = count(n, {.kind = engine::mirror, .threads = threads});
  EXPECT_EQ(r.total, *published_total(n));
  ASSERT_TRUE(r.unique.has_value());  // from the rotation-symmetric counts: every engine has it
  EXPECT_EQ(*r.unique, *published_unique(n));
  EXPECT_EQ(r.total, count(n, {.kind = engine::symmetric, .threads = 1}).total);
}

// Thread counts include more threads than cores (8) and an odd count (3).
INSTANTIATE_TEST_SUITE_P(BoardsByThreads, CountTest,
                         ::testing::Combine(::testing::Range(1, 16), ::testing::Values(1, 2, 3, 8)));

class SplitDepthTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(SplitDepthTest, EveryDepthGivesTheSameCounts) {
  const auto [n, depth] = GetParam();
  for (const engine kind : {engine::symmetric, engine::mirror}) {
    const count_result r = count(n, {.kind = kind, .threads = 2, .split_depth = depth});
    EXPECT_EQ(r.total, *published_total(n)) << to_string(kind) << ", split depth " << depth;
    if (kind == engine::symmetric) EXPECT_EQ(*r.unique, *published_unique(n)) << "split depth " << depth;
    EXPECT_EQ(r.split_depth, std::min(depth, n));
  }
}

INSTANTIATE_TEST_SUITE_P(BoardsByDepth, SplitDepthTest,
                         ::testing::Combine(::testing::Range(1, 15), ::testing::Values(1, 2, 3, 5, 7)));

// Fundamental counts from first principles: map every solution (found by
// permutations) to the smallest of its 8 images and count distinct ones.
class ClassifierTest : public ::testing::TestWithParam<int> {};

TEST_P(ClassifierTest, UniqueMatchesBruteForceClassifier) {
  const int n = GetParam();
  const auto solutions = testing::all_solutions_by_permutation(n);
  std::set<std::vector<int>> canonical;
  for (const auto& q : solutions) {
    std::vector<int> best = q;
    for (int g = 0; g < 8; ++g) {
      std::vector<int> image(q.size());
      for (int r = 0; r < n; ++r) {
        int row = r, col = q[static_cast<std::size_t>(r)];
        if (g & 1) col = n - 1 - col;    // mirror
        if (g & 2) row = n - 1 - row;    // flip
        if (g & 4) std::swap(row, col);  // transpose
        image[static_cast<std::size_t>(row)] = col;
      }
      best = std::min(best, image);
    }
    canonical.insert(best);
  }
  const count_result r = count(n, {.kind = engine::symmetric, .threads = 2});
  EXPECT_EQ(*r.unique, canonical.size());
  EXPECT_EQ(r.total, solutions.size());
}

INSTANTIATE_TEST_SUITE_P(SmallBoards, ClassifierTest, ::testing::Range(1, 11));

// Cancelled before the first subproblem (planning, the run's lists):
// count() throws run_cancelled rather than return an empty, incomplete run.
TEST(CountCancelTest, BeforeCountingThrowsRunCancelled) {
  const std::atomic<bool> cancel{true};
  for (const engine kind : all_engines()) {
    count_options o;
    o.kind = kind;
    o.cancel = &cancel;
    EXPECT_THROW(count(12, o), run_cancelled) << to_string(kind);
  }
  count_options o;
  o.cancel = &cancel;
  EXPECT_THROW(rotational_counts(12, o), run_cancelled);
}

// A progress callback that throws ends the count, and count() rethrows it,
// whether it threw while counting or on the last snapshot; the process
// goes on (it used to terminate when the helper thread threw).
TEST(CountCallbackTest, AThrowingProgressCallbackEndsTheCountAndIsRethrown) {
  struct stop_here : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  for (const bool on_last : {false, true}) {
    int calls = 0;
    count_options o;
    o.kind = engine::symmetric;
    o.threads = 2;
    o.progress_interval_seconds = 0;  // every tick of the helper thread
    o.on_progress = [&](const progress& p) {
      ++calls;
      if (p.last || !on_last) throw stop_here(p.last ? "last" : "while counting");
    };
    // n = 16 with the symmetric engine runs for about a second: a tick comes first.
    EXPECT_THROW(count(on_last ? 8 : 16, o), stop_here) << on_last;
    EXPECT_GE(calls, 1);
  }
}

// The count's time is its own: the last progress call, which comes once
// the count is done, is not in `seconds` however long it takes (a scaling
// run's callback would otherwise slow every row it times).
TEST(CountCallbackTest, TheLastProgressCallIsNotInTheCountsTime) {
  using clock = std::chrono::steady_clock;
  clock::time_point last_called{};
  count_options o;
  o.kind = engine::symmetric;
  o.threads = 2;
  o.on_progress = [&](const progress& p) {
    if (!p.last) return;
    last_called = clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  };
  const clock::time_point before = clock::now();
  const count_result r = count(10, o);
  ASSERT_NE(last_called, clock::time_point{}) << "no last call";
  // The count began after `before`; its time, taken before the last call,
  // ends before that call began. With the call's half second in it, it
  // would end after.
  EXPECT_LE(r.seconds, std::chrono::duration<double>(last_called - before).count());
  EXPECT_LE(r.phases.counting, r.seconds);
  // Differences of the clock's readings, kept to its nanoseconds (JSON
  // printed 0.041741496999999995 for 0.041741497).
  EXPECT_EQ(r.seconds, std::round(r.seconds * 1e9) / 1e9);
  EXPECT_EQ(r.phases.counting, std::round(r.phases.counting * 1e9) / 1e9);
}

// A call still under way when the count ends (its line to a paused
// terminal) is waited for, and left out of the count's time; the last
// snapshot's time is the result's, not that plus the wait.
TEST(CountCallbackTest, TheLastSnapshotsTimeIsTheResults) {
  count_options o;
  o.kind = engine::symmetric;  // Q(15): tenths of a second on one thread, ticks of 50 ms
  o.threads = 1;
  o.progress_interval_seconds = 0.05;
  bool waited = false;
  std::optional<progress> last;
  o.on_progress = [&](const progress& p) {
    if (p.last) {
      last = p;
    } else if (!waited) {
      waited = true;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
  };
  const count_result r = count(15, o);
  ASSERT_TRUE(last.has_value()) << "no last call";
  EXPECT_EQ(last->elapsed_seconds, r.seconds);
  if (!waited) GTEST_SKIP() << "Q(15) ended before its first tick: no call was under way at its end";
  // Nor is the wait in any phase: they add up to the count's time.
  const double phases = r.phases.checks + r.phases.planning + r.phases.start + r.phases.counting + r.phases.release;
  EXPECT_LE(phases, r.seconds + 0.25) << "the wait for the callback was counted as counting";
}

// A progress callback that waits (its line to a paused terminal, a full
// pipe nobody reads) does not hold up the journal's flushes: it is called
// on a thread of its own. Called on the helper's (which also passes a
// cancel on to the workers), it held the journal at its header until it
// returned.
TEST(CountCallbackTest, AWaitingProgressCallbackDoesNotHoldUpTheJournal) {
  namespace fs = std::filesystem;
  const fs::path journal = "waiting-callback.journal";  // in the test's own directory
  fs::remove(journal);
  using clock = std::chrono::steady_clock;
  std::promise<void> called;
  std::atomic<bool> release{false};
  std::atomic<bool> cancel{false};
  bool first = true;
  count_options o;
  o.kind = engine::symmetric;  // Q(16): a second on one thread, a tick is 50 ms
  o.threads = 1;
  o.checkpoint = journal.string();
  o.checkpoint_interval_seconds = min_checkpoint_interval_seconds;
  o.progress_interval_seconds = 0;
  o.cancel = &cancel;
  o.on_progress = [&](const progress& p) {
    if (p.last || !first) return;
    first = false;
    called.set_value();
    for (const auto give_up = clock::now() + std::chrono::minutes(2); !release && clock::now() < give_up;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  std::future<count_result> run = std::async(std::launch::async, [&] { return count(16, o); });
  std::future<void> waiting = called.get_future();
  if (run.wait_for(std::chrono::seconds(0)) == std::future_status::ready ||
      (waiting.wait_for(std::chrono::minutes(1)) != std::future_status::ready)) {
    release = true;
    run.get();
    fs::remove(journal);
    GTEST_SKIP() << "the count ended before its first progress snapshot";
  }
  // Past the 64-byte header: records flushed while the callback waits.
  bool flushed = false;
  for (const auto deadline = clock::now() + std::chrono::minutes(1); !flushed && clock::now() < deadline;) {
    std::error_code error;
    flushed = fs::file_size(journal, error) > 64 && !error;
    if (!flushed) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(flushed) << "the journal was not flushed while the progress callback waited";
  cancel = true;
  release = true;
  run.get();
  // What the journal holds is exact: the resume finishes the count.
  const count_result resumed = count(16, {.kind = engine::symmetric, .threads = 2, .checkpoint = journal.string()});
  fs::remove(journal);
  EXPECT_EQ(resumed.total, *published_total(16));
  EXPECT_GT(resumed.resumed, 0u);
}

// The library refuses what the CLI refuses, naming the field: an interval
// that is NaN would never flush (or report), 0 and -1 mean nothing, and a
// kernels value that names no instruction set is not "a CPU that lacks it".
TEST(CountOptionsTest, OutOfRangeFieldsAreRefusedByName) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // rotational_counts() takes every field but the engine and the split depth.
  const auto refused = [](const count_options& o, const std::string& field) {
    const bool unused_by_rotational = field == "kind" || field == "split_depth";
    for (const bool rotational : {false, true}) {
      if (rotational && unused_by_rotational) continue;
      try {
        rotational ? rotational_counts(8, o) : count(8, o);
        ADD_FAILURE() << field << " accepted";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("count_options::" + field + " "), std::string::npos) << e.what();
      }
    }
  };
  for (const double bad : {nan, inf, 0.0, -1.0, 0.001, 3601.0}) {
    count_options o;
    o.checkpoint_interval_seconds = bad;
    refused(o, "checkpoint_interval_seconds");
  }
  for (const double bad : {nan, inf, -inf, -0.5}) {
    count_options o;
    o.progress_interval_seconds = bad;
    refused(o, "progress_interval_seconds");
  }
  for (const std::uint64_t bad : {std::uint64_t{1}, std::uint64_t{1024}, min_max_memory - 1}) {
    count_options o;
    o.max_memory = bad;
    refused(o, "max_memory");
  }
  count_options o;
  o.kernels = static_cast<isa>(7);
  refused(o, "kernels");
  // Every named set is in range: one this CPU (or build: AArch64's has the
  // portable kernels alone) does not run is isa_error, as runnable_isa says.
  for (const isa k : {isa::portable, isa::avx2, isa::avx512}) {
    if (cpu_supports(k)) {
      EXPECT_EQ(count(8, {.threads = 1, .kernels = k}).total, 92u) << to_string(k);
    } else {
      EXPECT_THROW(static_cast<void>(count(8, {.threads = 1, .kernels = k})), isa_error) << to_string(k);
    }
  }
  refused({.kind = static_cast<engine>(99)}, "kind");
  refused({.threads = -1}, "threads");
  refused({.split_depth = -1}, "split_depth");
  refused({.shard = {.index = 2, .count = 2}}, "shard");
  // The ends of each range are taken.
  count_options edges;
  edges.checkpoint_interval_seconds = min_checkpoint_interval_seconds;
  edges.progress_interval_seconds = 0;
  edges.max_memory = std::uint64_t{64} << 20;
  EXPECT_EQ(count(8, edges).total, 92U);
  edges.checkpoint_interval_seconds = max_checkpoint_interval_seconds;
  EXPECT_EQ(count(8, edges).total, 92U);
}

// count() may run on several threads of one program at once, each call with
// its own arena and its own engine's tables: every count exact (under TSan,
// no race between them).
TEST(CountConcurrencyTest, CountsOnSeveralThreadsAtOnceAreEachExact) {
  const std::vector<std::pair<int, engine>> runs = {
      {12, engine::quadrant}, {13, engine::symmetric}, {12, engine::mirror}, {11, engine::quadrant}};
  std::vector<count_result> results(runs.size());
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    threads.emplace_back([&, k] { results[k] = count(runs[k].first, {.kind = runs[k].second, .threads = 2}); });
  }
  for (std::thread& t : threads) t.join();
  for (std::size_t k = 0; k < runs.size(); ++k) {
    EXPECT_EQ(results[k].total, *published_total(runs[k].first)) << k;
    EXPECT_TRUE(results[k].check.verified()) << k;
  }
}

// What rotational_counts() does not use, it does not check: an engine this
// machine may lack, a split depth out of range.
TEST(CountOptionsTest, SymmetricCountsIgnoreTheEngineAndTheSplitDepth) {
  const count_result r = rotational_counts(12, {.kind = static_cast<engine>(99), .split_depth = -1});
  EXPECT_EQ(r.symmetric_180, 80U);
  EXPECT_EQ(r.symmetric_90, 8U);
}

// A board outside 1..max_board_size is std::invalid_argument from every
// entry point and engine, before anything prices it (n = 1000 once recursed
// for days in the quadrant engine's tabled sizes; n = -1 read as a
// memory_limit_error).
TEST(CountOptionsTest, BoardsOutOfRangeAreRefusedBeforeTheyArePriced) {
  for (const engine e : all_engines()) {
    for (const int n : {-1, 0, max_board_size + 1, 1000, std::numeric_limits<int>::max()}) {
      SCOPED_TRACE(std::string(to_string(e)) + ", n = " + std::to_string(n));
      EXPECT_THROW(count(n, {.kind = e, .gpu = {.memory = std::uint64_t{1} << 30}}), std::invalid_argument);
      EXPECT_THROW(rotational_counts(n, {.kind = e}), std::invalid_argument);
      EXPECT_EQ(memory_estimate(n, e), 0U);
      EXPECT_THROW(check_memory(n, e, 0), std::invalid_argument);
      if (n != 0) EXPECT_THROW(validate({.kind = e}, n), std::invalid_argument);
    }
  }
}

// validate(options, n) refuses what count(n, options) refuses of the board:
// one past the engine's largest, which a program checking first would
// otherwise learn only from the count.
TEST(CountOptionsTest, ValidateRefusesABoardPastTheEnginesLargest) {
  for (const engine e : all_engines()) {
    const int largest = engine_max_board_size(e);
    SCOPED_TRACE(std::string(to_string(e)));
    if (largest < max_board_size) {
      try {
        validate({.kind = e}, largest + 1);
        ADD_FAILURE() << "n = " << largest + 1 << " was taken";
      } catch (const std::invalid_argument& refused) {
        EXPECT_EQ(std::string(refused.what()),
                  "the " + std::string(to_string(e)) + " engine handles n up to " + std::to_string(largest));
      }
    }
    if (e != engine::gpu) EXPECT_NO_THROW(validate({.kind = e}, largest));  // no GPU needed to take it
  }
  // The fields first, in their order: the board is the engine's last check.
  try {
    validate({.kind = engine::quadrant, .threads = -1}, 29);
    ADD_FAILURE() << "taken";
  } catch (const std::invalid_argument& refused) {
    EXPECT_NE(std::string(refused.what()).find("count_options::threads"), std::string::npos) << refused.what();
  }
}

}  // namespace
}  // namespace nqueens

namespace nqueens {
namespace {

// The engine axis x the instruction-set axis: every registered engine counts
// every board up to 15 exactly with every kernel set this CPU has, and
// reports the kernels it used.
class EngineIsaCountTest : public ::testing::TestWithParam<std::tuple<engine, isa, int>> {};

TEST_P(EngineIsaCountTest, MatchesThePublishedCounts) {
  const auto [e, kernels, n] = GetParam();
  NQUEENS_SKIP_UNLESS_SUPPORTED(kernels);
  NQUEENS_SKIP_GPU_UNLESS_PORTABLE(e, kernels);
#ifdef NQUEENS_SANITIZED
  if (e == engine::gpu && n == 15) GTEST_SKIP() << "the emulated GPU at n = 15: the plain build's (7 s sanitized)";
#endif
  count_options options{.kind = e, .threads = 2};
  options.kernels = kernels;
  const count_result r = count(n, options);
  EXPECT_EQ(r.total, *published_total(n));
  EXPECT_EQ(r.kernels, kernels);
  EXPECT_EQ(r.kind, e);
  ASSERT_TRUE(r.unique.has_value());
  EXPECT_EQ(*r.unique, *published_unique(n));
  EXPECT_EQ(r.symmetric_180, *published_symmetric_180(n));
  EXPECT_EQ(r.symmetric_90, *published_symmetric_90(n));
  EXPECT_TRUE(r.check.verified());
}

INSTANTIATE_TEST_SUITE_P(EnginesByIsaByBoard, EngineIsaCountTest,
                         ::testing::Combine(::testing::ValuesIn(testing::registered_engines()),
                                            ::testing::ValuesIn(testing::all_isas()), ::testing::Range(1, 16)),
                         [](const auto& info) {
                           return testing::name_of(std::get<0>(info.param)) + "_" +
                                  testing::name_of(std::get<1>(info.param)) + "_n" +
                                  std::to_string(std::get<2>(info.param));
                         });

}  // namespace
}  // namespace nqueens
