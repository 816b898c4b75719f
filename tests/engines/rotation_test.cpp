// The search for solutions unchanged by a half or a quarter turn, and the
// fundamental count every engine derives from it (Burnside's lemma).

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "engines/rotation/rotation_plan.hpp"
#include "nqueens/count.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/reduce.hpp"
#include "support/axes.hpp"
#include "support/brute_force.hpp"

namespace nqueens {
namespace {

// q rotated a quarter turn clockwise: the queen (r, q[r]) goes to (q[r], m - r).
std::vector<int> quarter_turn(const std::vector<int>& q) {
  const int m = static_cast<int>(q.size()) - 1;
  std::vector<int> image(q.size());
  for (int r = 0; r <= m; ++r) image[static_cast<std::size_t>(q[static_cast<std::size_t>(r)])] = m - r;
  return image;
}

// Every solution of n <= 10, turned and compared square by square.
TEST(RotationTest, MatchesBruteForceOnSmallBoards) {
  for (int n = 1; n <= 10; ++n) {
    std::uint64_t half = 0, quarter = 0;
    for (const std::vector<int>& q : testing::all_solutions_by_permutation(n)) {
      const std::vector<int> once = quarter_turn(q);
      const std::vector<int> twice = quarter_turn(once);
      half += twice == q ? 1 : 0;
      quarter += once == q ? 1 : 0;
    }
    const count_result r = rotational_counts(n, {.threads = 2});
    EXPECT_EQ(r.symmetric_180, half) << "n = " << n;
    EXPECT_EQ(r.symmetric_90, quarter) << "n = " << n;
    EXPECT_EQ(r.total, 0u);
    EXPECT_FALSE(r.unique.has_value());
    EXPECT_EQ(r.scope, plan_scope::rotational);
    EXPECT_TRUE(r.check.verified()) << "n = " << n;
  }
}

// Every instruction set's searches agree with the published values.
class RotationIsaTest : public ::testing::TestWithParam<isa> {};

TEST_P(RotationIsaTest, MatchesThePublishedValues) {
  NQUEENS_SKIP_UNLESS_SUPPORTED(GetParam());
  for (int n = 1; n <= 20; ++n) {
    count_options options{.threads = 2};
    options.kernels = GetParam();
    const count_result r = rotational_counts(n, options);
    EXPECT_EQ(r.symmetric_180, *published_symmetric_180(n)) << "n = " << n;
    EXPECT_EQ(r.symmetric_90, *published_symmetric_90(n)) << "n = " << n;
    EXPECT_EQ(r.kernels, GetParam());
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, RotationIsaTest, ::testing::ValuesIn(testing::all_isas()),
                         [](const auto& info) { return testing::name_of(info.param); });

// The symmetric engine classifies each solution it reaches; the classes it
// counts must be (Q + P + 2R) / 8, from its own totals and the rotation
// subproblems of the same plan.
TEST(RotationTest, BurnsideAgreesWithTheSymmetricEnginesClassification) {
  for (int n = 1; n <= 15; ++n) {
    const plan p(n, {.kind = engine::symmetric});
    const totals sums = reduce(execute(p, {.threads = 2}));
    EXPECT_EQ(sums.unique, fundamental_count(n, sums.total, sums.symmetric_180, sums.symmetric_90)) << "n = " << n;
  }
}

// Every engine gets the fundamental count, through the same identity.
class BurnsideEngineTest : public ::testing::TestWithParam<engine> {};

TEST_P(BurnsideEngineTest, EveryEngineGetsThePublishedFundamentalCount) {
#ifdef NQUEENS_SANITIZED
  // The emulated GPU engine is the slowest there; its n = 14 and 15 are the plain build's.
  const int largest = GetParam() == engine::gpu ? 13 : 15;
#else
  const int largest = 15;
#endif
  for (int n = 1; n <= largest; ++n) {
    const count_result r = count(n, {.kind = GetParam(), .threads = 2});
    ASSERT_TRUE(r.unique.has_value()) << "n = " << n;
    EXPECT_EQ(*r.unique, *published_unique(n)) << "n = " << n;
    EXPECT_TRUE(r.check.verified()) << "n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, BurnsideEngineTest, ::testing::ValuesIn(testing::registered_engines()),
                         [](const auto& info) { return testing::name_of(info.param); });

TEST(RotationTest, FundamentalCountRefusesInconsistentCounts) {
  EXPECT_EQ(fundamental_count(8, 92, 4, 0), 12u);
  EXPECT_EQ(fundamental_count(1, 1, 1, 1), 1u);  // the lone queen: fixed by every symmetry
  EXPECT_THROW(fundamental_count(8, 92, 5, 0), std::domain_error);
}

// However many half-turn orbits a subproblem fixes (the plan fixes a fourth
// from n = 30, whose searches take hours), the subproblems add up to the
// published counts.
TEST(RotationTest, EveryDepthOfHalfTurnOrbitsCountsTheSame) {
  const detail::search_kernels& search = detail::search_kernels_for(isa::portable);
  for (int n = 8; n <= 18; ++n) {
    for (int orbits = 0; orbits <= detail::max_task_orbits; ++orbits) {
      const std::vector<detail::rotation_task> tasks = detail::rotation_tasks(n, orbits);
      uint128 half = 0, quarter = 0;
      for (const detail::rotation_task& t : tasks) {
        const subproblem_count c = detail::solve_rotation_task(n, t, search);
        half += c.symmetric_180;
        quarter += c.symmetric_90;
      }
      EXPECT_EQ(half, *published_symmetric_180(n)) << "n = " << n << ", " << orbits << " orbits";
      EXPECT_EQ(quarter, *published_symmetric_90(n)) << "n = " << n << ", " << orbits << " orbits";
    }
  }
}

// The rotation subproblems follow the engine's in every plan, and alone make
// a plan of their own with another fingerprint.
TEST(RotationTest, SubproblemsArePartOfEveryPlan) {
  const plan all(16, {.kind = engine::mirror});
  const plan alone(16, {.scope = plan_scope::rotational});
  EXPECT_EQ(all.size(), all.engine_subproblems() + alone.size());
  EXPECT_EQ(alone.engine_subproblems(), 0u);
  EXPECT_NE(all.fingerprint(), alone.fingerprint());
  EXPECT_EQ(alone.fingerprint(), plan(16, {.scope = plan_scope::rotational}).fingerprint());
  EXPECT_GT(alone.size(), 100u);  // split for the arena
  for (std::size_t i = 0; i < alone.size(); ++i) EXPECT_EQ(alone.estimated_work(i), 1u);
}

}  // namespace
}  // namespace nqueens
