#include "nqueens/known_counts.hpp"

#include <array>

namespace nqueens {
namespace {

// Q(n) for n = 1..27: OEIS A000170, "Number of ways of placing n nonattacking
// queens on an n X n board" (https://oeis.org/A000170). Q(27) is the TU Dresden
// Queens@TUD result (Preusser, 2016).
constexpr std::array<std::uint64_t, max_published_board_size> totals = {
    1ULL,
    0ULL,
    0ULL,
    2ULL,
    10ULL,
    4ULL,
    40ULL,
    92ULL,
    352ULL,
    724ULL,
    2680ULL,
    14200ULL,
    73712ULL,
    365596ULL,
    2279184ULL,
    14772512ULL,
    95815104ULL,
    666090624ULL,
    4968057848ULL,
    39029188884ULL,
    314666222712ULL,
    2691008701644ULL,
    24233937684440ULL,
    227514171973736ULL,
    2207893435808352ULL,
    22317699616364044ULL,
    234907967154122528ULL,
};

// Fundamental solutions for n = 1..27: OEIS A002562, "Number of ways of placing
// n nonattacking queens on n X n board (symmetric solutions count only once)"
// (https://oeis.org/A002562).
constexpr std::array<std::uint64_t, max_published_board_size> uniques = {
    1ULL,
    0ULL,
    0ULL,
    1ULL,
    2ULL,
    1ULL,
    6ULL,
    12ULL,
    46ULL,
    92ULL,
    341ULL,
    1787ULL,
    9233ULL,
    45752ULL,
    285053ULL,
    1846955ULL,
    11977939ULL,
    83263591ULL,
    621012754ULL,
    4878666808ULL,
    39333324973ULL,
    336376244042ULL,
    3029242658210ULL,
    28439272956934ULL,
    275986683743434ULL,
    2789712466510289ULL,
    29363495934315694ULL,
};

// Cheap internal consistency: every fundamental class has at most 8 members.
static_assert([] {
  for (std::size_t i = 0; i < totals.size(); ++i) {
    if (uniques[i] > totals[i] || totals[i] > 8 * uniques[i]) return false;
  }
  return true;
}());

}  // namespace

std::optional<std::uint64_t> published_total(int n) noexcept {
  if (n < 1 || n > max_published_board_size) return std::nullopt;
  return totals[static_cast<std::size_t>(n - 1)];
}

std::optional<std::uint64_t> published_unique(int n) noexcept {
  if (n < 1 || n > max_published_board_size) return std::nullopt;
  return uniques[static_cast<std::size_t>(n - 1)];
}

}  // namespace nqueens
