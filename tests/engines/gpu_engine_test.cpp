// The GPU engine's counts (gpu_engine.cpp), on the backend CTest names
// (NQUEENS_GPU: emulated on the CPU here and in CI, the device under
// scripts/gpu.sh): every subproblem of small boards and samples of
// n = 16..18 against the quadrant engine's count, the join and count
// without the filter against brute force, slices against their class, and
// the engine's refusals.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <span>
#include <string_view>
#include <vector>

#include "engines/gpu/gpu_device_loader.hpp"
#include "nqueens/memory.hpp"
#include "support/gpu_testing.hpp"

namespace nqueens {
namespace {

using detail::column_class;
using gpu_testing::classes_of;
using gpu_testing::gpu_variable;
using gpu_testing::reference_count;

// Per subproblem, the GPU engine counts what the quadrant engine counts: its
// class's share under the transposition filter (2 per pair whose transposed
// class ranks higher, 1 per tie), ties of every kind included. The quadrant
// engine's shares are checked against an independent search in
// transposition_test.cpp.
// `max_memory`: the host's bound (0: the default); one the whole tables do
// not fit makes each subproblem bring its own quarter lists, and the lists
// are then checked to have been built.
// `pick` chooses the indices from the plans' number of engine subproblems
// (each plan of n = 28 takes a second or two to build: built once here).
void expect_quadrant_counts(int n, const std::function<std::vector<std::size_t>(std::size_t)>& pick,
                            std::uint64_t max_memory = 0) {
  const plan gpu(n, {.kind = engine::gpu, .split_depth = 1});
  const plan quadrant(n, {.kind = engine::quadrant, .split_depth = 1});
  ASSERT_EQ(gpu.engine_subproblems(), quadrant.engine_subproblems()) << "n = " << n;
  const std::vector<std::size_t> indices = pick(gpu.engine_subproblems());
  const run_context on_gpu(gpu, std::nullopt, 1, nullptr, max_memory), on_cpu(quadrant, std::nullopt, 1);
  for (const std::size_t i : indices) {
    ASSERT_EQ(on_gpu.solve(i).total, on_cpu.solve(i).total) << "n = " << n << ", subproblem " << i;
  }
  if (max_memory != 0 && !indices.empty()) {
    EXPECT_GT(on_gpu.device().host_list_nanoseconds, 0U) << "n = " << n << ": the whole tables fit the bound";
  }
}

void expect_quadrant_counts(int n, const std::vector<std::size_t>& indices, std::uint64_t max_memory = 0) {
  expect_quadrant_counts(
      n, [&](std::size_t) { return indices; }, max_memory);
}

// A host bound under every layout's margin: small boards' subproblems then
// bring their own (compact) quarter lists, as n > 24's do.
constexpr std::uint64_t own_lists_bound = std::uint64_t{1} << 20;

// A host bound that leaves small boards no whole tables but room past the
// margin (8 MiB and 10%) for 8 subproblems' own lists: the GPU engine's
// calls then hold 8 (gpu_engine.cpp's own_quarters_batch).
std::uint64_t eight_lists_bound(int n) {
  return (std::uint64_t{8} << 20) + 9 * detail::quarter_lists_bytes(n, /*compact=*/false) + 4096;
}

TEST(GpuEmulatedTest, EverySubproblemOfSmallBoardsMatchesTheQuadrantEngine) {
  const gpu_variable backend("emulate", /*unless_set=*/true);  // the device where CTest says so (scripts/gpu.sh)
  for (int n = 1; n <= 14; ++n) {
    std::vector<std::size_t> every(classes_of(n).size());
    for (std::size_t i = 0; i < every.size(); ++i) every[i] = i;
    expect_quadrant_counts(n, every);
  }
}

TEST(GpuEmulatedTest, SampledSubproblemsOfSixteenToEighteenMatchTheQuadrantEngine) {
  const gpu_variable backend("emulate", /*unless_set=*/true);
  for (int n = 16; n <= 18; ++n) {
    const std::size_t classes = classes_of(n).size();
    std::mt19937_64 random(static_cast<std::uint64_t>(n));
    std::uniform_int_distribution<std::size_t> pick(0, classes - 1);
    std::vector<std::size_t> sample;
    for (int k = 0; k < 8; ++k) sample.push_back(pick(random));
    expect_quadrant_counts(n, sample);
  }
}

// Where the whole tables do not fit the host's bound (1 MiB at 8..13: compact
// lists; 10 MiB at 16 and 17: lists of one search), each subproblem brings
// its own quarter lists, staged on the device with its round: every
// subproblem of the boards 8..13 and samples of 16..17 count as the
// quadrant engine's do.
TEST(GpuEmulatedTest, SubproblemsWithTheirOwnQuartersMatchTheQuadrantEngine) {
  const gpu_variable backend("emulate", /*unless_set=*/true);
  constexpr std::uint64_t bound = std::uint64_t{10} << 20;
  for (int n = 8; n <= 13; ++n) {
    std::vector<std::size_t> every(classes_of(n).size());
    for (std::size_t i = 0; i < every.size(); ++i) every[i] = i;
    expect_quadrant_counts(n, every, own_lists_bound);
  }
#ifndef NQUEENS_SANITIZED  // 5-10 times slower there: the small boards take the same paths
  for (int n = 16; n <= 17; ++n) {
    std::mt19937_64 random(static_cast<std::uint64_t>(n));
    std::uniform_int_distribution<std::size_t> pick(0, classes_of(n).size() - 1);
    std::vector<std::size_t> sample;
    for (int k = 0; k < 6; ++k) sample.push_back(pick(random));
    expect_quadrant_counts(n, sample, bound);
  }
#endif
}

// A call of several subproblems with their own lists (as a count makes
// them, batch_size at a time) shares the lists its jobs have in common: a
// plan's neighbours keep their east columns for hundreds of subproblems.
// Every subproblem of 8..13 (8..11 under the sanitizers) counts as the
// quadrant engine's does in calls of consecutive indices, in calls of
// indices far apart, and in calls of two whose west columns on one side
// are, as a number, the east columns of the other's (the same bits, other
// board columns: a list that must not stand in for the other). And a call of one subproblem twice stages its
// lists once: as many stream operations as the call of it alone (the
// second job's lists are the first's, and a round stages a list once).
TEST(GpuEmulatedTest, ACallsJobsShareTheirCommonListsAndCountAsAlone) {
  const gpu_variable backend("emulate", /*unless_set=*/true);
  std::size_t crossed = 0;
  int doubled = 0;
#ifdef NQUEENS_SANITIZED
  constexpr int largest_board = 11;  // 5-10 times slower there: the larger boards take the same paths
#else
  constexpr int largest_board = 13;
#endif
  for (int n = 8; n <= largest_board; ++n) {
    const plan gpu(n, {.kind = engine::gpu, .split_depth = 1});
    const plan quadrant(n, {.kind = engine::quadrant, .split_depth = 1});
    const run_context on_gpu(gpu, std::nullopt, 1, nullptr, eight_lists_bound(n)), on_cpu(quadrant, std::nullopt, 1);
    const std::size_t call = on_gpu.batch_size();
    ASSERT_GT(call, 1U) << "n = " << n << ": a call of one job shares nothing";
    std::vector<std::vector<std::size_t>> calls;
    const std::size_t size = gpu.engine_subproblems();
    for (std::size_t first = 0; first < size; first += call) {
      calls.emplace_back();
      for (std::size_t i = first; i < std::min(size, first + call); ++i) calls.back().push_back(i);
    }
    // Every subproblem once more, a call's indices far apart (a stride
    // coprime to the size).
    std::size_t stride = size / 2 + 1;
    while (std::gcd(stride, size) != 1) ++stride;
    for (std::size_t first = 0, at = 0; first < size; first += call) {
      calls.emplace_back();
      for (std::size_t i = first; i < std::min(size, first + call); ++i, at = (at + stride) % size) {
        calls.back().push_back(at);
      }
    }
    // Each group's west and east columns, as numbers of h bits.
    const int h = n / 2;
    const auto sides = [&](const column_class& c, int east) {
      const std::uint32_t south = detail::south_columns_of(n, c.north, c.middle);
      return east != 0 ? std::array{c.north >> h, south >> h}
                       : std::array{c.north & ((1U << h) - 1), south & ((1U << h) - 1)};
    };
    const std::vector<column_class> classes = classes_of(n);
    ASSERT_EQ(classes.size(), size);
    for (std::size_t i = 0; i < size; ++i) {
      for (std::size_t j = 0; j < size; ++j) {
        const auto west = sides(classes[i], 0), east = sides(classes[j], 1);
        if (i != j && std::ranges::find_first_of(west, east) != west.end()) {
          calls.push_back({i, j});
          ++crossed;
          break;
        }
      }
    }
    std::vector<subproblem_count> counts(call);
    for (const std::vector<std::size_t>& indices : calls) {
      on_gpu.solve(indices, std::span(counts).first(indices.size()));
      for (std::size_t k = 0; k < indices.size(); ++k) {
        ASSERT_EQ(counts[k].total, on_cpu.solve(indices[k]).total) << "n = " << n << ", subproblem " << indices[k];
      }
    }
    EXPECT_GT(on_gpu.device().host_list_nanoseconds, 0U) << "n = " << n << ": the whole tables fit the bound";
    // Subproblems with solutions (their count rounds stage lists too), alone and twice.
    for (std::size_t i = size / 2, tried = 0; i < size && tried < 3; ++i) {
      if (on_cpu.solve(i).total == 0) continue;
      ++tried;
      const std::array<std::size_t, 2> twice = {i, i};
      const auto operations_of = [&](std::span<const std::size_t> indices) {
        const std::uint64_t before = on_gpu.device().operations;
        on_gpu.solve(indices, std::span(counts).first(indices.size()));
        return on_gpu.device().operations - before;
      };
      EXPECT_EQ(operations_of(std::span(twice)), operations_of(std::span(twice).first(1))) << "n = " << n << ", " << i;
      EXPECT_EQ(counts[0].total, on_cpu.solve(i).total);
      ++doubled;
    }
  }
  EXPECT_GT(crossed, 0U);  // the boards have such pairs
  EXPECT_GT(doubled, 0);
}

// Past n = 24 (no whole tables: each subproblem's own quarters, masks up to
// bit 56): a subproblem of n = 25 counts as the quadrant engine's does. One
// near the plan's end, whose groups are small enough for the emulator (4 s).
TEST(GpuEmulatedTest, ASubproblemPastTwentyFourMatchesTheQuadrantEngine) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "a minute under the sanitizers: the smaller boards' own lists cover the same code";
#endif
  const gpu_variable backend("emulate", /*unless_set=*/true);
  expect_quadrant_counts(25, {16798551});
}

// n = 26 to 28 (masks up to bit 59; n = 28's codes take ten digits and its
// own visit): the plan's last subproblems, whose groups the emulator
// counts in seconds, count as the quadrant engine's do; on a device
// (scripts/gpu.sh device), n = 26's middle one too (6 s of the quadrant
// engine's; n = 28's at 95% of its plan takes it 48 s, past what the
// device's test part allows).
TEST(GpuEmulatedTest, SubproblemsOfTwentySixToTwentyEightMatchTheQuadrantEngine) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "minutes under the sanitizers: n = 25's subproblem takes the same paths";
#endif
  const gpu_variable backend("emulate", /*unless_set=*/true);
  const char* const chosen = std::getenv("NQUEENS_GPU");
  const bool device = chosen != nullptr && std::string_view(chosen) == "device";
  for (int n = 26; n <= 28; ++n) {
    expect_quadrant_counts(n, [&](std::size_t size) {
      std::vector<std::size_t> indices{size - 1};
      if (device && n == 26) indices.push_back(size / 2);
      return indices;
    });
  }
}

// The join and the count alone (the filter set aside: every pair once)
// against an independent count: the quadrant engine's join, every pair tried.
TEST(GpuEmulatedTest, WithoutTheFilterEveryPairMatchesBruteForce) {
  for (int n = 9; n <= 13; ++n) {
    const detail::half_board_tables tables(n);
    const auto backend = detail::gpu::emulated_backend(tables);
    const auto stream = backend->open_stream();
    detail::gpu::gpu_rounds rounds(*stream);
    std::vector<detail::gpu::gpu_job> jobs;
    std::vector<std::uint64_t> expected;
    for (const column_class& c : classes_of(n)) {
      detail::gpu::gpu_job job =
          detail::gpu::job_for({c.north, c.middle, c.weight, 0}, tables.board_size(), 1, *backend);
      job.rule = {};
      jobs.push_back(job);
      expected.push_back(reference_count(tables, c) / c.weight);
    }
    std::vector<detail::gpu::pair_counts> counts(jobs.size());
    rounds.count(jobs, counts);  // every class of the board in rounds of up to 64
    for (std::size_t k = 0; k < jobs.size(); ++k) ASSERT_EQ(counts[k].pairs, expected[k]) << "n = " << n << ", " << k;
  }
}

// A class cut in slices by north row set: the slices add up to the class,
// and each slice's count is the same on every run.
TEST(GpuEmulatedTest, SlicesAddUpToTheirClass) {
  const gpu_variable backend("emulate", /*unless_set=*/true);  // the device where CTest says so (scripts/gpu.sh)
  for (int n = 8; n <= 12; ++n) {
    const plan whole(n, {.kind = engine::gpu, .split_depth = 1});
    const plan sliced(n, {.kind = engine::gpu, .split_depth = 3});
    ASSERT_EQ(sliced.engine_subproblems(), 3 * whole.engine_subproblems());
    EXPECT_NE(whole.fingerprint(), sliced.fingerprint());
    const run_context a(whole, std::nullopt, 1), b(sliced, std::nullopt, 1);
    for (std::size_t i = 0; i < whole.engine_subproblems(); ++i) {
      const std::uint64_t parts = b.solve(3 * i).total + b.solve(3 * i + 1).total + b.solve(3 * i + 2).total;
      EXPECT_EQ(parts, a.solve(i).total) << "n = " << n << ", class " << i;
      EXPECT_EQ(b.solve(3 * i + 1).total, b.solve(3 * i + 1).total);
    }
  }
}

TEST(GpuEngineTest, AutoNeverPicksIt) {
  for (int n = 1; n <= 28; ++n) {
    EXPECT_NE(fastest_engine(n), engine::gpu) << n;
    EXPECT_NE(fastest_engine(n, std::uint64_t{1} << 40), engine::gpu) << n;
    EXPECT_NE(shared_plan_engine(n), engine::gpu) << n;
  }
}

// Without a usable GPU the engine refuses before counting, in one line
// that says why; a backend name that means nothing is refused by name.
TEST(GpuEngineTest, RefusesWithoutAUsableGpu) {
  {
    const gpu_variable device(nullptr);
    if (detail::gpu::probe_device().usable) GTEST_SKIP() << "this machine has a GPU";
    try {
      count(8, {.kind = engine::gpu});
      ADD_FAILURE() << "counted without a GPU";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("--engine gpu needs an NVIDIA GPU: "), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      // It says what is missing, not that a driver is old (none is installed here).
      EXPECT_EQ(what.find("insufficient"), std::string::npos) << what;
    }
  }
  const gpu_variable wrong("cpu");
  try {
    count(8, {.kind = engine::gpu});
    ADD_FAILURE() << "NQUEENS_GPU=cpu accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("NQUEENS_GPU='cpu'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace nqueens
