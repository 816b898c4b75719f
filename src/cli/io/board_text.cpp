#include "cli/io/board_text.hpp"

#include <algorithm>

#include "cli/arguments.hpp"
#include "cli/message_text.hpp"

namespace nqueens::cli {

namespace {

bool is_queen(char c) noexcept { return c == 'Q' || c == 'q'; }

std::string queens_text(std::size_t count) { return count == 0 ? "no queen" : std::to_string(count) + " queens"; }

// Past any board: a run of empty squares that says more is refused as it
// is read, before the sum of runs could overflow.
constexpr std::size_t max_board_width = 1'000'000'000;

}  // namespace

std::string_view trimmed(std::string_view line) noexcept {
  const std::size_t first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return line.substr(first, line.find_last_not_of(" \t") - first + 1);
}

bool looks_like_fen(std::string_view line) noexcept { return line.find('/') != std::string_view::npos; }

bool looks_like_board_row(std::string_view line) noexcept {
  return !line.empty() && (line.front() == '.' || is_queen(line.front()));
}

int board_row_column(std::string_view line, std::size_t row) {
  const std::string_view squares = trimmed(line);
  if (const std::size_t other = squares.find_first_not_of("Qq."); other != std::string_view::npos) {
    throw usage_error("unexpected character '" + character_at(squares, other) + "' in row " + std::to_string(row) +
                      " of the board (expected Q and .)");
  }
  const auto queens = static_cast<std::size_t>(std::count_if(squares.begin(), squares.end(), is_queen));
  if (queens != 1) {
    throw usage_error("row " + std::to_string(row) + " of the board holds " + queens_text(queens) +
                      ": a placement has one queen a row");
  }
  return static_cast<int>(std::find_if(squares.begin(), squares.end(), is_queen) - squares.begin());
}

std::string squares_text(std::size_t count) { return std::to_string(count) + (count == 1 ? " square" : " squares"); }

std::vector<int> parse_fen(std::string_view text) {
  const std::string_view placement = trimmed(text);
  if (const std::size_t space = placement.find_first_of(" \t"); space != std::string_view::npos) {
    const std::string_view rest = trimmed(placement.substr(space));
    throw usage_error("unexpected text after the FEN piece placement: '" + shown_start(rest, 20) +
                      "' (check reads the piece placement alone)");
  }
  std::vector<int> columns;
  std::size_t width = 0;  // row 0's: every row has as many squares
  for (std::size_t start = 0;;) {
    const std::size_t slash = placement.find('/', start);
    const std::string_view rank = placement.substr(start, slash == std::string_view::npos ? slash : slash - start);
    const std::size_t row = columns.size();
    std::size_t squares = 0;
    std::size_t queens = 0;
    std::size_t column = 0;
    for (std::size_t i = 0; i < rank.size(); ++i) {
      if (is_queen(rank[i])) {
        ++queens;
        column = squares++;
        continue;
      }
      if (rank[i] < '1' || rank[i] > '9') {
        throw usage_error("unexpected character '" + character_at(rank, i) + "' in row " + std::to_string(row) +
                          " of the FEN (expected Q and runs of empty squares, 1 or more)");
      }
      // A run of empty squares: several digits where a board is wider than 9.
      std::size_t run = 0;
      for (; i < rank.size() && rank[i] >= '0' && rank[i] <= '9'; ++i) {
        run = run * 10 + static_cast<std::size_t>(rank[i] - '0');
        if (run > max_board_width) throw usage_error("a run of empty squares in the FEN is wider than any board");
      }
      --i;
      squares += run;
      if (squares > max_board_width) throw usage_error("a row of the FEN is wider than any board");
    }
    if (row == 0) width = squares;
    if (squares != width) {
      throw usage_error("row " + std::to_string(row) + " of the FEN has " + squares_text(squares) + ", row 0 has " +
                        std::to_string(width));
    }
    if (queens != 1) {
      throw usage_error("row " + std::to_string(row) + " of the FEN holds " + queens_text(queens) +
                        ": a placement has one queen a row");
    }
    columns.push_back(static_cast<int>(column));
    if (columns.size() > width) {
      throw usage_error("the FEN has more than " + std::to_string(width) + (width == 1 ? " row of " : " rows of ") +
                        squares_text(width) + ": a board has as many rows as columns");
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (columns.size() != width) {
    throw usage_error("the FEN has " + std::to_string(columns.size()) +
                      (columns.size() == 1 ? " row of " : " rows of ") + squares_text(width) +
                      ": a board has as many rows as columns");
  }
  return columns;
}

}  // namespace nqueens::cli
