#include "nqueens/memory.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "engines/engine.hpp"
#include "nqueens/count.hpp"
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

// The engine gets what the lists leave of the bound; a bound the lists and
// the engine pass together is refused, naming both.
TEST(MemoryTest, RunMemoryLeavesTheEngineWhatTheListsDoNotTake) {
  const plan p(16, {.kind = engine::quadrant, .split_depth = 12});
  const std::uint64_t lists = run_lists_estimate(p);
  const std::uint64_t limit = std::uint64_t{1} << 30;
  EXPECT_EQ(check_run_memory(p, limit, 1), limit - lists);
  try {
    check_run_memory(p, lists, 1);
    ADD_FAILURE() << "a bound no larger than the lists was accepted";
  } catch (const memory_limit_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the plan's " + std::to_string(p.size()) + " subproblems"), std::string::npos) << what;
    EXPECT_NE(what.find("choose a smaller --split-depth"), std::string::npos) << what;
  }
  // The engine's smallest layout (priced for a bound it cannot keep) and the
  // lists: one byte less is refused.
  const std::uint64_t smallest = memory_estimate(16, engine::quadrant, 1, 1);
  EXPECT_THROW(check_run_memory(p, smallest + lists - 1, 1), memory_limit_error);
  EXPECT_NO_THROW(check_run_memory(p, smallest + lists, 1));
}

// A refusal's two figures never read alike, however close they are: "about
// 12 MiB ... more than the 12 MiB allowed" told the user nothing.
TEST(MemoryTest, RefusalsTellTheNeedFromTheLimit) {
  EXPECT_EQ(format_bytes(12 << 20), "12 MiB");
  EXPECT_EQ(format_bytes(3u << 30), "3.0 GiB");
  EXPECT_EQ(format_bytes(300 << 10), "300 KiB");
  EXPECT_EQ(format_bytes(1000), "1000 bytes");
  EXPECT_EQ(format_bytes((12 << 20) + 1, 4), "12582913 bytes");
  EXPECT_EQ(digits_to_tell(12 << 20, 12 << 20), 4);
  EXPECT_EQ(digits_to_tell(13 << 20, 12 << 20), 0);
  // A need is written rounded up: "needs at least 42 MiB" for 42.05 MiB was
  // refused when given back as the bound.
  constexpr std::uint64_t a_little_over_42 = (42 << 20) + 50'000;
  EXPECT_EQ(format_bytes(a_little_over_42), "42 MiB");
  EXPECT_EQ(format_bytes(a_little_over_42, 0, byte_rounding::up), "43 MiB");
  EXPECT_EQ(format_bytes(a_little_over_42, 1, byte_rounding::up), "42.1 MiB");
  EXPECT_EQ(format_bytes(42 << 20, 0, byte_rounding::up), "42 MiB");  // exact stays
  EXPECT_EQ(format_bytes((3ULL << 30) + 1, 0, byte_rounding::up), "3.1 GiB");
  EXPECT_EQ(format_bytes((300 << 10) + 1, 0, byte_rounding::up), "301 KiB");
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

}  // namespace
}  // namespace nqueens
