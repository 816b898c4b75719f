// The GPUs of a node dealt among its processes from what each sees
// (gpu_node_deal.hpp): split where they see the same, their own where
// bound, never one GPU taken by two as each one's alone.

#include "engines/gpu/gpu_node_deal.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace nqueens {
namespace {

using detail::gpu::deal_node_gpus;
using detail::gpu::keyed_share;
using shares = std::vector<keyed_share>;

TEST(GpuNodeDealTest, RanksThatSeeTheSameGpusSplitThem) {
  // 2 ranks, 4 GPUs: two each, alone, whatever order each lists them in.
  const std::vector<std::vector<std::uint64_t>> four = {{10, 20, 30, 40}, {40, 30, 20, 10}};
  const auto dealt = deal_node_gpus(four);
  EXPECT_EQ(dealt[0], (shares{{10, 1}, {30, 1}}));
  EXPECT_EQ(dealt[1], (shares{{20, 1}, {40, 1}}));
  // 5 ranks, 2 GPUs: one each, shared by 3 and 2.
  const std::vector<std::vector<std::uint64_t>> two(5, {10, 20});
  const auto shared = deal_node_gpus(two);
  EXPECT_EQ(shared[0], (shares{{10, 3}}));
  EXPECT_EQ(shared[1], (shares{{20, 2}}));
  EXPECT_EQ(shared[2], (shares{{10, 3}}));
  EXPECT_EQ(shared[3], (shares{{20, 2}}));
  EXPECT_EQ(shared[4], (shares{{10, 3}}));
}

TEST(GpuNodeDealTest, RanksBoundToGpusOfTheirOwnTakeThem) {
  const std::vector<std::vector<std::uint64_t>> own = {{10, 20}, {30, 40}, {}};
  const auto dealt = deal_node_gpus(own);
  EXPECT_EQ(dealt[0], (shares{{10, 1}, {20, 1}}));
  EXPECT_EQ(dealt[1], (shares{{30, 1}, {40, 1}}));
  EXPECT_TRUE(dealt[2].empty());  // sees none: takes none
}

// Sets that overlap without being the same: no GPU is taken by two as
// each one's alone, and every GPU seen is taken.
TEST(GpuNodeDealTest, OverlappingSetsNeverShareAGpuUnknowingly) {
  for (const std::vector<std::vector<std::uint64_t>>& sees : std::vector<std::vector<std::vector<std::uint64_t>>>{
           {{20, 30}, {10, 20}}, {{10, 20}, {10}}, {{10, 20}, {10}, {30}}, {{10, 20, 30}, {20}, {20, 30}}}) {
    const auto dealt = deal_node_gpus(sees);
    std::vector<int> takers(64, 0);
    for (std::size_t p = 0; p < sees.size(); ++p) {
      EXPECT_FALSE(dealt[p].empty()) << p;
      for (const keyed_share& g : dealt[p]) {
        EXPECT_NE(std::find(sees[p].begin(), sees[p].end(), g.key), sees[p].end()) << "a GPU it does not see";
        ++takers[g.key];
      }
    }
    for (std::size_t p = 0; p < sees.size(); ++p) {
      for (const std::uint64_t key : sees[p]) EXPECT_GE(takers[key], 1) << key << " idle";
      for (const keyed_share& g : dealt[p]) EXPECT_EQ(g.sharers, takers[g.key]) << g.key;
    }
  }
  // A rank that sees a GPU the other does not takes that one.
  const std::vector<std::vector<std::uint64_t>> subset = {{10, 20}, {10}};
  const auto dealt = deal_node_gpus(subset);
  EXPECT_EQ(dealt[0], (shares{{20, 1}}));
  EXPECT_EQ(dealt[1], (shares{{10, 1}}));
}

}  // namespace
}  // namespace nqueens
