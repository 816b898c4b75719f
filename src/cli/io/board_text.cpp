#include "cli/io/board_text.hpp"

#include <algorithm>
#include <string>

#include "cli/arguments.hpp"
#include "cli/message_text.hpp"

namespace nqueens::cli {

namespace {

bool is_queen(char c) noexcept { return c == 'Q' || c == 'q'; }

std::string_view without_trailing_space(std::string_view line) noexcept {
  const std::size_t end = line.find_last_not_of(" \t");
  return end == std::string_view::npos ? std::string_view() : line.substr(0, end + 1);
}

std::string queens_text(std::size_t count) { return count == 0 ? "no queen" : std::to_string(count) + " queens"; }

}  // namespace

bool is_board_row(std::string_view line) noexcept {
  const std::string_view squares = without_trailing_space(line);
  return !squares.empty() && squares.find_first_not_of("Qq.") == std::string_view::npos;
}

int board_row_column(std::string_view line, std::size_t row) {
  const std::string_view squares = without_trailing_space(line);
  std::size_t queens = 0;
  std::size_t column = 0;
  for (std::size_t c = 0; c < squares.size(); ++c) {
    if (!is_queen(squares[c])) continue;
    ++queens;
    column = c;
  }
  if (queens != 1) {
    throw usage_error("row " + std::to_string(row) + " of the board holds " + queens_text(queens) +
                      ": a placement has one queen a row");
  }
  return static_cast<int>(column);
}

bool looks_like_fen(std::string_view line) noexcept { return line.find('/') != std::string_view::npos; }

std::vector<int> parse_fen(std::string_view text) {
  const std::string_view placement =
      without_trailing_space(text.substr(std::min(text.find_first_not_of(" \t"), text.size())));
  std::vector<int> columns;
  std::size_t width = 0;  // of the first rank: every rank has as many squares
  std::size_t i = 0;
  while (i <= placement.size()) {
    const std::size_t rank = columns.size();
    std::size_t squares = 0;
    std::size_t queens = 0;
    int column = 0;
    for (; i < placement.size() && placement[i] != '/'; ++i) {
      const char c = placement[i];
      if (c >= '1' && c <= '9') {
        std::size_t run = 0;
        for (; i < placement.size() && placement[i] >= '0' && placement[i] <= '9'; ++i) {
          run = run * 10 + static_cast<std::size_t>(placement[i] - '0');
          if (run > 1'000'000'000) throw usage_error("a run of empty squares in the FEN is too long");
        }
        --i;
        squares += run;
      } else if (is_queen(c)) {
        ++queens;
        column = static_cast<int>(squares);
        ++squares;
      } else if (c == ' ' || c == '\t') {
        throw usage_error("unexpected text after the FEN piece placement: '" + printable(placement.substr(i + 1, 20)) +
                          (placement.size() - i > 21 ? "...'" : "'") + " (check reads the piece placement alone)");
      } else {
        throw usage_error("unexpected character '" + printable(placement.substr(i, 1)) + "' in row " +
                          std::to_string(rank) + " of the FEN (expected Q and digits)");
      }
    }
    if (rank == 0) width = squares;
    if (squares != width) {
      throw usage_error("row " + std::to_string(rank) + " of the FEN has " + std::to_string(squares) +
                        " squares, row 0 has " + std::to_string(width));
    }
    if (queens != 1) {
      throw usage_error("row " + std::to_string(rank) + " of the FEN holds " + queens_text(queens) +
                        ": a placement has one queen a row");
    }
    columns.push_back(column);
    if (columns.size() > width) break;
    ++i;  // past the '/', or the end
  }
  if (columns.size() != width) {
    throw usage_error("the FEN has " + std::string(columns.size() > width ? "more than " : "") +
                      std::to_string(std::min(columns.size(), width)) + " rows of " + std::to_string(width) +
                      " squares: a board has as many rows as columns");
  }
  return columns;
}

}  // namespace nqueens::cli
