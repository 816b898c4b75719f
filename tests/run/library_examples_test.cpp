// docs/library.md's longer examples, compiled and run (smaller boards, a
// journal in a directory of its own): an example that no longer builds, or
// no longer gives the right count, fails here.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "nqueens/nqueens.hpp"

namespace nqueens {
namespace {

namespace fs = std::filesystem;

// "A driver of its own": both shards through one context each, a journal
// each, merged into the published count.
TEST(LibraryExamplesTest, ADriverOfItsOwnCountsEachShardIntoItsJournal) {
  const fs::path dir = fs::temp_directory_path() / ("nqueens-examples-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const plan p(14, {.kind = engine::quadrant});
  std::vector<count_result> parts;
  for (int shard = 0; shard < 2; ++shard) {
    const shard_spec mine{.index = shard, .count = 2};
    const std::string path = (dir / ("q14-" + std::to_string(shard) + ".journal")).string();
    const run_context context(p, std::nullopt, 2);
    uint128 counted = 0;
    {
      checkpoint_journal journal(path, p, mine);
      std::vector<std::size_t> todo;
      for (const std::size_t i : shard_indices(p, mine)) {
        if (!journal.holds(i)) todo.push_back(i);
      }
      execute_options o;
      o.threads = 2;
      o.on_finished = [&](std::size_t i, const subproblem_count& c) { journal.record(i, c); };
      const execution run = execute(p, todo, o, &context);
      journal.flush();
      journal.mark_complete();
      counted = reduce(run).total;
    }
    // Opened again, the journal holds the whole shard: nothing left to do.
    const checkpoint_journal again(path, p, mine);
    EXPECT_TRUE(again.complete());
    for (const std::size_t i : shard_indices(p, mine)) EXPECT_TRUE(again.holds(i)) << i;
    const totals sums = again.held();  // what a resumed driver starts from (here: all of it)
    EXPECT_EQ(sums.total, counted);
    count_result part;
    part.n = 14;
    part.kind = engine::quadrant;
    part.subproblems = p.size();
    part.split_depth = p.split_depth();
    part.plan_fingerprint = p.fingerprint();
    part.shard = mine;
    part.shard_subproblems = part.finished = shard_indices(p, mine).size();
    part.total = sums.total;
    part.symmetric_180 = sums.symmetric_180;
    part.symmetric_90 = sums.symmetric_90;
    parts.push_back(part);
  }
  const count_result whole = merge(parts);
  EXPECT_TRUE(whole.check.verified());
  EXPECT_EQ(whole.total, *published_total(14));
  fs::remove_all(dir);
}

// "What a count will cost" and "Thread scaling", at sizes a test affords.
TEST(LibraryExamplesTest, EstimateAndScalingGiveTheirFigures) {
  const cost_estimate e = estimate_cost(plan(14, {.kind = engine::quadrant}), {.threads = 2, .seconds = 0.5});
  EXPECT_GT(e.thread_seconds, 0.0);
  EXPECT_GT(e.wall_seconds(16), 0.0);
  EXPECT_GT(e.total, 0.0);
  const std::vector<int> threads = {1, 2};
  const scaling_result s = measure_scaling(12, threads, 1);
  ASSERT_EQ(s.rows.size(), 2U);
  EXPECT_TRUE(s.check.verified());
  EXPECT_DOUBLE_EQ(s.rows[0].speedup, 1.0);
}

}  // namespace
}  // namespace nqueens
