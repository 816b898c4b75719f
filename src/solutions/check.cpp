#include "nqueens/check.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace nqueens {

check_result check(std::span<const int> columns, std::size_t max_reported) {
  const std::size_t n = columns.size();
  check_result result;
  result.n = n;
  // Scanning rows downwards, the previous queen seen on a line is the one the
  // current queen attacks along it (any earlier one is blocked by it).
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> last_on_column(n, none);
  std::vector<std::size_t> last_on_diagonal(n == 0 ? 0 : 2 * n - 1, none);
  std::vector<std::size_t> last_on_anti_diagonal(n == 0 ? 0 : 2 * n - 1, none);
  std::vector<attack> found;
  for (std::size_t row = 0; row < n; ++row) {
    const int column = columns[row];
    if (column < 0 || static_cast<std::size_t>(column) >= n) {
      throw std::invalid_argument("the queen of row " + std::to_string(row) + " is in column " +
                                  std::to_string(column) + ", outside 0.." + std::to_string(n - 1));
    }
    const auto c = static_cast<std::size_t>(column);
    const auto meet = [&](std::size_t& last, attack_line line) {
      if (last != none) found.push_back({last, row, line});
      last = row;
    };
    meet(last_on_column[c], attack_line::column);
    meet(last_on_diagonal[row + (n - 1) - c], attack_line::diagonal);
    meet(last_on_anti_diagonal[row + c], attack_line::anti_diagonal);
  }
  std::sort(found.begin(), found.end(), [](const attack& a, const attack& b) {
    if (a.first_row != b.first_row) return a.first_row < b.first_row;
    return a.line < b.line;
  });
  result.attack_count = found.size();
  if (found.size() > max_reported) found.resize(max_reported);
  result.attacks = std::move(found);
  return result;
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
  return "line";
}

}  // namespace nqueens
