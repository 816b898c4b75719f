// A cancel that comes while a subproblem is being counted: every engine
// stops it within the subproblem (its count is lost, never partial), the
// executor and the estimate leave it unfinished, and the parts an engine
// splits a subproblem into to look at the flag add up to the whole.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engines/engine_definition.hpp"
#include "engines/row_engine.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/estimate.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"

namespace nqueens {
namespace {

using namespace std::chrono_literals;

// The subproblem of `p` with the most estimated work.
std::size_t heaviest(const plan& p) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < p.size(); ++i) {
    if (p.estimated_work(i) > p.estimated_work(best)) best = i;
  }
  return best;
}

// Sets `flag` after `delay` on a thread of its own.
std::future<void> set_after(std::atomic<bool>& flag, std::chrono::milliseconds delay) {
  return std::async(std::launch::async, [&flag, delay] {
    std::this_thread::sleep_for(delay);
    flag = true;
  });
}

// A context asked for by a caller already stopped is refused on every
// engine and on a rotational plan, as the quadrant engine refuses it before
// its tables: one that needs no tables is not built regardless.
TEST(CancelTest, AContextIsRefusedOnceTheFlagIsSet) {
  const std::atomic<bool> stopped{true};
  for (const engine kind : all_engines()) {  // an engine added later too
    SCOPED_TRACE(std::string(to_string(kind)));
    EXPECT_THROW(run_context(plan(12, {.kind = kind}), std::nullopt, 1, &stopped), run_cancelled);
  }
  EXPECT_THROW(run_context(plan(12, {.scope = plan_scope::rotational}), std::nullopt, 1, &stopped), run_cancelled);
  const std::atomic<bool> going{false};
  EXPECT_NO_THROW(run_context(plan(12, {.kind = engine::symmetric}), std::nullopt, 1, &going));
}

// With the flag, a row engine splits its searches by the next rows while
// many are open; with 3 left to each search instead of 16, every subproblem
// of n = 13 is split, and each count (its classes too) is the search's.
TEST(CancelTest, RowEnginesPartsAddUpToTheirSearch) {
  const std::atomic<bool> never{false};
  for (const engine kind : {engine::symmetric, engine::mirror}) {
    for (const int depth : {1, 2}) {
      const plan p(13, {.kind = kind, .split_depth = depth});
      const run_context whole(p, isa::portable);
      const auto split = detail::make_row_context(*detail::plan_access::engine(p), isa::portable, 3);
      for (std::size_t i = 0; i < p.engine_subproblems(); ++i) {
        ASSERT_EQ(split->solve(i, &never), whole.solve(i)) << to_string(kind) << ", depth " << depth << ", " << i;
      }
    }
  }
}

// Subproblems of seconds to minutes on one thread, the flag set 100 ms in:
// each engine throws subproblem_cancelled. n = 21 at split depth 1 for the
// row engines (minutes); for the quadrant engine, n = 24's subproblem
// 197986, its quarters built per subproblem in 64 MiB (the slowest of 40
// draws of `nqueens_reach_sample 24 40 1 7 quadrant 67108864 1`: 5 s here).
// Without the looks, each would run to its end.
TEST(CancelTest, EachEngineStopsALongSubproblem) {
  struct long_case {
    engine kind;
    int n;
    int split_depth;
    std::uint64_t max_memory;
    std::optional<std::size_t> index;  // else the heaviest by estimated_work
  };
  const long_case cases[] = {long_case{engine::symmetric, 21, 1, 0, {}}, long_case{engine::mirror, 21, 1, 0, {}},
                             long_case{engine::quadrant, 24, 0, std::uint64_t{64} << 20, 197986}};
  // Every engine has its case: one added later fails here until it names a
  // subproblem long enough to stop (the GPU engine's rounds are stopped in
  // GpuRoundsTest, a round at a time).
  for (const engine kind : all_engines()) {
    if (kind == engine::gpu) continue;
    EXPECT_TRUE(std::ranges::any_of(cases, [&](const long_case& c) { return c.kind == kind; }))
        << "no long subproblem of engine " << to_string(kind) << " is stopped here: add one to cases";
  }
  for (const long_case c : cases) {
    SCOPED_TRACE(to_string(c.kind));
    const plan p(c.n, {.kind = c.kind, .split_depth = c.split_depth});
    const run_context context(p, std::nullopt, 1, nullptr, c.max_memory);
    std::atomic<bool> cancel{false};
    const std::size_t index = c.index.value_or(heaviest(p));
    auto setter = set_after(cancel, 100ms);
    EXPECT_THROW(context.solve(index, &cancel), subproblem_cancelled);
    setter.get();
  }
}

// The executor leaves a subproblem cancelled midway unfinished and never
// reports it: two subproblems of minutes on two threads, cancelled 100 ms in.
TEST(CancelTest, ExecuteLeavesCancelledSubproblemsUnfinished) {
  const plan p(21, {.kind = engine::symmetric, .split_depth = 1});
  std::vector<std::size_t> order(p.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + 2, order.end(),
                    [&](std::size_t a, std::size_t b) { return p.estimated_work(a) > p.estimated_work(b); });
  const std::vector<std::size_t> two(order.begin(), order.begin() + 2);
  std::atomic<bool> cancel{false};
  std::atomic<int> reported{0};
  execute_options options;
  options.threads = 2;
  options.cancel = &cancel;
  options.on_finished = [&](std::size_t, const subproblem_count&) { ++reported; };
  auto setter = set_after(cancel, 100ms);
  const execution run = execute(p, two, options);
  setter.get();
  EXPECT_EQ(reported.load(), 0);
  EXPECT_EQ(std::count(run.finished.begin(), run.finished.end(), 1), 0);
}

// The estimate's draws stop too: a plan of minute-long subproblems,
// cancelled 100 ms into sampling, ends as a cancel (run_cancelled).
TEST(CancelTest, EstimateStopsInsideADraw) {
  const plan p(21, {.kind = engine::mirror, .split_depth = 1});
  std::atomic<bool> cancel{false};
  estimate_options options;
  options.threads = 2;
  options.seconds = 3600;
  options.cancel = &cancel;
  auto setter = set_after(cancel, 100ms);
  EXPECT_THROW((void)estimate_cost(p, options), run_cancelled);
  setter.get();
}

}  // namespace
}  // namespace nqueens
