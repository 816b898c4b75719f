#include "cli/io/placement_lines.hpp"

#include <string>
#include <utility>

#include "cli/arguments.hpp"
#include "cli/io/board_text.hpp"
#include "cli/io/placement_io.hpp"

namespace nqueens::cli {

bool placement_lines::add(std::string_view line, placement_read& out) {
  ++line_number_;
  const std::string_view text = trimmed(line);
  const bool fen = looks_like_fen(text);
  if (!fen && looks_like_board_row(text)) {
    if (board_width_ == 0) {
      board_ = placement_read{};
      board_.first_line = line_number_;
      board_width_ = text.size();
    }
    const std::size_t row = board_.columns.size();
    const int column = board_row_column(text, row);
    if (text.size() != board_width_) {
      throw usage_error("row " + std::to_string(row) + " of the board has " + squares_text(text.size()) +
                        ", row 0 has " + std::to_string(board_width_));
    }
    board_.columns.push_back(column);
    if (board_.columns.size() < board_width_) return false;
    board_.last_line = line_number_;
    board_width_ = 0;
    out = std::move(board_);
    return true;
  }
  if (board_width_ != 0) refuse_unfinished_board();
  if (text.empty()) return false;
  out.first_line = out.last_line = line_number_;
  out.class_size = 0;
  out.columns = fen ? parse_fen(text) : parse_placement(text, &out.class_size, stop_);
  return true;
}

void placement_lines::finish() const {
  if (board_width_ != 0) refuse_unfinished_board();
}

void placement_lines::refuse_unfinished_board() const {
  const std::size_t rows = board_.columns.size();
  throw usage_error("the board " + (name_lines_ ? "drawn from line " + std::to_string(board_.first_line) + " " : "") +
                    "ends after " + std::to_string(rows) + " row" + (rows == 1 ? "" : "s") + " of " +
                    squares_text(board_width_) + ": a board has as many rows as columns");
}

}  // namespace nqueens::cli
