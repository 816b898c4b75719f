#include "nqueens/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "nqueens/cancelled.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/reduce.hpp"
#include "support/axes.hpp"

namespace nqueens {
namespace {

class PlanEngineTest : public ::testing::TestWithParam<engine> {};

TEST_P(PlanEngineTest, IsDeterministic) {
  const plan a(14, {.kind = GetParam()}), b(14, {.kind = GetParam()});
  EXPECT_EQ(a.size(), b.size());
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
  EXPECT_EQ(a.kind(), GetParam());
}

TEST_P(PlanEngineTest, FingerprintSeparatesEnginesBoardSizesAndDepths) {
  const engine e = GetParam();
  EXPECT_NE(plan(12, {.kind = e}).fingerprint(), plan(13, {.kind = e}).fingerprint());
  EXPECT_NE(plan(12, {.kind = e, .split_depth = 2}).fingerprint(),
            plan(12, {.kind = e, .split_depth = 3}).fingerprint());
  for (const engine other : all_engines()) {
    if (other != e) EXPECT_NE(plan(12, {.kind = e}).fingerprint(), plan(12, {.kind = other}).fingerprint());
  }
}

TEST_P(PlanEngineTest, WorkEstimatesArePositive) {
  const plan p(12, {.kind = GetParam()});
  for (std::size_t i = 0; i < p.size(); ++i) EXPECT_GE(p.estimated_work(i), 1u);
  EXPECT_THROW(static_cast<void>(p.estimated_work(p.size())), std::out_of_range);
}

TEST_P(PlanEngineTest, RejectsBoardsBeyondTheEngine) {
  const engine e = GetParam();
  EXPECT_THROW(plan(engine_max_board_size(e) + 1, {.kind = e}), std::invalid_argument);
  EXPECT_THROW(plan(0, {.kind = e}), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Engines, PlanEngineTest, ::testing::ValuesIn(nqueens::testing::registered_engines()),
                         [](const auto& info) { return nqueens::testing::name_of(info.param); });

// A plan moved from is still the whole plan: it used to keep its size and
// fingerprint and lose its subproblems (a crash on the first look at one).
TEST(PlanTest, APlanMovedFromIsStillWhole) {
  plan a(10);
  const std::uint64_t fingerprint = a.fingerprint();
  // NOLINTBEGIN(performance-move-const-arg,bugprone-use-after-move): a move that copies, and the plans moved from, are
  // what is tested
  plan b(std::move(a));
  plan c(8);
  c = std::move(b);
  for (const plan* p : {&a, &b, &c}) {
    EXPECT_EQ(p->fingerprint(), fingerprint);
    EXPECT_GE(p->estimated_work(0), 1U);
    EXPECT_EQ(reduce(execute(*p, {.threads = 1})).total, *published_total(10));
  }
  // NOLINTEND(performance-move-const-arg,bugprone-use-after-move)
}

TEST(PlanTest, FormatsFingerprintsAsSixteenHexDigits) {
  EXPECT_EQ(format_fingerprint(0x0123456789abcdefULL), "0123456789abcdef");
  EXPECT_EQ(format_fingerprint(0), "0000000000000000");
}

TEST(PlanTest, AutomaticDepthGivesEnoughSubproblemsOnLargeBoards) {
  for (int n = 14; n <= 20; ++n) {
    for (const engine kind : {engine::symmetric, engine::mirror}) {
      const plan p(n, {.kind = kind});
      EXPECT_GE(p.size(), automatic_target(n)) << "n = " << n;
      // ...and not vastly more: the depth stops as soon as the target is met.
      if (p.split_depth() == 1) continue;
      const plan shallower(n, {.kind = kind, .split_depth = p.split_depth() - 1});
      EXPECT_LT(shallower.size(), automatic_target(n)) << "n = " << n;
    }
  }
}

TEST(PlanTest, RejectsBadBoardSizesAndDepths) {
  EXPECT_THROW(plan(0), std::invalid_argument);
  EXPECT_THROW(plan(-3), std::invalid_argument);
  EXPECT_THROW(plan(max_board_size + 1), std::invalid_argument);
  EXPECT_THROW(plan(8, {.split_depth = -1}), std::invalid_argument);
  EXPECT_THROW(plan(8, {.split_depth = max_split_depth + 1}), std::invalid_argument);
  EXPECT_NO_THROW(plan(max_board_size, {.split_depth = 1}));
  // A split far too deep for the board is refused before it exhausts memory.
  EXPECT_THROW(plan(20, {.kind = engine::mirror, .split_depth = max_split_depth}), std::invalid_argument);
  EXPECT_THROW(plan(8, {.scope = static_cast<plan_scope>(5)}), std::invalid_argument);
  // An automatic plan asked for too many subproblems names the depth it
  // reached, not its own cap (n - 8), which nobody asked for.
  try {
    static_cast<void>(plan(20, {.kind = engine::mirror, .target_subproblems = std::size_t{1} << 40}));
    ADD_FAILURE() << "not refused";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("the automatic plan of n = 20 gives more than 4194304 subproblems at depth ", 0), 0U) << what;
    EXPECT_NE(what.find(": choose a --split-depth under "), std::string::npos) << what;
    EXPECT_EQ(what.find("depth 12"), std::string::npos) << what;
  }
}

// A plan of 10^8 subproblems takes seconds to fingerprint: a cancel set
// before or during planning ends it with run_cancelled.
TEST(PlanTest, CancelStopsPlanning) {
  const std::atomic<bool> cancel{true};
  for (const engine kind : all_engines()) {
    EXPECT_THROW(plan(16, {.kind = kind, .split_depth = 2, .cancel = &cancel}), run_cancelled) << to_string(kind);
  }
  const std::atomic<bool> go_on{false};
  EXPECT_EQ(plan(12, {.cancel = &go_on}).fingerprint(), plan(12).fingerprint());  // not part of the plan
}

}  // namespace
}  // namespace nqueens
