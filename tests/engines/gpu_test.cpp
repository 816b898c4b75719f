// The GPU engine's kernels (gpu_kernels.hpp): every subproblem of small
// boards and samples of n = 16..18 against the quadrant engine's count, on
// the backend CTest names (NQUEENS_GPU: emulated on the CPU here and in CI,
// the device under scripts/gpu.sh); the join and count without the filter
// against brute force, and synthetic groups large enough to take key bits,
// emulated; the kernels' own checks, and the engine's refusals.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
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
#include "engines/quadrant/column_classes.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/transposition.hpp"
#include "kernels/bits.hpp"
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
        kernels.north_halves(tables.west().on(columns & detail::low_bits(h)), tables.east().on(columns >> h), h,
                             std::popcount(columns & detail::low_bits(h)), out);
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
    for (const column_class& c : classes_of(n)) {
      detail::gpu::gpu_job job = detail::gpu::job_for({c.north, c.middle, c.weight, 0}, 1, tables, *backend);
      job.rule = {};
      ASSERT_EQ(stream->pairs(job).pairs * c.weight, reference_count(tables, c)) << "n = " << n;
    }
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

// Runs every kernel after the join on `groups`; returns the state.
detail::gpu::job_state count_with_kernels(synthetic_groups groups) {
  using namespace detail::gpu;
  gpu_job job;
  auto state = std::make_unique<job_state>();
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
  emulate_launch<clear_kernel>(job, none);
  state->group_size[0] = job.capacity[0];  // as the join leaves them
  state->group_size[1] = job.capacity[1];
  emulate_launch<stats_kernel>(job, *shared_stats);
  emulate_launch<layout_kernel>(job, *shared_layout);
  emulate_launch<encode_kernel>(job, none);
  emulate_launch<scan_kernel>(job, *shared_scan);
  emulate_launch<scatter_kernel>(job, none);
  emulate_launch<visit_kernel>(job, *shared_visit);
  emulate_launch<finish_kernel>(job, none);
  return *state;
}

TEST(GpuKernelsTest, KeyedCountMatchesBruteForce) {
  for (const auto& [north, south, least_key_bits] :
       {std::tuple<std::size_t, std::size_t, std::uint32_t>{3000, 40000, 6}, {257, 70000, 7}, {5000, 700, 1}}) {
    const synthetic_groups groups = draw_groups(north, south, north + south);
    const detail::gpu::job_state state = count_with_kernels(groups);
    EXPECT_EQ(state.finished, detail::gpu::finished_mark) << north << " x " << south;
    EXPECT_GE(state.layout.key_bits, least_key_bits) << north << " x " << south;
    EXPECT_GT(state.layout.digits, 0U);
    EXPECT_EQ(state.pairs, disjoint_pairs(groups.north, groups.south)) << north << " x " << south;
  }
}

TEST(GpuKernelsTest, EmptyAndOddSizedGroupsCountExactly) {
  for (const auto& [north, south] : {std::pair<std::size_t, std::size_t>{0, 300}, {300, 0}, {1, 1}, {31, 513}}) {
    const synthetic_groups groups = draw_groups(north, south, 7);
    const detail::gpu::job_state state = count_with_kernels(groups);
    EXPECT_EQ(state.finished, detail::gpu::finished_mark);
    EXPECT_EQ(state.pairs, disjoint_pairs(groups.north, groups.south)) << north << " x " << south;
  }
}

// The key takes the bits most likely to collide: with one bit set in every
// half of both groups, that bit leads.
TEST(GpuKernelsTest, TheKeyLeadsWithTheLikeliestCollision) {
  synthetic_groups groups = draw_groups(600, 5000, 3);
  for (std::uint64_t& m : groups.north) m |= std::uint64_t{1} << 40;
  for (std::uint64_t& m : groups.south) m |= std::uint64_t{1} << 40;
  const detail::gpu::job_state state = count_with_kernels(groups);
  ASSERT_GE(state.layout.key_bits, 1U);
  EXPECT_EQ(state.layout.position[0], 40);
  EXPECT_EQ(state.pairs, 0U);
}

TEST(GpuKernelsTest, NthSubsetVisitsEverySubsetOnce) {
  for (int members = 0; members <= 12; ++members) {
    for (int size = 0; size <= members; ++size) {
      std::set<std::uint32_t> seen;
      const std::uint32_t count = detail::gpu::binomial(members, size);
      for (std::uint32_t rank = 0; rank < count; ++rank) {
        const std::uint32_t set = detail::gpu::nth_subset(rank, members, size);
        EXPECT_EQ(std::popcount(set), size);
        EXPECT_LT(set, std::uint32_t{1} << members);
        seen.insert(set);
      }
      EXPECT_EQ(seen.size(), count) << members << " choose " << size;
    }
  }
}

// The device ranks a block's row set as the quadrant engine does, or the
// two engines' shares would differ.
TEST(GpuKernelsTest, RankRowSetIsTheQuadrantEnginesRank) {
  for (int h = 2; h <= 14; ++h) {
    for (std::uint32_t rows = 0; rows <= detail::low_bits(h); ++rows) {
      ASSERT_EQ(detail::gpu::rank_row_set(rows, static_cast<std::uint32_t>(h)), detail::rank_rows(rows, h));
    }
  }
}

// A count is returned only with the finished mark: a state the kernels did
// not finish, or one where a check failed, is an error naming it.
TEST(GpuKernelsTest, UnfinishedOrFaultedStatesAreErrors) {
  detail::gpu::job_state state{};
  const detail::gpu::gpu_job job;
  EXPECT_THROW(detail::gpu::check_finished(state, job), std::runtime_error);
  state.fault = 1;
  try {
    detail::gpu::check_finished(state, job);
    ADD_FAILURE() << "a faulted state passed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("outgrew its bound"), std::string::npos) << e.what();
  }
  state.fault = 0;
  state.finished = detail::gpu::finished_mark;
  EXPECT_NO_THROW(detail::gpu::check_finished(state, job));
}

// A bound one half too small: the join notices, and the stream refuses to
// return a count.
TEST(GpuKernelsTest, AGroupPastItsBoundIsAnError) {
  const detail::half_board_tables tables(12);
  const auto backend = detail::gpu::emulated_backend(tables);
  const auto stream = backend->open_stream();
  const column_class c = classes_of(12)[5];
  detail::gpu::gpu_job job = detail::gpu::job_for({c.north, -1, c.weight, 0}, 1, tables, *backend);
  job.rule = {};  // every half kept: the group's size is the join's
  EXPECT_EQ(stream->pairs(job).pairs * c.weight, reference_count(tables, c));
  std::vector<std::uint64_t> halves;
  const std::size_t joined = detail::quadrant_kernels_for(isa::portable)
                                 .north_halves(tables.west().on(c.north & 63), tables.east().on(c.north >> 6), 6,
                                               std::popcount(c.north & 63U), halves);
  ASSERT_GT(joined, 0U);
  job.capacity[0] = static_cast<std::uint32_t>(joined - 1);
  EXPECT_THROW(stream->pairs(job), std::runtime_error);
  job.capacity[0] = static_cast<std::uint32_t>(joined);  // exactly enough
  EXPECT_EQ(stream->pairs(job).pairs * c.weight, reference_count(tables, c));
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
