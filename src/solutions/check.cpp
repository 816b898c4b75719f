#include "nqueens/check.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/symmetry.hpp"

namespace nqueens {
namespace {

// The index of `line` through (row, column) among lines of its kind.
std::size_t line_index(attack_line line, std::size_t n, std::size_t row, std::size_t column) {
  switch (line) {
    case attack_line::column:
      return column;
    case attack_line::diagonal:
      return row + (n - 1) - column;
    case attack_line::anti_diagonal:
      break;
  }
  return row + column;
}

// One bit per column, diagonal and anti-diagonal: 5 bits a queen, so that a
// placement of 10^8 queens is checked in 62 MB (`first 100000000 | check`).
class line_bits {
 public:
  explicit line_bits(std::size_t n)
      : n_(n), columns_(words(n)), diagonals_(words(2 * n)), anti_diagonals_(words(2 * n)) {}

  /// Marks the lines of the queen at (row, column); returns, for each line
  /// (column, diagonal, anti-diagonal), whether it was marked already.
  std::array<bool, 3> mark(std::size_t row, std::size_t column) {
    return {test_and_set(columns_, line_index(attack_line::column, n_, row, column)),
            test_and_set(diagonals_, line_index(attack_line::diagonal, n_, row, column)),
            test_and_set(anti_diagonals_, line_index(attack_line::anti_diagonal, n_, row, column))};
  }

 private:
  static std::vector<std::uint64_t> words(std::size_t bits) { return std::vector<std::uint64_t>((bits + 63) / 64); }
  static bool test_and_set(std::vector<std::uint64_t>& bits, std::size_t at) {
    const std::uint64_t mask = std::uint64_t{1} << (at % 64);
    const bool was = (bits[at / 64] & mask) != 0;
    bits[at / 64] |= mask;
    return was;
  }

  std::size_t n_;
  std::vector<std::uint64_t> columns_, diagonals_, anti_diagonals_;
};

}  // namespace

check_result check(std::span<const int> columns, std::size_t max_reported) {
  const std::size_t n = columns.size();
  check_result result;
  result.n = n;
  for (std::size_t row = 0; row < n; ++row) {
    const int column = columns[row];
    if (column < 0 || static_cast<std::size_t>(column) >= n) {
      // Column n is where a placement counted from 1 goes past the board.
      throw std::invalid_argument("the queen of row " + std::to_string(row) + " is in column " +
                                  std::to_string(column) + ", outside 0.." + std::to_string(n - 1) +
                                  (static_cast<std::size_t>(column) == n ? " (columns are counted from 0)" : ""));
    }
  }
  // Each queen after the first on a line attacks the one before it (any
  // earlier one is blocked by it): the pairs are the queens that find their
  // line taken.
  {
    line_bits seen(n);
    for (std::size_t row = 0; row < n; ++row) {
      for (const bool taken : seen.mark(row, static_cast<std::size_t>(columns[row]))) result.attack_count += taken;
    }
  }
  if (result.attack_count == 0 || max_reported == 0) return result;
  // The pairs with the smallest first rows: scanning upwards, a queen whose
  // line is taken below it starts a pair; the last max_reported found, in
  // (row, line) order, are the ones to report.
  std::deque<attack> first;
  {
    line_bits below(n);
    for (std::size_t row = n; row-- > 0;) {
      const std::array<bool, 3> taken = below.mark(row, static_cast<std::size_t>(columns[row]));
      for (int line = 2; line >= 0; --line) {
        if (!taken[static_cast<std::size_t>(line)]) continue;
        first.push_front({row, row, static_cast<attack_line>(line)});
        if (first.size() > max_reported) first.pop_back();
      }
    }
  }
  // Each pair's second queen: the next one down its line.
  for (attack& a : first) {
    const std::size_t line = line_index(a.line, n, a.first_row, static_cast<std::size_t>(columns[a.first_row]));
    std::size_t row = a.first_row + 1;
    while (line_index(a.line, n, row, static_cast<std::size_t>(columns[row])) != line) ++row;
    a.second_row = row;
  }
  result.attacks.assign(first.begin(), first.end());
  return result;
}

int class_size(std::span<const int> solution) {
  const int n = static_cast<int>(solution.size());
  if (solution.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument("class_size: more queens than an int counts");
  }
  std::vector<bool> taken(solution.size());
  for (std::size_t row = 0; row < solution.size(); ++row) {
    const int column = solution[row];
    if (column < 0 || column >= n || taken[static_cast<std::size_t>(column)]) {
      throw std::invalid_argument("class_size: row " + std::to_string(row) + "'s column " + std::to_string(column) +
                                  " is outside 0.." + std::to_string(n - 1) + " or another row's");
    }
    taken[static_cast<std::size_t>(column)] = true;
  }
  // A symmetry leaves the placement as it is where it takes every queen to
  // a queen (a permutation has no room for another).
  int unchanged = 0;
  for (int g = 0; g < detail::symmetry_count; ++g) {
    bool same = true;
    for (int row = 0; row < n && same; ++row) {
      const detail::square image =
          detail::apply(static_cast<detail::symmetry>(g), n, {row, solution[static_cast<std::size_t>(row)]});
      same = solution[static_cast<std::size_t>(image.row)] == image.col;
    }
    unchanged += same ? 1 : 0;
  }
  return detail::symmetry_count / unchanged;
}

const char* to_string(attack_line line) noexcept {
  switch (line) {
    case attack_line::column:
      return "column";
    case attack_line::diagonal:
      return "diagonal";
    case attack_line::anti_diagonal:
      return "anti-diagonal";
  }
  return "unknown";  // as every to_string of a value outside its enumeration
}

}  // namespace nqueens
