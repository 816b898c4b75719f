#include "nqueens/execute.hpp"

#include <gtest/gtest.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "nqueens/count.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/threads.hpp"

namespace nqueens {
namespace {

TEST(ExecuteTest, DisjointSubsetsAddUpToTheWhole) {
  const plan p(13);
  std::vector<std::size_t> even, odd;
  for (std::size_t i = 0; i < p.size(); ++i) (i % 2 == 0 ? even : odd).push_back(i);
  const totals a = reduce(execute(p, even, {.threads = 2}));
  const totals b = reduce(execute(p, odd, {.threads = 1}));
  EXPECT_FALSE(a.complete());
  EXPECT_EQ(a.finished, even.size());
  EXPECT_EQ(a.total + b.total, *published_total(13));
  EXPECT_EQ(a.unique + b.unique, *published_unique(13));
}

// Counting began where a subproblem was handed out, as execute.hpp says:
// not for an empty list, with or without the caller's context.
TEST(ExecuteTest, CountingBeganOnlyWhereThereWasSomethingToCount) {
  const plan p(10);
  const run_context context(p);
  const std::vector<std::size_t> none, first{0};
  EXPECT_FALSE(execute(p, none).counting_began);
  EXPECT_FALSE(execute(p, none, {}, &context).counting_began);
  EXPECT_TRUE(execute(p, first).counting_began);
  EXPECT_TRUE(execute(p, first, {}, &context).counting_began);
}

// An execution's CPU time is every counting thread's, not the caller's
// alone: on 4 threads, within the process's CPU time over the call and
// most of it (the workers' wait for work after the last aside).
TEST(ExecuteTest, CpuSecondsAreEveryCountingThreads) {
  const auto process_cpu = [] {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  const plan p(15);
  const double before = process_cpu();
  const execution r = execute(p, {.threads = 4});
  const double spent = process_cpu() - before;
  ASSERT_EQ(reduce(r).total, *published_total(15));
  EXPECT_LE(r.cpu_seconds, spent + 0.01);
  EXPECT_GE(r.cpu_seconds, 0.7 * spent) << spent;
}

// A rotational plan builds no engine's tables, whatever engine it names:
// run and priced within the least bound (the quadrant engine's tables take
// 8.9 MiB at n = 12), and at n = 31, past that engine's boards.
TEST(ExecuteTest, ARotationalPlanIsPricedByItsListsAlone) {
  const plan twelve(12, {.kind = engine::quadrant, .scope = plan_scope::rotational});
  const totals t = reduce(execute(twelve, {.threads = 1, .max_memory = min_max_memory}));
  EXPECT_TRUE(t.complete());
  EXPECT_EQ(t.symmetric_180, *published_symmetric_180(12));
  EXPECT_EQ(t.symmetric_90, *published_symmetric_90(12));
  EXPECT_LE(check_plan_memory(twelve, min_max_memory, 1), min_max_memory);
  const plan past(31, {.kind = engine::quadrant, .scope = plan_scope::rotational});
  const std::vector<std::size_t> first = {0};
  EXPECT_EQ(reduce(execute(past, first, {.threads = 1})).finished, 1U);
}

TEST(ExecuteTest, CancellationStopsHandingOutWork) {
  const plan p(14);
  std::atomic<bool> cancel{false};
  std::atomic<int> seen{0};
  execute_options options;
  options.threads = 1;
  options.cancel = &cancel;
  options.on_finished = [&](std::size_t, const subproblem_count&) {
    if (++seen == 10) cancel = true;
  };
  const execution run = execute(p, options);
  const totals t = reduce(run);
  EXPECT_EQ(t.finished, 10u);
  EXPECT_FALSE(t.complete());
  EXPECT_LT(t.total, *published_total(14));
}

TEST(ExecuteTest, ReportsEverySubproblemOnce) {
  const plan p(12);
  std::vector<std::atomic<int>> reported(p.size());
  execute_options options;
  options.threads = 3;
  const run_context context(p);
  options.on_finished = [&](std::size_t index, const subproblem_count& c) {
    ++reported[index];
    EXPECT_EQ(c, context.solve(index));
  };
  const execution run = execute(p, options);
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(reported[i].load(), 1) << i;
    EXPECT_EQ(run.finished[i], 1) << i;
  }
}

// What on_finished throws stops the run and comes out of execute(), as
// execute.hpp says: no further subproblem is handed out. On one thread
// none is reported after the throw. On two, the other thread reports what
// it took before the cancel reached it, as many as it solves while the
// throwing thread unwinds: a bound on them alone would fail whenever a
// loaded machine stalls that thread (it did, once in a suite run with
// every core busy). So each report after the throw takes 20 ms: the
// defect, a run that goes on to its end, shows unless the throwing thread
// stalls for half a minute (and costs that long only where it is there).
TEST(ExecuteTest, AnExceptionFromOnFinishedEndsTheRun) {
  const plan p(13);
  ASSERT_GT(p.size(), 1000U);
  for (const int threads : {1, 2}) {
    std::atomic<int> calls{0};
    execute_options options;
    options.threads = threads;
    options.on_finished = [&](std::size_t, const subproblem_count&) {
      const int call = ++calls;
      if (call == 5) throw std::length_error("from on_finished");
      if (call > 5) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    };
    EXPECT_THROW(execute(p, options), std::length_error) << threads << " threads";
    if (threads == 1) {
      EXPECT_EQ(calls.load(), 5);
    } else {
      EXPECT_LT(calls.load(), static_cast<int>(p.size() / 2)) << "the run went on after the throw";
    }
  }
}

TEST(ExecuteTest, RejectsBadThreadCountsAndIndices) {
  const plan p(8);
  EXPECT_THROW(execute(p, {.threads = -1}), std::invalid_argument);
  EXPECT_THROW(execute(p, {.threads = max_threads + 1}), std::invalid_argument);
  const std::vector<std::size_t> outside{p.size()};
  EXPECT_THROW(execute(p, outside), std::invalid_argument);
  const std::vector<std::size_t> twice{0, 1, 0};
  EXPECT_THROW(execute(p, twice), std::invalid_argument);
  // A few indices of a large plan are checked sorted, not by a bit each:
  // the same refusals.
  const plan large(13);
  ASSERT_GT(large.size(), 64u * 3);
  const std::vector<std::size_t> few_outside{1, large.size(), 2}, few_twice{5, 9, 5};
  EXPECT_THROW(execute(large, few_outside), std::invalid_argument);
  EXPECT_THROW(execute(large, few_twice), std::invalid_argument);
  const std::vector<std::size_t> few{7, 3, 11};
  const execution done = execute(large, few);
  EXPECT_EQ(std::count(done.finished.begin(), done.finished.end(), 1), 3);
}

TEST(RunContextTest, IsReusedAcrossExecutionsAndRefusesAnotherPlan) {
  const plan p(12, {.kind = engine::quadrant});
  const run_context context(p, std::nullopt, 2);
  std::vector<std::size_t> first, second;
  for (std::size_t i = 0; i < p.size(); ++i) (i % 2 == 0 ? first : second).push_back(i);
  const execution a = execute(p, first, {.threads = 2}, &context);
  const execution b = execute(p, second, {.threads = 1}, &context);
  uint128 total = 0;
  for (const execution* run : {&a, &b}) {
    for (std::size_t k = 0; k < run->indices.size(); ++k) {
      EXPECT_EQ(run->indices[k], (run == &a ? first : second)[k]);
      total += run->counts[k].total;
    }
  }
  EXPECT_EQ(total, *published_total(12));
  EXPECT_EQ(a.kernels, context.kernels());
  EXPECT_THROW(execute(plan(12), first, {}, &context), std::invalid_argument);
  EXPECT_THROW(context.solve(p.size()), std::out_of_range);
}

// count() refuses GPU options for an engine that counts on the CPU; a
// context (and execute() and estimate_cost(), which build one) does too,
// rather than count on the CPU as if they had not been given.
TEST(RunContextTest, RefusesGpuOptionsForAnEngineOnTheCpu) {
  const plan p(10, {.kind = engine::quadrant});
  EXPECT_THROW(run_context(p, std::nullopt, 1, nullptr, 0, {.devices = "0"}), std::invalid_argument);
  EXPECT_THROW(run_context(p, std::nullopt, 1, nullptr, 0, {.memory = 1u << 30}), std::invalid_argument);
  EXPECT_THROW(execute(p, {.threads = 1, .gpu = {.devices = "all"}}), std::invalid_argument);
  EXPECT_NO_THROW(run_context(p, std::nullopt, 1, nullptr, 0, {}));
}

// A batch that interleaves the engine's subproblems with the rotation
// tasks at the plan's end (the GPU engine counts its own in calls of
// several, the rotation tasks one by one) gives each index its own count,
// as one solve() each does, in whatever order they are listed.
TEST(RunContextTest, ABatchMixingEngineAndRotationTasksCountsEachInPlace) {
  for (const engine e : {engine::gpu, engine::quadrant, engine::symmetric}) {
    const plan p(10, {.kind = e});
    ASSERT_GT(p.size(), p.engine_subproblems()) << to_string(e);
    const run_context context(p, std::nullopt, 1);
    const std::size_t last = p.size() - 1, first_rotation = p.engine_subproblems();
    const std::vector<std::size_t> indices = {last, 0, 1, first_rotation, 2, last - 1, 3, 4};
    std::vector<subproblem_count> counts(indices.size());
    context.solve(indices, counts);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      EXPECT_EQ(counts[k], context.solve(indices[k])) << to_string(e) << ", index " << indices[k];
    }
  }
}

}  // namespace
}  // namespace nqueens
