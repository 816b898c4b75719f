// The GPU engine's kernels (gpu_kernels.hpp): every subproblem of small
// boards and samples of n = 16..18 against the quadrant engine's count, on
// the backend CTest names (NQUEENS_GPU: emulated on the CPU here and in CI,
// the device under scripts/gpu.sh); the join and count without the filter
// against brute force, and synthetic groups large enough to take key bits,
// emulated under several launch orders; the rounds (batches, memory
// budget, cut jobs, marks); the kernels' own checks, and the engine's
// refusals.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_device.hpp"
#include "engines/gpu/gpu_emulator.hpp"
#include "engines/gpu/gpu_kernels.hpp"
#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/gpu/gpu_rounds.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/quadrant_memory.hpp"
#include "engines/join_model/transposition.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quadrant_solve.hpp"
#include "kernels/bits.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/count.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/plan.hpp"

namespace nqueens {
namespace {

using detail::column_class;

// Sets NQUEENS_GPU for the life of a test, then puts back what was there.
class gpu_variable {
 public:
  /// `value` null: unset. `unless_set`: leave a value already there.
  explicit gpu_variable(const char* value, bool unless_set = false) {
    if (const char* old = std::getenv("NQUEENS_GPU")) old_ = old;
    if (unless_set && old_) return;
    if (value != nullptr) {
      ::setenv("NQUEENS_GPU", value, 1);
    } else {
      ::unsetenv("NQUEENS_GPU");
    }
  }
  ~gpu_variable() {
    if (old_) {
      ::setenv("NQUEENS_GPU", old_->c_str(), 1);
    } else {
      ::unsetenv("NQUEENS_GPU");
    }
  }
  gpu_variable(const gpu_variable&) = delete;
  gpu_variable& operator=(const gpu_variable&) = delete;

 private:
  std::optional<std::string> old_;
};

std::uint64_t disjoint_pairs(const std::vector<std::uint64_t>& north, const std::vector<std::uint64_t>& south) {
  std::uint64_t pairs = 0;
  for (const std::uint64_t a : north) {
    for (const std::uint64_t b : south) pairs += (a & b) == 0 ? 1 : 0;
  }
  return pairs;
}

// The solutions of one class, counted without the GPU engine's code: the
// quadrant engine's join for both groups (portable kernels), the middle
// queen and the turn of the south written out here, every pair tried.
std::uint64_t reference_count(const detail::half_board_tables& tables, const column_class& c) {
  const int n = tables.board_size(), h = n / 2;
  const std::uint32_t full = detail::low_bits(n);
  const std::uint32_t south_columns = full & ~c.north & (c.middle >= 0 ? ~(std::uint32_t{1} << c.middle) : full);
  const detail::quadrant_kernels& kernels = detail::quadrant_kernels_for(isa::portable);
  const auto halves = [&](std::uint32_t columns) {
    std::vector<std::uint64_t> out;
    const std::size_t count =
        detail::north_halves(kernels, tables.west().on(columns & detail::low_bits(h)), tables.east().on(columns >> h),
                             h, std::popcount(columns & detail::low_bits(h)), out);
    out.resize(count);
    return out;
  };
  std::vector<std::uint64_t> north = halves(c.north), south;
  const std::uint64_t queen = c.middle >= 0 ? detail::north_mask(1U << c.middle, 1U << c.middle) : 0;
  std::erase_if(north, [&](std::uint64_t m) { return (m & queen) != 0; });
  for (const std::uint64_t m : halves(south_columns)) {
    const std::uint64_t turned =
        c.middle >= 0 ? std::rotl(m, 32)
                      : detail::south_mask(static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(m >> 32), full);
    if ((turned & queen) == 0) south.push_back(turned);
  }
  return disjoint_pairs(north, south) * c.weight;
}

// The classes of board n, in plan order (the GPU plan of split depth 1 has
// one subproblem per class, in this order).
std::vector<column_class> classes_of(int n) {
  std::vector<column_class> out;
  detail::column_classes(n).for_each([&](const column_class& c) { out.push_back(c); });
  return out;
}

// Per subproblem, the GPU engine counts what the quadrant engine counts: its
// class's share under the transposition filter (2 per pair whose transposed
// class ranks higher, 1 per tie), ties of every kind included. The quadrant
// engine's shares are checked against an independent search in
// transposition_test.cpp.
void expect_quadrant_counts(int n, const std::vector<std::size_t>& indices) {
  const plan gpu(n, {.kind = engine::gpu, .split_depth = 1});
  const plan quadrant(n, {.kind = engine::quadrant, .split_depth = 1});
  ASSERT_EQ(gpu.engine_subproblems(), quadrant.engine_subproblems()) << "n = " << n;
  const run_context on_gpu(gpu, std::nullopt, 1), on_cpu(quadrant, std::nullopt, 1);
  for (const std::size_t i : indices) {
    ASSERT_EQ(on_gpu.solve(i).total, on_cpu.solve(i).total) << "n = " << n << ", subproblem " << i;
  }
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
      detail::gpu::gpu_job job = detail::gpu::job_for({c.north, c.middle, c.weight, 0}, 1, tables, *backend);
      job.rule = {};
      jobs.push_back(job);
      expected.push_back(reference_count(tables, c) / c.weight);
    }
    std::vector<detail::gpu::pair_counts> counts(jobs.size());
    rounds.count(jobs, counts);  // every class of the board in rounds of up to 64
    for (std::size_t k = 0; k < jobs.size(); ++k) ASSERT_EQ(counts[k].pairs, expected[k]) << "n = " << n << ", " << k;
  }
}

struct counted_rounds {
  std::vector<detail::gpu::pair_counts> counts;
  device_work work;
};

// The pair counts of every class of n, in rounds on `backend`'s stream.
counted_rounds round_counts(const detail::half_board_tables& tables, detail::gpu::gpu_backend& backend) {
  const auto stream = backend.open_stream();
  detail::gpu::gpu_rounds rounds(*stream);
  std::vector<detail::gpu::gpu_job> jobs;
  for (const column_class& c : classes_of(tables.board_size())) {
    jobs.push_back(detail::gpu::job_for({c.north, c.middle, c.weight, 0}, 1, tables, backend));
  }
  std::vector<detail::gpu::pair_counts> counts(jobs.size());
  rounds.count(jobs, counts);
  return {counts, stream->work()};
}

// Whatever order the blocks and threads run in, however few blocks a
// launch has, the counts are the same: the kernels assume no order within
// a phase or between blocks, and nothing of shared memory from an item before.
TEST(GpuEmulatedTest, CountsDoNotDependOnTheLaunchOrder) {
  for (const int n : {12, 13}) {
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

// A stream too small for the round's jobs together takes them in several
// rounds, and one too small for a job alone cuts it by row sets: the counts
// are the same. One too small for a single row set's halves refuses, saying so.
TEST(GpuEmulatedTest, AStreamsMemoryBoundsItsRoundsAndCutsLargeJobs) {
  for (const int n : {12, 13}) {
    const detail::half_board_tables tables(n);
    const counted_rounds reference = round_counts(tables, *detail::gpu::emulated_backend(tables));
    // Rounds of 5 jobs with room to spare, then rounds cut short by the
    // memory and jobs cut by row sets: more rounds each time.
    std::uint64_t rounds_before = reference.work.operations;
    for (const std::uint64_t words : {std::uint64_t{1} << 19, std::uint64_t{400}}) {
      const counted_rounds cut =
          round_counts(tables, *detail::gpu::emulated_backend(tables, {.max_jobs = 5, .arena_words = words}));
      EXPECT_GT(cut.work.operations, rounds_before) << "n = " << n << ", " << words << " words";
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

// A stream takes what its rounds can use, not all that is free: 16 streams
// of a small count once took all of an H100's 80 GB, and a second process
// on the device failed its first allocation. Processes sharing the device
// (ranks of a node) stay within a like part of it together.
TEST(GpuKernelsTest, AStreamTakesItsShareOfTheDeviceNotAllOfIt) {
  using detail::gpu::device_memory;
  using detail::gpu::most_useful_stream_bytes;
  using detail::gpu::stream_share;
  constexpr std::uint64_t gib = std::uint64_t{1} << 30, mib = std::uint64_t{1} << 20;
  // A round of round_jobs jobs twice the largest group's size fits.
  for (const int n : {12, 18, 22, 24}) {
    const double largest = detail::largest_group_halves(n);
    const std::uint64_t useful = most_useful_stream_bytes(largest);
    const auto halves = static_cast<std::uint64_t>(largest);
    EXPECT_GE(useful, 2 * detail::gpu::round_jobs * 8 * detail::gpu::gpu_rounds::words_for(halves, halves)) << n;
    EXPECT_GE(useful, 64 * mib) << n;
    if (n > 12) EXPECT_GT(useful, most_useful_stream_bytes(detail::largest_group_halves(n - 2))) << n;
  }
  const std::uint64_t small = most_useful_stream_bytes(detail::largest_group_halves(12));
  EXPECT_EQ(small, 64 * mib);
  // One process, a small count: 64 MiB a stream, far from the 79 GB free.
  EXPECT_EQ(stream_share(device_memory{79 * gib, 80 * gib, 0, 1}, 16, small), 64 * mib);
  // A large count: what is free less a sixteenth, shared by the streams.
  EXPECT_EQ(stream_share(device_memory{64 * gib, 80 * gib, 0, 1}, 16, UINT64_MAX), 60 * gib / 16);
  // Two and three ranks on one device: each within its part, tables counted.
  for (const int sharers : {2, 3}) {
    const device_memory m{79 * gib, 80 * gib, 2 * gib, sharers};
    const std::uint64_t each = stream_share(m, 16, UINT64_MAX);
    EXPECT_GT(each, 0u);
    EXPECT_LE(sharers * (16 * each + m.tables), m.total - m.free / 16) << sharers << " ranks";
  }
  // Too little free: nothing, and the stream refuses (gpu_device.cu).
  EXPECT_EQ(stream_share(device_memory{256 * mib, 80 * gib, 0, 1}, 4, UINT64_MAX), 0u);
  EXPECT_EQ(stream_share(device_memory{79 * gib, 80 * gib, 50 * gib, 2}, 4, UINT64_MAX), 0u);
}

// The emulator's orders run every thread of a phase once, and every block
// of a launch once, whatever the draw.
TEST(GpuKernelsTest, EmulatedOrdersArePermutations) {
  detail::gpu::launch_order order(9, 13);
  for (int draw = 0; draw < 50; ++draw) {
    const auto threads = order.threads();
    std::set<std::uint32_t> seen;
    for (std::uint32_t k = 0; k < detail::gpu::block_threads; ++k) seen.insert(threads[k]);
    EXPECT_EQ(seen.size(), detail::gpu::block_threads);
    EXPECT_LT(*seen.rbegin(), detail::gpu::block_threads);
    const auto blocks = order.blocks(13);
    EXPECT_EQ(std::set<std::uint32_t>(blocks.begin(), blocks.end()).size(), 13U);
  }
}

// Every item of a round's jobs goes to exactly one block, whatever the grid.
TEST(GpuKernelsTest, ForEachItemDealsEveryItemOnce) {
  std::vector<detail::gpu::gpu_job> jobs(9);
  for (std::size_t j = 0; j < jobs.size(); ++j) jobs[j].row_sets[0] = static_cast<std::uint32_t>((j * 7) % 5);
  std::uint32_t total = 0;
  for (const auto& job : jobs) total += detail::gpu::size_kernel::items(job);
  for (const std::uint32_t grid : {1U, 2U, 3U, 7U, 40U}) {
    std::map<std::pair<const detail::gpu::gpu_job*, std::uint32_t>, int> seen;
    for (std::uint32_t block = 0; block < grid; ++block) {
      detail::gpu::for_each_item<detail::gpu::size_kernel>(jobs.data(), static_cast<std::uint32_t>(jobs.size()), block,
                                                           grid,
                                                           [&](const detail::gpu::gpu_job& job, std::uint32_t item) {
                                                             EXPECT_LT(item, detail::gpu::size_kernel::items(job));
                                                             ++seen[{&job, item}];
                                                           });
    }
    EXPECT_EQ(seen.size(), total) << "grid " << grid;
    for (const auto& [where, times] : seen) EXPECT_EQ(times, 1) << "grid " << grid;
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

// Masks drawn like real halves (each diagonal set with its own chance), in
// groups large enough for the key (south halves fill a table block on
// average per key), counted by the kernels from the stats on.
struct synthetic_groups {
  std::vector<std::uint64_t> north, south;
};

synthetic_groups draw_groups(std::size_t north, std::size_t south, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<double> chance(64);
  for (int b = 0; b < 64; ++b) chance[b] = (b % 32) < 22 ? 0.05 + 0.3 * unit(random) : 0;  // 44 live bits
  const auto draw = [&](std::size_t count) {
    std::vector<std::uint64_t> out(count);
    for (std::uint64_t& m : out) {
      for (int b = 0; b < 64; ++b) m |= std::uint64_t{unit(random) < chance[b]} << b;
    }
    return out;
  };
  return {draw(north), draw(south)};
}

struct kernels_left {
  detail::gpu::job_state state;
  detail::gpu::job_result result;
};

// Runs every kernel after the join on `groups` as one job (launch order from
// `seed`); returns its state and result.
kernels_left count_with_kernels(synthetic_groups groups, std::uint64_t seed = 1) {
  using namespace detail::gpu;
  gpu_job job;
  job.sequence = 77;
  auto state = std::make_unique<job_state>();
  auto result = std::make_unique<job_result>();
  job.result = result.get();
  std::vector<std::uint64_t> codes[2] = {std::vector<std::uint64_t>(groups.north.size() + 1),
                                         std::vector<std::uint64_t>(groups.south.size() + 1)};
  groups.north.push_back(0);  // the slot past the end, as the streams keep
  groups.south.push_back(0);
  job.halves[0] = groups.north.data();
  job.halves[1] = groups.south.data();
  job.codes[0] = codes[0].data();
  job.codes[1] = codes[1].data();
  job.capacity[0] = static_cast<std::uint32_t>(groups.north.size() - 1);
  job.capacity[1] = static_cast<std::uint32_t>(groups.south.size() - 1);
  job.state = state.get();
  auto shared_stats = std::make_unique<stats_kernel::shared>();
  auto shared_layout = std::make_unique<layout_kernel::shared>();
  auto shared_scan = std::make_unique<scan_kernel::shared>();
  auto shared_visit = std::make_unique<visit_kernel::shared>();
  no_shared none{};
  launch_order order(seed, 5);
  const std::span<const gpu_job> round(&job, 1);
  emulate_launch<clear_kernel>(round, 1, order, none);
  state->group_size[0] = job.capacity[0];  // as the join leaves them
  state->group_size[1] = job.capacity[1];
  emulate_launch<stats_kernel>(round, 5, order, *shared_stats);
  emulate_launch<layout_kernel>(round, 1, order, *shared_layout);
  emulate_launch<encode_kernel>(round, 5, order, none);
  emulate_launch<scan_kernel>(round, 1, order, *shared_scan);
  emulate_launch<scatter_kernel>(round, 5, order, none);
  emulate_launch<visit_kernel>(round, 5, order, *shared_visit);
  emulate_launch<finish_kernel>(round, 1, order, none);
  return {*state, *result};
}

TEST(GpuKernelsTest, KeyedCountMatchesBruteForce) {
  for (const auto& [north, south, least_key_bits] :
       {std::tuple<std::size_t, std::size_t, std::uint32_t>{3000, 40000, 6}, {257, 70000, 7}, {5000, 2000, 1}}) {
    const synthetic_groups groups = draw_groups(north, south, north + south);
    for (const std::uint64_t seed : {1, 2}) {
      const auto [state, result] = count_with_kernels(groups, seed);
      EXPECT_EQ(result.mark, detail::gpu::finished_mark ^ 77U) << north << " x " << south;
      EXPECT_GE(state.layout.key_bits, least_key_bits) << north << " x " << south;
      EXPECT_GT(state.layout.digits, 0U);
      EXPECT_EQ(result.pairs, disjoint_pairs(groups.north, groups.south)) << north << " x " << south;
    }
  }
}

TEST(GpuKernelsTest, EmptyAndOddSizedGroupsCountExactly) {
  for (const auto& [north, south] : {std::pair<std::size_t, std::size_t>{0, 300}, {300, 0}, {1, 1}, {31, 513}}) {
    const synthetic_groups groups = draw_groups(north, south, 7);
    const auto [state, result] = count_with_kernels(groups);
    EXPECT_EQ(result.mark, detail::gpu::finished_mark ^ 77U);
    EXPECT_EQ(result.pairs, disjoint_pairs(groups.north, groups.south)) << north << " x " << south;
  }
}

// The key takes the bits most likely to collide: with one bit set in every
// half of both groups, that bit leads.
TEST(GpuKernelsTest, TheKeyLeadsWithTheLikeliestCollision) {
  synthetic_groups groups = draw_groups(600, 5000, 3);
  for (std::uint64_t& m : groups.north) m |= std::uint64_t{1} << 40;
  for (std::uint64_t& m : groups.south) m |= std::uint64_t{1} << 40;
  const auto [state, result] = count_with_kernels(groups);
  ASSERT_GE(state.layout.key_bits, 1U);
  EXPECT_EQ(state.layout.position[0], 40);
  EXPECT_EQ(result.pairs, 0U);
}

// The visit's reads of its tables: the lanes of a warp share a row (their
// north half's digit) and each reads its own word, so the 32 lanes read 32
// different banks of 4 bytes: no conflict, whatever the digit.
TEST(GpuKernelsTest, AWarpsTableReadsHitEveryBankOnce) {
  using detail::gpu::visit_kernel;
  auto shared = std::make_unique<visit_kernel::shared>();
  const auto base = reinterpret_cast<std::uintptr_t>(shared.get());
  for (std::uint32_t d = 0; d < detail::gpu::max_digits; ++d) {
    for (std::uint32_t v = 0; v < detail::gpu::digit_values; ++v) {
      std::set<std::uintptr_t> banks;
      for (std::uint32_t lane = 0; lane < detail::gpu::warp_lanes; ++lane) {
        banks.insert((reinterpret_cast<std::uintptr_t>(&shared->table[d][v][lane]) - base) / 4 % 32);
      }
      ASSERT_EQ(banks.size(), 32U) << "digit " << d << ", value " << v;
    }
  }
}

// The bit rows' reads of the south codes: each word's thread reads all 32 of
// its halves, and at each step the 16 lanes of each half warp read 8-byte
// codes in distinct bank pairs (all in one bank, they took 32 wavefronts).
TEST(GpuKernelsTest, BitRowsReadsHitDistinctBankPairs) {
  using detail::gpu::visit_kernel;
  using detail::gpu::warp_lanes;
  auto shared = std::make_unique<visit_kernel::shared>();
  const auto base = reinterpret_cast<std::uintptr_t>(shared.get());
  for (std::uint32_t w = 0; w < detail::gpu::words_per_block; ++w) {
    std::set<std::uint32_t> halves;
    for (std::uint32_t step = 0; step < 32; ++step) halves.insert(visit_kernel::bit_rows_slot(w, step));
    ASSERT_EQ(halves.size(), 32U) << "word " << w;
    ASSERT_EQ(*halves.begin(), w * 32) << "word " << w;
    ASSERT_EQ(*halves.rbegin(), w * 32 + 31) << "word " << w;
  }
  for (std::uint32_t step = 0; step < 32; ++step) {
    for (std::uint32_t half_warp = 0; half_warp < 2; ++half_warp) {
      std::set<std::uintptr_t> pairs;
      for (std::uint32_t lane = half_warp * warp_lanes / 2; lane < (half_warp + 1) * warp_lanes / 2; ++lane) {
        const std::uint64_t* code = &shared->south[visit_kernel::bit_rows_slot(lane, step)];
        pairs.insert((reinterpret_cast<std::uintptr_t>(code) - base) / 8 % 16);
      }
      ASSERT_EQ(pairs.size(), 16U) << "step " << step << ", half warp " << half_warp;
    }
  }
}

// A count is returned only with its job's mark for its round: a result the
// kernels did not reach, one left from an earlier round (another sequence
// number), one of the other kind of round, or one where a check failed, is
// an error naming it.
TEST(GpuKernelsTest, UnfinishedStaleOrFaultedResultsAreErrors) {
  using detail::gpu::round_kind;
  detail::gpu::job_result result{};
  detail::gpu::gpu_job job;
  job.sequence = 5;
  EXPECT_THROW(detail::gpu::check_result(result, job, round_kind::counts), std::runtime_error);
  result.mark = detail::gpu::finished_mark ^ 4U;  // the round before
  EXPECT_THROW(detail::gpu::check_result(result, job, round_kind::counts), std::runtime_error);
  result.mark = detail::gpu::sized_mark ^ 5U;
  EXPECT_THROW(detail::gpu::check_result(result, job, round_kind::counts), std::runtime_error);
  EXPECT_NO_THROW(detail::gpu::check_result(result, job, round_kind::sizes));
  result.mark = detail::gpu::finished_mark ^ 5U;
  EXPECT_NO_THROW(detail::gpu::check_result(result, job, round_kind::counts));
  result.fault = static_cast<std::uint32_t>(detail::gpu::job_fault::group_past_bound);
  try {
    detail::gpu::check_result(result, job, round_kind::counts);
    ADD_FAILURE() << "a faulted result passed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("outgrew its bound"), std::string::npos) << e.what();
  }
}

// The size round gives each group exactly the halves its joins make (the
// filter set aside, every half is kept); a bound one half too small: the
// join notices, and the round refuses to return a count.
TEST(GpuKernelsTest, AGroupPastItsBoundIsAnError) {
  using namespace detail::gpu;
  const detail::half_board_tables tables(12);
  const auto backend = emulated_backend(tables);
  const auto stream = backend->open_stream();
  const column_class c = classes_of(12)[5];
  gpu_job job = job_for({c.north, -1, c.weight, 0}, 1, tables, *backend);
  job.rule = {};  // every half kept: the group's size is the join's
  std::vector<std::uint64_t> halves;
  const std::size_t joined =
      detail::north_halves(detail::quadrant_kernels_for(isa::portable), tables.west().on(c.north & 63),
                           tables.east().on(c.north >> 6), 6, std::popcount(c.north & 63U), halves);
  ASSERT_GT(joined, 0U);
  job.state = stream->state(0);
  job.result = stream->result(0);
  job.sequence = 1;
  EXPECT_EQ(stream->run({&job, 1}, round_kind::sizes)[0].joined[0], joined);
  const auto counted = [&](std::uint32_t north_capacity) {
    job.sequence += 1;
    job.capacity[0] = north_capacity;
    job.capacity[1] = static_cast<std::uint32_t>(stream->arena_words() / 4);
    job.halves[0] = stream->arena();
    job.codes[0] = job.once_list[0] = job.halves[0] + north_capacity + 1;
    job.halves[1] = job.codes[0] + north_capacity + 1;
    job.codes[1] = job.once_list[1] = job.halves[1] + job.capacity[1] + 1;
    const job_result result = stream->run({&job, 1}, round_kind::counts)[0];
    check_result(result, job, round_kind::counts);
    return result.pairs * c.weight;
  };
  EXPECT_THROW(counted(static_cast<std::uint32_t>(joined - 1)), std::runtime_error);
  EXPECT_EQ(counted(static_cast<std::uint32_t>(joined)), reference_count(tables, c));  // exactly enough
}

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
  std::vector<detail::gpu::gpu_job> jobs;
  for (const column_class& c : classes_of(13)) {
    jobs.push_back(detail::gpu::job_for({c.north, c.middle, c.weight, 0}, 1, tables, *backend));
  }
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
