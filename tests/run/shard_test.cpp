#include "nqueens/shard.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "nqueens/count.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/progress.hpp"
#include "run/shard/shard_members.hpp"

namespace nqueens {
namespace {

class ShardTest : public ::testing::TestWithParam<int> {};

TEST_P(ShardTest, ShardsPartitionThePlanAndAddUpToTheWhole) {
  const int shards = GetParam();
  const plan p(12);
  std::vector<int> owner(p.size(), -1);
  uint128 total = 0, symmetric_180 = 0, symmetric_90 = 0;
  for (int k = 0; k < shards; ++k) {
    const auto mine = shard_indices(p, {k, shards});
    for (std::size_t j = 1; j < mine.size(); ++j) EXPECT_LT(mine[j - 1], mine[j]);
    for (const std::size_t i : mine) {
      EXPECT_EQ(owner[i], -1) << "subproblem " << i << " in two shards";
      owner[i] = k;
    }
    const count_result r = count(12, {.threads = 2, .shard = {k, shards}});
    EXPECT_EQ(r.shard_subproblems, mine.size());
    EXPECT_TRUE(r.complete);
    // A part is never verified alone; one shard of one is the whole.
    EXPECT_EQ(r.check.total, shards == 1 ? verdict::match : verdict::unknown);
    // The fundamental count needs the whole: merge derives it.
    EXPECT_EQ(r.unique.has_value(), shards == 1);
    total += r.total;
    symmetric_180 += r.symmetric_180;
    symmetric_90 += r.symmetric_90;
  }
  for (std::size_t i = 0; i < p.size(); ++i) EXPECT_NE(owner[i], -1) << "subproblem " << i << " in no shard";
  EXPECT_EQ(total, *published_total(12));
  EXPECT_EQ(symmetric_180, *published_symmetric_180(12));
  EXPECT_EQ(symmetric_90, *published_symmetric_90(12));
  EXPECT_EQ(fundamental_count(12, total, symmetric_180, symmetric_90), *published_unique(12));
}

// M = 1, small M, M above the number of subproblems of the 12-board plan (1322 subproblems).
INSTANTIATE_TEST_SUITE_P(ShardCounts, ShardTest, ::testing::Values(1, 2, 3, 4, 7, 64, 1500));

TEST(ShardBalanceTest, ShardsCarrySimilarEstimatedWork) {
  const plan p(16);
  const auto work = estimate_work(p);
  for (const int shards : {2, 4, 16}) {
    std::uint64_t lightest = UINT64_MAX, heaviest = 0;
    for (int k = 0; k < shards; ++k) {
      std::uint64_t sum = 0;
      for (const std::size_t i : shard_indices(p, {k, shards})) sum += work[i];
      lightest = std::min(lightest, sum);
      heaviest = std::max(heaviest, sum);
    }
    EXPECT_LE(heaviest, lightest + lightest / 100) << shards << " shards";  // within 1%
  }
}

// A plan whose estimates are all equal (the quadrant engine's) is dealt out
// in turn, index i to shard i mod M: what the greedy balance gives for equal
// estimates, found without sorting the plan; a plan with unequal estimates
// does not take that path.
TEST(ShardBalanceTest, EqualEstimatesAreDealtOutInTurn) {
  const plan quadrant(14, {.kind = engine::quadrant});
  ASSERT_TRUE(quadrant.uniform_work());
  for (std::size_t i = 0; i < quadrant.size(); ++i) ASSERT_EQ(quadrant.estimated_work(i), 1U);
  for (const int shards : {1, 3, 1000}) {
    for (int k = 0; k < shards; k += std::max(1, shards / 7)) {
      std::vector<std::size_t> expected;
      for (std::size_t i = static_cast<std::size_t>(k); i < quadrant.size(); i += static_cast<std::size_t>(shards)) {
        expected.push_back(i);
      }
      EXPECT_EQ(shard_indices(quadrant, {k, shards}), expected) << k << "/" << shards;
    }
  }
  EXPECT_FALSE(plan(14, {.kind = engine::symmetric}).uniform_work());
}

TEST(ShardBalanceTest, RejectsBadShards) {
  const plan p(8);
  EXPECT_THROW(shard_indices(p, {4, 4}), std::invalid_argument);
  EXPECT_THROW(shard_indices(p, {-1, 4}), std::invalid_argument);
  EXPECT_THROW(shard_indices(p, {0, 0}), std::invalid_argument);
  EXPECT_THROW(shard_indices(p, {0, max_shards + 1}), std::invalid_argument);
}

// One deal gives every shard's size, as each shard's own list does (merge
// checks thousands of files against it).
TEST(ShardBalanceTest, ShardSizesMatchEveryShardsList) {
  for (const engine kind : all_engines()) {
    const plan p(11, {.kind = kind});
    for (const int count : {1, 3, 7, static_cast<int>(p.size()) + 2}) {
      const std::vector<std::size_t> sizes = shard_sizes(p, count);
      ASSERT_EQ(sizes.size(), static_cast<std::size_t>(count));
      std::size_t sum = 0;
      for (int k = 0; k < count; ++k) {
        EXPECT_EQ(sizes[static_cast<std::size_t>(k)], shard_indices(p, {k, count}).size()) << to_string(kind);
        sum += sizes[static_cast<std::size_t>(k)];
      }
      EXPECT_EQ(sum, p.size());
    }
  }
  EXPECT_THROW(shard_sizes(plan(8), 0), std::invalid_argument);
}

// Each shard's digest is its indices' (dealt once for all shards, and by
// the run's own view of its shard), the shards' digests add up to the
// whole plan's, and a shard dealt otherwise, with as many subproblems,
// has another: what merge tells another version's deal by.
TEST(ShardBalanceTest, ShardDigestsAreTheirIndicesAndTellAnotherDeal) {
  for (const engine kind : all_engines()) {
    const plan p(11, {.kind = kind});
    const std::uint64_t whole = shard_digests(p, 1).at(0);
    EXPECT_EQ(whole, detail::shard_members(p, {}).digest()) << to_string(kind);
    for (const int count : {3, 7, static_cast<int>(p.size()) + 2}) {
      const std::vector<std::uint64_t> digests = shard_digests(p, count);
      ASSERT_EQ(digests.size(), static_cast<std::size_t>(count));
      std::uint64_t sum = 0;
      for (int k = 0; k < count; ++k) {
        const std::vector<std::size_t> listed = shard_indices(p, {k, count});
        std::uint64_t own = 0;
        for (const std::size_t i : listed) own += detail::digest_term(i);
        EXPECT_EQ(digests[static_cast<std::size_t>(k)], own) << to_string(kind) << " " << k << "/" << count;
        EXPECT_EQ(detail::shard_members(p, {k, count}).digest(), own) << to_string(kind);
        sum += own;
      }
      EXPECT_EQ(sum, whole) << to_string(kind);
    }
    // Shard 0 of 3 with one index swapped for another shard's: the same size, another digest.
    const std::vector<std::size_t> first = shard_indices(p, {0, 3}), second = shard_indices(p, {1, 3});
    ASSERT_FALSE(first.empty());
    ASSERT_FALSE(second.empty());
    EXPECT_NE(shard_digests(p, 3)[0],
              shard_digests(p, 3)[0] - detail::digest_term(first[0]) + detail::digest_term(second[0]));
  }
  EXPECT_THROW(shard_digests(plan(8), 0), std::invalid_argument);
}

// The run's view of a shard (computed, not listed, where estimates are
// equal) names exactly the indices shard_indices lists.
TEST(ShardMembersTest, MatchShardIndicesOnEveryKindOfPlan) {
  for (const engine kind : all_engines()) {
    const plan p(11, {.kind = kind});
    for (const shard_spec s : {shard_spec{}, shard_spec{0, 3}, shard_spec{2, 3}, shard_spec{5, 7},
                               shard_spec{static_cast<int>(p.size()) + 1, static_cast<int>(p.size()) + 2}}) {
      const std::vector<std::size_t> listed = shard_indices(p, s);
      const detail::shard_members members(p, s);
      ASSERT_EQ(members.size(), listed.size()) << to_string(kind) << " " << s.index << "/" << s.count;
      for (std::size_t k = 0; k < listed.size(); ++k) EXPECT_EQ(members[k], listed[k]);
      std::size_t contained = 0;
      for (std::size_t i = 0; i < p.size() + 3; ++i) contained += members.contains(i) ? 1 : 0;
      EXPECT_EQ(contained, listed.size());
      for (const std::size_t i : listed) EXPECT_TRUE(members.contains(i));
    }
  }
  EXPECT_THROW(detail::shard_members(plan(8), shard_spec{2, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace nqueens
