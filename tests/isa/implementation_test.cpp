// The one list of compiled kernel sets: each one's CPU features are names
// the CPUID test knows, narrowest first (each set needs what the one before
// it needs), each at its index, and what the CPU runs agrees with the public
// sets it reports.

#include "isa/implementation.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

namespace nqueens {
namespace {

std::set<std::string> features_of(const detail::implementation& i) {
  std::set<std::string> names;
  for (std::string_view rest = i.features; !rest.empty();) {
    const std::size_t comma = rest.find(',');
    names.emplace(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return names;
}

TEST(ImplementationTest, FeaturesAreKnownAndGrowWithEachSet) {
  const auto all = detail::implementations();
  ASSERT_EQ(all.size(), detail::implementation_count);
  std::set<std::string> before;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const detail::implementation& i = all[k];
    EXPECT_EQ(i.index, k) << i.name;
    const std::set<std::string> mine = features_of(i);
    for (const std::string& f : mine) EXPECT_TRUE(detail::feature_known(f)) << i.name << ": " << f;
    for (const std::string& f : before) EXPECT_TRUE(mine.contains(f)) << i.name << " lacks " << f;
    before = mine;
  }
  EXPECT_TRUE(all.front().features.empty()) << "the portable set needs nothing";
  EXPECT_FALSE(detail::feature_known("sse9"));
  EXPECT_FALSE(detail::cpu_has("sse9"));
}

TEST(ImplementationTest, WhatTheCpuRunsIsWhatItSupports) {
  for (const isa k : all_isas()) {
    bool runs_some = false;
    for (const detail::implementation& i : detail::implementations()) runs_some |= i.kernels == k && i.cpu_runs();
    EXPECT_EQ(runs_some, cpu_supports(k)) << to_string(k);
  }
  EXPECT_TRUE(detail::implementations().front().cpu_runs());
#if defined(__x86_64__)
  EXPECT_EQ(isa_names(), "portable, avx2, avx512");
#else
  // Elsewhere the portable kernels alone are built; the other sets' names
  // still parse, as sets this CPU does not run.
  EXPECT_EQ(isa_names(), "portable");
  EXPECT_EQ(parse_isa("avx2"), isa::avx2);
  EXPECT_FALSE(cpu_supports(isa::avx2));
  EXPECT_FALSE(cpu_supports(isa::avx512));
#endif
  // What runs here is preferred, but kernels that need BMI2 where pdep
  // and pext are slow; what is chosen is preferred, and named.
  for (const detail::implementation& i : detail::implementations()) {
    EXPECT_EQ(i.cpu_prefers(), i.cpu_runs() && !(detail::lists_feature(i.features, "bmi2") && detail::slow_bmi2()))
        << i.name;
  }
  for (const isa k : all_isas()) {
    if (!cpu_supports(k)) continue;
    EXPECT_TRUE(detail::implementation_for(k).cpu_prefers()) << to_string(k);
    EXPECT_EQ(kernels_name(k), detail::implementation_for(k).name);
    EXPECT_EQ(kernels_name(k).substr(0, to_string(k).size()), to_string(k));  // a build of that set
  }
  // The widest build of each set the CPU prefers is the one chosen: no
  // later (wider) build of the set is preferred here.
  for (const isa k : all_isas()) {
    if (!cpu_supports(k)) continue;
    for (const detail::implementation& i : detail::implementations()) {
      if (i.kernels == k && i.index > detail::implementation_for(k).index) EXPECT_FALSE(i.cpu_prefers()) << i.name;
    }
  }
  // A value outside the enum (a cast by a caller) is a set no CPU runs.
  EXPECT_FALSE(cpu_supports(static_cast<isa>(3)));
  EXPECT_FALSE(cpu_supports(static_cast<isa>(255)));
}

// Every feature a build lists is checked, not the first alone: a CPU that
// has all of an implementation's features but one does not run it (the
// one missing would be SIGILL in a kernel).
TEST(ImplementationTest, EveryFeatureListedIsNeeded) {
  for (const detail::implementation& i : detail::implementations()) {
    if (i.features.empty()) continue;
    const std::string missing_last = std::string(i.features) + ",sse9";
    const std::string missing_first = "sse9," + std::string(i.features);
    for (const std::string& features : {missing_last, missing_first}) {
      const detail::implementation lacking{.name = "lacking", .kernels = i.kernels, .features = features, .index = 0};
      EXPECT_FALSE(lacking.cpu_runs()) << features;
      EXPECT_FALSE(lacking.cpu_prefers()) << features;
    }
  }
}

// Without NQUEENS_ISA the widest set this CPU supports counts: a choice
// that stopped at the first set the CPU runs would count on the portable
// kernels, the slowest, and only --version would say so.
TEST(ImplementationTest, TheWidestSupportedSetIsActive) {
  const char* forced = std::getenv("NQUEENS_ISA");
  if (forced != nullptr && *forced != '\0') GTEST_SKIP() << "NQUEENS_ISA=" << forced << " chooses here";
  ASSERT_FALSE(supported_isas().empty());
  EXPECT_EQ(active_isa(), supported_isas().back());
}

}  // namespace
}  // namespace nqueens
