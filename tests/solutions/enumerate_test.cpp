#include "nqueens/enumerate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <optional>
#include <ranges>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/symmetry.hpp"
#include "nqueens/check.hpp"
#include "nqueens/known_counts.hpp"

namespace {

using solution = std::vector<std::uint8_t>;

bool is_solution(nqueens::solution_view q) {
  const std::vector<int> columns(q.begin(), q.end());
  return nqueens::check(columns).is_solution();
}

std::vector<solution> serial_list(int n) {
  std::vector<solution> all;
  for (const nqueens::solution_view q : nqueens::solutions(n)) all.emplace_back(q.begin(), q.end());
  return all;
}

std::vector<solution> parallel_list(int n, const nqueens::enumerate_options& options,
                                    std::vector<int>* class_sizes = nullptr) {
  std::vector<solution> all;
  nqueens::enumerate(n, options, [&](const nqueens::listed_solution& s) {
    all.emplace_back(s.columns.begin(), s.columns.end());
    if (class_sizes != nullptr) class_sizes->push_back(s.class_size);
    return true;
  });
  return all;
}

class SolutionsTest : public ::testing::TestWithParam<int> {};

TEST_P(SolutionsTest, SerialRangeListsEverySolutionOnceInOrder) {
  const int n = GetParam();
  const std::vector<solution> all = serial_list(n);
  EXPECT_EQ(all.size(), nqueens::published_total(n).value());
  EXPECT_TRUE(std::adjacent_find(all.begin(), all.end(), std::greater_equal<>()) == all.end())
      << "not strictly increasing";
  for (const solution& q : all) ASSERT_TRUE(is_solution(q));
}

INSTANTIATE_TEST_SUITE_P(Boards, SolutionsTest, ::testing::Range(1, 12));

// One range's iterators share its place: a second begin() (a second
// views::take, a loop after a peek) goes on from there, skipping nothing.
static_assert(std::ranges::input_range<nqueens::solution_range>);

TEST(SolutionRangeTest, ASecondBeginGoesOnWithoutSkipping) {
  const std::vector<solution> all = serial_list(8);
  nqueens::solution_range range = nqueens::solutions(8);
  const nqueens::solution_view peeked = *range.begin();
  EXPECT_EQ(solution(peeked.begin(), peeked.end()), all[0]);
  std::vector<solution> listed;
  // Three steps by hand, as std::views::take(3) would take them (Clang 14
  // builds no std::ranges view over libstdc++ 12's).
  auto it = range.begin();
  for (int k = 0; k < 3 && !(it == std::default_sentinel); ++k, ++it) listed.emplace_back((*it).begin(), (*it).end());
  // The loop steps past its third, as take's does, so the next begin() starts at the fourth
  for (const nqueens::solution_view q : range) listed.emplace_back(q.begin(), q.end());
  EXPECT_EQ(listed, all);
  EXPECT_TRUE(range.begin() == std::default_sentinel);  // past the end, it stays there
  EXPECT_TRUE(nqueens::solution_range::iterator() == std::default_sentinel);
  // Stepping past the end does nothing, for one default-constructed too (it
  // read through a null cursor).
  auto ended = range.begin();
  ++ended;
  EXPECT_TRUE(ended == std::default_sentinel);
  nqueens::solution_range::iterator none;
  ++none;
  none++;
  EXPECT_TRUE(none == std::default_sentinel);
}

class EnumerateTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(EnumerateTest, ParallelListingIsTheSerialOrderForEveryThreadCount) {
  const auto [n, threads] = GetParam();
  nqueens::enumerate_options options;
  options.threads = threads;
  EXPECT_EQ(parallel_list(n, options), serial_list(n));
}

// 11..13 have prefixes (n - 10 rows) searched by the lane-parallel kernel.
INSTANTIATE_TEST_SUITE_P(BoardsAndThreads, EnumerateTest,
                         ::testing::Combine(::testing::Values(1, 4, 6, 8, 10, 11, 12, 13),
                                            ::testing::Values(1, 2, 3, 8)));

// The smallest tuple among the 8 images of q, and how many images equal q.
std::pair<solution, int> orbit_minimum(const solution& q) {
  solution smallest = q, image(q.size());
  int stabiliser = 0;
  for (int g = 0; g < nqueens::detail::symmetry_count; ++g) {
    nqueens::detail::apply(static_cast<nqueens::detail::symmetry>(g), q, image);
    smallest = std::min(smallest, image);
    if (image == q) ++stabiliser;
  }
  return {smallest, 8 / stabiliser};
}

class UniqueTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(UniqueTest, OneSmallestMemberPerClassWithItsSize) {
  const auto [n, threads] = GetParam();
  nqueens::enumerate_options options;
  options.threads = threads;
  options.unique = true;
  std::vector<int> sizes;
  const std::vector<solution> listed = parallel_list(n, options, &sizes);
  ASSERT_EQ(listed.size(), nqueens::published_unique(n).value());
  std::uint64_t members = 0;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const auto [smallest, class_size] = orbit_minimum(listed[i]);
    EXPECT_EQ(smallest, listed[i]) << "not the smallest of its class";
    EXPECT_EQ(sizes[i], class_size);
    members += static_cast<std::uint64_t>(class_size);
  }
  EXPECT_EQ(members, nqueens::published_total(n).value());
  // Exactly the canonical members of the full listing, in the same order.
  std::vector<solution> canonical;
  for (const solution& q : serial_list(n)) {
    if (orbit_minimum(q).first == q) canonical.push_back(q);
  }
  EXPECT_EQ(listed, canonical);
}

INSTANTIATE_TEST_SUITE_P(BoardsAndThreads, UniqueTest,
                         ::testing::Combine(::testing::Values(1, 4, 5, 6, 8, 10, 11, 12), ::testing::Values(1, 3)));

TEST(EnumerateLimitTest, StopsAfterTheFirstKInOrder) {
  nqueens::enumerate_options options;
  options.threads = 2;
  options.limit = 1000;
  const std::vector<solution> first = parallel_list(12, options);
  std::vector<solution> expected = serial_list(12);
  expected.resize(1000);
  EXPECT_EQ(first, expected);
}

TEST(EnumerateLimitTest, FirstSolutionsOfLargeBoardsComeAtOnce) {
  // Listing all of n = 29 would take millennia: the limit stops the search.
  // (n = 30's smallest solutions lie deep: 1.5 s to find, 15 s under ASan.)
  for (const int n : {20, 29}) {
    nqueens::enumerate_options options;
    options.threads = 2;
    options.limit = 3;
    const std::vector<solution> first = parallel_list(n, options);
    ASSERT_EQ(first.size(), 3u);
    for (const solution& q : first) EXPECT_TRUE(is_solution(q));
    EXPECT_TRUE(std::is_sorted(first.begin(), first.end()));
    if (n != 20) continue;  // the serial search's own first solution takes a while for n = 29
    nqueens::solution_range serial = nqueens::solutions(n);
    const nqueens::solution_view smallest = *serial.begin();
    EXPECT_EQ(first.front(), solution(smallest.begin(), smallest.end()));
  }
}

TEST(EnumerateLimitTest, ReportsWhetherTheListingIsComplete) {
  nqueens::enumerate_options options;
  options.limit = 92;
  const auto all = nqueens::enumerate(8, options, [](const nqueens::listed_solution&) { return true; });
  EXPECT_EQ(all.delivered, 92u);
  EXPECT_FALSE(all.complete);  // stopped at the limit: nothing tells that no 93rd exists
  // One short of all of n = 12 (several batches, two threads): incomplete.
  options.threads = 2;
  options.limit = 14199;
  const auto one_short = nqueens::enumerate(12, options, [](const nqueens::listed_solution&) { return true; });
  EXPECT_EQ(one_short.delivered, 14199u);
  EXPECT_FALSE(one_short.complete);
  options.threads = 0;
  options.limit = 10;
  const auto some = nqueens::enumerate(8, options, [](const nqueens::listed_solution&) { return true; });
  EXPECT_EQ(some.delivered, 10u);
  EXPECT_FALSE(some.complete);
  options.limit = 0;
  const auto none_left = nqueens::enumerate(8, options, [](const nqueens::listed_solution&) { return true; });
  EXPECT_TRUE(none_left.complete);
}

// Every instruction set this CPU runs lists the same solutions, in the same
// order, as count_options::kernels chooses them; a value that names none is
// refused before any search.
TEST(EnumerateKernelsTest, EveryRunnableSetListsTheSameSolutions) {
  const auto listed = [](std::optional<nqueens::isa> kernels) {
    std::vector<int> all;
    nqueens::enumerate_options options;
    options.kernels = kernels;
    options.threads = 2;
    nqueens::enumerate(10, options, [&](const nqueens::listed_solution& s) {
      all.insert(all.end(), s.columns.begin(), s.columns.end());
      return true;
    });
    return all;
  };
  const std::vector<int> reference = listed(std::nullopt);
  EXPECT_EQ(reference.size(), 724U * 10U);
  for (const nqueens::isa kernels : nqueens::supported_isas()) {
    EXPECT_EQ(listed(kernels), reference) << nqueens::to_string(kernels);
  }
  nqueens::enumerate_options bad;
  bad.kernels = static_cast<nqueens::isa>(99);
  try {
    nqueens::enumerate(8, bad, [](const nqueens::listed_solution&) { return true; });
    ADD_FAILURE() << "kernels 99 were taken";
  } catch (const nqueens::isa_error& e) {
    ADD_FAILURE() << "kernels 99 read as a set this CPU lacks: " << e.what();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("name no instruction set"), std::string::npos) << e.what();
  }
}

// An empty visitor is the caller's error, said before any search, not a
// bad_function_call from a worker's first solution.
TEST(EnumerateStopTest, AnEmptyVisitorIsRefused) {
  EXPECT_THROW(nqueens::enumerate(8, {}, nqueens::solution_visitor{}), std::invalid_argument);
}

TEST(EnumerateStopTest, VisitorReturningFalseStops) {
  int calls = 0;
  const auto r = nqueens::enumerate(14, {}, [&](const nqueens::listed_solution&) { return ++calls < 5; });
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(r.delivered, 5u);  // every solution passed to it, the one it refused too
  EXPECT_FALSE(r.complete);
}

TEST(EnumerateStopTest, CancelFlagStops) {
  std::atomic<bool> cancel{false};
  nqueens::enumerate_options options;
  options.cancel = &cancel;
  std::uint64_t seen = 0;
  const auto r = nqueens::enumerate(16, options, [&](const nqueens::listed_solution&) {
    if (++seen == 100) cancel = true;
    return true;
  });
  EXPECT_FALSE(r.complete);
  // Heard before the next solution, not at the end of a batch.
  EXPECT_EQ(r.delivered, 100u);
  EXPECT_EQ(seen, 100u);
}

TEST(EnumerateStopTest, VisitorExceptionPropagates) {
  EXPECT_THROW(nqueens::enumerate(13, {},
                                  [](const nqueens::listed_solution& s) -> bool {
                                    if (s.columns[0] == 1) throw std::runtime_error("visitor failed");
                                    return true;
                                  }),
               std::runtime_error);
}

TEST(EnumerateTest, RejectsBadArguments) {
  const auto visit = [](const nqueens::listed_solution&) { return true; };
  EXPECT_THROW(nqueens::enumerate(0, {}, visit), std::invalid_argument);
  EXPECT_THROW(nqueens::enumerate(33, {}, visit), std::invalid_argument);
  nqueens::enumerate_options options;
  options.threads = -1;
  EXPECT_THROW(nqueens::enumerate(8, options, visit), std::invalid_argument);
  EXPECT_THROW(nqueens::solutions(0), std::invalid_argument);
  EXPECT_THROW(nqueens::solutions(33), std::invalid_argument);
}

}  // namespace
