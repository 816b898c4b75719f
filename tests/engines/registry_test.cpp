// The registry: one list, numbers and names that journals and the command
// line rely on, and engine numbers nobody registered refused, not guessed.

#include "engines/registry.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>

#include "nqueens/count.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/plan.hpp"

namespace nqueens {
namespace {

TEST(RegistryTest, NumbersAndNamesAreUniqueAndRoundTrip) {
  std::set<int> numbers;
  std::set<std::string> names;
  for (const engine e : all_engines()) {
    EXPECT_TRUE(numbers.insert(static_cast<int>(e)).second) << "number " << static_cast<int>(e) << " twice";
    EXPECT_TRUE(names.insert(std::string(to_string(e))).second) << to_string(e) << " twice";
    EXPECT_TRUE(is_registered(e));
    EXPECT_EQ(parse_engine(to_string(e)), e);
    EXPECT_FALSE(engine_summary(e).empty());
    EXPECT_GE(engine_max_board_size(e), 1);
    EXPECT_NE(std::string(engine_names()).find(to_string(e)), std::string::npos);
  }
  EXPECT_EQ(all_engines().size(), detail::registered_engines().size());
  EXPECT_TRUE(is_registered(default_engine));
}

// What the tools report of the devices, and how they read a scaling row,
// follows this, never an engine's name: the GPU engine alone counts on GPUs,
// and an engine that does checks whether the machine has one.
TEST(RegistryTest, TheGpuEngineAloneCountsOnGpus) {
  for (const engine e : all_engines()) {
    EXPECT_EQ(counts_on_gpus(e), e == engine::gpu) << to_string(e);
    if (counts_on_gpus(e)) EXPECT_NE(detail::definition_of(e).check_runnable, nullptr) << to_string(e);
  }
  EXPECT_FALSE(counts_on_gpus(engine::automatic));
}

// Journals store these numbers: renumbering a built-in engine would make old
// journals name the wrong one.
TEST(RegistryTest, BuiltInEnginesKeepTheirJournalNumbers) {
  EXPECT_EQ(parse_engine("symmetric"), engine{0});
  EXPECT_EQ(parse_engine("mirror"), engine{1});
  EXPECT_EQ(parse_engine("quadrant"), engine{2});
  EXPECT_EQ(parse_engine("gpu"), engine{3});
}

TEST(RegistryTest, AnUnregisteredNumberIsRefusedNotGuessed) {
  int unused = 0;
  while (is_registered(static_cast<engine>(unused))) ++unused;
  const auto nobody = static_cast<engine>(unused);
  EXPECT_EQ(to_string(nobody), "unknown");
  EXPECT_EQ(parse_engine("unknown"), std::nullopt);
  EXPECT_EQ(engine_summary(nobody), "");
  EXPECT_FALSE(counts_unique(nobody));
  EXPECT_FALSE(counts_on_gpus(nobody));
  EXPECT_EQ(engine_max_board_size(nobody), 0);
  EXPECT_EQ(memory_estimate(12, nobody), 0u);
  EXPECT_EQ(detail::find_definition(nobody), nullptr);
  EXPECT_THROW(plan(8, {.kind = nobody}), std::invalid_argument);
  EXPECT_THROW(count(8, {.kind = nobody}), std::invalid_argument);
}

// Shards, journals and MPI ranks share a plan: auto goes by n alone there,
// the same on a node of any memory (a node it does not fit then refuses).
TEST(RegistryTest, SharedPlansGoByBoardSizeAlone) {
  for (int n = 1; n <= 28; ++n) {
    const engine e = shared_plan_engine(n);
    EXPECT_TRUE(is_registered(e));
    EXPECT_LE(n, engine_max_board_size(e)) << "n = " << n;
  }
  EXPECT_EQ(shared_plan_engine(15), engine::symmetric);
  EXPECT_EQ(shared_plan_engine(16), engine::quadrant);
  EXPECT_EQ(shared_plan_engine(28), engine::quadrant);
  EXPECT_EQ(shared_plan_engine(29), engine::symmetric);
}

}  // namespace
}  // namespace nqueens
