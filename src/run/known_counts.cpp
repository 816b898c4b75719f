#include "nqueens/known_counts.hpp"

#include <array>

namespace nqueens {
namespace {

// Q(n) for n = 1..27: OEIS A000170, "Number of ways of placing n nonattacking
// queens on an n X n board" (https://oeis.org/A000170). Q(27) is the TU Dresden
// Queens@TUD result (Preusser, 2016).
constexpr std::array<std::uint64_t, max_published_board_size> published_totals = {
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
  for (std::size_t i = 0; i < published_totals.size(); ++i) {
    if (uniques[i] > published_totals[i] || published_totals[i] > 8 * uniques[i]) return false;
  }
  return true;
}());

// Solutions unchanged by a half turn for n = 1..32: OEIS A032522
// (https://oeis.org/A032522). For n = 2..27 these are 8 unique(n) - Q(n) -
// 2 R(n) from the two tables above and the one below (Burnside's lemma; see
// count_types.hpp), n = 1 is the lone queen, and n = 24..32 are the values
// OEIS lists (24..27 agree with the formula).
constexpr std::array<std::uint64_t, max_rotational_board_size> half_turns = {
    1ULL,          0ULL,           0ULL,           2ULL,
    2ULL,          4ULL,           8ULL,           4ULL,
    16ULL,         12ULL,          48ULL,          80ULL,
    136ULL,        420ULL,         1240ULL,        3000ULL,
    8152ULL,       18104ULL,       44184ULL,       144620ULL,
    375664ULL,     1250692ULL,     3581240ULL,     11675080ULL,
    34132592ULL,   115718268ULL,   320403024ULL,   1250901440ULL,
    3600075088ULL, 14589438024ULL, 43266334696ULL, 181254386312ULL,
};

// Solutions unchanged by a quarter turn for n = 1..32: OEIS A033148
// (https://oeis.org/A033148). Zero unless n = 0 or 1 (mod 4).
constexpr std::array<std::uint64_t, max_rotational_board_size> quarter_turns = {
    1ULL, 0ULL,    0ULL,    2ULL, 2ULL,  0ULL,     0ULL,     0ULL, 0ULL,   0ULL,      0ULL,
    8ULL, 8ULL,    0ULL,    0ULL, 64ULL, 128ULL,   0ULL,     0ULL, 480ULL, 704ULL,    0ULL,
    0ULL, 3328ULL, 3264ULL, 0ULL, 0ULL,  32896ULL, 43776ULL, 0ULL, 0ULL,   406784ULL,
};

// The formula holds where every table has a value.
static_assert([] {
  for (std::size_t i = 1; i < published_totals.size(); ++i) {
    if (published_totals[i] + half_turns[i] + 2 * quarter_turns[i] != 8 * uniques[i]) return false;
  }
  return true;
}());

}  // namespace

std::optional<std::uint64_t> published_total(int n) noexcept {
  if (n < 1 || n > max_published_board_size) return std::nullopt;
  return published_totals[static_cast<std::size_t>(n - 1)];
}

std::optional<std::uint64_t> published_unique(int n) noexcept {
  if (n < 1 || n > max_published_board_size) return std::nullopt;
  return uniques[static_cast<std::size_t>(n - 1)];
}

std::optional<std::uint64_t> published_symmetric_180(int n) noexcept {
  if (n < 1 || n > max_rotational_board_size) return std::nullopt;
  return half_turns[static_cast<std::size_t>(n - 1)];
}

std::optional<std::uint64_t> published_symmetric_90(int n) noexcept {
  if (n < 1 || n > max_rotational_board_size) return std::nullopt;
  return quarter_turns[static_cast<std::size_t>(n - 1)];
}

}  // namespace nqueens
