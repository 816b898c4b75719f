// The GPU engine's kernels (gpu_kernels.hpp), emulated: launch orders and
// item dealing, synthetic groups large enough to take key bits against
// brute force, the key's choice of bits, the tables' bank patterns, and the
// kernels' own checks (unfinished, stale or faulted results; a group past
// its bound).

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

#include "support/gpu_testing.hpp"

namespace nqueens {
namespace {

using detail::column_class;
using gpu_testing::classes_of;
using gpu_testing::disjoint_pairs;
using gpu_testing::reference_count;

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

// Every item of every job of a round runs once, past jobs with none and
// whatever the grid: dealt in turn by block (each emulated block takes
// items b, b + grid, ...), and dealt by the round's counter (the visit's
// way: each block takes the next in turn, each batch run in a drawn order).
template <bool Counter>
struct counted_items_kernel {
  static constexpr int phases = 2;
  static constexpr bool dealt_by_counter = Counter;
  using shared = detail::gpu::no_shared;
  static inline std::map<std::pair<int, std::uint32_t>, int>* seen = nullptr;
  static inline std::size_t stop_after = 0;  // items run before it sets the stop word, as the host would (0: never)
  static inline std::size_t most_items = SIZE_MAX;  // past it a run throws: a launch that would never end fails
  static std::uint32_t items(const detail::gpu::gpu_job& job) { return job.row_sets[0]; }
  static void run(int phase, const detail::gpu::gpu_job& job, std::uint32_t item, std::uint32_t thread, shared&) {
    if (phase != 1 || thread != 0) return;
    ++(*seen)[{job.n, item}];
    if (seen->size() > most_items) throw std::runtime_error("the launch ran more items than the test allows");
    if (seen->size() == stop_after) std::atomic_ref<std::uint32_t>(*job.stop).store(1);
  }
};
static_assert(detail::gpu::counter_dealt<counted_items_kernel<true>>);
static_assert(!detail::gpu::counter_dealt<counted_items_kernel<false>>);
static_assert(!detail::gpu::counter_dealt<detail::gpu::size_kernel>);
static_assert(detail::gpu::counter_dealt<detail::gpu::visit_kernel>);

template <bool Counter>
void expect_every_item_once() {
  using namespace detail::gpu;
  using kernel = counted_items_kernel<Counter>;
  std::vector<job_state> states(9);
  std::vector<gpu_job> jobs(9);
  std::uint32_t total = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    jobs[j].n = static_cast<int>(j);
    jobs[j].row_sets[0] = static_cast<std::uint32_t>((j * 7) % 5);  // 0, 2, 4, 1, 3, 0, 2, 4, 1
    jobs[j].state = &states[j];
    total += jobs[j].row_sets[0];
  }
  for (const std::uint32_t grid : {1U, 2U, 3U, 7U, 40U}) {
    std::map<std::pair<int, std::uint32_t>, int> seen;
    kernel::seen = &seen;
    states[0].items_taken = 0;  // as the clear kernel leaves it
    launch_order order(grid, 40);
    no_shared none{};
    emulate_launch<kernel>(jobs, grid, order, none);
    EXPECT_EQ(seen.size(), total) << "grid " << grid;
    for (const auto& [where, times] : seen) {
      EXPECT_EQ(times, 1) << "grid " << grid;
      EXPECT_LT(where.second, jobs[static_cast<std::size_t>(where.first)].row_sets[0]) << "grid " << grid;
    }
    // Each block took one past the last from the counter; none in turn.
    EXPECT_EQ(states[0].items_taken >= total + 1, Counter) << "grid " << grid;
  }
  kernel::seen = nullptr;
}

TEST(GpuKernelsTest, EveryItemRunsOncePastEmptyJobs) {
  expect_every_item_once<false>();
  expect_every_item_once<true>();
}

// A stop set after some items of a round ran (the host's, while the visit
// runs): blocks dealt by the counter take fewer than
// items_between_stop_looks items each after it (they look at the word that
// seldom: it is host memory across PCIe); one set before the round runs
// none.
TEST(GpuKernelsTest, ACounterTakesNoItemOnceStopped) {
  using namespace detail::gpu;
  using kernel = counted_items_kernel<true>;
  std::vector<job_state> states(4);
  std::vector<gpu_job> jobs(4);
  alignas(std::atomic_ref<std::uint32_t>::required_alignment) std::uint32_t stop = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    jobs[j].n = static_cast<int>(j);
    jobs[j].row_sets[0] = 25;
    jobs[j].state = &states[j];
    jobs[j].stop = &stop;
  }
  for (const std::uint32_t grid : {1U, 3U, 7U}) {
    std::map<std::pair<int, std::uint32_t>, int> seen;
    kernel::seen = &seen;
    kernel::stop_after = 30;
    stop = 0;
    states[0].items_taken = 0;
    launch_order order(grid, 7);
    no_shared none{};
    emulate_launch<kernel>(jobs, grid, order, none);
    EXPECT_GE(seen.size(), 30U) << "grid " << grid;
    EXPECT_LT(seen.size(), 30U + grid * items_between_stop_looks) << "grid " << grid;  // of 100
    seen.clear();
    stop = 1;  // before the round: each block's first take looks
    states[0].items_taken = 0;
    kernel::stop_after = 0;
    emulate_launch<kernel>(jobs, grid, order, none);
    EXPECT_TRUE(seen.empty()) << "grid " << grid;
    kernel::stop_after = 30;
  }
  kernel::seen = nullptr;
  kernel::stop_after = 0;
}

// A round whose items the 32-bit counter could not deal (it would wrap and
// deal items twice, and on a device never end) runs none and faults every
// job, which the host reports; one within it is dealt as ever. The bound
// leaves room for each block's last take past the items, and for the stop
// look's UINT32_MAX.
TEST(GpuKernelsTest, ARoundPastTheCounterFaultsItsJobs) {
  using namespace detail::gpu;
  EXPECT_TRUE(counter_deals(std::uint64_t{UINT32_MAX} - 8, 7));
  EXPECT_FALSE(counter_deals(std::uint64_t{UINT32_MAX} - 7, 7));
  EXPECT_FALSE(counter_deals(std::uint64_t{1} << 33, 1));
  using kernel = counted_items_kernel<true>;
  std::vector<job_state> states(3);
  std::vector<gpu_job> jobs(3);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    jobs[j].n = static_cast<int>(j);
    jobs[j].row_sets[0] = std::uint32_t{1} << 31;  // 2^32 items with the second
    jobs[j].state = &states[j];
  }
  jobs[2].row_sets[0] = 0;  // a job with none faults with its round too
  std::map<std::pair<int, std::uint32_t>, int> seen;
  kernel::seen = &seen;
  kernel::most_items = 100;  // without the check the counter would deal past 2^32: this fails, not runs for hours
  launch_order order(3, 7);
  no_shared none{};
  EXPECT_NO_THROW(emulate_launch<kernel>(jobs, 7, order, none));
  EXPECT_TRUE(seen.empty());
  for (const job_state& s : states) EXPECT_EQ(s.fault, static_cast<std::uint32_t>(job_fault::counter_overflow));
  jobs[0].row_sets[0] = 5;
  jobs[1].row_sets[0] = 3;
  for (job_state& s : states) s = job_state{};
  emulate_launch<kernel>(jobs, 7, order, none);
  EXPECT_EQ(seen.size(), 8U);
  for (const job_state& s : states) EXPECT_EQ(s.fault, 0U);
  kernel::seen = nullptr;
  kernel::most_items = SIZE_MAX;
}

// A round's items are summed in 32 bits for the kernel the counter deals
// (the visit: room in shared memory for the sums of 192 jobs beside six
// blocks an SM), a sum past them kept at UINT32_MAX, which counter_deals
// refuses; in 64 bits, exact, for the others. Each job is found by its items either way.
TEST(GpuKernelsTest, RoundItemSumsStopAt32BitsForTheCounterAndStayExactIn64) {
  using namespace detail::gpu;
  round_items_of<4, std::uint32_t> narrow{};
  round_items_of<4, std::uint64_t> wide{};
  const std::uint32_t items[] = {5, 0xFFFFFFF0U, 0x20, 7};
  for (std::uint32_t j = 0; j < 4; ++j) narrow.before[j + 1] = wide.before[j + 1] = items[j];
  narrow.add_up(4);
  wide.add_up(4);
  EXPECT_EQ(narrow.before[1], 5U);
  EXPECT_EQ(narrow.before[2], 0xFFFFFFF5U);
  EXPECT_EQ(narrow.before[3], UINT32_MAX);
  EXPECT_EQ(narrow.before[4], UINT32_MAX);
  EXPECT_FALSE(counter_deals(narrow.before[4], 1));
  EXPECT_EQ(wide.before[4], std::uint64_t{5} + 0xFFFFFFF0U + 0x20 + 7);
  EXPECT_EQ(wide.job_of(4, 4), 0U);
  EXPECT_EQ(wide.job_of(4, 5), 1U);
  EXPECT_EQ(wide.job_of(4, 0xFFFFFFF5U), 2U);
  EXPECT_EQ(wide.job_of(4, wide.before[4] - 1), 3U);
  EXPECT_EQ(narrow.job_of(4, 0xFFFFFFF4U), 1U);
}

// Masks drawn like real halves (each diagonal set with its own chance), in
// groups large enough for the key (south halves fill a table block on
// average per key), counted by the kernels from the stats on.
struct synthetic_groups {
  std::vector<std::uint64_t> north, south;
};

synthetic_groups draw_groups(std::size_t north, std::size_t south, std::uint64_t seed, int live_per_half = 22) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<double> chance(64);
  for (int b = 0; b < 64; ++b)
    chance[b] = (b % 32) < live_per_half ? 0.05 + 0.3 * unit(random) : 0;  // 2 x live_per_half live bits
  const auto draw = [&](std::size_t count) {
    std::vector<std::uint64_t> out(count);
    for (std::uint64_t& m : out) {
      for (int b = 0; b < 64; ++b) m |= std::uint64_t{unit(random) < chance[b]} << b;
    }
    return out;
  };
  return {draw(north), draw(south)};
}

// The state, keeping the key arrays it points into (its deleter holds them).
struct kernels_left {
  std::shared_ptr<const detail::gpu::job_state> state;
  detail::gpu::job_result result;
};

// Key arrays for keys of up to `key_bits`, each entry `fill` (anything, as
// the arena holds, where the kernels set them).
std::vector<std::uint32_t> key_arrays(std::uint32_t key_bits, std::uint32_t fill) {
  return std::vector<std::uint32_t>(detail::gpu::key_entries_for(key_bits), fill);
}

// The visit a test runs: the head's, or a candidate module's.
enum class visit_variant { head, prefetch, early_exit };

// The visit of `Digits` digits of a candidate `variant`.
template <std::uint32_t Digits>
void emulate_candidate_visit(visit_variant variant, std::span<const detail::gpu::gpu_job> round,
                             detail::gpu::launch_order& order) {
  using namespace detail::gpu;
  const auto run = [&]<class Kernel>() {
    auto shared = std::make_unique<typename Kernel::shared>();
    emulate_launch<Kernel>(round, 5, order, *shared);
  };
  if (variant == visit_variant::prefetch) {
    run.template operator()<visit_kernel_of<Digits, true, false>>();
  } else {
    run.template operator()<visit_kernel_of<Digits, false, true>>();
  }
}

// Runs every kernel after the join on `groups` as one job (launch order from
// `seed`) of at most `digits` digits, the visit with tables for them (the
// head's, or a candidate's: loading each warp's next north code ahead,
// leaving a north half once its warp has no pair left); returns its state
// and result. Its key arrays hold `key_bits_limit` bits, or (0) as many as
// any group of its size can take, whatever bits it uses (as the engine
// sizes them by a job's capacity: 42 MiB at the most bits, filled a call,
// cost the suite seconds).
kernels_left count_with_kernels(synthetic_groups groups, std::uint64_t seed = 1,
                                std::uint32_t digits = detail::gpu::max_job_digits,
                                visit_variant variant = visit_variant::head, std::uint32_t key_bits_limit = 0) {
  using namespace detail::gpu;
  gpu_job job;
  job.sequence = 77;
  job.digits_limit = digits;
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
  if (key_bits_limit == 0) key_bits_limit = job_key_bits(job.capacity[1], 64, digits);
  // Past the arrays, entries no kernel may write.
  constexpr std::size_t guard = 64;
  std::vector<std::uint32_t> keys = key_arrays(key_bits_limit, 0xA5A5A5A5U);
  keys.resize(keys.size() + guard, 0x5A5A5A5AU);
  job.keys = keys.data();
  job.key_bits_limit = key_bits_limit;
  auto shared_stats = std::make_unique<stats_kernel::shared>();
  auto shared_layout = std::make_unique<layout_kernel::shared>();
  auto shared_scan = std::make_unique<scan_kernel::shared>();
  auto shared_visit = std::make_unique<visit_kernel::shared>();
  auto shared_compact_visit = std::make_unique<compact_visit_kernel::shared>();
  no_shared none{};
  launch_order order(seed, 5);
  const std::span<const gpu_job> round(&job, 1);
  emulate_launch<clear_kernel>(round, 1, order, none);
  state->group_size[0] = job.capacity[0];  // as the join leaves them
  state->group_size[1] = job.capacity[1];
  emulate_launch<stats_kernel>(round, 5, order, *shared_stats);
  if (variant == visit_variant::early_exit) {  // its module's digits, by the chance they collide
    auto shared_ranked = std::make_unique<layout_kernel_of<true>::shared>();
    emulate_launch<layout_kernel_of<true>>(round, 1, order, *shared_ranked);
  } else {
    emulate_launch<layout_kernel>(round, 1, order, *shared_layout);
  }
  emulate_launch<encode_kernel>(round, 5, order, none);
  emulate_launch<scan_kernel>(round, 1, order, *shared_scan);
  emulate_launch<scatter_kernel>(round, 5, order, none);
  if (variant != visit_variant::head) {
    if (digits <= compact_job_digits) {
      emulate_candidate_visit<compact_job_digits>(variant, round, order);
    } else {
      emulate_candidate_visit<max_job_digits>(variant, round, order);
    }
  } else if (digits <= compact_job_digits) {
    emulate_launch<compact_visit_kernel>(round, 5, order, *shared_compact_visit);
  } else {
    emulate_launch<visit_kernel>(round, 5, order, *shared_visit);
  }
  emulate_launch<finish_kernel>(round, 1, order, none);
  EXPECT_EQ(std::count(keys.end() - guard, keys.end(), 0x5A5A5A5AU), static_cast<std::ptrdiff_t>(guard));
  std::shared_ptr<const job_state> held(state.release(), [arrays = std::move(keys)](const job_state* p) { delete p; });
  return {std::move(held), *result};
}

TEST(GpuKernelsTest, KeyedCountMatchesBruteForce) {
  for (const auto& [north, south, least_key_bits] :
       {std::tuple<std::size_t, std::size_t, std::uint32_t>{3000, 40000, 6}, {257, 70000, 7}, {5000, 2000, 1}}) {
    const synthetic_groups groups = draw_groups(north, south, north + south);
    for (const auto& [seed, digits] : {std::pair<std::uint64_t, std::uint32_t>{1, 10}, {2, 10}, {3, 9}}) {
      const auto [state, result] = count_with_kernels(groups, seed, digits);
      EXPECT_EQ(result.mark, detail::gpu::finished_mark ^ 77U) << north << " x " << south;
      EXPECT_LE(state->layout.digits, digits) << north << " x " << south;
      EXPECT_GE(state->layout.key_bits, least_key_bits) << north << " x " << south;
      EXPECT_GT(state->layout.digits, 0U);
      EXPECT_EQ(result.pairs, disjoint_pairs(groups.north, groups.south)) << north << " x " << south;
    }
  }
  // 56 live bits (n = 26's, its tags beside): the short visit with all 9 digits.
  const synthetic_groups wide = draw_groups(2000, 3000, 11, 28);
  const auto [state, result] = count_with_kernels(wide, 4, detail::gpu::compact_job_digits);
  EXPECT_EQ(result.mark, detail::gpu::finished_mark ^ 77U);
  EXPECT_EQ(state->layout.digits, detail::gpu::compact_job_digits);
  EXPECT_EQ(result.pairs, disjoint_pairs(wide.north, wide.south));
}

// The candidate visits, one loading each warp's next north code ahead
// (NQUEENS_GPU_VISIT_PREFETCH), one leaving a north half once no lane has
// a pair left (NQUEENS_GPU_VISIT_EARLY_EXIT; emulated, each lane leaves on
// its own), count every pair once, whatever the keys' sizes (a key of one
// half, of fewer halves than a part's warps) and block order.
TEST(GpuKernelsTest, TheCandidateVisitsCountEveryPairOnce) {
  for (const auto& [north, south] :
       {std::pair<std::size_t, std::size_t>{3000, 40000}, {257, 70000}, {5000, 2000}, {1, 1}, {31, 513}, {0, 300}}) {
    const synthetic_groups groups = draw_groups(north, south, north + south + 3);
    for (const auto& [seed, digits] : {std::pair<std::uint64_t, std::uint32_t>{5, 10}, {6, 9}}) {
      for (const visit_variant variant : {visit_variant::prefetch, visit_variant::early_exit}) {
        const auto [state, result] = count_with_kernels(groups, seed, digits, variant);
        EXPECT_EQ(result.mark, detail::gpu::finished_mark ^ 77U) << north << " x " << south;
        EXPECT_EQ(result.pairs, disjoint_pairs(groups.north, groups.south)) << north << " x " << south;
      }
    }
  }
  // 56 live bits: nine digits, so that the early exit's look after four is reached.
  const synthetic_groups wide = draw_groups(2000, 3000, 12, 28);
  const auto [state, result] = count_with_kernels(wide, 9, detail::gpu::compact_job_digits, visit_variant::early_exit);
  EXPECT_GT(state->layout.digits, detail::gpu::early_exit_digits + 1);
  EXPECT_EQ(result.pairs, disjoint_pairs(wide.north, wide.south));
}

TEST(GpuKernelsTest, EmptyAndOddSizedGroupsCountExactly) {
  for (const auto& [north, south] : {std::pair<std::size_t, std::size_t>{0, 300}, {300, 0}, {1, 1}, {31, 513}}) {
    const synthetic_groups groups = draw_groups(north, south, 7);
    const auto [state, result] = count_with_kernels(groups);
    EXPECT_EQ(result.mark, detail::gpu::finished_mark ^ 77U);
    EXPECT_EQ(result.pairs, disjoint_pairs(groups.north, groups.south)) << north << " x " << south;
  }
}

// A key of few south halves takes a narrow visit block, whose tables hold
// each of its words several times over and whose warps visit several north
// halves at once: every width, from one word (32 halves, each lane on a
// north half of its own) to whole blocks and past them, is visited by some
// item and counts exactly, and each key's items are its blocks (of one
// width, or split by the bits of its words), each as many times.
TEST(GpuKernelsTest, EveryVisitBlockWidthCountsExactly) {
  using namespace detail::gpu;
  std::set<std::uint32_t> widths;  // in south halves, of the blocks of some key that has halves
  for (const std::size_t south : {1, 20, 32, 33, 64, 100, 255, 256, 300, 511, 512, 700, 1023, 1024, 1025, 2100}) {
    const synthetic_groups groups = draw_groups(300, south, 11 + south);
    const auto [state, result] = count_with_kernels(groups, south, compact_job_digits);
    EXPECT_EQ(result.pairs, disjoint_pairs(groups.north, groups.south)) << south << " south halves";
    for (std::uint32_t k = 0; k < (1U << state->layout.key_bits); ++k) {
      const std::uint32_t in_key = state->bucket_start[1][k + 1] - state->bucket_start[1][k];
      const std::uint32_t items = state->block_start[k + 1] - state->block_start[k];
      if (items == 0) continue;  // a key visited by no item
      const bool split = (state->key_flags[k] & key_split) != 0;
      EXPECT_EQ(items % key_blocks_for(in_key, split), 0U) << "key " << k;
      for (std::uint32_t b = 0; b < key_blocks_for(in_key, split); ++b) {
        widths.insert(32U << visit_block_at(in_key, split, b).words_log2);
      }
    }
  }
  if constexpr (visit_packed) {
    for (std::uint32_t width = 32; width <= south_per_block; width *= 2) EXPECT_EQ(widths.count(width), 1U) << width;
  } else {
    EXPECT_EQ(widths, std::set<std::uint32_t>{south_per_block});
  }
}

// A key of words no power of two visits as a block for each bit of its
// words where that pays (split_pays: a key of 17 words as 16 + 1, not 32):
// such keys occur, their blocks take several widths, and all count exactly.
TEST(GpuKernelsTest, SplitKeysCountExactly) {
  using namespace detail::gpu;
  const synthetic_groups groups = draw_groups(20000, 4000, 21);
  const auto [state, result] = count_with_kernels(groups, 3, max_job_digits, visit_variant::head, 3);
  EXPECT_EQ(result.fault, 0U);
  EXPECT_EQ(result.pairs, disjoint_pairs(groups.north, groups.south));
  std::set<std::uint32_t> widths;  // words' log2 of the split keys' blocks
  std::uint32_t split_keys = 0;
  for (std::uint32_t k = 0; k < (1U << state->layout.key_bits); ++k) {
    if ((state->key_flags[k] & key_split) == 0) continue;
    ++split_keys;
    const std::uint32_t south = state->bucket_start[1][k + 1] - state->bucket_start[1][k];
    EXPECT_NE(split_blocks_for(south), 0U);
    std::uint32_t covered = 0;
    for (std::uint32_t b = 0; b < split_blocks_for(south); ++b) {
      const visit_block block = visit_block_at(south, true, b);
      EXPECT_EQ(block.first, covered) << "key " << k << ", block " << b;
      covered += 32U << block.words_log2;
      widths.insert(block.words_log2);
    }
    EXPECT_GE(covered, south) << "key " << k;
    EXPECT_LT(covered - south, 32U) << "key " << k;  // no word left empty
  }
  if constexpr (visit_packed) {
    EXPECT_GT(split_keys, 0U);
    EXPECT_GE(widths.size(), 2U);
  }
}

// A key whose walk turns through many keys has them dealt among its items'
// warps (walks_by_warps: rows of block_warps keys, a part's warps turning
// through a row's columns), each warp visiting all the north halves of its
// keys as one list (visit_listed: a key's last, unfilled step filled from
// the next key's halves): such keys occur, with one part and with several, and every pair is
// counted once.
TEST(GpuKernelsTest, KeysWalkedByWarpsCountExactly) {
  using namespace detail::gpu;
  if constexpr (!walk_by_warps) GTEST_SKIP() << "every warp walks every key in this build";
  // Keys walked by warps, those of several parts, and those whose parts take unequal rows.
  std::uint32_t by_warps = 0, shared_parts = 0, uneven_rows = 0;
  // Keys of 7 or 8 bits; then of 11 or more (56 live bits in nine digits), with
  // north halves enough that key 0's blocks are dealt in parts.
  for (const auto& [north, south, live] :
       {std::tuple<std::size_t, std::size_t, int>{3000, 40000, 22}, {150000, 2000, 28}}) {
    const synthetic_groups groups = draw_groups(north, south, 31, live);
    const auto [state, result] = count_with_kernels(groups, 4, compact_job_digits);
    EXPECT_EQ(result.fault, 0U);
    EXPECT_EQ(result.pairs, disjoint_pairs(groups.north, groups.south)) << north << " x " << south;
    // The early-exit candidate, whose vote the list's last step reaches with some lanes idle.
    EXPECT_EQ(count_with_kernels(groups, 5, compact_job_digits, visit_variant::early_exit).result.pairs, result.pairs);
    const std::uint32_t keys = 1U << state->layout.key_bits;
    for (std::uint32_t k = 0; k < keys; ++k) {
      const std::uint32_t items = state->block_start[k + 1] - state->block_start[k];
      const bool walked = (state->key_flags[k] & key_walked_by_warps) != 0;
      EXPECT_EQ(walked, walks_by_warps(keys >> std::popcount(k))) << "key " << k;
      if (!walked || items == 0) continue;
      ++by_warps;
      const std::uint32_t in_key = state->bucket_start[1][k + 1] - state->bucket_start[1][k];
      const std::uint32_t parts = items / key_blocks_for(in_key, (state->key_flags[k] & key_split) != 0);
      // Each part's warps take a key at least, the parts whole rows of them.
      const std::uint32_t rows = (keys >> std::popcount(k)) / block_warps;
      EXPECT_LE(parts, rows) << "key " << k;
      if (parts > 1) ++shared_parts;
      if (rows % parts != 0) ++uneven_rows;
    }
  }
  EXPECT_GT(by_warps, 0U);
  if constexpr (north_per_item != 0) {
    EXPECT_GT(shared_parts, 0U);
    EXPECT_GT(uneven_rows, 0U);
  }
}

// A key whose blocks have many north halves to visit is dealt as several
// items, each a share of them: the scan's items per key are its blocks
// times visit_parts of a warp's steps through its north reach (counted here
// pair of keys by pair of keys), some key of a large north group takes
// several, and the count stays exact.
TEST(GpuKernelsTest, HeavyKeysAreDealtAsSeveralItemsAndCountExactly) {
  using namespace detail::gpu;
  const synthetic_groups groups = draw_groups(std::size_t{9} * north_per_item, 3000, 5);
  const auto [state, result] = count_with_kernels(groups, 6, compact_job_digits);
  EXPECT_EQ(result.pairs, disjoint_pairs(groups.north, groups.south));
  // The candidate visits, on the same shares.
  EXPECT_EQ(count_with_kernels(groups, 7, compact_job_digits, visit_variant::prefetch).result.pairs, result.pairs);
  EXPECT_EQ(count_with_kernels(groups, 8, compact_job_digits, visit_variant::early_exit).result.pairs, result.pairs);
  const std::uint32_t keys = 1U << state->layout.key_bits;
  // Each key's warp steps through its north reach, and the job's in all.
  std::vector<std::uint32_t> steps(keys), key_blocks(keys);
  std::uint64_t job_steps = 0;
  for (std::uint32_t k = 0; k < keys; ++k) {
    std::uint32_t reach = 0;
    for (std::uint32_t other = 0; other < keys; ++other) {
      if ((other & k) == 0) reach += state->bucket_start[0][other + 1] - state->bucket_start[0][other];
    }
    const std::uint32_t south = state->bucket_start[1][k + 1] - state->bucket_start[1][k];
    // Blocks of one width, or split by the bits of the key's words: its
    // blocks, and a warp's steps through the reach in each.
    const bool split = split_pays(reach, south, keys >> std::popcount(k));
    EXPECT_EQ((state->key_flags[k] & key_split) != 0, split) << "key " << k;
    std::vector<std::uint32_t> widths;  // in words, the widest first
    if (split) {
      const std::uint32_t key_words = (south + 31) / 32;
      widths.assign(key_words / 32, 32);
      for (std::uint32_t w = 16; w >= 1; w /= 2) {
        if ((key_words % 32 & w) != 0) widths.push_back(w);
      }
    } else {
      const std::uint32_t words = block_words_for(south);
      widths.assign((south + words * 32 - 1) / (words * 32), words);
    }
    key_blocks[k] = static_cast<std::uint32_t>(widths.size());
    steps[k] = widths.empty() ? 0 : (reach + warp_lanes / widths[0] - 1) / (warp_lanes / widths[0]);
    for (const std::uint32_t w : widths) job_steps += (reach + warp_lanes / w - 1) / (warp_lanes / w);
  }
  EXPECT_EQ(least_visit_share(job_steps), north_per_item);  // a job far from filling a device
  std::uint32_t items = 0, blocks = 0;
  for (std::uint32_t k = 0; k < keys; ++k) {
    const std::uint32_t turns = keys >> std::popcount(k);
    const bool by_warps = walks_by_warps(turns);
    EXPECT_EQ((state->key_flags[k] & key_walked_by_warps) != 0, by_warps) << "key " << k;
    const std::uint32_t parts = visit_parts(steps[k], turns, least_visit_share(job_steps), by_warps);
    EXPECT_EQ(state->block_start[k + 1] - state->block_start[k], key_blocks[k] * parts) << "key " << k;
    items += key_blocks[k] * parts;
    blocks += key_blocks[k];
  }
  EXPECT_EQ(state->block_start[keys], items);
  if constexpr (north_per_item != 0) EXPECT_GT(items, blocks);
}

// The scan over a job written by hand: two key bits, key 1 alone with
// `north` north halves, key k with south[k] south halves.
std::shared_ptr<const detail::gpu::job_state> scan_by_hand(std::uint32_t north, const std::uint32_t (&south)[4],
                                                           std::uint64_t seed) {
  using namespace detail::gpu;
  auto state = std::make_unique<job_state>();
  std::vector<std::uint32_t> keys = key_arrays(2, 0);  // the counts not written here are none
  point_key_arrays(*state, keys.data(), 2);
  gpu_job job;
  job.state = state.get();
  state->layout.key_bits = 2;
  state->cursor[0][1] = north;
  for (std::uint32_t k = 0; k < 4; ++k) state->cursor[1][k] = south[k];
  state->group_size[0] = north;
  state->group_size[1] = south[0] + south[1] + south[2] + south[3];
  auto shared = std::make_unique<scan_kernel::shared>();
  launch_order order(seed, 3);
  emulate_launch<scan_kernel>(std::span<const gpu_job>(&job, 1), 1, order, *shared);
  return {state.release(), [arrays = std::move(keys)](const job_state* p) { delete p; }};
}

// The scan's items on keys written by hand (two key bits): key 1 alone has
// north halves, 3 shares' worth for a whole block, so the keys that miss it
// (0 and 2) take 3 items a block, and key 2's narrow block (7 south halves:
// a warp visits 32 north halves at once where blocks are packed) fewer;
// keys 1 and 3 reach no north half and take none, however many south
// halves they hold.
TEST(GpuKernelsTest, AKeyWithNoNorthHalfToVisitTakesNoItem) {
  using namespace detail::gpu;
  const std::uint32_t north = north_per_item == 0 ? 100 : 2 * north_per_item + 1;
  // Keys 0 and 2 walk 4 and 2 keys; the job is small: shares of north_per_item.
  const std::uint32_t parts = visit_parts(north, 4, north_per_item, false);
  const std::uint32_t narrow_parts = visit_packed ? visit_parts((north + 31) / 32, 2, north_per_item, false) : parts;
  const std::uint32_t south[4] = {south_per_block + 1, 3, 7, 2 * south_per_block};
  const auto state = scan_by_hand(north, south, 1);
  EXPECT_EQ(state->fault, 0U);
  const std::uint32_t expected[5] = {0, 2 * parts, 2 * parts, 2 * parts + narrow_parts, 2 * parts + narrow_parts};
  for (std::uint32_t k = 0; k <= 4; ++k) EXPECT_EQ(state->block_start[k], expected[k]) << "key " << k;
  EXPECT_EQ(state->bucket_start[0][1], 0U);
  EXPECT_EQ(state->bucket_start[0][2], north);
  EXPECT_EQ(state->bucket_start[1][3], south[0] + south[1] + south[2]);
  EXPECT_EQ(parts, north_per_item == 0 ? 1U : 3U);
  EXPECT_EQ(narrow_parts, north_per_item == 0 || visit_packed ? 1U : 3U);
}

// A job whose visit alone would fill a device many times over (past n = 24)
// takes shares larger than north_per_item, and no share of a key walks
// fewer than north_per_key_turn warp steps a key of its loop: a share
// walks every key its block's misses, and shares of 4096 steps that each
// walked 16384 keys were 30% of a modelled n = 26 visit. Key 1 alone has
// north halves, so key 0 (and key 2, a narrow block) visit them.
TEST(GpuKernelsTest, ALargeJobTakesLargerSharesThanASmallOne) {
  using namespace detail::gpu;
  if constexpr (north_per_item == 0) GTEST_SKIP() << "every block is one item in this build";
  EXPECT_EQ(least_visit_share(0), north_per_item);
  EXPECT_EQ(least_visit_share(share_slots * north_per_item * 10), 10 * north_per_item);
  EXPECT_EQ(least_visit_share(std::uint64_t{1} << 62), UINT32_MAX);
  EXPECT_EQ(visit_parts(most_visit_parts * north_per_item, 1, north_per_item, false), most_visit_parts);
  // 2^14 keys walked: each share at least 16 x 16384 steps.
  EXPECT_EQ(visit_parts(most_visit_parts * north_per_item, 1U << 14, north_per_item, false),
            most_visit_parts * north_per_item / (north_per_key_turn << 14));
  EXPECT_EQ(visit_parts(1000, 1U << 14, north_per_item, false), 1U);  // a walk longer than the steps: one item

  // Key 0's 200 blocks each visit every north half: 200 million steps.
  const std::uint32_t north = 1'000'000, south[4] = {200 * south_per_block, 1, 5, 0};
  const auto state = scan_by_hand(north, south, 2);
  EXPECT_EQ(state->fault, 0U);
  const std::uint32_t narrow_steps = visit_packed ? north / 32 : north;  // key 2's 5 halves: a word
  const std::uint64_t job_steps = std::uint64_t{200} * north + narrow_steps;
  const std::uint32_t least = least_visit_share(job_steps);
  EXPECT_GT(least, north_per_item);
  const std::uint32_t parts = visit_parts(north, 4, least, false);
  const std::uint32_t narrow_parts = visit_parts(narrow_steps, 2, least, false);
  EXPECT_LT(parts, visit_parts(north, 4, north_per_item, false));
  EXPECT_EQ(parts, (north - 1) / least + 1);
  const std::uint32_t expected[5] = {0, 200 * parts, 200 * parts, 200 * parts + narrow_parts,
                                     200 * parts + narrow_parts};
  for (std::uint32_t k = 0; k <= 4; ++k) EXPECT_EQ(state->block_start[k], expected[k]) << "key " << k;
}

// The key takes what the digits cannot hold: every mask of a board to 28
// (2n diagonals and 4 tags) codes in 9 digits (28 in 10 where keys stop at
// 14 bits), for any group size.
TEST(GpuKernelsTest, TheKeyLeavesTheDigitsNoMoreThanTheVisitHolds) {
  using namespace detail::gpu;
  for (const int n : {8, 12, 20, 24, 27, 28}) {
    const std::uint32_t digits = job_digits_for(n);
    EXPECT_EQ(digits, n <= 27 || max_job_key_bits >= 15 ? compact_job_digits : max_job_digits) << n;
    for (std::uint32_t used = 0; used <= 2U * static_cast<std::uint32_t>(n) + 4; ++used) {
      for (const std::uint32_t south : {0U, 1U, 500U, 70000U, 4000000000U}) {
        const std::uint32_t key = job_key_bits(south, used, digits);
        EXPECT_LE(key, max_job_key_bits) << n << ", " << used << ", " << south;
        EXPECT_LE((used - std::min(key, used) + digit_bits - 1) / digit_bits, digits) << n << ", " << used;
      }
    }
  }
}

// A job's key arrays lie in the arena, sized for the most key bits its
// south group can take on its board (key_bits_bound): no layout of a
// group within that capacity, whatever bits it uses, takes more; a small
// job's take a few KiB, and n = 28's keys at least 15 bits (9 digits).
TEST(GpuKernelsTest, KeyArraysHoldTheMostKeyBitsAGroupCanTake) {
  using namespace detail::gpu;
  for (const int n : {8, 16, 22, 27, 28}) {
    const std::uint32_t digits = job_digits_for(n);
    // Below, at and past the size where groups aim at fewer south halves a key.
    for (const std::uint64_t capacity : std::initializer_list<std::uint64_t>{
             0, 1000, 1'000'000, large_south_group, 4'000'000, huge_south_group - 1, huge_south_group, 300'000'000}) {
      const std::uint32_t bound = key_bits_bound(n, digits, capacity);
      EXPECT_LE(bound, max_job_key_bits);
      for (std::uint32_t used = 0; used <= 2U * static_cast<std::uint32_t>(n) + 4; ++used) {
        for (const std::uint64_t south : {std::uint64_t{0}, capacity / 3, capacity}) {
          EXPECT_LE(job_key_bits(static_cast<std::uint32_t>(south), used, digits), bound)
              << n << ", " << capacity << ", " << used << ", " << south;
        }
      }
    }
  }
  EXPECT_EQ(key_bits_bound(28, job_digits_for(28), 0), 60U - 45U);
  EXPECT_EQ(key_bits_bound(28, job_digits_for(28), 300'000'000), max_job_key_bits);
  EXPECT_LT(key_words_for(16, job_digits_for(16), 1000), 1000U);
  EXPECT_EQ(key_words_for(28, job_digits_for(28), 300'000'000), (key_entries_for(max_job_key_bits) + 1) / 2);
}

// key_bits_bound sizes a job's arrays by its capacity alone: a group never
// takes fewer key bits for growing, across the size where large groups aim
// at fewer south halves a key (key_south_target_for) too, where the key
// takes more bits than just below it.
TEST(GpuKernelsTest, KeyBitsNeverFallAsAGroupGrows) {
  using namespace detail::gpu;
  const std::uint32_t used = 40, digits = job_digits_for(28);  // none that the digits cannot hold
  std::set<std::uint32_t> sizes{large_south_group - 1, large_south_group, huge_south_group - 1, huge_south_group,
                                UINT32_MAX};
  for (std::uint64_t south = 0; south < UINT32_MAX; south = south * 9 / 8 + 1) {
    sizes.insert(static_cast<std::uint32_t>(south));
  }
  std::uint32_t before = 0;
  for (const std::uint32_t south : sizes) {  // in increasing order
    const std::uint32_t bits = job_key_bits(south, used, digits);
    EXPECT_GE(bits, before) << south;
    before = bits;
  }
  EXPECT_GT(job_key_bits(large_south_group, used, digits), job_key_bits(large_south_group - 1, used, digits));
  EXPECT_GT(job_key_bits(huge_south_group, used, digits), job_key_bits(huge_south_group - 1, used, digits));
  EXPECT_EQ(job_key_bits(UINT32_MAX, used, digits), max_job_key_bits);
}

// The key's target by group size: groups from a million halves aim at a
// quarter of the others' south halves a key, from 2^26 (n = 28's, 87 and
// 129 million in the modelled window) at an eighth, which takes such a
// group one key bit more (the bit counts rise at each bound either way).
TEST(GpuKernelsTest, ALargeGroupAimsAtFewerSouthHalvesAKey) {
  using namespace detail::gpu;
  EXPECT_EQ(key_south_target_for(large_south_group - 1), key_south_target);
  EXPECT_EQ(key_south_target_for(large_south_group), key_south_target / 4);
  EXPECT_EQ(key_south_target_for(huge_south_group - 1), key_south_target / 4);
  EXPECT_EQ(key_south_target_for(huge_south_group), key_south_target / 8);
  EXPECT_EQ(key_south_target_for(UINT32_MAX), key_south_target / 8);
  const std::uint32_t used = 40, digits = job_digits_for(28);
  if (max_job_key_bits >= 21) EXPECT_EQ(job_key_bits(87'000'000, used, digits), 21U);
}

// A job whose arrays hold fewer key bits than its groups would take keeps
// its key within them, writes nothing past them, and counts exactly.
TEST(GpuKernelsTest, AKeyStaysWithinItsJobsArrays) {
  const synthetic_groups groups = draw_groups(3000, 40000, 6);
  const auto [free, free_result] = count_with_kernels(groups, 2);
  ASSERT_GT(free->layout.key_bits, 4U);
  const auto [held, held_result] = count_with_kernels(groups, 2, detail::gpu::max_job_digits, visit_variant::head, 4);
  EXPECT_EQ(held->layout.key_bits, 4U);
  EXPECT_EQ(held_result.fault, 0U);
  EXPECT_EQ(held_result.pairs, free_result.pairs);
  EXPECT_EQ(held_result.pairs, disjoint_pairs(groups.north, groups.south));
}

// The key takes the bits most likely to collide: with one bit set in every
// half of both groups, that bit leads.
TEST(GpuKernelsTest, TheKeyLeadsWithTheLikeliestCollision) {
  synthetic_groups groups = draw_groups(600, 5000, 3);
  for (std::uint64_t& m : groups.north) m |= std::uint64_t{1} << 40;
  for (std::uint64_t& m : groups.south) m |= std::uint64_t{1} << 40;
  const auto [state, result] = count_with_kernels(groups);
  ASSERT_GE(state->layout.key_bits, 1U);
  EXPECT_EQ(state->layout.position[0], 40);
  EXPECT_EQ(result.pairs, 0U);
}

// The visit's reads of its tables: the lanes of a warp share a row (their
// north half's digit) and each reads its own word, so the 32 lanes read 32
// different banks of 4 bytes: no conflict, whatever the digit.
TEST(GpuKernelsTest, AWarpsTableReadsHitEveryBankOnce) {
  using detail::gpu::visit_kernel;
  auto shared = std::make_unique<visit_kernel::shared>();
  const auto base = reinterpret_cast<std::uintptr_t>(shared.get());
  for (std::uint32_t d = 0; d < detail::gpu::max_job_digits; ++d) {
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
        const std::uint64_t* code = &visit_kernel::south_slot(*shared, visit_kernel::bit_rows_slot(lane, step));
        pairs.insert((reinterpret_cast<std::uintptr_t>(code) - base) / 8 % 16);
      }
      ASSERT_EQ(pairs.size(), 16U) << "step " << step << ", half warp " << half_warp;
    }
  }
}

// The south codes wait in the tables' rows while the rows of one bit are
// written from them: no code may share a byte with such a row of any digit,
// nor with another code, in the tables of either visit.
template <class Visit>
void expect_codes_apart_from_the_bit_rows(std::uint32_t digits) {
  auto shared = std::make_unique<typename Visit::shared>();
  const auto base = reinterpret_cast<std::uintptr_t>(shared.get());
  ASSERT_EQ(sizeof(shared->table), std::size_t{digits} * detail::gpu::digit_values * detail::gpu::words_per_block * 4);
  std::set<std::uintptr_t> bit_row_words;
  for (std::uint32_t d = 0; d < digits; ++d) {
    for (std::uint32_t b = 0; b < detail::gpu::digit_bits; ++b) {
      for (std::uint32_t w = 0; w < detail::gpu::words_per_block; ++w) {
        bit_row_words.insert(reinterpret_cast<std::uintptr_t>(&shared->table[d][1U << b][w]) - base);
      }
    }
  }
  std::set<std::uintptr_t> codes;
  for (std::uint32_t slot = 0; slot < detail::gpu::south_per_block; ++slot) {
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(&Visit::south_slot(*shared, slot)) - base;
    ASSERT_LE(at + 8, sizeof(shared->table)) << "slot " << slot;
    ASSERT_TRUE(codes.insert(at).second) << "slot " << slot;
    ASSERT_EQ(bit_row_words.count(at) + bit_row_words.count(at + 4), 0U) << "slot " << slot;
  }
}

TEST(GpuKernelsTest, SouthCodesNeverShareTheRowsOfOneBit) {
  expect_codes_apart_from_the_bit_rows<detail::gpu::visit_kernel>(detail::gpu::max_job_digits);
  expect_codes_apart_from_the_bit_rows<detail::gpu::compact_visit_kernel>(detail::gpu::compact_job_digits);
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
  gpu_job job = job_for({c.north, -1, c.weight, 0}, tables.board_size(), 1, *backend);
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
    job.keys = reinterpret_cast<std::uint32_t*>(job.codes[1] + job.capacity[1] + 1);
    job.key_bits_limit = key_bits_bound(job.n, job.digits_limit, job.capacity[1]);
    const job_result result = stream->run({&job, 1}, round_kind::counts)[0];
    check_result(result, job, round_kind::counts);
    return result.pairs * c.weight;
  };
  EXPECT_THROW(counted(static_cast<std::uint32_t>(joined - 1)), std::runtime_error);
  EXPECT_EQ(counted(static_cast<std::uint32_t>(joined)), reference_count(tables, c));  // exactly enough
}

}  // namespace
}  // namespace nqueens
