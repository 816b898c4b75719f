#pragma once

/// \file
/// Checking a placement: one queen per row, at the given column of each row.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nqueens {

/// The line along which two queens meet.
enum class attack_line : std::uint8_t { column, diagonal, anti_diagonal };

/// Two queens that attack each other: nothing stands between them on their
/// shared line (a queen behind another is blocked, as in chess).
struct attack {
  std::size_t first_row = 0;   ///< the queen nearer the top (row 0)
  std::size_t second_row = 0;  ///< the next queen down the same line
  attack_line line = attack_line::column;

  friend bool operator==(const attack&, const attack&) = default;
};

/// What check() found.
struct check_result {
  /// Board size: the number of queens given.
  std::size_t n = 0;
  /// Every attacking pair, ordered by (first_row, line), up to the
  /// `max_reported` passed to check().
  std::vector<attack> attacks{};
  /// Number of attacking pairs, including those not reported.
  std::size_t attack_count = 0;

  /// True when no two queens attack each other.
  bool is_solution() const noexcept { return attack_count == 0; }
};

/// Checks the placement with a queen in column `columns[r]` of row r on an
/// n x n board, n = columns.size(). O(n) time and 5 bits of memory a queen
/// (a bit per line), so it checks n = 1,000,000 in milliseconds and 10^8 in
/// 62 MB beside the placement; finding the reported pairs' second queens
/// scans down their lines. An empty placement is a (trivial) solution.
/// Throws std::invalid_argument when a column lies outside 0..n-1.
check_result check(std::span<const int> columns, std::size_t max_reported = 100);

/// How many placements the 8 symmetries of the board (rotations and
/// reflections) make of `solution`: 8 over those that leave it as it is, so
/// 1, 2, 4 or 8, the class size `list --unique` gives beside each class's
/// smallest member. O(n) time, a bit a queen. Throws std::invalid_argument
/// unless `solution` holds each column 0..n-1 once (as every solution does).
int class_size(std::span<const int> solution);

/// Name of an attack line for messages: "column", "diagonal", "anti-diagonal".
const char* to_string(attack_line line) noexcept;

}  // namespace nqueens
