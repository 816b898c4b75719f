#include "nqueens/estimate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/join_model/quadrant_memory.hpp"
#include "nqueens/count.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/threads.hpp"
#include "support/axes.hpp"

namespace nqueens {
namespace {

// A bound on the draws stops these estimates, never the time: an hour is
// the default 10 s set out of reach, which a loaded or emulated machine
// (qemu-aarch64 beside other work took 32 s for one test) would reach first.
constexpr double hour = 3600;

// The sample's own Q(n) is the check that it samples the plan fairly: every
// engine's projection lies within 4 of its standard errors of the published
// count (the same draws every time: a fixed seed and number of runs). A plan
// of fewer blocks than that is counted whole: exact.
TEST(EstimateTest, ProjectsQWithinItsStatedError) {
#ifdef NQUEENS_SANITIZED  // 21 s under ASan with n = 16's draws; the same paths run at 13
  const std::vector<int> boards = {10, 13};
#else
  const std::vector<int> boards = {10, 13, 16};
#endif
  for (const engine e : testing::registered_engines()) {
    for (const int n : boards) {
      SCOPED_TRACE(std::string(to_string(e)) + " n = " + std::to_string(n));
      const plan p(n, {.kind = e});
      const cost_estimate c =
          estimate_cost(p, {.threads = 2, .seconds = 3600, .max_runs = 400, .target_error = 0, .seed = 7});
      const auto published = static_cast<double>(*published_total(n));
      EXPECT_EQ(c.subproblems, p.size());
      EXPECT_GT(c.thread_seconds, 0);
      EXPECT_EQ(c.threads, 2);
      // The build's parts add up to what it took here, and project from there.
      EXPECT_GE(c.setup_serial_seconds, 0);
      EXPECT_LE(c.setup_serial_seconds, c.setup_seconds);
      EXPECT_NEAR(c.setup_serial_seconds + c.setup_parallel_seconds / 2, c.setup_seconds, 1e-9);
      EXPECT_NEAR(c.wall_seconds(2), c.setup_seconds + c.thread_seconds / 2, 1e-9);
      EXPECT_NEAR(c.wall_seconds(4), c.setup_serial_seconds + (c.setup_parallel_seconds + c.thread_seconds) / 4, 1e-12);
      if (c.ended == estimate_end::exhausted) {
        EXPECT_LE(c.runs, 400u);
        EXPECT_EQ(c.sampled, p.size());
        EXPECT_EQ(c.total, published);
        EXPECT_EQ(c.total_error, 0);
        EXPECT_EQ(c.thread_seconds_error, 0);
        continue;
      }
      EXPECT_EQ(c.ended, estimate_end::runs);
      EXPECT_EQ(c.runs, 400u);
      // The engine's subproblems all drawn, the rotation tasks not (their
      // solutions add nothing to Q(n)): Q exact, no error.
      if (c.total_error == 0) EXPECT_EQ(c.sampled - c.rotation_sampled, p.engine_subproblems());
      EXPECT_LE(std::abs(c.total - published), 4 * c.total_error) << c.total << " +- " << c.total_error;
      EXPECT_LT(c.total_error, 0.5 * published);  // 400 draws say something
      EXPECT_GE(c.thread_seconds_error, 0);
    }
  }
}

// One draw of many has no spread to measure an error by: the errors are
// unknown (NaN), never a confident 0; so is a stratum not drawn at all (the
// rotation tasks, which take the second and third draws). Two draws of
// each measure.
TEST(EstimateTest, OneDrawLeavesTheErrorUnknown) {
  const plan p(13);
  for (const std::size_t runs : {1, 2, 3}) {
    const cost_estimate c = estimate_cost(p, {.threads = 1, .seconds = hour, .max_runs = runs, .target_error = 0});
    ASSERT_EQ(c.runs, runs);
    EXPECT_EQ(c.rotation_runs, runs - 1);
    ASSERT_NE(c.ended, estimate_end::exhausted);
    EXPECT_TRUE(std::isnan(c.total_error)) << runs << " draws";
    EXPECT_TRUE(std::isnan(c.thread_seconds_error)) << runs << " draws";
    EXPECT_GT(c.thread_seconds, 0);
  }
  const cost_estimate four = estimate_cost(p, {.threads = 1, .seconds = hour, .max_runs = 4, .target_error = 0});
  EXPECT_EQ(four.rotation_runs, 2U);
  EXPECT_FALSE(std::isnan(four.total_error));
  EXPECT_FALSE(std::isnan(four.thread_seconds_error));
}

// A build's serial part is paid whole on any number of cores, its parallel
// part is spread over them, as the count's own thread time is: 16 cores do
// not divide a serial second (an estimate that added this run's whole build
// to the 16-core time projected 10.4x where 16 cores measured 13.3x).
TEST(EstimateTest, ProjectsTheBuildsSerialPartWholeAndItsParallelPartSpread) {
  cost_estimate c;
  c.threads = 2;
  c.setup_serial_seconds = 1;
  c.setup_parallel_seconds = 6;
  c.setup_seconds = 1 + 6.0 / 2;
  c.thread_seconds = 90;
  EXPECT_DOUBLE_EQ(c.wall_seconds(2), c.setup_seconds + 45);
  EXPECT_DOUBLE_EQ(c.wall_seconds(16), 1 + 96.0 / 16);
  EXPECT_DOUBLE_EQ(c.wall_seconds(1), 1 + 96.0);
  // 0 threads is the hardware's, as everywhere else: not the build alone.
  EXPECT_DOUBLE_EQ(c.wall_seconds(0), 1 + 96.0 / hardware_threads());
  EXPECT_DOUBLE_EQ(c.wall_seconds(-1), c.wall_seconds(0));
}

// Here, CPU threads past the hardware's (or a CPU quota's) run no faster; a
// GPU's streams are not bound by the CPU. The error of a wall time is the
// sampled part's, spread over the cores.
TEST(EstimateTest, WallTimeHereAndItsError) {
  cost_estimate c;
  c.threads = hardware_threads() + 3;
  c.thread_seconds = 120;
  c.thread_seconds_error = 12;
  const double here = std::min<double>(hardware_threads(), cpu_quota().value_or(hardware_threads()));
  EXPECT_DOUBLE_EQ(c.cpus_here(), here);
  EXPECT_DOUBLE_EQ(c.wall_seconds_here(), 120 / here);
  EXPECT_DOUBLE_EQ(c.wall_seconds_here_error(), 12 / here);
  c.device_timed = true;
  EXPECT_DOUBLE_EQ(c.cpus_here(), c.threads);
  EXPECT_DOUBLE_EQ(c.wall_seconds_error(4), 3);
  EXPECT_DOUBLE_EQ(c.wall_seconds_error(0), 12.0 / hardware_threads());
}

// The projection here assumes every CPU the threads may run on: a sample
// whose threads, while every one of them drew, got under three quarters of
// them shared the cores, and says so. Not over a stretch too short to judge,
// nor for a GPU's, whose threads wait on the device.
TEST(EstimateTest, SaysWhenItsThreadsSharedTheirCpus) {
  cost_estimate c;
  c.threads = 1;  // on any machine one CPU at most here, and less only under a quota
  const double here = c.cpus_here();
  ASSERT_GT(here, 0);
  c.sample_seconds = 12;
  c.busy_seconds = 10;
  c.busy_cpu_seconds = 0.5 * here * c.busy_seconds;
  EXPECT_DOUBLE_EQ(c.busy_threads(), 0.5 * here);
  EXPECT_TRUE(c.shared_its_cpus());
  c.busy_cpu_seconds = 0.8 * here * c.busy_seconds;
  EXPECT_FALSE(c.shared_its_cpus());
  c.busy_cpu_seconds = 0.5 * here * c.busy_seconds;
  c.device_timed = true;
  EXPECT_FALSE(c.shared_its_cpus());
  c.device_timed = false;
  c.busy_seconds = 0.5;
  c.busy_cpu_seconds = 0;
  EXPECT_FALSE(c.shared_its_cpus());
  c.busy_seconds = 0;
  EXPECT_DOUBLE_EQ(c.busy_threads(), 0);
}

// A subproblem runs on one thread: cores past the plan's subproblems leave
// the counting's wall time as it is (1 528 subproblems on 100 000 cores
// read 0.0 s where the longest took 12 s); the tables' build spreads over
// every core. Where the size is not known (0), every core counts.
TEST(EstimateTest, NoMoreCoresCountThanTheSubproblems) {
  cost_estimate c;
  c.subproblems = 10;
  c.threads = 2;
  c.setup_serial_seconds = 1;
  c.setup_parallel_seconds = 1000;
  c.thread_seconds = 100;
  c.thread_seconds_error = 20;
  EXPECT_DOUBLE_EQ(c.wall_seconds(10), 1 + 100 + 10);
  EXPECT_DOUBLE_EQ(c.wall_seconds(1000), 1 + 1 + 10);
  EXPECT_DOUBLE_EQ(c.wall_seconds_error(1000), 2);
  EXPECT_DOUBLE_EQ(c.wall_seconds(4), 1 + 250 + 25);
  c.subproblems = 1;
  const double here = c.cpus_here();  // 2 or fewer: the hardware's, a CPU quota's
  EXPECT_LE(here, 2);
  EXPECT_DOUBLE_EQ(c.wall_seconds_here(), 1 + 1000 / here + 100 / std::min(here, 1.0));
  EXPECT_DOUBLE_EQ(c.wall_seconds_here_error(), 20 / std::min(here, 1.0));
  c.subproblems = 0;
  EXPECT_DOUBLE_EQ(c.wall_seconds(100000), 1 + 1100.0 / 100000);
}

// How far the sample's Q(n) is from the published one, in standard errors;
// no verdict where there is nothing to measure by.
TEST(EstimateTest, StandardErrorsOffThePublishedCount) {
  cost_estimate c;
  c.total = 1100;
  c.total_error = 50;
  EXPECT_DOUBLE_EQ(c.standard_errors_off(1000), 2.0);
  EXPECT_LT(c.standard_errors_off(std::nullopt), 0);  // no published value
  c.total_error = std::nan("");
  EXPECT_LT(c.standard_errors_off(1000), 0);  // one draw: no spread known
  c.total_error = 0;
  EXPECT_TRUE(std::isinf(c.standard_errors_off(1000)));  // draws that agree, and miss
  c.ended = estimate_end::exhausted;
  EXPECT_LT(c.standard_errors_off(1000), 0);  // the whole plan: exact, whatever it says
  EXPECT_EQ(to_string(estimate_end::precise), "precise");
  EXPECT_EQ(to_string(estimate_end::cancelled), "cancelled");
  EXPECT_EQ(to_string(estimate_end::time), "time");
  EXPECT_EQ(to_string(static_cast<estimate_end>(99)), "unknown");  // not read as a plausible "time"
}

// A sample that counted the whole plan is a count, right or wrong; any
// other is no verdict.
TEST(EstimateTest, AWholePlanSampledIsACount) {
  cost_estimate c;
  c.total = 92;
  c.total_error = 0;
  EXPECT_EQ(c.exact_match(92), std::nullopt);  // draws that agree: not the whole plan
  c.ended = estimate_end::exhausted;
  EXPECT_EQ(c.exact_match(92), true);
  EXPECT_EQ(c.exact_match(90), false);
  EXPECT_EQ(c.exact_match(std::nullopt), std::nullopt);  // n past the table
}

// A plan sampled to its end is counted exactly once each: the sum is Q(n)
// itself, however the threads took the draws. Guards the order of the
// draws (each block once) and the stop.
TEST(EstimateTest, SamplingEveryBlockIsExact) {
  for (const int n : {8, 11, 12}) {
    for (const std::uint64_t seed : {1, 2, 99}) {
      const plan p(n, {.kind = engine::symmetric});
      const cost_estimate c = estimate_cost(p, {.threads = 2, .seconds = 3600, .target_error = 0, .seed = seed});
      EXPECT_EQ(c.ended, estimate_end::exhausted) << n;
      EXPECT_EQ(c.sampled, p.size()) << n;
      EXPECT_EQ(c.total, static_cast<double>(*published_total(n))) << n << ", seed " << seed;
      EXPECT_EQ(c.total_error, 0) << n;
    }
  }
}

// A plan of fewer engine draws than min_estimate_runs is never "precise":
// it is counted to its end, exact, every time (with the default 2% target,
// plan 8 and 9 ended precise or exhausted as the threads raced, and the
// CLI then warned of too few draws though every one was drawn).
TEST(EstimateTest, APlanOfFewEngineDrawsIsCountedToItsEnd) {
  for (const int n : {8, 9}) {
    const plan p(n);
    for (int repeat = 0; repeat < 5; ++repeat) {
      const cost_estimate c = estimate_cost(p, {.threads = 2, .seconds = 3600});
      ASSERT_LT(c.runs - c.rotation_runs, min_estimate_runs) << n;
      EXPECT_EQ(c.ended, estimate_end::exhausted) << n;
      EXPECT_EQ(c.total, static_cast<double>(*published_total(n))) << n;
    }
  }
}

// The GPU engine is sampled as it counts: a draw of its subproblems holds
// what a count hands it in one call (batch_size subproblems, whole blocks of
// run_length), counted in that call, not a round of one job; three such
// draws hold three batches' subproblems. A CPU engine's draw is one block.
// The rotation tasks take the second and third draws, one task each.
// Emulated, the draws are timed by the thread's CPU clock: no device counts
// meanwhile.
TEST(EstimateTest, AnEngineThatCountsInBatchesIsDrawnABatchAtATime) {
  const plan gpu(14, {.kind = engine::gpu});
  const std::size_t batch = run_context(gpu, std::nullopt, 1).batch_size();
  ASSERT_GT(batch, 1U);
  const cost_estimate c =
      estimate_cost(gpu, {.threads = 1, .seconds = hour, .max_runs = 5, .target_error = 0, .seed = 5});
  EXPECT_EQ(c.runs, 5U);
  EXPECT_EQ(c.rotation_runs, 2U);
  EXPECT_EQ(c.rotation_sampled, 2U);
  ASSERT_GT(c.run_length, 1U);
  EXPECT_EQ(c.draw_length, batch / c.run_length * c.run_length);
  EXPECT_LE(c.draw_length, batch);
  const std::size_t engine_sampled = c.sampled - c.rotation_sampled;
  EXPECT_LE(engine_sampled, 3 * c.draw_length);  // the plan's last block may be short
  EXPECT_GT(engine_sampled, 3 * c.draw_length - c.run_length);
  EXPECT_FALSE(c.device_timed);
  EXPECT_LE(std::abs(c.total - static_cast<double>(*published_total(14))), 4 * c.total_error);
  const cost_estimate cpu = estimate_cost(plan(14, {.kind = engine::quadrant}),
                                          {.threads = 1, .seconds = hour, .max_runs = 5, .target_error = 0});
  EXPECT_EQ(cpu.rotation_runs, 2U);
  const std::size_t cpu_engine_sampled = cpu.sampled - cpu.rotation_sampled;
  EXPECT_LE(cpu_engine_sampled, 3 * cpu.run_length);  // the plan's last block may be short
  EXPECT_GT(cpu_engine_sampled, 2 * cpu.run_length);
  EXPECT_EQ(cpu.draw_length, cpu.run_length);
  EXPECT_FALSE(cpu.device_timed);
  // What the draws asked of the device comes with them: rounds launched,
  // and, where the host's bound leaves the tables out (the layouts' margin,
  // 8 MiB and 10%, and room for the lists), lists built and staged; nothing
  // for a CPU engine.
  EXPECT_GT(c.device.launches, 0U);
  EXPECT_EQ(c.device.host_list_nanoseconds, 0U);
  EXPECT_EQ(c.device.staged_list_bytes, 0U);
  const std::uint64_t lists_bound = (std::uint64_t{8} << 20) + 9 * detail::quarter_lists_bytes(12, false) + 4096;
  const cost_estimate own = estimate_cost(plan(12, {.kind = engine::gpu}),
                                          {.threads = 1, .max_runs = 4, .target_error = 0, .max_memory = lists_bound});
  EXPECT_GT(own.device.launches, 0U);
  EXPECT_GT(own.device.host_list_nanoseconds, 0U);
  EXPECT_GT(own.device.staged_list_bytes, 0U);
  EXPECT_EQ(cpu.device, device_work{});
}

// Sampling stops once the error is small enough, long before a generous
// time limit: an estimate costs a fraction of what it estimates.
TEST(EstimateTest, StopsOncePreciseEnough) {
  const plan p(17, {.kind = engine::quadrant});
  const cost_estimate c = estimate_cost(p, {.threads = 2, .seconds = 3600, .target_error = 0.2});
  EXPECT_EQ(c.ended, estimate_end::precise);
  // The stretch while both threads drew lies within the sampling.
  EXPECT_GT(c.busy_seconds, 0);
  EXPECT_LE(c.busy_seconds, c.sample_seconds);
  EXPECT_GE(c.busy_cpu_seconds, 0);
  // Precise from min_estimate_runs engine draws at the soonest, and still
  // so once they have doubled: a few light draws' small spread alone does
  // not stop it.
  EXPECT_GE(c.runs - c.rotation_runs, 2 * min_estimate_runs);
  EXPECT_LE(c.thread_seconds_error, 0.2 * c.thread_seconds);
  EXPECT_LT(c.sampled, p.size());
}

// Sampling bounded by its draws alone, with a time past any clock's (1e10 s
// overflowed the clock's nanoseconds: it ended at once, or after a wrong
// number of draws), draws as many as it is told.
TEST(EstimateTest, AnEndlessTimeLeavesTheDrawsToBoundIt) {
  const plan p(13);
  for (const double seconds : {4.7e9, 1e10, 1e12, 1e300}) {
    const cost_estimate c = estimate_cost(p, {.threads = 2, .seconds = seconds, .max_runs = 20, .target_error = 0});
    EXPECT_EQ(c.ended, estimate_end::runs) << seconds;
    EXPECT_EQ(c.runs, 20u) << seconds;
  }
}

// The draws depend on the seed alone, not on the threads that ran them.
TEST(EstimateTest, TheSameSeedDrawsTheSameSample) {
  const plan p(16, {.kind = engine::quadrant});  // a few draws of 32, far from all of the plan
  const cost_estimate one =
      estimate_cost(p, {.threads = 1, .seconds = hour, .max_runs = 20, .target_error = 0, .seed = 3});
  const cost_estimate two =
      estimate_cost(p, {.threads = 2, .seconds = hour, .max_runs = 20, .target_error = 0, .seed = 3});
  const cost_estimate other =
      estimate_cost(p, {.threads = 2, .seconds = hour, .max_runs = 20, .target_error = 0, .seed = 4});
  EXPECT_DOUBLE_EQ(one.total, two.total);
  EXPECT_EQ(one.sampled, two.sampled);
  EXPECT_NE(one.total, other.total);
}

TEST(EstimateTest, RefusesWhatCannotBeSampled) {
  const plan p(8, {.kind = engine::symmetric});
  EXPECT_THROW(estimate_cost(p, {.threads = -1}), std::invalid_argument);
  EXPECT_THROW(estimate_cost(p, {.seconds = 0}), std::invalid_argument);
  EXPECT_THROW(estimate_cost(p, {.seconds = std::nan("")}), std::invalid_argument);
  EXPECT_THROW(estimate_cost(p, {.target_error = -0.1}), std::invalid_argument);
  EXPECT_THROW(estimate_cost(p, {.max_memory = 1}), std::invalid_argument);  // as count() refuses it
}

// Where the rotation search's light tasks are most of the plan (n = 14 at
// split depth 1: 7 of the mirror engine's subproblems beside 100 tasks),
// sampled apart from the engine's they leave the engine's their share: 20
// draws count every engine subproblem, so Q(14) is exact, where a draw
// from the whole plan would mostly have found a task.
TEST(EstimateTest, TheEnginesSubproblemsAreSampledApartFromTheRotationTasks) {
  const plan p(14, {.kind = engine::mirror, .split_depth = 1});
  ASSERT_LT(p.engine_subproblems() * 10, p.size() - p.engine_subproblems());
  const cost_estimate c = estimate_cost(p, {.threads = 1, .seconds = 3600, .max_runs = 20, .target_error = 0});
  EXPECT_EQ(c.runs, 20U);
  EXPECT_EQ(c.sampled - c.rotation_sampled, p.engine_subproblems());
  EXPECT_EQ(c.rotation_runs, 20U - p.engine_subproblems());
  EXPECT_EQ(c.total, static_cast<double>(*published_total(14)));
  EXPECT_EQ(c.total_error, 0);
  EXPECT_GT(c.thread_seconds_error, 0);  // the tasks' share, sampled
}

// A plan of a few huge subproblems (Q(20) in about ten, minutes each,
// beside the rotation search's light tasks): a draw still counting at twice
// the sampling time is stopped, and with none of the engine's ended the
// estimate is refused, not waited for (nor made of the light tasks alone).
TEST(EstimateTest, ADrawPastTwiceTheSamplingTimeIsStoppedNotWaitedFor) {
  const plan p(20, {.kind = engine::symmetric, .split_depth = 1});
  try {
    estimate_cost(p, {.threads = 1, .seconds = 0.01});
    ADD_FAILURE() << "an estimate of no finished draw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no draw of the engine's subproblems ended within 0.02 s (twice the sampling "
                                         "time)"),
              std::string::npos)
        << e.what();
  }
}

// Sampling runs the subproblems as a count would, so it is refused where
// the count would be, with the same error: the quadrant engine's tables past
// the bound (n = 20 in 1 MiB), or a row plan's lists (n = 12 at split depth
// 6). It sampled both before.
TEST(EstimateTest, RefusesWhatCountRefusesForMemory) {
  const std::uint64_t bound = std::uint64_t{1} << 20;
  struct refused_run {
    int n;
    engine kind;
    int split_depth;
  };
  for (const refused_run c : {refused_run{20, engine::quadrant, 0}, refused_run{12, engine::symmetric, 6}}) {
    SCOPED_TRACE(std::string(to_string(c.kind)) + " n = " + std::to_string(c.n));
    std::string counted;
    try {
      count(c.n, {.kind = c.kind, .threads = 1, .split_depth = c.split_depth, .max_memory = bound});
    } catch (const memory_limit_error& e) {
      counted = e.what();
    }
    ASSERT_FALSE(counted.empty()) << "count() was not refused";
    const plan p(c.n, {.kind = c.kind, .split_depth = c.split_depth, .max_memory = bound});
    try {
      estimate_cost(p, {.threads = 1, .max_runs = 1, .max_memory = bound});
      ADD_FAILURE() << "sampled what count() refuses: " << counted;
    } catch (const memory_limit_error& e) {
      EXPECT_EQ(e.what(), counted);
    }
  }
  // A plan built past the bound (count() refuses it as it grows) is refused
  // for its lists.
  const plan unbounded(16, {.kind = engine::symmetric, .split_depth = 6});
  EXPECT_THROW(estimate_cost(unbounded, {.threads = 1, .max_runs = 1, .max_memory = bound}), memory_limit_error);
  // Within the bound, it samples.
  EXPECT_EQ(
      estimate_cost(plan(12, {.kind = engine::symmetric}), {.threads = 1, .max_runs = 1, .max_memory = 64 * bound})
          .runs,
      1u);
}

}  // namespace
}  // namespace nqueens
