#include "nqueens/memory.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engines/engine_definition.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/count.hpp"
#include "nqueens/threads.hpp"
#include "run/plan_access.hpp"

namespace nqueens {
namespace {

namespace fs = std::filesystem;

// The quadrant plan deals its shards out in turn: a shard's list is its own
// size, 8 bytes an index, plus the plan, the journal's two bits per
// subproblem (held, recorded) and the executor's one.
TEST(MemoryTest, RunListsArePricedByTheShard) {
  const plan p(16, {.kind = engine::quadrant, .split_depth = 12});
  ASSERT_TRUE(p.uniform_work());
  // The plan's block table, and three bits per subproblem.
  const std::uint64_t bits = detail::plan_access::engine(p)->bytes() + 3 * ((p.size() + 63) / 64) * 8;
  EXPECT_EQ(run_lists_estimate(p), 8 * p.size() + bits);
  EXPECT_EQ(run_lists_estimate(p, {1, 4}), 8 * ((p.size() - 1 + 3) / 4) + bits);
  const plan rows(12, {.kind = engine::symmetric});
  EXPECT_GE(run_lists_estimate(rows, {0, 2}), 8 * rows.size());  // dealt out from a list of the whole plan
  EXPECT_GE(run_lists_estimate(rows), 34 * rows.size());         // and the plan's own list
}

// A row-by-row plan stops growing once its list passes the bound, before a
// deeper level multiplies it.
TEST(MemoryTest, RowPlanStopsAtTheBound) {
  for (const engine kind : {engine::mirror, engine::symmetric}) {
    EXPECT_THROW(plan(19, {.kind = kind, .split_depth = 6, .max_memory = std::uint64_t{1} << 20}), memory_limit_error)
        << to_string(kind);
    EXPECT_EQ(plan(12, {.kind = kind, .max_memory = std::uint64_t{1} << 20}).fingerprint(),
              plan(12, {.kind = kind}).fingerprint());  // not part of the plan
  }
}

// Under a tight bound the deepest split that fits: 1 MiB held Q(12), yet
// the automatic split refused n = 14 (its lists 1.5 MiB), so that verify's
// default range failed with --max-memory 1M; the rotation subproblems'
// lists count too (n = 30 at 7 MiB). The automatic plan is kept where it
// fits: a bound it fits in never changes a plan.
TEST(MemoryTest, FittingSplitDepthIsTheDeepestThatFits) {
  constexpr std::uint64_t tight = std::uint64_t{1} << 20;
  for (const engine kind : {engine::mirror, engine::symmetric}) {
    EXPECT_EQ(fitting_split_depth(12, kind), 0) << to_string(kind);
    EXPECT_EQ(fitting_split_depth(14, kind, std::uint64_t{1} << 30), 0) << to_string(kind);
    for (const auto& [n, bound] : {std::pair{14, tight}, std::pair{22, tight}, std::pair{30, 7 * tight}}) {
      const int depth = fitting_split_depth(n, kind, bound, 2);
      if (depth == 0) continue;  // the automatic split fits
      EXPECT_NO_THROW(plan_within_memory(n, {.kind = kind, .split_depth = depth}, bound, 2)) << n;
      EXPECT_THROW(plan_within_memory(n, {.kind = kind, .split_depth = depth + 1}, bound, 2), memory_limit_error) << n;
    }
    count_options o;
    o.kind = kind;
    o.threads = 2;
    o.max_memory = tight;
    o.split_depth = fitting_split_depth(14, kind, tight, 2);
    EXPECT_EQ(count(14, o).total, count(14, {.kind = kind, .threads = 2}).total) << to_string(kind);
  }
  EXPECT_GT(fitting_split_depth(14, engine::symmetric, tight, 2), 0);
  EXPECT_THROW(plan_within_memory(14, {.kind = engine::symmetric}, tight, 2), memory_limit_error);
  EXPECT_EQ(fastest_engine(14, tight), engine::symmetric);
}

// Where no engine fits, the one count() then refuses can build the plan
// asked: at n = 25 a split of 12 is past any row plan's size, so the
// quadrant engine's need is named, not the row plan's size cap.
TEST(MemoryTest, WhereNoneFitsTheRefusedEngineCanBuildThePlan) {
  const engine_choice c = fastest_engine_and_split(25, std::uint64_t{1} << 30, 2, 12);
  EXPECT_EQ(c.kind, engine::quadrant);
  EXPECT_EQ(c.split_depth, 12);
  try {
    static_cast<void>(count(25, {.threads = 2, .split_depth = 12, .max_memory = std::uint64_t{1} << 30}));
    FAIL() << "counted";
  } catch (const memory_limit_error& e) {
    EXPECT_NE(std::string(e.what()).find("the quadrant engine needs"), std::string::npos) << e.what();
  }
}

// The need a plan reports is a bound that fits: exactly it is taken, a
// byte less refused (the row engines refused it exactly, the quadrant
// engine took it; it may take less too, in a slower layout).
TEST(MemoryTest, ExactlyTheNeedFits) {
  for (const auto& [n, kind, depth] : {std::tuple{17, engine::symmetric, 5}, std::tuple{14, engine::mirror, 6}}) {
    SCOPED_TRACE(std::string(to_string(kind)) + " n = " + std::to_string(n));
    const planned_run run = plan_within_memory(n, {.kind = kind, .split_depth = depth}, 0, 2);
    const std::uint64_t need = memory_estimate(n, kind, 2, run.engine_memory) + run_lists_estimate(run.p);
    EXPECT_NO_THROW(static_cast<void>(plan_within_memory(n, {.kind = kind, .split_depth = depth}, need, 2)));
    EXPECT_THROW(static_cast<void>(plan_within_memory(n, {.kind = kind, .split_depth = depth}, need - 1, 2)),
                 memory_limit_error);
  }
}

// Without --max-memory a run may take half of what this process may use:
// the machine's memory, or its cgroup's limit where that is smaller (the
// other half is the system's and other programs').
TEST(MemoryTest, TheDefaultBoundIsHalfTheMemory) {
  std::uint64_t memory =
      static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(::sysconf(_SC_PAGE_SIZE));
  ASSERT_GT(memory, 0U);
  for (const char* limit_file : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(limit_file);
    std::uint64_t limit = 0;
    if (in >> limit && limit > 0) memory = std::min(memory, limit);  // "max": no limit
  }
  EXPECT_EQ(default_memory_limit(), memory / 2);
}

// A row plan is refused as its list grows past the bound, not once a whole
// level is built: the peak stays near the bound.
TEST(MemoryTest, RowPlanIsRefusedAsItPassesTheBound) {
  try {
    static_cast<void>(
        plan(28, {.kind = engine::symmetric, .split_depth = 5, .max_memory = 16 * (std::uint64_t{1} << 20)}));
    ADD_FAILURE() << "not refused";
  } catch (const memory_limit_error& e) {
    const std::string what = e.what();
    // One prefix past the 16 MiB bound (rounded up), not the whole level's 132 MiB.
    EXPECT_NE(what.find("takes 17 MiB already"), std::string::npos) << what;
    EXPECT_NE(what.find("at split depth 5"), std::string::npos) << what;
  }
  // Refused on the way to the depth asked for: that depth is named, and
  // the one the list passed the bound at.
  try {
    static_cast<void>(plan(16, {.kind = engine::symmetric, .split_depth = 7, .max_memory = std::uint64_t{1} << 20}));
    ADD_FAILURE() << "not refused";
  } catch (const memory_limit_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the plan of n = 16 at split depth 7 takes 1.1 MiB already at depth 5, more than"),
              std::string::npos)
        << what;
  }
  // The automatic plan names no depth it was not asked for (its deepest
  // split is n - 8), only the one it passed the bound at.
  try {
    static_cast<void>(plan(17, {.kind = engine::symmetric, .max_memory = 100000}));
    ADD_FAILURE() << "not refused";
  } catch (const memory_limit_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the automatic plan of n = 17 takes "), std::string::npos) << what;
    EXPECT_NE(what.find("already at depth 4, more than"), std::string::npos) << what;
    EXPECT_NE(what.find("choose a --split-depth under 4"), std::string::npos) << what;
    EXPECT_EQ(what.find("split depth 9"), std::string::npos) << what;
  }
}

// The engine gets what the lists leave of the bound; a bound the lists and
// the engine pass together is refused, naming both.
TEST(MemoryTest, RunMemoryLeavesTheEngineWhatTheListsDoNotTake) {
  const plan p(16, {.kind = engine::quadrant, .split_depth = 12});
  const std::uint64_t lists = run_lists_estimate(p);
  const std::uint64_t limit = std::uint64_t{1} << 30;
  EXPECT_EQ(check_run_memory(p, limit, 1), limit - lists);
  const std::uint64_t smallest = memory_estimate(16, engine::quadrant, 1, 1);
  try {
    check_run_memory(p, smallest + lists / 2, 1);  // the engine alone fits: a smaller split would too
    ADD_FAILURE() << "a bound smaller than the lists and the engine was accepted";
  } catch (const memory_limit_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the plan's " + std::to_string(p.size()) + " subproblems"), std::string::npos) << what;
    EXPECT_NE(what.find("choose a smaller --split-depth"), std::string::npos) << what;
  }
  // At depth 1, the least, a smaller one is no remedy, and not named.
  const plan least(16, {.kind = engine::quadrant, .split_depth = 1});
  try {
    check_run_memory(least, run_lists_estimate(least), 1);
    ADD_FAILURE() << "a bound no larger than the lists was accepted";
  } catch (const memory_limit_error& e) {
    EXPECT_EQ(std::string(e.what()).find("--split-depth"), std::string::npos) << e.what();
  }
  // The engine's smallest layout (priced for a bound it cannot keep) and the
  // lists: one byte less is refused.
  EXPECT_THROW(check_run_memory(p, smallest + lists - 1, 1), memory_limit_error);
  EXPECT_NO_THROW(check_run_memory(p, smallest + lists, 1));
}

// An engine refused alone is priced with its plan's lists, so that a bound
// raised to the engine's need is not refused again; a smaller split is no
// remedy there, and not named.
TEST(MemoryTest, AnEngineRefusedAloneIsPricedWithItsLists) {
  const plan_options options{.kind = engine::quadrant, .split_depth = 12};
  const plan p(16, options);
  const std::uint64_t smallest = memory_estimate(16, engine::quadrant, 1, 1);
  try {
    static_cast<void>(plan_within_memory(16, options, smallest - 1, 1));
    ADD_FAILURE() << "a bound below the engine's smallest layout was accepted";
  } catch (const memory_limit_error& e) {
    const std::string what = e.what();
    // The depth priced named: where a split is fitted, the user sees which.
    EXPECT_NE(what.find("and its lists (the plan's " + std::to_string(p.size()) + " subproblems at split depth 12)"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find(", together about "), std::string::npos) << what;
    EXPECT_EQ(what.find("--split-depth"), std::string::npos) << what;
  }
}

// Each thread keeps buffers of its own: where fewer threads fit, the
// refusal names the most that do, for the engine alone and with the lists.
TEST(MemoryTest, ARefusalNamesTheThreadsThatFit) {
  const std::uint64_t bound = std::uint64_t{20} << 20;
  const plan_options options{.kind = engine::quadrant};
  for (const bool with_lists : {false, true}) {
    const auto check = [&](int threads) {
      if (with_lists) {
        static_cast<void>(plan_within_memory(20, options, bound, threads));
      } else {
        check_memory(20, engine::quadrant, bound, threads);
      }
    };
    std::string what;
    try {
      check(16);
    } catch (const memory_limit_error& e) {
      what = e.what();
    }
    const std::size_t at = what.find("choose fewer --threads (at most ");
    ASSERT_NE(at, std::string::npos) << what;
    const int fit = std::stoi(what.substr(at + 32));
    ASSERT_GE(fit, 1);
    ASSERT_LT(fit, 16);
    EXPECT_NO_THROW(check(fit)) << fit;
    EXPECT_THROW(check(fit + 1), memory_limit_error) << fit;
  }
  // Where one thread does not fit either, fewer are no remedy.
  try {
    check_memory(20, engine::quadrant, std::uint64_t{1} << 20, 16);
    ADD_FAILURE() << "1 MiB was enough";
  } catch (const memory_limit_error& e) {
    EXPECT_EQ(std::string(e.what()).find("--threads"), std::string::npos) << e.what();
  }
  // The GPU engine drives each GPU from a thread of its own and refuses
  // fewer threads than GPUs: fewer threads alone led to that second
  // refusal. The bounds where fewer threads would fit, found by a walk up.
  int advised = 0;
  for (std::uint64_t bound = min_max_memory; bound <= (std::uint64_t{64} << 20); bound += std::uint64_t{16} << 10) {
    try {
      check_memory(14, engine::gpu, bound, 3);
      break;  // fits from here on
    } catch (const memory_limit_error& e) {
      const std::string what = e.what();
      if (what.find("fewer --threads") == std::string::npos) continue;
      ++advised;
      EXPECT_NE(what.find(", on as many GPUs at most: --devices), "), std::string::npos) << what;
    }
  }
  EXPECT_GT(advised, 0) << "no bound where fewer threads fit the GPU engine at n = 14";
}

// A refusal tells its parts apart, for a program that words its own
// advice: what() is the need, then each remedy in turn; the remedies name
// their kinds (a row plan's a smaller split and more memory, the tables'
// fewer threads where they fit, another engine, more memory).
TEST(MemoryTest, ARefusalsNeedAndRemediesAreItsWhat) {
  using remedy = memory_limit_error::remedy;
  const auto kinds = [](const memory_limit_error& e) {
    std::vector<remedy> out;
    for (const memory_limit_error::advice& a : e.remedies()) out.push_back(a.kind);
    return out;
  };
  try {
    check_memory(20, engine::quadrant, std::uint64_t{20} << 20, 16);
    ADD_FAILURE() << "20 MiB was enough";
  } catch (const memory_limit_error& e) {
    EXPECT_EQ(kinds(e), (std::vector{remedy::fewer_threads, remedy::other_engine, remedy::more_memory}));
    EXPECT_EQ(std::string(e.what()), e.need() + "; choose " + e.remedies()[0].words +
                                         ", another --engine, or raise "
                                         "--max-memory");
    EXPECT_TRUE(e.need().ends_with("allowed (--max-memory)")) << e.need();
    EXPECT_FALSE(e.shallower_split_helps());
  }
  try {
    static_cast<void>(plan(17, {.kind = engine::symmetric, .max_memory = 100000}));
    ADD_FAILURE() << "not refused";
  } catch (const memory_limit_error& e) {
    EXPECT_EQ(kinds(e), (std::vector{remedy::shallower_split, remedy::more_memory}));
    EXPECT_TRUE(e.advises(remedy::shallower_split));
    EXPECT_FALSE(e.advises(remedy::other_engine));
    EXPECT_EQ(std::string(e.what()), e.need() + "; choose a --split-depth under 4, or raise --max-memory");
  }
  const memory_limit_error own("in words of its own");
  EXPECT_TRUE(own.remedies().empty());
  EXPECT_EQ(own.need(), "in words of its own");
  EXPECT_EQ(std::string(own.what()), "in words of its own");
  const memory_limit_error one("needs more", {{remedy::more_memory, "raise the bound"}});
  EXPECT_EQ(std::string(one.what()), "needs more; raise the bound");
}

// A thread count or a shard no count would take is refused by the checks
// that price a plan, as check_memory refuses it, never priced as if it were
// a run.
TEST(MemoryTest, RunChecksRefuseThreadsAndShardsNoCountTakes) {
  const plan p(10);
  EXPECT_THROW(check_run_memory(p, 0, -3), std::invalid_argument);
  EXPECT_THROW(check_run_memory(p, 0, max_threads + 1), std::invalid_argument);
  EXPECT_THROW(check_run_memory(p, 0, 0, {.index = 5, .count = 2}), std::invalid_argument);
  EXPECT_THROW(check_plan_memory(p, 0, 0, {.index = 0, .count = 0}), std::invalid_argument);
  EXPECT_THROW(plan_within_memory(10, {}, 0, 0, {.index = 3, .count = 2}), std::invalid_argument);
  EXPECT_NO_THROW(check_run_memory(p, 0, 2, {.index = 1, .count = 2}));
}

// A refusal's two figures never read alike, however close they are: "about
// 12 MiB ... more than the 12 MiB allowed" told the user nothing.
TEST(MemoryTest, RefusalsTellTheNeedFromTheLimit) {
  EXPECT_EQ(format_bytes(12 << 20), "12 MiB");
  EXPECT_EQ(format_bytes(3u << 30), "3.0 GiB");
  EXPECT_EQ(format_bytes(300 << 10), "300 KiB");
  EXPECT_EQ(format_bytes(1000), "1000 bytes");
  EXPECT_EQ(format_bytes(1), "1 byte");
  // A negative count of digits is none, not printf's six.
  EXPECT_EQ(format_bytes(12345678, -1), format_bytes(12345678, 0));
  // Just under the next unit reads as the next one, never as 1024 of its own.
  EXPECT_EQ(format_bytes((1 << 20) - 1), "1 MiB");
  EXPECT_EQ(format_bytes((1 << 20) - 1, 2), "1.00 MiB");
  EXPECT_EQ(format_bytes((1 << 20) + 1, 0, byte_rounding::up), "2 MiB");
  EXPECT_EQ(format_bytes((1 << 30) - 1), "1.0 GiB");
  EXPECT_EQ(format_bytes((1 << 30) - (1 << 20), 0, byte_rounding::up), "1023 MiB");
  EXPECT_EQ(format_bytes((12 << 20) + 1, 4), "12582913 bytes");
  EXPECT_EQ(digits_to_tell(12 << 20, 12 << 20), 4);
  EXPECT_EQ(digits_to_tell(13 << 20, 12 << 20), 0);
  // Two digits of a need at least: 1.05 MiB is "1.1 MiB", not "2 MiB".
  EXPECT_EQ(digits_to_tell((1 << 20) + 50'000, 1 << 20), 1);
  EXPECT_EQ(format_bytes((1 << 20) + 50'000, 1, byte_rounding::up), "1.1 MiB");
  // A need is written rounded up: "needs at least 42 MiB" for 42.05 MiB was
  // refused when given back as the bound.
  constexpr std::uint64_t a_little_over_42 = (42 << 20) + 50'000;
  EXPECT_EQ(format_bytes(a_little_over_42), "42 MiB");
  EXPECT_EQ(format_bytes(a_little_over_42, 0, byte_rounding::up), "43 MiB");
  EXPECT_EQ(format_bytes(a_little_over_42, 1, byte_rounding::up), "42.1 MiB");
  EXPECT_EQ(format_bytes(42 << 20, 0, byte_rounding::up), "42 MiB");  // exact stays
  EXPECT_EQ(format_bytes((3ULL << 30) + 1, 0, byte_rounding::up), "3.1 GiB");
  EXPECT_EQ(format_bytes((300 << 10) + 1, 0, byte_rounding::up), "301 KiB");
  // Past GiB, the larger units: "17179868160.0 GiB" read as nothing.
  EXPECT_EQ(format_bytes(std::uint64_t{64} << 40), "64.0 TiB");
  EXPECT_EQ(format_bytes((std::uint64_t{1} << 40) - 1), "1.0 TiB");
  EXPECT_EQ(format_bytes(std::uint64_t{3} << 50), "3.0 PiB");
  EXPECT_EQ(format_bytes(UINT64_MAX), "16.0 EiB");
  EXPECT_EQ(digits_to_tell(a_little_over_42, 42 << 20), 0);
  const std::uint64_t need = memory_estimate(18, engine::quadrant, 1, 1);
  for (const std::uint64_t limit : {need - 1, need - 1000, need - (std::uint64_t{1} << 19), need / 2}) {
    try {
      check_memory(18, engine::quadrant, limit, 1);
      ADD_FAILURE() << "accepted " << limit << " for " << need;
    } catch (const memory_limit_error& e) {
      const std::string what = e.what();
      const std::size_t about = what.find("needs about ") + 12;
      const std::string need_text = what.substr(about, what.find(" for n") - about);
      const std::size_t than = what.find("more than the ") + 14;
      const std::string limit_text = what.substr(than, what.find(" allowed") - than);
      EXPECT_NE(need_text, limit_text) << what;
    }
  }
}

// count() refuses before it allocates the lists or creates a journal.
TEST(MemoryTest, CountRefusesListsPastTheBoundBeforeTheJournal) {
  const fs::path journal = fs::temp_directory_path() / ("nqueens-memory-" + std::to_string(::getpid()) + ".ckpt");
  fs::remove(journal);
  const plan p(16, {.kind = engine::quadrant, .split_depth = 12});
  count_options o;
  o.kind = engine::quadrant;
  o.split_depth = 12;
  o.threads = 1;
  o.checkpoint = journal.string();
  o.max_memory = memory_estimate(16, engine::quadrant, 1, 1) + run_lists_estimate(p) / 2;  // the engine alone fits
  EXPECT_THROW(count(16, o), memory_limit_error);
  EXPECT_FALSE(fs::exists(journal));
  o.max_memory = std::uint64_t{1} << 30;
  EXPECT_EQ(count(16, o).total, 14772512U);
  fs::remove(journal);
}

// What no count could run is refused, not priced.
TEST(MemoryTest, CheckMemoryRefusesWhatNoCountRuns) {
  EXPECT_THROW(check_memory(20, static_cast<engine>(9), 0), std::invalid_argument);
  EXPECT_THROW(check_memory(20, engine::quadrant, 0, -1), std::invalid_argument);
  EXPECT_THROW(check_memory(20, engine::quadrant, 0, max_threads + 1), std::invalid_argument);
  EXPECT_THROW(check_memory(29, engine::quadrant, 0), std::invalid_argument);
  EXPECT_NO_THROW(check_memory(20, engine::quadrant, std::uint64_t{1} << 40, max_threads));
}

TEST(FastestEngineTest, AutoPicksOnlyRegisteredEnginesThatTakeTheBoard) {
  for (int n = 1; n <= 28; ++n) {
    const engine e = fastest_engine(n);
    EXPECT_TRUE(is_registered(e));
    EXPECT_LE(n, engine_max_board_size(e)) << "n = " << n;
  }
}

// A flag already set is heard at once, for every n: at n = 20 the choice
// builds no plan that would look at it (only the largest boards' do).
TEST(FastestEngineTest, AFlagSetBeforeTheChoiceIsHeard) {
  const std::atomic<bool> stopped{true};
  for (const int n : {8, 20, 27}) {
    EXPECT_THROW(static_cast<void>(fastest_engine(n, 0, 0, 0, &stopped)), run_cancelled) << n;
    EXPECT_THROW(static_cast<void>(fitting_split_depth(n, engine::quadrant, 0, 0, &stopped)), run_cancelled) << n;
  }
}

TEST(FastestEngineTest, SharedPlansPickAsMuchMemoryWould) {
  for (int n = 1; n <= 27; ++n) {
    EXPECT_EQ(shared_plan_engine(n), fastest_engine(n, std::uint64_t{1} << 50)) << n;
  }
  EXPECT_NE(fastest_engine(18, std::uint64_t{1} << 20), shared_plan_engine(18));
}

TEST(FastestEngineTest, QuadrantFrom16WhenItFits) {
  constexpr std::uint64_t plenty = std::uint64_t{1} << 50;
  EXPECT_EQ(fastest_engine(18, plenty), engine::quadrant);
  EXPECT_EQ(fastest_engine(20, plenty), engine::quadrant);
  EXPECT_EQ(fastest_engine(18, std::uint64_t{1} << 20), engine::symmetric);  // tables do not fit
  EXPECT_EQ(fastest_engine(17, plenty), engine::quadrant);
  EXPECT_EQ(fastest_engine(19, plenty), engine::quadrant);
  EXPECT_EQ(fastest_engine(16, plenty), engine::quadrant);
  EXPECT_EQ(fastest_engine(15, plenty), engine::symmetric);
  EXPECT_EQ(fastest_engine(8, plenty), engine::symmetric);
  // Up to 28 in bounded memory (docs/reach.md: 30x the symmetric engine's speed at n = 24), then past its range.
  EXPECT_EQ(fastest_engine(26, plenty), engine::quadrant);
  EXPECT_EQ(fastest_engine(28, std::uint64_t{8} << 30), engine::quadrant);
  EXPECT_EQ(fastest_engine(29, plenty), engine::symmetric);
}

// Auto picks the fastest engine whose whole count fits, the plan's lists
// included: where the quadrant engine's tables fit the bound but not beside
// its plan's lists (n = 20 in 13 MiB; n = 23 anywhere from 67 to 99 MiB),
// the symmetric engine, not a refusal. Guards each bound from the quadrant
// engine's least layout to past what it and its lists need together.
TEST(FastestEngineTest, PicksTheFastestEngineWhoseWholeCountFits) {
  constexpr int threads = 2;
  const auto fits = [&](int n, engine e, std::uint64_t limit, int split_depth) {
    try {
      static_cast<void>(plan_within_memory(n, {.kind = e, .split_depth = split_depth}, limit, threads));
      return true;
    } catch (const memory_limit_error&) {
      return false;
    }
  };
  int between = 0;  // bounds that fit the quadrant engine's tables but not its lists too
  for (const auto& [n, split_depth] : {std::pair{16, 0}, {18, 0}, {20, 0}, {18, 12}}) {
    const std::uint64_t least = memory_estimate(n, engine::quadrant, threads, 1);
    const std::uint64_t lists = run_lists_estimate(plan(n, {.kind = engine::quadrant, .split_depth = split_depth}));
    for (std::uint64_t limit = least - least / 8; limit <= least + 2 * lists; limit += lists / 8) {
      const engine picked = fastest_engine(n, limit, threads, split_depth);
      const bool quadrant_fits = fits(n, engine::quadrant, limit, split_depth);
      EXPECT_EQ(picked, quadrant_fits ? engine::quadrant : engine::symmetric) << n << " in " << limit;
      // At split depth 12 the symmetric engine's own list passes these bounds: the count then refuses.
      if (!quadrant_fits && split_depth == 0) EXPECT_TRUE(fits(n, engine::symmetric, limit, 0)) << n << " in " << limit;
      if (!quadrant_fits && memory_estimate(n, engine::quadrant, threads, limit) <= limit) ++between;
    }
  }
  EXPECT_GT(between, 0);
  EXPECT_EQ(fastest_engine(20, std::uint64_t{13} << 20, threads), engine::symmetric);
  EXPECT_NO_THROW(check_memory(20, engine::quadrant, std::uint64_t{13} << 20, threads));
}

}  // namespace
}  // namespace nqueens
