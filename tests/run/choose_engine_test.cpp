#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "nqueens/cancelled.hpp"
#include "nqueens/count.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/progress.hpp"
#include "nqueens/scaling.hpp"

namespace nqueens {
namespace {

// An engine named is kept, with the split asked.
TEST(ChooseEngineTest, KeepsAnEngineNamed) {
  for (const engine e : all_engines()) {
    for (const bool shared : {false, true}) {
      const engine_choice c = choose_engine(20, {.kind = e, .split_depth = 3}, shared);
      EXPECT_EQ(c.kind, e);
      EXPECT_EQ(c.split_depth, 3);
    }
  }
}

// An engine named with no split, for a run alone, takes the deepest split
// that fits, as the tools' `--engine symmetric` does; and count() counts
// there. It was refused by count() where the tool counted. A shared plan
// keeps the automatic split, whatever the memory.
TEST(ChooseEngineTest, AnEngineNamedAloneTakesTheSplitThatFits) {
  constexpr int n = 14;
  constexpr std::uint64_t tight = std::uint64_t{1} << 20;
  const engine e = engine::symmetric;
  const int fits = fitting_split_depth(n, e, tight, 2);
  ASSERT_GT(fits, 0);  // the automatic split is refused at this bound
  EXPECT_EQ(choose_engine(n, {.kind = e, .threads = 2, .max_memory = tight}).split_depth, fits);
  EXPECT_EQ(choose_engine(n, {.kind = e, .threads = 2, .max_memory = tight}, true).split_depth, 0);
  EXPECT_EQ(choose_engine(n, {.kind = e, .threads = 2}).split_depth, 0);  // the automatic split fits
  const count_result r = count(n, {.kind = e, .threads = 2, .max_memory = tight});
  EXPECT_EQ(r.kind, e);
  EXPECT_EQ(r.split_depth, fits);
  EXPECT_EQ(r.total, count(n, {.kind = e, .threads = 2}).total);
  // A shard and a journal are parts of a run: refused at the automatic
  // split, not re-split (and the journal the refusal would have made is
  // not left behind).
  EXPECT_THROW(static_cast<void>(count(n, {.kind = e, .threads = 2, .shard = {0, 2}, .max_memory = tight})),
               memory_limit_error);
  EXPECT_THROW(static_cast<void>(count(n, {.kind = e, .threads = 2, .checkpoint = "j.ckpt", .max_memory = tight})),
               memory_limit_error);
  EXPECT_FALSE(std::filesystem::exists("j.ckpt"));
  // Scaling settles the split once, as the most threads need it, for
  // every row alike.
  const std::vector<int> threads = {1, 2};
  const scaling_result scaled = measure_scaling(n, threads, 1, {.kind = e, .max_memory = tight});
  ASSERT_TRUE(scaled.complete);
  EXPECT_TRUE(scaled.consistent);
  EXPECT_EQ(scaled.split_depth, fits);
}

// A run alone: the fastest engine that fits, at the deepest split that fits
// where none was asked (`--engine auto`'s rule, now the library's).
TEST(ChooseEngineTest, ARunAlonePicksTheFastestThatFits) {
  constexpr std::uint64_t small = std::uint64_t{16} << 20;
  for (const int n : {8, 16, 18}) {
    for (const std::uint64_t limit : {std::uint64_t{0}, small}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", max_memory " + std::to_string(limit));
      const engine_choice c = choose_engine(n, {.threads = 2, .max_memory = limit});
      EXPECT_EQ(c.kind, fastest_engine(n, limit, 2));
      EXPECT_EQ(c.split_depth, fitting_split_depth(n, c.kind, limit, 2));
      EXPECT_EQ(choose_engine(n, {.threads = 2, .split_depth = 2, .max_memory = limit}).split_depth, 2);
    }
  }
  EXPECT_EQ(choose_engine(18, {}).kind, engine::quadrant);
  EXPECT_EQ(choose_engine(12, {}).kind, engine::symmetric);
}

// The parts of one run (a journal, a shard, MPI's ranks) go by n alone,
// whatever each part's memory: every part builds the same plan.
TEST(ChooseEngineTest, PartsOfOneRunGoByTheBoardAlone) {
  constexpr int n = 18;
  const engine shared = shared_plan_engine(n);
  ASSERT_EQ(shared, engine::quadrant);
  // A bound under what the quadrant engine needs here: a run alone picks
  // another engine, so the parts below are seen to go by n alone.
  const std::uint64_t small = memory_estimate(n, shared, 2, 1) - 1;
  ASSERT_NE(choose_engine(n, {.threads = 2, .max_memory = small}).kind, shared);
  count_options journal{.threads = 2, .max_memory = small};
  journal.checkpoint = "unused.journal";  // only named: the choice opens nothing
  EXPECT_EQ(choose_engine(n, journal).kind, shared);
  EXPECT_EQ(choose_engine(n, {.threads = 2, .shard = {.index = 1, .count = 3}, .max_memory = small}).kind, shared);
  const engine_choice ranks = choose_engine(n, {.threads = 2, .max_memory = small}, true);
  EXPECT_EQ(ranks.kind, shared);
  EXPECT_EQ(ranks.split_depth, 0);  // the plan's own split, not this node's
  EXPECT_FALSE(std::filesystem::exists("unused.journal"));
}

TEST(ChooseEngineTest, HearsACancelFlagAlreadySet) {
  const std::atomic<bool> stopped{true};
  EXPECT_THROW(static_cast<void>(choose_engine(18, {.cancel = &stopped})), run_cancelled);
  EXPECT_NO_THROW(static_cast<void>(choose_engine(18, {.kind = engine::mirror, .split_depth = 2, .cancel = &stopped})));
  // A named engine without a split is priced for its split, which hears it.
  EXPECT_THROW(static_cast<void>(choose_engine(18, {.kind = engine::mirror, .cancel = &stopped})), run_cancelled);
  EXPECT_NO_THROW(static_cast<void>(choose_engine(18, {.kind = engine::mirror, .cancel = &stopped}, true)));
}

// count() with the default options counts on the engine it chose and names
// it; the counts are exact whichever it is.
TEST(ChooseEngineTest, ADefaultCountRunsAndNamesTheChosenEngine) {
  EXPECT_EQ(count_options{}.kind, engine::automatic);
  for (const int n : {1, 4, 12, 16}) {
    const count_result r = count(n, {.threads = 2});
    EXPECT_EQ(r.kind, choose_engine(n, {.threads = 2}).kind) << n;
    EXPECT_EQ(r.total, *published_total(n)) << n;
    EXPECT_TRUE(r.check.verified()) << n;
  }
  // 2 MiB holds no quadrant tables at n = 16: the choice falls back, exact.
  const count_result small = count(16, {.threads = 2, .max_memory = std::uint64_t{2} << 20});
  EXPECT_EQ(small.kind, engine::symmetric);
  EXPECT_EQ(small.total, *published_total(16));
}

// The automatic choice takes every board and counts on the CPU only.
TEST(ChooseEngineTest, AutomaticTakesEveryBoardAndNoGpuOptions) {
  for (int n = 1; n <= max_board_size; ++n) EXPECT_NO_THROW(validate({}, n)) << n;
  EXPECT_THROW(validate({.gpu = {.memory = std::uint64_t{1} << 30}}), std::invalid_argument);
  EXPECT_THROW(validate({.gpu = {.devices = "0"}}), std::invalid_argument);
  EXPECT_EQ(to_string(engine::automatic), "auto");
  EXPECT_FALSE(parse_engine("auto").has_value());  // no plan, journal or shard file names it
  EXPECT_FALSE(is_registered(engine::automatic));
  // What takes an engine and cannot choose one says so, in words.
  for (const auto& refuse :
       std::vector<std::function<void()>>{[] { static_cast<void>(plan(8, {.kind = engine::automatic})); },
                                          [] { check_memory(8, engine::automatic, 0); }}) {
    try {
      refuse();
      ADD_FAILURE() << "automatic taken as an engine";
    } catch (const std::invalid_argument& refused) {
      EXPECT_NE(std::string(refused.what()).find("engine auto is a choice count() makes"), std::string::npos)
          << refused.what();
    }
  }
  EXPECT_EQ(memory_estimate(18, engine::automatic), 0u);
  // measure_scaling refuses them as count() does, before it prices anything.
  const std::vector<int> one = {1};
  try {
    static_cast<void>(measure_scaling(8, one, 1, {.gpu = {.memory = std::uint64_t{1} << 30}}));
    ADD_FAILURE() << "GPU options taken";
  } catch (const std::invalid_argument& refused) {
    EXPECT_NE(std::string(refused.what()).find("the automatic choice never counts on one"), std::string::npos)
        << refused.what();
  }
}

// Every row of a scaling run counts on one engine, chosen for the most
// threads: rows on two engines would time two programs. A bound that fits
// the quadrant engine's count on one thread, not on two, shows it: every
// count's plan (its subproblems, in the progress reports) is the
// symmetric engine's.
TEST(ChooseEngineTest, ScalingChoosesOnceForEveryRow) {
  constexpr int n = 16;
  std::uint64_t low = std::uint64_t{1} << 20, high = std::uint64_t{1} << 34;  // 2 threads: symmetric at low
  ASSERT_EQ(fastest_engine(n, low, 2), engine::symmetric);
  ASSERT_EQ(fastest_engine(n, high, 1), engine::quadrant);
  while (high - low > (std::uint64_t{1} << 16)) {  // the least bound the quadrant engine fits on one thread
    const std::uint64_t middle = low + (high - low) / 2;
    (fastest_engine(n, middle, 1) == engine::quadrant ? high : low) = middle;
  }
  if (fastest_engine(n, high, 2) == engine::quadrant) GTEST_SKIP() << "two threads fit wherever one does here";
  std::set<std::size_t> plan_sizes;
  count_options o{.max_memory = high};
  o.progress_interval_seconds = 0;
  o.on_progress = [&plan_sizes](const progress& p) { plan_sizes.insert(p.subproblems); };
  const std::vector<int> threads = {1, 2};
  const scaling_result r = measure_scaling(n, threads, 1, o);
  ASSERT_TRUE(r.complete);
  EXPECT_TRUE(r.consistent);
  EXPECT_EQ(r.rows.size(), 2u);
  EXPECT_TRUE(r.check.verified());
  const std::size_t symmetric_plan = plan(n, {.kind = engine::symmetric}).size();
  EXPECT_EQ(plan_sizes, std::set<std::size_t>{symmetric_plan});
  EXPECT_EQ(r.kind, engine::symmetric);  // what the rows counted on, for the caller's table
  // The plan as built at the split chosen (0 from fitting_split_depth: the automatic one).
  const plan counted(n, {.kind = engine::symmetric, .split_depth = fitting_split_depth(n, engine::symmetric, high, 2)});
  EXPECT_EQ(r.split_depth, counted.split_depth());
  EXPECT_EQ(r.subproblems, counted.size());
  const scaling_result named = measure_scaling(12, threads, 1, {.kind = engine::mirror, .split_depth = 2});
  EXPECT_EQ(named.kind, engine::mirror);
  EXPECT_EQ(named.split_depth, 2);
}

}  // namespace
}  // namespace nqueens
