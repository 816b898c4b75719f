// The GPU engine's rounds (gpu_rounds.hpp), emulated: counts that do not
// depend on the launch order, a stream's memory bounding its rounds and
// cutting large jobs, stream operations per subproblem, and a cancel that
// leaves the stream whole; the odd boards' quarter lists, and jobs that
// bring their own quarter tables, shared and kept from round to round.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/gpu/gpu_group_bounds.hpp"
#include "nqueens/device_work.hpp"
#include "support/gpu_testing.hpp"

namespace nqueens {
namespace {

using gpu_testing::counted_rounds;
using gpu_testing::gpu_variable;
using gpu_testing::round_counts;

// The boards the odd boards', the staged quarters' and the rounds' tests count: fewer under the
// sanitizers (5-10 times slower), which the larger boards' paths would not teach more.
#ifdef NQUEENS_SANITIZED
constexpr int odd_boards[] = {9, 11};
constexpr int staged_boards[] = {12};
constexpr int round_boards[] = {12};
#else
constexpr int odd_boards[] = {9, 11, 13};
constexpr int staged_boards[] = {12, 13};
constexpr int round_boards[] = {12, 13};
#endif

// Whatever order the blocks and threads run in, however few blocks a
// launch has, the counts are the same: the kernels assume no order within
// a phase or between blocks, and nothing of shared memory from an item before.
TEST(GpuEmulatedTest, CountsDoNotDependOnTheLaunchOrder) {
  for (const int n : round_boards) {
    const detail::half_board_tables tables(n);
    const auto reference =
        round_counts(tables, *detail::gpu::emulated_backend(tables, {.seed = 1, .max_grid = 64})).counts;
    for (const auto& [seed, grid] : {std::pair<std::uint64_t, std::uint32_t>{2, 1}, {3, 2}, {4, 13}}) {
      const auto counts =
          round_counts(tables, *detail::gpu::emulated_backend(tables, {.seed = seed, .max_grid = grid})).counts;
      ASSERT_EQ(counts.size(), reference.size());
      for (std::size_t k = 0; k < counts.size(); ++k) {
        EXPECT_EQ(counts[k].pairs, reference[k].pairs) << "n = " << n << ", seed " << seed << ", class " << k;
        EXPECT_EQ(counts[k].once, reference[k].once) << "n = " << n << ", seed " << seed << ", class " << k;
      }
    }
  }
}

// Every launch of a round as wide as the largest grid, its blocks past the
// items ending at once (as a device's round graph launches them): the
// same counts.
TEST(GpuEmulatedTest, LaunchesWiderThanTheirItemsCountTheSame) {
  for (const int n : round_boards) {
    const detail::half_board_tables tables(n);
    const auto reference = round_counts(tables, *detail::gpu::emulated_backend(tables)).counts;
    const auto counts =
        round_counts(tables, *detail::gpu::emulated_backend(tables, {.max_grid = 300, .whole_grid = true})).counts;
    ASSERT_EQ(counts.size(), reference.size());
    for (std::size_t k = 0; k < counts.size(); ++k) {
      EXPECT_EQ(counts[k].pairs, reference[k].pairs) << "n = " << n << ", class " << k;
      EXPECT_EQ(counts[k].once, reference[k].once) << "n = " << n << ", class " << k;
    }
  }
}

// A stream too small for the round's jobs together takes them in several
// rounds, and one too small for a job alone cuts it by row sets (each
// piece its own slices of the group cut, the pieces' pairs and once-pairs
// added up): the counts are the same. One too small for a single row set's
// halves refuses, saying so.
TEST(GpuEmulatedTest, AStreamsMemoryBoundsItsRoundsAndCutsLargeJobs) {
  for (const int n : round_boards) {
    const detail::half_board_tables tables(n);
    const counted_rounds reference = round_counts(tables, *detail::gpu::emulated_backend(tables));
    EXPECT_EQ(reference.jobs_cut, 0u) << "n = " << n;
    // Rounds of 5 jobs with room to spare, then rounds cut short by the
    // memory, then jobs cut by row sets (120 words: 400 held every job
    // whole): more rounds each time.
    std::uint64_t rounds_before = reference.work.operations;
    for (const std::uint64_t words : {std::uint64_t{1} << 19, std::uint64_t{400}, std::uint64_t{120}}) {
      const counted_rounds cut =
          round_counts(tables, *detail::gpu::emulated_backend(tables, {.max_jobs = 5, .arena_words = words}));
      EXPECT_GT(cut.work.operations, rounds_before) << "n = " << n << ", " << words << " words";
      if (words == 120) EXPECT_GT(cut.jobs_cut, 0u) << "n = " << n;
      if (words == std::uint64_t{1} << 19) EXPECT_EQ(cut.jobs_cut, 0u) << "n = " << n;
      rounds_before = cut.work.operations;
      const auto& counts = cut.counts;
      for (std::size_t k = 0; k < counts.size(); ++k) {
        EXPECT_EQ(counts[k].pairs, reference.counts[k].pairs) << "n = " << n << ", " << words << " words, class " << k;
        EXPECT_EQ(counts[k].once, reference.counts[k].once) << "n = " << n << ", " << words << " words, class " << k;
      }
    }
    try {
      round_counts(tables, *detail::gpu::emulated_backend(tables, {.arena_words = 8}));
      ADD_FAILURE() << "a stream of 8 words counted n = " << n;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("of device memory in one row set"), std::string::npos) << e.what();
    }
  }
}

// Rounds of up to a block's threads of jobs (a module built with
// NQUEENS_GPU_ROUND_JOBS, the emulator's max_jobs) count the same as rounds
// of 64, in a third of the launches or fewer where the arena holds them:
// the round's items summed in 32 bits for the visit, 64 for the rest, for
// any number of jobs. The emulator refuses rounds of no job or of more
// jobs than a block has threads to fault them.
TEST(GpuEmulatedTest, LargerRoundsCountTheSameInFewerLaunches) {
  constexpr std::uint64_t roomy = std::uint64_t{1} << 22;  // 32 MiB: no round cut short here
  for (const int n : round_boards) {
    const detail::half_board_tables tables(n);
    const counted_rounds reference =
        round_counts(tables, *detail::gpu::emulated_backend(tables, {.max_jobs = 64, .arena_words = roomy}));
    for (const std::uint32_t jobs : {192U, detail::gpu::most_round_jobs}) {
      const counted_rounds larger =
          round_counts(tables, *detail::gpu::emulated_backend(tables, {.max_jobs = jobs, .arena_words = roomy}));
      ASSERT_EQ(larger.counts.size(), reference.counts.size());
      ASSERT_GT(larger.counts.size(), std::size_t{128}) << "n = " << n << ": too few jobs to tell";
      for (std::size_t k = 0; k < larger.counts.size(); ++k) {
        EXPECT_EQ(larger.counts[k].pairs, reference.counts[k].pairs)
            << "n = " << n << ", " << jobs << " jobs, class " << k;
        EXPECT_EQ(larger.counts[k].once, reference.counts[k].once)
            << "n = " << n << ", " << jobs << " jobs, class " << k;
      }
      EXPECT_LT(larger.work.launches, reference.work.launches) << "n = " << n << ", " << jobs << " jobs";
      EXPECT_LE(3 * larger.work.launches, reference.work.launches + 3 * 12) << "n = " << n << ", " << jobs << " jobs";
    }
  }
  for (const std::uint32_t jobs : {0U, detail::gpu::most_round_jobs + 1}) {
    try {
      detail::gpu::emulated_backend(nullptr, {.max_jobs = jobs});
      ADD_FAILURE() << "an emulated GPU took rounds of " << jobs << " jobs";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "an emulated GPU's rounds hold 1 to 256 jobs, not " + std::to_string(jobs));
    }
  }
}

// Jobs that bring their own quarter lists (a backend without tables) have
// them staged in the arena with every round they take part in: counted in
// rounds of 5, in rounds the memory cuts short, and cut by row sets where
// the lists leave a job too little room, they count as the tables do, in one
// call or in calls of a round each (sized on the host from their lists). An
// arena smaller than a job's lists refuses, saying so.
TEST(GpuEmulatedTest, JobsWithTheirOwnQuartersStageThemWithEveryRound) {
  for (const int n : staged_boards) {
    const detail::half_board_tables tables(n);
    const counted_rounds reference = round_counts(tables, *detail::gpu::emulated_backend(tables));
    const detail::quarter_source lists(n, nullptr);
    std::vector<std::array<detail::quarter_list, 4>> built;
    // In one call of every job (sized on the device), or in calls of a round
    // each (`in_calls`: sized on the host where their bounds fit, from the lists).
    const auto own_counts = [&](const detail::gpu::emulator_options& options, bool in_calls = false) {
      const auto backend = detail::gpu::emulated_backend(nullptr, options);
      std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, *backend);
      built.resize(jobs.size());
      std::uint64_t largest = 0;
      for (std::size_t k = 0; k < jobs.size(); ++k) {
        for (int g = 0; g < 2; ++g) {
          const auto side = static_cast<std::size_t>(g);
          const auto quarters = lists.quarters(jobs[k].columns[side], built[k][2 * side], built[k][2 * side + 1]);
          jobs[k].west[g] = {quarters[0].offsets, quarters[0].masks, quarters[0].signatures};
          jobs[k].east[g] = {quarters[1].offsets, quarters[1].masks, quarters[1].signatures};
        }
        jobs[k].own_quarters = true;
        largest = std::max<std::uint64_t>(
            largest, built[k][0].bytes() + built[k][1].bytes() + built[k][2].bytes() + built[k][3].bytes());
      }
      const auto stream = backend->open_stream();
      detail::gpu::gpu_rounds rounds(*stream);
      std::vector<detail::gpu::pair_counts> counts(jobs.size());
      const std::size_t call = in_calls ? stream->max_jobs() : jobs.size();
      for (std::size_t first = 0; first < jobs.size(); first += call) {
        const std::size_t size = std::min(call, jobs.size() - first);
        rounds.count(std::span(jobs).subspan(first, size), std::span(counts).subspan(first, size));
      }
      return std::make_pair(counts, largest / sizeof(std::uint64_t));
    };
    const std::uint64_t list_words = own_counts({}).second;
    for (const std::uint64_t words : {std::uint64_t{1} << 19, 2 * list_words, list_words + 400}) {
      for (const bool in_calls : {false, true}) {
        const auto counts = own_counts({.max_jobs = 5, .arena_words = words}, in_calls).first;
        ASSERT_EQ(counts.size(), reference.counts.size());
        for (std::size_t k = 0; k < counts.size(); ++k) {
          EXPECT_EQ(counts[k].pairs, reference.counts[k].pairs)
              << "n = " << n << ", " << words << " words, class " << k << (in_calls ? ", in calls" : "");
          EXPECT_EQ(counts[k].once, reference.counts[k].once)
              << "n = " << n << ", " << words << " words, class " << k << (in_calls ? ", in calls" : "");
        }
      }
    }
    try {
      own_counts({.arena_words = 64});
      ADD_FAILURE() << "a stream of 64 words took n = " << n << "'s quarter lists";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("and its quarters, and a stream holds"), std::string::npos) << e.what();
    }
  }
}

// Jobs that share a list (the GPU engine builds a call's common lists once:
// neighbouring classes keep their east columns) have it staged once a
// round, and a job's room in a round counts only the lists not staged yet.
// The counts are those of the tables, in rounds the lists cut short, and
// jobs cut by row sets; the copies are fewer than
// for the same jobs each with lists of its own (stream operations), and
// where the lists bound the rounds, so are the rounds (launches).
TEST(GpuEmulatedTest, ListsThatJobsShareAreStagedOnceARound) {
  for (const int n : staged_boards) {
    const detail::half_board_tables tables(n);
    const counted_rounds reference = round_counts(tables, *detail::gpu::emulated_backend(tables));
    const detail::quarter_source lists(n, nullptr);
    const int h = n / 2;
    std::map<std::pair<bool, std::uint32_t>, detail::quarter_list> shared;  // by side and that side's columns
    std::vector<std::array<detail::quarter_list, 4>> own;
    std::uint64_t largest = 0;  // a job's four lists, in words
    const auto counted = [&](bool share, const detail::gpu::emulator_options& options) {
      const auto backend = detail::gpu::emulated_backend(nullptr, options);
      std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, *backend);
      own.resize(jobs.size());
      for (std::size_t k = 0; k < jobs.size(); ++k) {
        std::uint64_t bytes = 0;
        for (int q = 0; q < 4; ++q) {
          const bool east = q % 2 != 0;
          const std::uint32_t columns = jobs[k].columns[q / 2];
          const std::uint32_t side = east ? columns >> h : columns & ((1U << h) - 1);
          detail::quarter_list& list = share ? shared[{east, side}] : own[k][static_cast<std::size_t>(q)];
          const detail::quarter_view v = lists.quarter(east, columns, list);
          detail::gpu::quarter_arrays& arrays = east ? jobs[k].east[q / 2] : jobs[k].west[q / 2];
          arrays = {v.offsets, v.masks, v.signatures};
          bytes += list.bytes();
        }
        largest = std::max<std::uint64_t>(largest, bytes / sizeof(std::uint64_t));
        jobs[k].own_quarters = true;
      }
      const auto stream = backend->open_stream();
      detail::gpu::gpu_rounds rounds(*stream);
      std::vector<detail::gpu::pair_counts> counts(jobs.size());
      rounds.count(jobs, counts);
      for (std::size_t k = 0; k < counts.size(); ++k) {
        EXPECT_EQ(counts[k].pairs, reference.counts[k].pairs) << "n = " << n << ", shared " << share << ", class " << k;
        EXPECT_EQ(counts[k].once, reference.counts[k].once) << "n = " << n << ", shared " << share << ", class " << k;
      }
      return stream->work();
    };
    const auto roomy_launches = counted(false, {.max_jobs = 64, .arena_words = std::uint64_t{1} << 19}).launches;
    // Rounds the lists cut short (more launches than with room), then jobs
    // cut by row sets (an arena of one job's lists and a little more; not
    // under the sanitizers, 5-10 times slower, where
    // JobsWithTheirOwnQuartersStageThemWithEveryRound takes that path).
#ifdef NQUEENS_SANITIZED
    for (const std::uint64_t words : {std::uint64_t{1} << 13}) {
#else
    for (const std::uint64_t words : {std::uint64_t{1} << 13, 2 * largest + 400, largest + 400}) {
#endif
      const detail::gpu::emulator_options options{.max_jobs = 64, .arena_words = words};
      const device_work with_shared = counted(true, options), with_own = counted(false, options);
      EXPECT_GT(with_own.launches, roomy_launches) << "n = " << n << ", " << words << " words";
      EXPECT_LT(with_shared.operations, with_own.operations) << "n = " << n << ", " << words << " words";
      if (words == std::uint64_t{1} << 13) {
        EXPECT_LT(with_shared.launches, with_own.launches) << "n = " << n << ": the shared lists' room counted once";
      }
    }
  }
}

// A call's lists stay in the arena from its size round to its count round
// (the same jobs put them where they were left, the count round passing
// over those of jobs with an empty group, as n = 12's first call has:
// without the pass its bytes fail): with room for
// all its jobs at once, each list is copied once a call, not once a round. Not past the
// call: the host may hold other lists at the same addresses by the next
// (the engine's slots are rebuilt in place), and the next call, whose jobs
// bring other lists in the same host arrays, counts them, not those left.
// Sized on the host from the lists themselves (group_bounds reads them where
// the host holds them), the call takes its count round alone, the lists
// copied once the same.
class GpuListsTest : public testing::TestWithParam<bool> {};

TEST_P(GpuListsTest, ACallsListsStayInTheArenaFromRoundToRoundButNotPastTheCall) {
  const int n = 12;
  const int h = n / 2;
  const bool host_sizes = GetParam();
  const detail::half_board_tables tables(n);
  const counted_rounds reference = round_counts(tables, *detail::gpu::emulated_backend(tables));
  const detail::quarter_source source(n, nullptr);
  const auto backend = detail::gpu::emulated_backend(
      nullptr, {.max_jobs = 64, .arena_words = std::uint64_t{1} << 19, .host_sizes = host_sizes});
  const std::vector<detail::gpu::gpu_job> all = gpu_testing::jobs_of(tables, *backend);
  // Host arrays for the calls' lists, a set of four a job, each grown once
  // to the largest list so that the second call's lists are at the first's addresses.
  struct host_list {
    std::vector<std::uint32_t> offsets, signatures;
    std::vector<std::uint64_t> masks;
  };
  const std::size_t jobs_a_call = std::min<std::size_t>(all.size() / 2, 64);  // a round's most
  std::vector<host_list> slots(4 * jobs_a_call);
  detail::quarter_list built;
  std::size_t most = 0;
  for (const auto& job : all) {
    for (int q = 0; q < 4; ++q) {
      const detail::quarter_view v = source.quarter(q % 2 != 0, job.columns[q / 2], built);
      most = std::max<std::size_t>(most, v.offsets[std::size_t{1} << h]);
    }
  }
  for (host_list& slot : slots) {
    slot.offsets.reserve((std::size_t{1} << h) + 1);
    slot.masks.reserve(most);
    slot.signatures.reserve(most);
  }
  const auto call = [&](std::span<const detail::gpu::gpu_job> classes, std::size_t first,
                        detail::gpu::gpu_rounds& rounds, detail::gpu::gpu_stream& stream) {
    std::vector<detail::gpu::gpu_job> jobs(classes.begin(), classes.end());
    std::uint64_t bytes = 0;  // each list's, once
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      for (int q = 0; q < 4; ++q) {
        const detail::quarter_view v = source.quarter(q % 2 != 0, jobs[k].columns[q / 2], built);
        const std::uint32_t placements = v.offsets[std::size_t{1} << h];
        host_list& slot = slots[4 * k + static_cast<std::size_t>(q)];
        const auto* const before = slot.masks.data();
        slot.offsets.assign(v.offsets, v.offsets + (std::size_t{1} << h) + 1);
        slot.masks.assign(v.masks, v.masks + placements);
        slot.signatures.assign(v.signatures, v.signatures + placements);
        EXPECT_EQ(before, slot.masks.data()) << "a slot's list moved on the host";
        const detail::gpu::quarter_arrays arrays{slot.offsets.data(), slot.masks.data(), slot.signatures.data()};
        if (q % 2 != 0) {
          jobs[k].east[q / 2] = arrays;
        } else {
          jobs[k].west[q / 2] = arrays;
        }
        bytes += slot.offsets.size() * 4 + std::size_t{placements} * 12;
      }
      jobs[k].own_quarters = true;
    }
    const device_work before = stream.work();
    std::vector<detail::gpu::pair_counts> counts(jobs.size());
    rounds.count(jobs, counts);
    for (std::size_t k = 0; k < counts.size(); ++k) {
      EXPECT_EQ(counts[k].pairs, reference.counts[first + k].pairs) << "class " << first + k;
      EXPECT_EQ(counts[k].once, reference.counts[first + k].once) << "class " << first + k;
    }
    const device_work work = stream.work() - before;
    if (host_sizes) {
      EXPECT_EQ(work.launches, 10U) << "a round of counts alone";
    } else {
      EXPECT_EQ(work.launches, 2U + 10U) << "a round of sizes and one of counts";
    }
    EXPECT_EQ(work.staged_list_bytes, bytes) << "each list copied once, call from class " << first;
  };
  const auto stream = backend->open_stream();
  detail::gpu::gpu_rounds rounds(*stream);
  call(std::span(all).first(jobs_a_call), 0, rounds, *stream);
  call(std::span(all).subspan(jobs_a_call, jobs_a_call), jobs_a_call, rounds, *stream);
}

INSTANTIATE_TEST_SUITE_P(GpuEmulatedTest, GpuListsTest, testing::Bool(), [](const testing::TestParamInfo<bool>& info) {
  return info.param ? std::string("SizedOnTheHost") : std::string("SizedOnTheDevice");
});

// A count on the GPU engine takes a fraction of a stream operation per
// subproblem: rounds of many subproblems, each a handful of launches and
// copies. The figure comes with the count (count_result::device, and the
// JSON's device_operations).
TEST(GpuEmulatedTest, AStreamOperationCountsManySubproblems) {
  const gpu_variable backend("emulate", /*unless_set=*/true);
  const count_result r = count(14, {.kind = engine::gpu, .threads = 2});
  ASSERT_EQ(r.total, 365596U);
  EXPECT_GT(r.device.launches, 0U);
  EXPECT_GT(r.device.operations, r.device.launches);
  EXPECT_LE(r.device.operations, r.subproblems) << r.device.operations << " operations for " << r.subproblems;
  const count_result cpu = count(14, {.kind = engine::quadrant, .threads = 2});
  EXPECT_EQ(cpu.device, device_work{});
}

// A cancel ends a batch at its next round (subproblem_cancelled), and the
// stream serves the next batch exactly: n = 13's classes in rounds of 5, the
// flag already set, then again without it.
TEST(GpuEmulatedTest, ACancelEndsABatchAndLeavesTheStreamWhole) {
  const detail::half_board_tables tables(13);
  const counted_rounds reference = round_counts(tables, *detail::gpu::emulated_backend(tables));
  const auto backend = detail::gpu::emulated_backend(tables, {.max_jobs = 5});
  const auto stream = backend->open_stream();
  detail::gpu::gpu_rounds rounds(*stream);
  std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, *backend);
  std::vector<detail::gpu::pair_counts> counts(jobs.size());
  const std::atomic<bool> cancel{true};
  EXPECT_THROW(rounds.count(jobs, counts, &cancel), subproblem_cancelled);
  counts.assign(jobs.size(), {});
  rounds.count(jobs, counts);
  ASSERT_EQ(counts.size(), reference.counts.size());
  for (std::size_t k = 0; k < counts.size(); ++k) {
    EXPECT_EQ(counts[k].pairs, reference.counts[k].pairs) << "class " << k;
    EXPECT_EQ(counts[k].once, reference.counts[k].once) << "class " << k;
  }
}

// A stream that passes everything to another: what a test's stream
// changes of a round, it overrides.
class forwarding_stream : public detail::gpu::gpu_stream {
 public:
  explicit forwarding_stream(detail::gpu::gpu_stream& inner) : inner_(inner) {}
  std::uint32_t max_jobs() const noexcept override { return inner_.max_jobs(); }
  bool sizes_on_host() const noexcept override { return inner_.sizes_on_host(); }
  std::uint64_t* arena() const noexcept override { return inner_.arena(); }
  std::uint64_t arena_words() const noexcept override { return inner_.arena_words(); }
  detail::gpu::job_state* state(std::uint32_t k) const noexcept override { return inner_.state(k); }
  detail::gpu::job_result* result(std::uint32_t k) const noexcept override { return inner_.result(k); }
  std::span<const detail::gpu::job_result> run(std::span<const detail::gpu::gpu_job> jobs,
                                               detail::gpu::round_kind round) override {
    return inner_.run(jobs, round);
  }
  device_work work() const noexcept override { return inner_.work(); }
  void stage(const void* from, std::uint64_t bytes, std::uint64_t* to) override { inner_.stage(from, bytes, to); }
  std::uint32_t* stop_word() const noexcept override { return inner_.stop_word(); }
  void stop() noexcept override { inner_.stop(); }
  bool stopped() const noexcept override { return inner_.stopped(); }
  void clear_stop() noexcept override { inner_.clear_stop(); }

 protected:
  detail::gpu::gpu_stream& inner_;
};

// A stream whose stop word is set while a round of `stopping_in` runs (as
// the GPU context's watcher does once the run's cancel flag is set) after
// the rounds looked at the flag: the size, join and visit kernels take no
// item, and the batch ends cancelled, no partial size or count taken; the
// stream then counts the next batch exactly.
class stopped_mid_round final : public forwarding_stream {
 public:
  stopped_mid_round(detail::gpu::gpu_stream& inner, detail::gpu::round_kind round)
      : forwarding_stream(inner), stopping_in(round) {}
  bool stopping = true;
  detail::gpu::round_kind stopping_in;
  std::uint64_t work_when_stopped = 0;  // what the stopped round's kernels sized, kept and counted
  std::span<const detail::gpu::job_result> run(std::span<const detail::gpu::gpu_job> jobs,
                                               detail::gpu::round_kind round) override {
    if (!stopping || round != stopping_in) return inner_.run(jobs, round);
    inner_.stop();
    const auto results = inner_.run(jobs, round);
    for (std::uint32_t k = 0; k < jobs.size(); ++k) {
      const detail::gpu::job_state& s = *inner_.state(k);
      work_when_stopped += round == detail::gpu::round_kind::sizes
                               ? results[k].joined[0] + results[k].joined[1]
                               : std::uint64_t{s.group_size[0]} + s.group_size[1] + s.pairs;
    }
    return results;
  }
};

class GpuStopMidRoundTest : public testing::TestWithParam<detail::gpu::round_kind> {};

TEST_P(GpuStopMidRoundTest, EndsTheBatchWithoutAPartialCount) {
  const detail::half_board_tables tables(12);
  const counted_rounds reference = round_counts(tables, *detail::gpu::emulated_backend(tables));
  // Sized on the device, so that a round of sizes runs to be stopped.
  const auto backend = detail::gpu::emulated_backend(tables, {.host_sizes = false});
  const auto inner = backend->open_stream();
  stopped_mid_round stream(*inner, GetParam());
  detail::gpu::gpu_rounds rounds(stream);
  const std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, *backend);
  std::vector<detail::gpu::pair_counts> counts(jobs.size());
  const std::atomic<bool> cancel{false};
  EXPECT_THROW(rounds.count(jobs, counts, &cancel), subproblem_cancelled);
  EXPECT_EQ(stream.work_when_stopped, 0U);  // no kernel that looks for a stop took an item
  stream.stopping = false;
  counts.assign(jobs.size(), {});
  rounds.count(jobs, counts, &cancel);  // the stop word cleared
  ASSERT_EQ(counts.size(), reference.counts.size());
  for (std::size_t k = 0; k < counts.size(); ++k) {
    EXPECT_EQ(counts[k].pairs, reference.counts[k].pairs) << "class " << k;
    EXPECT_EQ(counts[k].once, reference.counts[k].once) << "class " << k;
  }
}

// A call sized on the host has one round, of counts: a stop during it ends
// the batch the same, nothing of it taken, and the stream counts the call
// exactly after.
TEST(GpuEmulatedTest, AStopInTheOneRoundOfACallSizedOnTheHostTakesNothingOfIt) {
  const detail::half_board_tables tables(12);
  const counted_rounds reference = round_counts(tables, *detail::gpu::emulated_backend(tables));
  const detail::gpu::host_quarters host = gpu_testing::host_quarters_of(tables);
  const auto backend = detail::gpu::emulated_backend(tables);
  const auto inner = backend->open_stream();
  stopped_mid_round stream(*inner, detail::gpu::round_kind::counts);
  detail::gpu::gpu_rounds rounds(stream);
  const std::vector<detail::gpu::gpu_job> all = gpu_testing::jobs_of(tables, *backend);
  const auto jobs = std::span(all).first(std::min<std::size_t>(stream.max_jobs(), all.size()));
  std::vector<detail::gpu::pair_counts> counts(jobs.size());
  const std::atomic<bool> cancel{false};
  EXPECT_THROW(rounds.count(jobs, counts, &cancel, &host), subproblem_cancelled);
  EXPECT_EQ(stream.work_when_stopped, 0U);
  stream.stopping = false;
  counts.assign(jobs.size(), {});
  const device_work before = stream.work();
  rounds.count(jobs, counts, &cancel, &host);
  EXPECT_EQ((stream.work() - before).launches, 10U) << "one round of counts";
  for (std::size_t k = 0; k < counts.size(); ++k) {
    EXPECT_EQ(counts[k].pairs, reference.counts[k].pairs) << "class " << k;
    EXPECT_EQ(counts[k].once, reference.counts[k].once) << "class " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(GpuEmulatedTest, GpuStopMidRoundTest,
                         testing::Values(detail::gpu::round_kind::sizes, detail::gpu::round_kind::counts),
                         [](const testing::TestParamInfo<detail::gpu::round_kind>& info) {
                           return info.param == detail::gpu::round_kind::sizes ? std::string("SizeRound")
                                                                               : std::string("CountRound");
                         });

// A timed stream (NQUEENS_GPU_TIMES=1, or emulator_options::timed) adds
// each kernel's time to its slot, every kernel of a size and a count round
// taking some; an untimed one measures nothing.
TEST(GpuEmulatedTest, ATimedStreamTimesEveryKernel) {
  const detail::half_board_tables tables(12);
  for (const bool timed : {false, true}) {
    const device_work w = round_counts(tables, *detail::gpu::emulated_backend(tables, {.timed = timed})).work;
    EXPECT_EQ(w.timed(), timed);
    for (std::size_t k = 0; k < w.kernel_nanoseconds.size(); ++k) {
      if (timed) {
        EXPECT_GT(w.kernel_nanoseconds[k], 0U) << device_kernel_names[k];
      } else {
        EXPECT_EQ(w.kernel_nanoseconds[k], 0U) << device_kernel_names[k];
      }
    }
  }
}

// Every round's time is split by phase, timed or not: submitted and waited
// for, and the host's time between the size round and the count round;
// the phases add up to no more than the rounds' caller lived through.
TEST(GpuEmulatedTest, EveryRoundIsTimedByPhase) {
  const detail::half_board_tables tables(12);
  const auto backend = detail::gpu::emulated_backend(tables);
  const auto start = std::chrono::steady_clock::now();
  const device_work w = round_counts(tables, *backend).work;
  const auto lived = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
  EXPECT_FALSE(w.timed());
  std::uint64_t phases = 0;
  for (std::size_t p = 0; p < w.round_nanoseconds.size(); ++p) {
    EXPECT_GT(w.round_nanoseconds[p], 0U) << device_round_phase_names[p];
    phases += w.round_nanoseconds[p];
  }
  EXPECT_LE(phases, static_cast<std::uint64_t>(lived.count()));
}

// The halves a size round says each job's joins can make, `limit` the
// jobs' list_limit.
std::vector<std::uint64_t> joined_sizes(detail::gpu::gpu_stream& stream, std::vector<detail::gpu::gpu_job> jobs,
                                        std::uint32_t limit) {
  std::vector<std::uint64_t> sizes;
  for (std::size_t first = 0; first < jobs.size(); first += stream.max_jobs()) {
    const std::size_t count = std::min<std::size_t>(stream.max_jobs(), jobs.size() - first);
    for (std::uint32_t k = 0; k < count; ++k) {
      detail::gpu::gpu_job& job = jobs[first + k];
      job.list_limit = limit;
      job.sequence = static_cast<std::uint32_t>(first + k + 1);
      job.state = stream.state(k);
      job.result = stream.result(k);
    }
    const std::span<const detail::gpu::gpu_job> round(jobs.data() + first, count);
    const auto results = stream.run(round, detail::gpu::round_kind::sizes);
    for (std::uint32_t k = 0; k < count; ++k) {
      detail::gpu::check_result(results[k], round[k], detail::gpu::round_kind::sizes);
      sizes.push_back(results[k].joined[0] + results[k].joined[1]);
    }
  }
  return sizes;
}

// A stream that passes every round on and notes, per job's class (its
// north columns and middle queen), whether its size round found a group no
// join can make, and which jobs count rounds held.
class recording_stream final : public forwarding_stream {
 public:
  using forwarding_stream::forwarding_stream;
  using job_class = std::pair<std::uint32_t, int>;
  std::map<job_class, bool> empty_group;
  std::vector<job_class> counted;  // the count rounds' jobs
  std::span<const detail::gpu::job_result> run(std::span<const detail::gpu::gpu_job> jobs,
                                               detail::gpu::round_kind round) override {
    const auto results = inner_.run(jobs, round);
    for (std::uint32_t k = 0; k < jobs.size(); ++k) {
      if (round == detail::gpu::round_kind::sizes) {
        empty_group[{jobs[k].columns[0], jobs[k].middle}] = results[k].joined[0] == 0 || results[k].joined[1] == 0;
      } else {
        counted.push_back({jobs[k].columns[0], jobs[k].middle});
      }
    }
    return results;
  }
};

// A job whose size round finds a group no join can make (odd boards have
// them) has no pair: it counts 0 without a count round, which the others
// still get, each once. Counted alone, with room for both groups, such a
// job's join makes no half of that group and its count is 0.
TEST(GpuEmulatedTest, AJobWithAnEmptyGroupTakesNoCountRound) {
  for (const int n : odd_boards) {
    const detail::half_board_tables tables(n);
    const auto backend = detail::gpu::emulated_backend(tables, {.host_sizes = false});
    const auto inner = backend->open_stream();
    recording_stream stream(*inner);
    detail::gpu::gpu_rounds rounds(stream);
    const std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, *backend);
    std::vector<detail::gpu::pair_counts> counts(jobs.size());
    rounds.count(jobs, counts);
    ASSERT_EQ(stream.empty_group.size(), jobs.size()) << "n = " << n;
    std::size_t skipped = 0;
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      const recording_stream::job_class job_class{jobs[k].columns[0], jobs[k].middle};
      const bool empty = stream.empty_group.at(job_class);
      EXPECT_EQ(std::count(stream.counted.begin(), stream.counted.end(), job_class), empty ? 0 : 1)
          << "n = " << n << ", class " << k;
      if (!empty) continue;
      ++skipped;
      EXPECT_EQ(counts[k].pairs, 0U);
      EXPECT_EQ(counts[k].once, 0U);
      detail::gpu::gpu_job job = jobs[k];
      job.sequence = 1000 + static_cast<std::uint32_t>(k);
      job.state = inner->state(0);
      job.result = inner->result(0);
      job.stop = inner->stop_word();
      std::uint64_t* at = inner->arena();
      for (int g = 0; g < 2; ++g) {
        job.capacity[g] = 4096;
        job.halves[g] = at;
        job.codes[g] = job.once_list[g] = at + job.capacity[g] + 1;
        at += std::size_t{2} * (job.capacity[g] + 1);
      }
      job.keys = reinterpret_cast<std::uint32_t*>(at);
      job.key_bits_limit = detail::gpu::key_bits_bound(job.n, job.digits_limit, job.capacity[1]);
      const detail::gpu::job_result result = inner->run({&job, 1}, detail::gpu::round_kind::counts)[0];
      detail::gpu::check_result(result, job, detail::gpu::round_kind::counts);
      EXPECT_TRUE(inner->state(0)->group_size[0] == 0 || inner->state(0)->group_size[1] == 0)
          << "n = " << n << ", class " << k;
      EXPECT_EQ(result.pairs, 0U) << "n = " << n << ", class " << k;
      EXPECT_EQ(result.once, 0U) << "n = " << n << ", class " << k;
    }
    EXPECT_GT(skipped, 0U) << "n = " << n;
  }
}

// A range is empty to the bounds only where the skip forbids every
// placement of it: one kept placement, wherever it lies (within the first
// eight, the last of a group of eight read at once, or in the tail read one
// by one), keeps the range, and ranges starting anywhere read alike.
TEST(GpuEmulatedTest, GroupBoundsFindTheOnePlacementARangeKeeps) {
  const detail::quarter_skip_rule skip{.queen = 1};  // skips every mask with bit 0
  constexpr std::uint32_t size = 21;
  for (std::uint32_t begin = 0; begin < 3; ++begin) {
    std::vector<std::uint64_t> masks(size, 1);
    EXPECT_FALSE(detail::gpu::keeps_any(skip, masks.data(), begin, size)) << "from " << begin;
    EXPECT_FALSE(detail::gpu::keeps_any(skip, masks.data(), begin, begin)) << "from " << begin;
    for (std::uint32_t kept = begin; kept < size; ++kept) {
      masks.assign(size, 1);
      masks[kept] = 2;
      EXPECT_TRUE(detail::gpu::keeps_any(skip, masks.data(), begin, size)) << "from " << begin << ", kept " << kept;
      EXPECT_FALSE(detail::gpu::keeps_any(skip, masks.data(), begin, kept)) << "from " << begin << ", kept " << kept;
    }
  }
}

// The host's bounds on a job's groups (group_bounds) hold what its round
// of sizes finds, group by group, for every class of the boards counted
// here and for the second of two slices of each (at the jobs' list limit,
// where every range of these boards is listed: the size round then counts
// only what the middle queen allows, as the join does); on odd boards they
// find groups that the middle queen forbids whole (0), as the size round
// does, so that such a job takes no count round sized on the host either.
TEST(GpuEmulatedTest, GroupBoundsHoldWhatTheSizeRoundFinds) {
  for (const int n : {8, 9, 10, 11, 12, 13}) {
    const detail::half_board_tables tables(n);
    const auto backend = detail::gpu::emulated_backend(tables);
    const auto stream = backend->open_stream();
    std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, *backend);
    const std::size_t classes = jobs.size();
    for (std::size_t k = 0; k < classes; ++k) {
      detail::gpu::gpu_job sliced = jobs[k];
      sliced.slices[0] = 2;
      sliced.slice[0] = 1;
      jobs.push_back(sliced);
    }
    std::size_t empty_by_host = 0, empty = 0;
    for (std::size_t first = 0; first < jobs.size(); first += stream->max_jobs()) {
      const std::size_t count = std::min<std::size_t>(stream->max_jobs(), jobs.size() - first);
      const std::span<detail::gpu::gpu_job> round(jobs.data() + first, count);
      for (std::uint32_t k = 0; k < count; ++k) {
        round[k].sequence = static_cast<std::uint32_t>(first + k + 1);
        round[k].state = stream->state(k);
        round[k].result = stream->result(k);
        round[k].stop = stream->stop_word();
      }
      const auto results = stream->run(round, detail::gpu::round_kind::sizes);
      for (std::uint32_t k = 0; k < count; ++k) {
        detail::gpu::check_result(results[k], round[k], detail::gpu::round_kind::sizes);
        const std::array<std::uint64_t, 2> bounds = detail::gpu::group_bounds(round[k]);
        for (int g = 0; g < 2; ++g) {
          EXPECT_GE(bounds[g], results[k].joined[g]) << "n = " << n << ", job " << first + k << ", group " << g;
        }
        empty += results[k].joined[0] == 0 || results[k].joined[1] == 0 ? 1 : 0;
        empty_by_host += bounds[0] == 0 || bounds[1] == 0 ? 1 : 0;
      }
    }
    if (n % 2 != 0) {
      EXPECT_GT(empty_by_host, 0U) << "n = " << n;
      EXPECT_GE(2 * empty_by_host, empty) << "n = " << n << ": the host found few of the empty groups";
    }
  }
}

// A call whose jobs' bounds fit the stream's arena together is sized on
// the host: no round of sizes, one round of counts of the jobs whose bounds
// are not 0, and the counts of jobs sized on the device. One whose bounds
// do not fit (a small arena) is sized on the device, as a stream that does
// not let the host size (a module built with NQUEENS_GPU_HOST_SIZES=0)
// sizes every call.
TEST(GpuEmulatedTest, ACallWhoseBoundsFitTakesNoRoundOfSizes) {
  for (const int n : round_boards) {
    const detail::half_board_tables tables(n);
    const counted_rounds reference = round_counts(tables, *detail::gpu::emulated_backend(tables));
    struct way {
      std::uint64_t arena_words;
      bool host_sizes, sized_on_host;
    };
    const detail::gpu::host_quarters host = gpu_testing::host_quarters_of(tables);
    for (const way w : {way{std::uint64_t{1} << 19, true, true}, way{std::uint64_t{1} << 11, true, false},
                        way{std::uint64_t{1} << 19, false, false}}) {
      const auto backend =
          detail::gpu::emulated_backend(tables, {.arena_words = w.arena_words, .host_sizes = w.host_sizes});
      const auto inner = backend->open_stream();
      recording_stream stream(*inner);
      detail::gpu::gpu_rounds rounds(stream);
      const std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, *backend);
      std::size_t bounded = 0;  // jobs the host bounds above 0 in both groups
      for (std::size_t first = 0; first < jobs.size(); first += stream.max_jobs()) {
        const auto call = std::span(jobs).subspan(first, std::min<std::size_t>(stream.max_jobs(), jobs.size() - first));
        std::vector<detail::gpu::pair_counts> counts(call.size());
        rounds.count(call, counts, nullptr, &host);
        for (std::size_t k = 0; k < call.size(); ++k) {
          EXPECT_EQ(counts[k].pairs, reference.counts[first + k].pairs) << "n = " << n << ", class " << first + k;
          EXPECT_EQ(counts[k].once, reference.counts[first + k].once) << "n = " << n << ", class " << first + k;
          const std::array<std::uint64_t, 2> bounds = detail::gpu::group_bounds(call[k]);
          bounded += bounds[0] != 0 && bounds[1] != 0 ? 1 : 0;
        }
      }
      const std::string way_named = "n = " + std::to_string(n) + ", " + std::to_string(w.arena_words) + " words" +
                                    (w.host_sizes ? "" : ", sized on the device");
      EXPECT_EQ(stream.empty_group.empty(), w.sized_on_host) << way_named << ": a round of sizes ran or none did";
      if (w.sized_on_host) EXPECT_EQ(stream.counted.size(), bounded) << way_named;
    }
    // Without the host's tables (whole-table jobs' arrays may be the
    // device's), sized on the device.
    const auto backend = detail::gpu::emulated_backend(tables);
    const auto inner = backend->open_stream();
    recording_stream stream(*inner);
    detail::gpu::gpu_rounds rounds(stream);
    const std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, *backend);
    const auto call = std::span(jobs).first(std::min<std::size_t>(stream.max_jobs(), jobs.size()));
    std::vector<detail::gpu::pair_counts> counts(call.size());
    rounds.count(call, counts);
    EXPECT_FALSE(stream.empty_group.empty()) << "n = " << n << ": no tables, and no round of sizes";
  }
}

// Calls sized on the host count what calls sized on the device count, job
// by job: where a join block reads a range whole rather than listed (a
// list limit of 3, of 0), where either group is sliced, on even and odd
// boards. A bound short of what a join keeps would fault the job (a group
// past its bound), and a call that fell back to a round of sizes would
// show in the rounds recorded.
TEST(GpuEmulatedTest, CallsSizedOnTheHostCountAsCallsSizedOnTheDevice) {
  for (const int n : {12, 13}) {
    const detail::half_board_tables tables(n);
    const detail::gpu::host_quarters host = gpu_testing::host_quarters_of(tables);
    const auto device_sized = detail::gpu::emulated_backend(tables, {.host_sizes = false});
    const auto host_sized = detail::gpu::emulated_backend(tables, {.arena_words = std::uint64_t{1} << 21});
    std::vector<detail::gpu::gpu_job> jobs;
    for (const detail::gpu::gpu_job& job : gpu_testing::jobs_of(tables, *host_sized)) {
      for (int sliced = -1; sliced < 2; ++sliced) {  // none, the north, the south
        detail::gpu::gpu_job piece = job;
        if (sliced >= 0) {
          piece.slices[sliced] = 2;
          piece.slice[sliced] = 1;
        }
        jobs.push_back(piece);
      }
    }
    for (const std::uint32_t limit : {detail::gpu::most_listed, 3U, 0U}) {
      for (detail::gpu::gpu_job& job : jobs) job.list_limit = limit;
      const auto reference_stream = device_sized->open_stream();
      detail::gpu::gpu_rounds reference_rounds(*reference_stream);
      std::vector<detail::gpu::pair_counts> reference(jobs.size());
      reference_rounds.count(jobs, reference);
      const auto inner = host_sized->open_stream();
      recording_stream stream(*inner);
      detail::gpu::gpu_rounds rounds(stream);
      for (std::size_t first = 0; first < jobs.size(); first += stream.max_jobs()) {
        const auto call = std::span(jobs).subspan(first, std::min<std::size_t>(stream.max_jobs(), jobs.size() - first));
        std::vector<detail::gpu::pair_counts> counts(call.size());
        rounds.count(call, counts, nullptr, &host);
        for (std::size_t k = 0; k < call.size(); ++k) {
          EXPECT_EQ(counts[k].pairs, reference[first + k].pairs)
              << "n = " << n << ", limit " << limit << ", job " << first + k;
          EXPECT_EQ(counts[k].once, reference[first + k].once)
              << "n = " << n << ", limit " << limit << ", job " << first + k;
        }
      }
      EXPECT_TRUE(stream.empty_group.empty()) << "n = " << n << ", limit " << limit << ": a round of sizes ran";
    }
  }
}

// Odd boards: the joins list the quarter placements that can make a half
// with the middle queen and join only those, a range at a time wherever it
// fits what the block's earlier ranges left of the job's list_limit.
// Whether every range is listed, some (a limit
// of 3: lists and whole ranges side by side, within a job and a block) or
// none, the counts are the same; listing never sizes a job larger, and
// sizes the board's jobs smaller.
TEST(GpuEmulatedTest, OddBoardsJoinOnlyTheQuarterPlacementsTheMiddleQueenAllows) {
  for (const int n : odd_boards) {
    const detail::half_board_tables tables(n);
    const auto backend = detail::gpu::emulated_backend(tables);
    const auto stream = backend->open_stream();
    const std::vector<detail::gpu::gpu_job> jobs = gpu_testing::jobs_of(tables, *backend);
    std::vector<detail::gpu::pair_counts> reference;
    for (const std::uint32_t limit : {detail::gpu::most_listed, 3U, 0U}) {
      std::vector<detail::gpu::gpu_job> limited = jobs;
      for (detail::gpu::gpu_job& job : limited) job.list_limit = limit;
      detail::gpu::gpu_rounds rounds(*stream);
      std::vector<detail::gpu::pair_counts> counts(limited.size());
      rounds.count(limited, counts);
      if (reference.empty()) reference = counts;
      for (std::size_t k = 0; k < counts.size(); ++k) {
        EXPECT_EQ(counts[k].pairs, reference[k].pairs) << "n = " << n << ", limit " << limit << ", class " << k;
        EXPECT_EQ(counts[k].once, reference[k].once) << "n = " << n << ", limit " << limit << ", class " << k;
      }
    }
    const std::vector<std::uint64_t> listed = joined_sizes(*stream, jobs, detail::gpu::most_listed);
    const std::vector<std::uint64_t> whole = joined_sizes(*stream, jobs, 0);
    std::uint64_t listed_total = 0, whole_total = 0;
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      EXPECT_LE(listed[k], whole[k]) << "n = " << n << ", class " << k;
      listed_total += listed[k];
      whole_total += whole[k];
    }
    EXPECT_LT(listed_total, whole_total) << "n = " << n;
  }
}

}  // namespace
}  // namespace nqueens
