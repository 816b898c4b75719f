// How the size and join kernels deal a block's row sets to its lanes
// (gpu_join_kernels.hpp): every product of every row set taken once, by
// one thread, whatever the row sets' shapes; a row set of more than 2^32
// products leaves the next ones' walks whole; the shared lists planned
// within their room.

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "engines/gpu/gpu_join_kernels.hpp"

namespace nqueens {
namespace {

using detail::gpu::block_picks;
using detail::gpu::block_row_sets;
using detail::gpu::block_threads;
using detail::gpu::product_walk;

// Picks of whole ranges (nothing listed) with the given counts.
block_picks picks_of(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& counts) {
  block_picks p{};
  for (std::uint32_t r = 0; r < block_row_sets; ++r) {
    const auto [west, east] = r < counts.size() ? counts[r] : std::pair<std::uint32_t, std::uint32_t>{0, 0};
    p.count[r][0] = west;
    p.count[r][1] = east;
    p.q[r].west_end = west;
    p.q[r].east_end = east;
  }
  return p;
}

// How often each (row set, west, east) is taken, over every thread's walk.
std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, int> walked(const block_picks& p) {
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, int> taken;
  for (std::uint32_t thread = 0; thread < block_threads; ++thread) {
    product_walk walk(p, thread);
    for (std::uint32_t r = 0; walk.next_row_set(r);) {
      for (std::uint32_t w = 0, e = 0; walk.next(w, e);) ++taken[{r, p.west(r, w), p.east(r, e)}];
    }
  }
  return taken;
}

void expect_each_product_once(const block_picks& p) {
  const auto taken = walked(p);
  std::uint64_t products = 0;
  for (std::uint32_t r = 0; r < block_row_sets; ++r) products += p.products(r);
  EXPECT_EQ(taken.size(), products);
  for (const auto& [product, times] : taken) {
    const auto [r, w, e] = product;
    ASSERT_LT(r, block_row_sets);
    EXPECT_LT(w, p.count[r][0]);
    EXPECT_LT(e, p.count[r][1]);
    EXPECT_EQ(times, 1) << "row set " << r << " (" << w << ", " << e << ")";
  }
}

// Row sets smaller and larger than a block, empty ones between them, and
// counts that do and do not divide block_threads: each product once.
TEST(GpuJoinWalkTest, EveryProductOfABlocksRowSetsIsTakenOnce) {
  expect_each_product_once(picks_of({}));
  expect_each_product_once(picks_of({{1, 1}}));
  expect_each_product_once(picks_of({{3, 5}, {0, 7}, {16, 16}, {1, 300}, {257, 1}, {9, 0}, {31, 33}, {2, 2}}));
  std::mt19937 random(7);
  for (int draw = 0; draw < 200; ++draw) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> counts;
    for (std::uint32_t r = 0; r < block_row_sets; ++r) {
      const std::uint32_t most = draw % 4 == 0 ? 3 : draw % 4 == 1 ? 20 : 70;
      counts.emplace_back(random() % most, random() % most);
    }
    expect_each_product_once(picks_of(counts));
  }
}

// A thread's place in a row set depends on the products before it modulo
// the block's threads, not on how many there are: after a row set of more
// than 2^32 products (not walked: next_row_set moves on), the next row set
// is still taken whole, each product once.
TEST(GpuJoinWalkTest, ARowSetPastTwoToThe32ProductsLeavesTheNextWhole) {
  if (block_row_sets < 2) GTEST_SKIP() << "a row set a block";
  const block_picks p = picks_of({{65537, 65539}, {3, 101}});
  ASSERT_GT(p.products(0), std::uint64_t{1} << 32);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> taken;
  for (std::uint32_t thread = 0; thread < block_threads; ++thread) {
    product_walk walk(p, thread);
    std::uint32_t r = 0;
    ASSERT_TRUE(walk.next_row_set(r));
    ASSERT_EQ(r, 0U);
    if (!walk.next_row_set(r)) continue;
    ASSERT_EQ(r, 1U);
    for (std::uint32_t w = 0, e = 0; walk.next(w, e);) ++taken[{w, e}];
  }
  EXPECT_EQ(taken.size(), 3U * 101U);
  for (const auto& [product, times] : taken) EXPECT_EQ(times, 1);
}

// Odd boards list each side's ranges in one room a block: each listed range
// after the ones before it, within the job's list_limit; a range that does
// not fit what is left read whole; nothing listed where the board is even.
TEST(GpuJoinWalkTest, TheListsOfABlocksRowSetsShareTheirRoom) {
  if (block_row_sets < 4) GTEST_SKIP() << "fewer row sets a block than the case holds";
  detail::gpu::gpu_job job;
  job.middle = 3;
  job.list_limit = 10;
  block_picks p = picks_of({{4, 1}, {5, 7}, {2, 2}, {0, 3}});
  detail::gpu::plan_lists(job, 0, p);
  EXPECT_TRUE(p.listed[0][0] && p.listed[1][0] && !p.listed[2][0] && p.listed[3][0]);
  EXPECT_EQ(p.base[0][0], 0U);
  EXPECT_EQ(p.base[1][0], 4U);
  EXPECT_EQ(p.base[3][0], 9U);
  EXPECT_EQ(p.count[2][0], 2U);  // read whole
  EXPECT_EQ(p.count[0][0], 0U);  // listed: counted as the list is made
  EXPECT_TRUE(p.listed[0][1] && p.listed[1][1] && p.listed[2][1] && !p.listed[3][1]);
  EXPECT_EQ(p.base[2][1], 8U);
  EXPECT_EQ(p.count[3][1], 3U);
  job.middle = -1;
  detail::gpu::plan_lists(job, 0, p);
  for (std::uint32_t r = 0; r < block_row_sets; ++r) EXPECT_FALSE(p.listed[r][0] || p.listed[r][1]);
}

}  // namespace
}  // namespace nqueens
